"""Stage 3, fence: reject what s2s_ad cannot differentiate yet, with a located error.

    >>> fence(parse(f))     # def f(x): while x > 1: x = x / 2 ...
    UnsupportedSyntaxError: `while` loops are not supported yet
      File "model.py", line 3, col 5, in f
        while x > 1:
        ^^^^^
    Write instead: ...

Returns the tree unchanged when everything in it is supported.
"""
import gast
import numpy as np

from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from ..errors import UnsupportedSyntaxError
from .assignment_expressions import check_assignment_expressions

# node type -> (what it is, what to write instead)
_UNSUPPORTED = {
    gast.AsyncWith: ("`async with` cannot be differentiated", "use a plain function"),
    gast.AsyncFor: ("`async for` cannot be differentiated", "use a plain function"),
    gast.AsyncFunctionDef: ("async functions cannot be differentiated", "use a plain def"),
    gast.Await: ("`await` cannot be differentiated", "use a plain function"),
    gast.Yield: ("generators (`yield`) cannot be differentiated", "return a value"),
    gast.YieldFrom: ("generators (`yield from`) cannot be differentiated", "return a value"),
    gast.Global: ("`global` statements cannot be differentiated",
                  "pass the value in as an argument and return the new value"),
    gast.Nonlocal: ("`nonlocal` statements cannot be differentiated",
                    "pass the value in as an argument and return the new value"),
    gast.ClassDef: ("class definitions inside a differentiated function are not supported",
                    "define the class at module level"),
    gast.SetComp: ("set comprehensions cannot be differentiated", "use numpy arrays"),
    gast.Delete: ("`del` is not supported in a differentiated function", "remove the del"),
    gast.Starred: ("a starred item in a list, tuple or set display is not supported",
                   "concatenate instead: list(a) + [x]"),
    gast.Set: ("set literals cannot be differentiated", "use a tuple or an array"),
    gast.Match: ("`match` statements are not supported", "use np.where"),
    gast.Import: ("imports inside a differentiated function are not supported",
                  "import at module level"),
    gast.ImportFrom: ("imports inside a differentiated function are not supported",
                      "import at module level"),
}


# builtins that read (or write) variables by their names as strings: the derivative renames
# and adds variables, and follows values only through the names the code spells out
_BY_NAME = {
    "eval": "`eval` runs code s2s_ad cannot see",
    "exec": "`exec` runs code s2s_ad cannot see",
    "locals": "`locals()` reads variables by name",
    "globals": "`globals()` reads variables by name",
    "vars": "`vars()` reads variables by name",
}
_ATTRIBUTES_BY_NAME = ("getattr", "setattr", "delattr")


def _piecewise_lambdas(nodes, resolution):
    """Lambdas written in np.piecewise's list of functions (normalize applies them to the
    elements they cover: transforms/array_syntax.py). `nodes`: the tree's, walked."""
    found = set()
    if resolution is None:
        return found
    for node in nodes:
        if not isinstance(node, gast.Call):
            continue
        path = dotted_path(node.func)
        if path is None or resolution.is_value(path.split(".")[0]) \
                or not resolution.has(path) or resolution.lookup(path) is not np.piecewise:
            continue
        funclist = node.args[2] if len(node.args) > 2 else next(
            (k.value for k in node.keywords if k.arg == "funclist"), None)
        if isinstance(funclist, (gast.List, gast.Tuple)):
            found |= {id(item) for item in funclist.elts if isinstance(item, gast.Lambda)}
    return found


