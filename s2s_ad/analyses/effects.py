"""Can a call of one of the user's functions change its arguments? For helpers called for
their effect, with the result unused (a log, print or plot call).

    def log(step, loss):                     ->  writes_no_argument(log) is True
        print(f"{step}: {loss:.3f}")
    def clip_(w):                            ->  writes_no_argument(clip_) is False
        w[w > 1] = 1.0

`warnings.warn`, the `logging` functions and a Logger's log methods are known not to.
Others are read from the function's source only, conservatively: an index, attribute or augmented
assignment, a method call on a parameter (or on a name holding one), a call with `out=`,
one of numpy's writing functions, or a helper that may itself write (three calls deep)
make the answer False. A function whose source cannot be read is assumed to write.
"""
import logging
import warnings

import gast
import numpy as np

from ..frontend.parse import parse
from ..frontend.star_params import source_function
from ..ir.build import dotted_path
from ..ir.walk import walk_tree

# numpy functions that write into an argument
_WRITERS = frozenset(id(f) for f in (np.copyto, np.put, np.place, np.putmask,
                                     np.fill_diagonal, np.put_along_axis))


# the standard library's log and warning calls: they format their arguments and write
# them to a stream (their source reaches handlers through methods of `self`, which the
# reading below cannot follow)
_LOG_METHODS = frozenset(id(getattr(logging.Logger, name)) for name in (
    "debug", "info", "warning", "error", "exception", "critical", "log"))
_LOG_FUNCTIONS = frozenset(id(f) for f in (
    warnings.warn, logging.debug, logging.info, logging.warning, logging.error,
    logging.exception, logging.critical, logging.log))


def writes_no_argument(function, depth=0):
    """True when calling `function` certainly leaves its arguments unchanged."""
    function = source_function(function)      # logging.info(msg, *args): its adapter
    if id(function) in _LOG_FUNCTIONS \
            or id(source_function(getattr(function, "__func__", None))) in _LOG_METHODS:
        return True
    if depth > 3 or getattr(function, "__code__", None) is None:
        return False
    try:
        parsed = parse(function)
    except Exception:
        return False
    tree = parsed.tree
    scope = dict(function.__globals__)
    scope.update(zip(function.__code__.co_freevars,
                     [c.cell_contents for c in function.__closure__ or ()]))
    params = {a.id for a in tree.args.posonlyargs + tree.args.args + tree.args.kwonlyargs}
    if tree.args.vararg is not None:
        params.add(tree.args.vararg.id)
    locals_ = {n.id for n in walk_tree(tree) if isinstance(n, gast.Name)
               and isinstance(n.ctx, gast.Store)} | params
    for node in walk_tree(tree):
        if isinstance(node, gast.AugAssign) or isinstance(node, (gast.Subscript, gast.Attribute)) \
                and isinstance(node.ctx, gast.Store):
            return False
        if not isinstance(node, gast.Call):
            continue
        if any(k.arg == "out" for k in node.keywords):
            return False
        path = dotted_path(node.func)
        if path is None:
            return False
        head = path.split(".")[0]
        if head in locals_:
            if "." in path:
                return False            # a method of a value: it may change that value
            continue
        callee = _lookup(scope, path)
        if id(callee) in _WRITERS or isinstance(callee, np.ufunc) and path.endswith(".at"):
            return False
        if getattr(callee, "__code__", None) is not None and callee is not function \
                and not writes_no_argument(callee, depth + 1):
            return False
    return True


def _lookup(scope, path):
    import builtins
    head, *rest = path.split(".")
    obj = scope.get(head, getattr(builtins, head, None))
    for attr in rest:
        obj = getattr(obj, attr, None)
    return obj
