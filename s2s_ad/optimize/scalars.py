"""Scalar specialisation of gradients with loops: no shape bookkeeping for plain numbers.

The general backward sweep works for arrays of any shape, so in a loop it tapes the
shapes of values it later reads only for their shape and calls `unbroadcast` on every
adjoint of a broadcasting operation. When every argument is a Python number, all of
that is a no-op costing a function call each, a dozen per iteration of a scalar
recurrence. This pass finds the values that are plain numbers whenever the arguments
are (numbers, arithmetic and `math`/ufunc calls on numbers, range counters), and adds
a copy of the body, guarded by a check of the arguments' types, without that
bookkeeping:

    def grad_f(a, x0, n):                          def grad_f(a, x0, n):
        ...                                            if type(a) in (float, int) and ...:
        for _ in t1_0:                                     ...
            _tape.append(shape_of(t1_1))     ->            for _ in t1_0:
            t1_1 = x * a                                       t1_1 = x * a
        ...                                                ...
            g = unbroadcast(x_bar, t1_1)                       g = x_bar
            t1_1 = placeholder(_tape.pop())                return ...
                                                           ...the general body, unchanged

Every removal is justified by the analysis: `unbroadcast(g, x)` is `g` when both are
numbers, a shape taped for a number is `()`, and a value restored only to be read for
its shape is no longer read once those reads are gone. Any argument of another type
(an array, a list, an np.float64) takes the general body.
"""
import copy
import math

import gast
import numpy

from ..ir import build
from ..ir.naming import callee, calls, output_check_call
from ..ir.walk import all_statements, walk_tree
from .. import runtime, runtime_checks
from .shape_tape import drop_unread_shape_tape

_NUMBER_BUILTINS = {abs, float, int, min, max, round, pow, bool}
_NUMBER_TYPES = ("float", "int", "bool")


def specialise_for_scalars(body, params, resolve):
    """`body` preceded by `if <all params are numbers>: <scalar body>` when that removes
    shape bookkeeping from a loop; else `body` unchanged. `resolve(name)` gives the
    object a free name of the generated code denotes."""
    if not params or not any(isinstance(s, (gast.For, gast.While)) for s in all_statements(body)):
        return body
    numbers = _number_names(body, set(params), resolve)
    scalar = copy.deepcopy(body)
    _strip_bookkeeping(scalar, numbers, resolve)
    if _bookkeeping_in_loops(scalar, resolve) == _bookkeeping_in_loops(body, resolve):
        return body                     # nothing a loop repeats got cheaper: one body
    checks = [gast.Compare(left=build.call(build.name("type"), [build.name(p)]),
                           ops=[gast.In()],
                           comparators=[build.tuple_([build.name(t) for t in _NUMBER_TYPES])])
              for p in params]
    test = checks[0] if len(checks) == 1 else gast.BoolOp(op=gast.And(), values=checks)
    comment = build.comment("all arguments are Python numbers: no shape bookkeeping")
    return [gast.If(test=test, body=[comment] + scalar, orelse=[]), build.blank_line()] + body


# ---- which names hold plain numbers ----------------------------------------------------------
def _number_names(body, params, resolve):
    """Names that hold numbers whenever the params do: the greatest set closed under the
    rules of `_is_number` (a loop-carried `x = x * a` is a number if its start is)."""
    defs = {}
    for stmt in all_statements(body):
        if isinstance(stmt, gast.Assign):
            for target in stmt.targets:
                for node in walk_tree(target):
                    if isinstance(node, gast.Name):
                        plain = isinstance(target, gast.Name)
                        defs.setdefault(node.id, []).append(stmt.value if plain else None)
        elif isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
            defs.setdefault(stmt.target.id, []).append(
                gast.BinOp(left=stmt.target, op=stmt.op, right=stmt.value))
        elif isinstance(stmt, gast.For):
            for node in walk_tree(stmt.target):
                if isinstance(node, gast.Name):
                    counter = isinstance(stmt.target, gast.Name) and _counts(stmt.iter, defs)
                    defs.setdefault(node.id, []).append(_COUNTER if counter else None)
    for name in params:                      # the entry value; a reassignment counts too
        defs.setdefault(name, []).append(_COUNTER)
    for name, values in list(defs.items()):  # `t1_0 = x0, 0.0` then `x = t1_0[0]`
        if values and all(isinstance(v, gast.Tuple) for v in values):
            for k in range(min(len(v.elts) for v in values)):
                defs[(name, k)] = [v.elts[k] for v in values]
    numbers = set(defs)
    while True:
        kept = {name for name in numbers if _all_numbers(defs[name], numbers, resolve)}
        if kept == numbers:
            return numbers
        numbers = kept


_COUNTER = gast.Constant(value=0, kind=None)     # an int: a range() counter, an argument