def fence(parsed, extra_allowed=(), resolution=None):
    """`resolution` (stage 2's table) tells which names are Python's builtins, so that
    eval, locals, getattr with a computed name ... are rejected only when they are."""
    tree = parsed.tree
    smap = parsed.source_map
    # every check below reads the same nodes and writes none: one walk for all of them
    # (each walking the tree again was most of what this stage cost)
    nodes = list(walk_tree(tree))
    _check_signature(tree, smap)
    if resolution is not None:
        _check_reads_by_name(nodes, smap, resolution)
    named_lambdas = {id(n.value) for n in nodes if isinstance(n, gast.Assign)
                     and isinstance(n.value, gast.Lambda) and len(n.targets) == 1
                     and isinstance(n.targets[0], gast.Name)}
    named_lambdas |= _piecewise_lambdas(nodes, resolution)
    named_lambdas |= _applied_lambdas(nodes, resolution)
    named_lambdas |= _lambdas_given_to_defs(tree, nodes, resolution)
    named_lambdas |= _lambdas_given_to_transforms(nodes, resolution)
    allowed_stars = _allowed_stars(nodes)
    # (not a display's star: an assignment's one, which is supported, would be the fix)
    loop_stars = {id(e) for n in nodes if isinstance(n, (gast.For, gast.comprehension))
                  and isinstance(n.target, (gast.Tuple, gast.List))
                  for e in n.target.elts if isinstance(e, gast.Starred)}
    # `except E: raise` (the handler's one statement) lets the exception leave
    reraising = {id(h.body[0]) for h in nodes if isinstance(h, gast.ExceptHandler)
                 and len(h.body) == 1 and isinstance(h.body[0], gast.Raise)}
    _check_undone_tape(tree, nodes, smap, parsed.func)
    check_assignment_expressions(tree, smap, nodes)
    for stmt in tree.body:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Lambda) and id(node) not in named_lambdas:
                raise UnsupportedSyntaxError(
                    "a lambda is supported when assigned to a name and then called, passed "
                    "to a def of yours, mapped (`map(lambda v: ..., xs)`), folded "
                    "(`functools.reduce(lambda a, v: ..., xs)`) or given as `key=` of "
                    "sorted / max / min",
                    smap.locate(node), "write `g = lambda x: ...` and call g(...)")
            if isinstance(node, gast.Raise) and node.exc is None \
                    and id(node) not in reraising:
                raise UnsupportedSyntaxError(
                    "a bare `raise` re-raises the exception being handled; a "
                    "differentiated function keeps it only as the one statement of an "
                    "`except` clause", smap.locate(node),
                    "raise an exception: `raise ValueError(...)`")
            if isinstance(node, gast.Try):
                _check_finally(node, smap)
            kind = type(node)
            if kind in extra_allowed or id(node) in allowed_stars:
                continue
            if kind in (gast.Import, gast.ImportFrom) and resolution is not None:
                continue     # the names it binds are facts of the derivative (resolve.py)
            if id(node) in loop_stars:
                raise UnsupportedSyntaxError(
                    "a starred name in a loop's target (`for a, *rest in records`) is not "
                    "supported", smap.locate(node),
                    "unpack in the loop's body: `for record in records:` then "
                    "`a, *rest = record` (a comprehension: write the loop)")
            if kind in _UNSUPPORTED:
                message, hint = _UNSUPPORTED[kind]
                raise UnsupportedSyntaxError(message, smap.locate(node), hint)
            if isinstance(node, gast.Constant) and isinstance(node.value, complex):
                # the templates are those of real functions: a complex value would get
                # a complex, wrong gradient
                raise UnsupportedSyntaxError(
                    "complex numbers are not supported: s2s_ad differentiates real-valued "
                    "functions", smap.locate(node),
                    "write the real and imaginary parts as two real arrays")
            if isinstance(node, (gast.Assign, gast.AugAssign, gast.AnnAssign)):
                targets = node.targets if isinstance(node, gast.Assign) else [node.target]
                for target in targets:
                    _check_target(target, smap)
    return tree


def _check_reads_by_name(nodes, smap, resolution):
    """eval, exec, locals, globals, vars, and getattr / setattr / delattr with a computed
    attribute name on a value of the function: what they read cannot be followed.
    `nodes`: the tree's, walked."""
    import builtins
    for node in nodes:
        if not isinstance(node, gast.Call) or not isinstance(node.func, gast.Name):
            continue
        name = node.func.id
        if resolution.is_value(name) or resolution.lookup(name) is not getattr(
                builtins, name, None):
            continue                      # the user's own function of that name
        if name in _BY_NAME:
            raise UnsupportedSyntaxError(
                f"{_BY_NAME[name]}, and s2s_ad differentiates only what the code spells "
                f"out (a derivative of it would silently miss what it reads)",
                smap.locate(node), "write the expression itself, naming the variables")
        if name in _ATTRIBUTES_BY_NAME and len(node.args) >= 2 \
                and not isinstance(node.args[1], gast.Constant) \
                and any(isinstance(n, gast.Name) and resolution.is_value(n.id)
                        for n in walk_tree(node.args[0])):
            raise UnsupportedSyntaxError(
                f"`{name}` with a computed attribute name on a value of the function: "
                f"s2s_ad cannot tell what it reads", smap.locate(node),
                "write the attribute out (`x.T`, `x.sum()`), or choose with if/else")


