"""Stage 6 (reverse mode, specialised): an adjoint held as a view passed on through the
elementwise statement defining its value, instead of spread into an array of that value's
shape first.

`s = np.sum(t, axis=2)` gives t the adjoint g spread along axis 2. uniform.py holds it as
the view `np.expand_dims(g, (2,))`: an array of t's rank whose reduced axes ("the view's
axes") have length 1, which broadcasts against t as the spread array would. At t's
definition each contribution is decided from the axes the facts know (kinds.py: each
axis of length 1, or of any other length):

- the view times numbers, for an operand of t's shape: held as the same view;
- an expression whose arrays other than the view have, between them, full length on
  every view axis (`g / t1_3`, t1_3 of shape (K, D) against t of (N, K, D)): an array of
  t's shape, contributed as it is (that it is written through a template's broadcasting
  rules is what makes it t's shape);
- the view for a broadcast operand of full length on every view axis, through
  `unbroadcast`: summing over the axes broadcasting added and spreading over the view's
  axes commute when no view axis is summed, so its sum-then-spread is the spread array's
  sum (`log_vars` of (K, D) in `t = u + log_vars`, t (N, K, D), view axis 2).

Anything else (an operand missing a view axis or of length 1 on one, where the spread
values would be summed into a factor the view does not carry) is refused, and the view
is spread into an array as before:

    log_comp = np.sum(t6_1, axis=2)        t6_1_bar = unreduce(np.expand_dims(g, (2,)), diff, None, False)
    t6_1 = t5_1 + c                  ->    (nothing: t5_1 and then t4_1 hold the view)
    t5_1 = t4_1 + log_vars                 log_vars_bar = unbroadcast(np.expand_dims(g, (2,)), log_vars)
    t4_1 = t4_0 / t1_3                     t4_0_bar = np.expand_dims(g, (2,)) / t1_3
"""
import gast
import numpy as np

from ..ir import build
from ..ir.walk import walk_tree
from .. import runtime
from .contractions import contraction


def view_axes(axes, rank):
    """The view axes of `np.expand_dims(g, axes)` (or of g reduced with keepdims over
    `axes`) for a value of `rank` axes, normalised and sorted; None when not literal."""
    if not rank or None in axes or not all(-rank <= a < rank for a in axes):
        return None
    return tuple(sorted({a % rank for a in axes}))


def view_step(uniform, target, operand, value, number):
    """How the contribution `value` of the view `number` (held for `target`) reaches
    `operand`: ("view", value) to hold it as the same view, ("array", value) to contribute
    it, or None when neither is shown to be right."""
    kinds = uniform.i.kinds
    target_axes, held = kinds.axes(target), uniform.views.get(target)
    if target_axes is None or held is None:
        return None
    if _covers(uniform, value, number, held, len(target_axes)):
        return "array", value
    if not _view_times_numbers(uniform, value, number):
        return None
    if uniform._shaped_as(operand, target_axes, target):
        # (`unbroadcast(view, operand)` to an operand of the target's shape spreads it)
        inner = _unbroadcast_inner(uniform, value)
        return ("view", value if inner is None else inner) if uniform.eligible(operand) \
            else None
    operand_axes = kinds.axes(operand)
    if operand_axes is None or not _unbroadcast_of(uniform, value, operand) \
            or not _full_on(operand_axes, held, len(target_axes)):
        return None
    return "array", value


def contracted(uniform, value, target):
    """`value` (an array contribution planned from the view held for `target`) with each
    `unbroadcast(view * x, operand)` in it written as one np.einsum (ad/contractions.py)
    where the facts know the operand's axes: the product is never built. The plan was
    decided on `value` as it was; this only renders it."""
    target_axes = uniform.i.kinds.axes(target)
    if not target_axes:
        return value

    def rendered(node):
        inner = _unbroadcast_inner(uniform, node)
        if inner is not None and isinstance(node.args[1], gast.Name):
            operand_axes = uniform.i.kinds.axes(node.args[1].id)
            lead = len(target_axes) - len(operand_axes or ())
            if operand_axes and lead >= 0 and all(
                    a in (1, None) for a in operand_axes):
                kept = [lead + k for k, a in enumerate(operand_axes) if a == 1]
                summed = contraction(uniform.ctx, inner, target, target_axes, range(lead),
                                     kept, view=True)
                if summed is not None:
                    return summed
        for field, child in gast.iter_fields(node):
            if isinstance(child, gast.AST):
                setattr(node, field, rendered(child))
            elif isinstance(child, list):
                setattr(node, field, [rendered(c) if isinstance(c, gast.AST) else c
                                      for c in child])
        return node
    return rendered(build.clone(value))


