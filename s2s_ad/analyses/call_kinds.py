"""Kinds across calls of the user's own functions (for analyses/kinds.py and pipeline.py).

    call_signature(affine, `t = affine(row, w)`, levels, kinds)
        -> (("x", float64[n]), ("w", float64[n]), ("b", float))    the helper's signature here
    call_signature(apply, `t = apply(np.tanh, x)`, levels, kinds)
        -> (("f", Callee(np.tanh)), ("x", float64[n]))             functions by identity
    helper_results(front)(affine, {"x": ..., "w": ..., "b": ...})
        -> float64[n]                                               the kind it returns
    result_arity(levels of `return a, b` built as one tuple)  -> 2
"""
import inspect

import gast

from ..ir.primitives import operation_of
from ..ir.walk import names_stored, walk_tree
from ..ir.build import dotted_path
from ..signature import UNKNOWN, Attributes, Callee, Items, Mapping, SequenceOf, kind_of
from .kinds import analyse_kinds


_RUNTIME_RESULTS = {}    # (runtime helper, signature) -> (kind, shaped like): see below


# calls deep the facts follow helpers (a model: loss -> Module.__call__ -> Sequential.forward
# -> Module.__call__ -> Linear.forward is four)
MAX_DEPTH = 5


def helper_results(front, depth=0, active=(), memo=None, exact=None, _open=None):
    """helper_result for analyse_kinds: the kind a user function returns, from the
    analysis of its own levels form (helpers of helpers too, MAX_DEPTH calls deep; a
    call of a function for the kinds it is being analysed for is UNKNOWN). `front(function,
    functions)` gives (levels form, namer) for the functions and classes a signature's
    arguments hold (known_functions); each function's levels form and each (function,
    signature) answer is worked out once per derivative (a loop's fixed point asks again
    each round). `exact`: a dict the answers no depth limit or recursion cut short go
    into, and are read from, by every derivative it is given to (the helpers' of one
    derivation: a model's layers are met again in each layer's own vjp); an answer that
    was cut short depends on where it was asked, and stays in `memo`."""
    memo = {} if memo is None else memo
    exact = {} if exact is None else exact
    under_way = [] if _open is None else _open      # a flag per answer being worked out

    def cut():
        for flag in under_way:
            flag[0] = True

    def result(function, signature):
        key = (function, tuple(signature.items()))
        if depth >= MAX_DEPTH or key in active:
            # (a call of itself for the same kinds: recursion; `Module.__call__` of a
            # Sequential calling `Module.__call__` of each layer is not)
            cut()
            return UNKNOWN
        if key in memo:
            if ("cut",) + key in memo:
                cut()
            return memo[key]
        if key in exact or depth == 0 and key in _RUNTIME_RESULTS:
            memo[key], memo[("shaped",) + key] = exact.get(key) or _RUNTIME_RESULTS[key]
            return memo[key]
        try:
            # the functions and classes the arguments hold, as a derivation for this
            # signature normalizes it (`self.forward(*args)` of a Linear is Linear.forward)
            functions = known_functions(tuple(signature.items()))
            levels_key = (function, tuple(sorted(functions.items())))
            if levels_key not in memo:
                memo[levels_key] = front(function, functions)[0]
            levels = memo[levels_key]
        except Exception:            # not ours to report here: its derivative will
            return UNKNOWN
        flag = [False]
        under_way.append(flag)
        try:
            kinds = analyse_kinds(levels, signature, helper_results(
                front, depth + 1, active + (key,), memo, exact, under_way))
        finally:
            under_way.pop()
        returned = levels.tree.body[-1]
        memo[key] = kinds.of(returned.value) if isinstance(returned, gast.Return) \
            and returned.value is not None else UNKNOWN
        memo[("shaped",) + key] = _shaped_like(levels, kinds, returned)
        if flag[0]:
            memo[("cut",) + key] = True
            cut()
            return memo[key]
        exact[key] = (memo[key], memo[("shaped",) + key])
        if depth == 0 and (getattr(function, "__module__", None) or "").startswith(
                "s2s_ad.runtime"):
            # s2s_ad's runtime helpers (a derivative differentiated again calls them) never
            # change: their answers serve every later derivation of the process
            _RUNTIME_RESULTS[key] = exact[key]
        return memo[key]

    def shaped_like(function, signature):
        """The parameter whose shape what `function` returns provably has (asked after
        result(function, signature)), or None."""
        return memo.get(("shaped", function, tuple(signature.items())))
    result.shaped_like = shaped_like
    return result


def _shaped_like(levels, kinds, returned):
    """A parameter never rebound that the returned name is in one shape class with
    (analyses/shape_classes.py: `return 1.0 / (1.0 + np.exp(-z))` has z's shape)."""
    if not (isinstance(returned, gast.Return) and isinstance(returned.value, gast.Name)):
        return None
    classes = kinds.shape_class or {}
    root = classes.get(returned.value.id, returned.value.id)
    rebound = set(names_stored(levels.tree))
    return next((p for p in levels.resolution.parameters
                 if p not in rebound and classes.get(p, p) == root), None)


def call_signature(helper, stmt, levels, kinds):
    """((parameter, kind), ...) of `helper` at this call: the kinds of the operands bound
    to its parameters (defaults by their values); None when they do not bind."""
    op = operation_of(stmt.value, levels.callees)
    try:
        parameters = inspect.signature(helper).parameters
        bound = inspect.signature(helper).bind(*op.args, **op.keywords)
    except (TypeError, ValueError):
        return None
    kinds_of = []
    for name, parameter in parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            return None
        if name in bound.arguments:
            kinds_of.append((name, _argument_kind(bound.arguments[name], levels, kinds,
                                                  stmt)))
        else:
            kinds_of.append((name, kind_of(parameter.default)))
    return tuple(kinds_of)