def _check_target(target, smap):
    if isinstance(target, gast.Name):
        return
    if isinstance(target, (gast.Tuple, gast.List)):
        for elt in target.elts:
            _check_target(elt.value if isinstance(elt, gast.Starred) else elt, smap)
        if sum(isinstance(elt, gast.Starred) for elt in target.elts) > 1:
            raise UnsupportedSyntaxError("two starred names in one assignment",
                                         smap.locate(target), "star at most one name")
        return
    if isinstance(target, gast.Subscript):
        base = target.value
        while isinstance(base, gast.Subscript):     # A[i][j] = v (transforms/mutation.py)
            base = base.value
        if not isinstance(base, gast.Name):
            raise UnsupportedSyntaxError(
                "only writes into a named array (`y[i] = ...`) are supported",
                smap.locate(target), "assign the array to a name first")
        return
    if isinstance(target, gast.Attribute):
        base = target.value
        while isinstance(base, gast.Attribute):     # self.bn.count += 1
            base = base.value
        if isinstance(base, gast.Name):
            return      # a state update (analyses/state_updates.py refuses a read-back)
        raise UnsupportedSyntaxError(
            "assigning to an attribute of a computed value cannot be differentiated",
            smap.locate(target), "name the object first: `m = ...; m.n = v`")
    raise UnsupportedSyntaxError("this assignment target is not supported",
                                 smap.locate(target), "assign to a plain name")


def _check_signature(tree, smap):
    a = tree.args
    if a.vararg is not None:
        raise UnsupportedSyntaxError(
            "a `*args` parameter is differentiated for a given number of items, which "
            "only a call tells", smap.locate(a.vararg),
            "call s2s_ad.grad / jvp / vjp / hvp of the function (one derivative per number "
            "of items), or name each parameter")
    if a.kwarg is not None:
        raise UnsupportedSyntaxError(
            "a `**kwargs` parameter is differentiated for the keywords a call gives, which "
            "only a call tells", smap.locate(a.kwarg),
            "call s2s_ad.grad / jvp / vjp / hvp of the function (one derivative per set of "
            "keywords), or name each parameter")


# builtins that call the function they are given on items (its lambda is substituted
# into a comprehension by transforms/python_calls.py)
_APPLYING = {"map": ("args", 0), "sorted": ("key", None), "max": ("key", None),
             "min": ("key", None)}


def _applied_lambdas(nodes, resolution):
    """Lambdas passed to map (first argument) or as `key=` of sorted / max / min, among
    `nodes` (the tree's, walked)."""
    import builtins
    import functools
    found = set()
    for node in nodes:
        if isinstance(node, gast.Call) and node.args and resolution is not None \
                and _names(resolution, node.func, functools.reduce):
            found.add(id(node.args[0]))       # functools.reduce(lambda a, v: ..., xs)
        if not isinstance(node, gast.Call) or not isinstance(node.func, gast.Name) \
                or node.func.id not in _APPLYING:
            continue
        name = node.func.id
        if resolution is not None and (resolution.is_value(name) or resolution.lookup(
                name) is not getattr(builtins, name)):
            continue
        where, position = _APPLYING[name]
        if where == "args" and len(node.args) > position:
            found.add(id(node.args[position]))
        found |= {id(k.value) for k in node.keywords if k.arg == where}
    return found


def _lambdas_given_to_transforms(nodes, resolution):
    """Lambdas differentiated where they are written, `s2s_ad.grad(lambda y: ...)(x)`
    (any derivative maker of s2s_ad, called at once): transforms/lifted.py makes them
    module-level functions, as it does nested defs given to one."""
    found = set()
    for node in nodes:
        if resolution is None or not isinstance(node, gast.Call) \
                or not isinstance(node.func, gast.Call):
            continue
        maker = node.func
        if len(maker.args) != 1 or not isinstance(maker.args[0], gast.Lambda):
            continue
        path = dotted_path(maker.func)
        if path is None or resolution.is_value(path.split(".")[0]) or not resolution.has(path):
            continue
        if getattr(resolution.lookup(path), "__module__", None) in (
                "s2s_ad.api", "s2s_ad.higher_order"):
            found.add(id(maker.args[0]))
    return found


def _names(resolution, func, target):
    """Does the callee `func` (a name or dotted path of f's module) name `target`?"""
    path = dotted_path(func)
    if path is None or resolution.is_value(path.split(".")[0]):
        return False
    try:
        return resolution.lookup(path) is target
    except Exception:       # (a path the module does not define: not this one)
        return False