def _full_on(axes, held, rank):
    """Has an array of these axes (aligned on the right against `rank` axes) full length
    on every view axis?"""
    lead = rank - len(axes)
    return lead >= 0 and all(k >= lead and axes[k - lead] is None for k in held)


def _same(node, number):
    return gast.dump(node) == gast.dump(number)


def _view_times_numbers(uniform, value, number):
    """Does `value` read the view and otherwise numbers only (`g * -0.5`), an
    `unbroadcast(..., operand)` of that allowed around it?"""
    inner = _unbroadcast_inner(uniform, value)
    inner = value if inner is None else inner
    found = [False]

    def replaced(node):
        if _same(node, number):
            found[0] = True
            return build.const(1.0)
        for field, child in gast.iter_fields(node):
            if isinstance(child, gast.AST):
                setattr(node, field, replaced(child))
            elif isinstance(child, list):
                setattr(node, field, [replaced(c) if isinstance(c, gast.AST) else c
                                      for c in child])
        return node
    bare = replaced(build.clone(inner))
    return found[0] and uniform.numbers_only(bare)


def _unbroadcast_inner(uniform, value):
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Name) \
            and uniform.i.bindings.names.get(value.func.id) is runtime.unbroadcast \
            and len(value.args) == 2 and not value.keywords:
        return value.args[0]
    return None


def _unbroadcast_of(uniform, value, operand):
    """Is `value` `unbroadcast(x, operand)` (the runtime helper, which sums and then
    spreads to operand's shape)?"""
    return _unbroadcast_inner(uniform, value) is not None \
        and isinstance(value.args[1], gast.Name) and value.args[1].id == operand


def _covers(uniform, value, number, held, rank):
    """Is `value` elementwise arithmetic (operators, ufuncs, unbroadcast around it) on the
    view, numbers and float arrays of which one has full length on every view axis? It is
    then of the target's shape: the view gives every other axis, that array the view's."""
    inner = _unbroadcast_inner(uniform, value)
    stack, seen_view, covered = [value if inner is None else inner], False, False
    kinds = uniform.i.kinds
    while stack:
        node = stack.pop()
        if _same(node, number):
            seen_view = True
        elif isinstance(node, gast.BinOp):
            stack += [node.left, node.right]
        elif isinstance(node, gast.UnaryOp):
            stack.append(node.operand)
        elif isinstance(node, gast.Call) and node.args and not node.keywords \
                and _is_ufunc(uniform, node.func):
            stack += list(node.args)
        elif isinstance(node, gast.Name) and not uniform.i.namer.is_adjoint(node.id):
            axes = kinds.axes(node.id)
            if axes is None or len(axes) > rank:
                return False
            covered |= _full_on(axes, held, rank)
        elif not isinstance(node, gast.Constant):
            return False
    return seen_view and covered


def _is_ufunc(uniform, func):
    return isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
        and func.value.id == uniform.i.levels.numpy_name \
        and isinstance(getattr(np, func.attr, None), np.ufunc)


def spread_view(uniform, value, operand):
    """When `value` is `unreduce(g, operand, axis, keepdims)` along axes written out,
    over an operand whose rank the facts know: (the view, its axes), the view being g
    with the reduced axes put back as length 1 (`np.expand_dims(g, 1)`; g itself with
    keepdims or over leading axes only), which broadcasts against the operand as the
    spread array would (`t4_0_bar * t4_0` is one pass, not a spread array and then a
    product). None otherwise."""
    if uniform._unreduce_args(value, operand) is None:
        return None
    rank = len(uniform.i.kinds.axes(operand) or ())
    items = value.args[2].elts if isinstance(value.args[2], gast.Tuple) else [value.args[2]]
    axes = view_axes([literal_int(item) for item in items], rank)
    if axes is None:
        return None
    if value.args[3].value or list(axes) == list(range(len(axes))):
        # kept axes, or only leading ones reduced: numpy broadcasting puts missing axes
        # first, so g broadcasts as it is (np.sum(x, axis=0) of a vector: its number)
        return value.args[0], axes
    return build.call(build.attribute(build.name(uniform.i.levels.numpy_name), "expand_dims"),
                      [value.args[0], build.literal(axes)]), axes


def literal_int(node):
    """The int a node spells out (`1`, `-1`), or None."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        inner = literal_int(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, gast.Constant) and type(node.value) is int else None