def _argument_kind(atom, levels, kinds, stmt):
    """The kind of an operand where the call runs; a module-level function (`np.tanh`, a
    def) by identity, so the helper's derivative calls it by name."""
    path = dotted_path(atom)
    if path is not None and not levels.resolution.is_value(path.split(".")[0]):
        value = levels.resolution.lookup(path)
        if isinstance(kind_of(value), Callee):
            return kind_of(value)
    return kinds.of_at(stmt, atom)


def functions_only(signature):
    """`signature` with only its functions (the rest UNKNOWN); None without any."""
    if signature is None or not any(isinstance(k, Callee) for _, k in signature):
        return None
    return tuple((name, kind if isinstance(kind, Callee) else UNKNOWN)
                 for name, kind in signature)


def known_functions(signature):
    """{parameter: function} for the parameters `signature` says hold a function, and
    {"self.act": function} for an object's attributes holding one (`self.act = np.tanh`
    set in __init__), objects inside objects too ("self.layer.act"); {"m.__class__": M}
    for a parameter holding an object (its exact class: `m.loss(x)` is M.loss(m, x)), and
    {"m.l1.__class__": L} for an object it holds, {"m.layers[*].__class__": L} for a list
    or tuple (or a dict's values) of objects all of class L, {"m.layers[*].__classes__":
    (L, A)} for several classes (each in the order of its first item), and
    {"m.layers[0].__class__": L} / {"m.blocks['enc'].__class__": L} item by item;
    {"d.__mapping__": dict} for a parameter holding a dict."""
    found = {}

    def visit(path, kind, depth):
        if isinstance(kind, Callee):
            found[path] = kind.function
        elif isinstance(kind, Attributes) and depth < 4:
            # the object's exact class, an attribute's too (`self.l1(x)` of a callable
            # layer is Layer.__call__(self.l1, x))
            found[f"{path}.__class__"] = kind.type
            for attr, item in kind.entries:
                visit(f"{path}.{attr}", item, depth + 1)
        elif isinstance(kind, (Items, SequenceOf, Mapping)) and depth < 4:
            # a list of layers all of one class (`self.layers`): {"self.layers[*].__class__":
            # Layer}, for `self.layers[k](x)` and `for layer in self.layers: layer(x)`; an
            # item by a literal index or key its own: {"self.blocks['enc'].__class__": L}
            items = kind.items if isinstance(kind, Items) else (kind.item,) \
                if isinstance(kind, SequenceOf) else tuple(v for _, v in kind.entries)
            keys = range(len(kind.items)) if isinstance(kind, Items) else \
                [k for k, _ in kind.entries] if isinstance(kind, Mapping) else []
            for key, item in zip(keys, items):
                if isinstance(item, Attributes):
                    # and what it holds: "self.layers[0].fc.__class__", for a block's
                    # method inlined on the item (transforms/inline.py _know_as)
                    visit(f"{path}[{key!r}]", item, depth + 1)
            if items and all(isinstance(i, Attributes) for i in items):
                classes = tuple(dict.fromkeys(item.type for item in items))
                if isinstance(kind, SequenceOf):
                    visit(f"{path}[*]", items[0], depth + 1)
                elif len(classes) == 1:
                    # what every item holds alike ("self.layers[*].fc.__class__": the
                    # class of each block's fc); an attribute whose class differs from
                    # item to item is left out (item_unrolling then unrolls the loop)
                    held = [{k[len(f"{path}[{key!r}]"):]: v for k, v in found.items()
                             if k.startswith(f"{path}[{key!r}].")} for key in keys]
                    found.update({f"{path}[*]{suffix}": value
                                  for suffix, value in held[0].items()
                                  if all(h.get(suffix, held) == value for h in held[1:])})
                else:
                    # Dense, Tanh, Dense: `layer(x)` runs the __call__ of the item's class
                    found[f"{path}[*].__classes__"] = classes
    for name, kind in signature or ():
        if isinstance(kind, Mapping):
            # a dict argument: `for k in d` iterates its keys (transforms/control.py)
            found[f"{name}.__mapping__"] = dict
        visit(name, kind, 0)
    return found


def result_arity(levels):
    """n when the levels form returns an n-tuple it builds, else None (also for a list
    that grows or shrinks after it is built: `out = [h]`, then `out.append(...)`)."""
    ret = levels.tree.body[-1].value
    changed = [n for n in walk_tree(levels.tree) if isinstance(n, gast.Attribute)
               and isinstance(n.value, gast.Name) and isinstance(ret, gast.Name)
               and n.value.id == ret.id and n.attr in ("append", "extend", "insert", "pop")]
    if isinstance(ret, gast.Name) and not changed \
            and list(names_stored(levels.tree)).count(ret.id) == 1:
        for stmt in levels.tree.body:
            if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                    and stmt.targets[0].id == ret.id \
                    and isinstance(stmt.value, (gast.Tuple, gast.List)):
                return len(stmt.value.elts)
    return None


def differentiated_helper(op, registry):
    """Is the operation `op` a call of one of the user's functions that reverse mode
    differentiates through the function's own vjp (no template, not a run-time helper,
    not a function whose derivative is zero)?"""
    from .. import runtime_flow, runtime_functions
    from ..ir.primitives import attribute_read, identity
    return inspect.isfunction(op.primitive) \
        and op.primitive not in (identity, attribute_read, runtime_flow.pop_adjoint) \
        and registry.reverse(op.primitive) is None \
        and not registry.is_nondifferentiable(op.primitive) \
        and getattr(op.primitive, "__module__", None) != runtime_functions.__name__