def _lambdas_given_to_defs(tree, nodes, resolution):
    """Lambdas passed as arguments to a def of the user's (module-level or nested in f):
    normalize inlines that def into f (transforms/helper_inline.py). `nodes`: the tree's,
    walked."""
    import inspect
    nested = {n.name for n in nodes if isinstance(n, gast.FunctionDef) and n is not tree}
    found = set()
    for node in nodes:
        if not isinstance(node, gast.Call):
            continue
        path = dotted_path(node.func)
        if path is None:
            continue
        if path not in nested:
            if resolution is None or resolution.is_value(path.split(".")[0]):
                continue
            target = resolution.lookup(path)
            if not inspect.isfunction(target) or (getattr(target, "__module__", None) or "") \
                    .startswith(("numpy", "scipy", "s2s_ad", "math")):
                continue
        found |= {id(a) for a in list(node.args) + [k.value for k in node.keywords]
                  if isinstance(a, gast.Lambda)}
    return found


def _allowed_stars(nodes):
    """Starred names in assignment targets (`first, *rest = xs`) and starred call
    arguments (`f(*xs)`) among `nodes` (the tree's, walked): normalize lowers them to
    indexing."""
    found = set()
    for node in nodes:
        if isinstance(node, gast.Assign):
            for target in node.targets:
                if isinstance(target, (gast.Tuple, gast.List)):
                    found |= {id(e) for e in target.elts if isinstance(e, gast.Starred)}
        elif isinstance(node, gast.Call):
            found |= {id(a) for a in node.args if isinstance(a, gast.Starred)}
    return found


def _check_undone_tape(tree, nodes, smap, func):
    """A derivative s2s_ad wrote, differentiated again (hvp, hessian, grad of grad), whose
    `try` takes back the tape when the body raises (backend/fallbacks.py). `nodes`: the
    tree's, walked; `func`: the derivative, whose user's function's `try` is located."""
    function = tree.body[0] if isinstance(tree, gast.Module) and tree.body else tree
    doc = function.body[0] if isinstance(function, gast.FunctionDef) else None
    if not (isinstance(doc, gast.Expr) and isinstance(doc.value, gast.Constant)
            and str(doc.value.value).endswith("Generated by s2s_ad.")):
        return
    for node in nodes:
        if isinstance(node, gast.Try) and _is_fallback_try(node):
            raise UnsupportedSyntaxError(
                "second derivatives (hvp, hessian, grad of grad) through a `try` whose "
                "handler computes a fallback are not supported: the gradient's `try` takes "
                "back its tape when the body raises",
                _users_handler(func) or smap.locate(node.handlers[0]),
                "take first derivatives of it only, or pick the path with an `if` on a test")


def _users_handler(derivative):
    """Where the first `except` computing a fallback is in the user's function the
    derivative was built from (None when that is not known): the user's line, not the
    generated file's."""
    from ..derivative_registry import CACHE, derived_record
    from .parse import parse
    # (the twin without in-place operations, which is what is differentiated, is known
    # to the cache only)
    record = CACHE.derived_of(derivative) or derived_record(derivative)
    if record is None or record.func is None:
        return None
    parsed = parse(record.func)
    for node in walk_tree(parsed.tree):
        if isinstance(node, gast.Try):
            handler = next((h for h in node.handlers
                            if not (h.body and isinstance(h.body[-1], gast.Raise))), None)
            if handler is not None:
                return parsed.source_map.locate(handler)
    return None


def _is_fallback_try(node):
    """Is this `try` one backend/fallbacks.py wrote: each handler ends with `completed =
    False` (after taking back the tape, when the body saved anything), its `else` is
    `completed = True`?"""
    def sets(stmt, value):
        return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
            and isinstance(stmt.value, gast.Constant) and stmt.value.value is value
    return len(node.orelse) == 1 and sets(node.orelse[0], True) and node.handlers \
        and all(h.body and sets(h.body[-1], False) for h in node.handlers)


def _check_finally(node, smap):
    """A `return`, `break` or `continue` in a `finally` block swallows the exception the
    `try` body raised (transforms/contexts.py keeps the rest)."""
    for stmt in node.finalbody:
        for inner in walk_tree(stmt):
            if isinstance(inner, (gast.Return, gast.Break, gast.Continue)):
                raise UnsupportedSyntaxError(
                    f"`{type(inner).__name__.lower()}` in a `finally` block discards the "
                    f"exception the `try` raised, which a derivative cannot follow",
                    smap.locate(inner), "move it after the `try`")