def _counts(iterable, defs):
    """`for i in t1_0` / `t1_0[::-1]` where t1_0 = range(...): i is an int."""
    if isinstance(iterable, gast.Subscript) and isinstance(iterable.slice, gast.Slice):
        iterable = iterable.value
    if isinstance(iterable, gast.Call):
        return isinstance(iterable.func, gast.Name) and iterable.func.id == "range"
    if isinstance(iterable, gast.Name):
        values = defs.get(iterable.id, [])
        return bool(values) and all(v is not None and _counts(v, {}) for v in values)
    return False


def _all_numbers(values, numbers, resolve):
    real = [v for v in values if not _neutral(v, resolve)]
    return bool(real) and all(v is not None and _is_number(v, numbers, resolve) for v in real)


def _neutral(value, resolve):
    """Definitions that say nothing about the kind of value: the `v = None` before a loop
    and the restores from the tape (they bring back the variable's own earlier value)."""
    if isinstance(value, gast.Constant) and value.value is None:
        return True
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
            and value.func.attr == "pop":
        return True
    return calls(value, runtime.placeholder, resolve)


def _is_number(node, numbers, resolve):
    def number(n):
        return _is_number(n, numbers, resolve)

    if isinstance(node, gast.Constant):
        return type(node.value) in (int, float, bool)
    if isinstance(node, gast.Name):
        return node.id in numbers
    if isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name) \
            and isinstance(node.slice, gast.Constant) and type(node.slice.value) is int:
        return (node.value.id, node.slice.value) in numbers      # an item of a tuple
    if isinstance(node, gast.BinOp):
        return not isinstance(node.op, gast.MatMult) and number(node.left) and number(node.right)
    if isinstance(node, gast.UnaryOp):
        return number(node.operand)
    if isinstance(node, (gast.Compare, gast.BoolOp)):
        parts = [node.left] + node.comparators if isinstance(node, gast.Compare) else node.values
        return all(number(p) for p in parts)
    if isinstance(node, gast.IfExp):
        return number(node.body) and number(node.orelse)
    if isinstance(node, gast.Call) and not node.keywords:
        function = callee(node.func, resolve)
        if function is runtime.reduced_count:
            return True
        if function in (runtime.unbroadcast, runtime.unreduce) or _numeric(function):
            return bool(node.args) and all(number(a) for a in node.args[:2])
    return False


def _numeric(function):
    """Functions that map numbers to numbers: math's, numpy's ufuncs, a few builtins."""
    if isinstance(function, numpy.ufunc):
        return True
    if getattr(function, "__module__", None) == "math" or getattr(math, getattr(
            function, "__name__", ""), None) is function:
        return callable(function)
    try:
        return function in _NUMBER_BUILTINS
    except TypeError:
        return False


# ---- removing the bookkeeping ----------------------------------------------------------------
def _bookkeeping_in_loops(body, resolve):
    """How many unbroadcast / shape_of / placeholder calls the loops of `body` make."""
    helpers = (runtime.unbroadcast, runtime.shape_of, runtime.placeholder)
    return sum(1 for loop in all_statements(body) if isinstance(loop, (gast.For, gast.While))
               for stmt in loop.body + loop.orelse for node in walk_tree(stmt)
               if isinstance(node, gast.Call) and callee(node.func, resolve) in helpers)


def _strip_bookkeeping(body, numbers, resolve):
    """Rewrite `body` in place; True when something was removed."""
    changed = False

    def trivial(node):
        return isinstance(node, gast.expr) and _unbroadcast_of_numbers(node, numbers, resolve)

    for stmt in all_statements(body):
        for node in walk_tree(stmt):
            for field, value in gast.iter_fields(node):
                if trivial(value):
                    setattr(node, field, value.args[0])
                    changed = True
                elif isinstance(value, list):
                    for k, item in enumerate(value):
                        if trivial(item):
                            value[k] = item.args[0]
                            changed = True
    changed |= _drop_output_checks(body, numbers, resolve)
    return drop_unread_shape_tape(body, resolve, only=numbers) or changed


def _drop_output_checks(body, numbers, resolve):
    """`if ...: check_scalar_output(v, w)` for numbers v, w: the output is a number; and
    `check_broadcast(v, w)` (analyses/raising.py): numbers always broadcast."""
    def is_check(stmt):
        call = output_check_call(stmt, resolve)
        if call is None and isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
                and callee(stmt.value.func, resolve) is runtime_checks.check_broadcast:
            call = stmt.value
        return call is not None and all(_is_number(a, numbers, resolve) for a in call.args)

    kept = [stmt for stmt in body if not is_check(stmt)]
    dropped = len(kept) != len(body)
    body[:] = kept
    return dropped


def _unbroadcast_of_numbers(node, numbers, resolve):
    return isinstance(node, gast.Call) and len(node.args) == 2 and not node.keywords \
        and callee(node.func, resolve) is runtime.unbroadcast \
        and all(_is_number(a, numbers, resolve) for a in node.args)
