"""Stage 6 (reverse mode, specialised): a broadcast contribution that is a product of
arrays, summed to its operand's shape, written as one np.einsum.

The adjoint of `s = r / np.sum(r, axis=1, keepdims=True)` gives the row sums
`np.sum(s_bar * s, axis=1, keepdims=True)`: numpy builds the product (a new array of the
rows' shape) and then reduces it. np.einsum multiplies and sums in one pass without that
array: on numpy 2.4, one BLAS thread, 2.5-4x faster than the two steps for float64 arrays
from (64,) to (2000, 16), (1024, 100), (256, 512) and (10, 10000), along either axis,
and for a factor broadcast along an axis of the other (`nk,nkd->kd`: 180 us against 470
for 2000x16x8).

Written only where the facts (analyses/kinds.py) show every array of the product is a
float64 array of full length on each of its axes (a factor `np.expand_dims(g, axes)`
counts as g with the inserted axes of length 1), every axis of the result is carried by
one of them, and the others are numbers, which are kept outside as factors:

    np.sum(s_bar * s, axis=1, keepdims=True)       np.expand_dims(np.einsum('ab,ab->a', s_bar, s), 1)
    np.sum(g * 2.0 * t, axis=0)              ->    2.0 * np.einsum('ab,ab->b', g, t)
    np.sum(np.expand_dims(g, (2,)) * t, axis=0)    np.einsum('ab,abc->bc', g, t)

The sum's order differs from np.sum's pairwise one (as np.dot's does, already written for
`np.sum(g * x)`): float64 only, where that rounding is far below any check's tolerance.
float32 keeps np.sum. Anything else (a quotient, a factor of unknown or length-1 axes, a
number that may be complex) keeps the sum of the product.
"""
import gast

from ..ir import build

_LABELS = "abcdefghijklmnopqrstuvwxyz"


def contraction(ctx, contribution, result, result_axes, dropped, kept, view=False):
    """`contribution` (a product of the result's shape, `result_axes` all of full length)
    summed over the result's axes `dropped` (leading ones, removed) and `kept` (kept with
    length 1), as `numbers * np.einsum(...)`; None when the rule does not apply. `view`:
    the result's adjoint is held as a view (view_adjoints.py), `np.expand_dims(g, axes)`
    with g the adjoint of the reduction it spreads, an array of that reduction's kind."""
    rank = len(result_axes)
    if rank > len(_LABELS) or any(a is not None for a in result_axes):
        return None
    factors = _factors(contribution)
    if factors is None:
        return None
    sign, items = factors
    numbers, arrays, carried = [], [], set()
    for item in items:
        if _is_number(ctx, item):
            numbers.append(item)
            continue
        operand = _array_axes(ctx, item, result, view)
        if operand is None:
            return None
        name, axes = operand
        lead = rank - len(axes)
        if lead < 0:
            return None
        positions = [lead + k for k, a in enumerate(axes) if a is None]
        if any(a is not None and a != 1 for a in axes):
            return None
        arrays.append((name, positions))
        carried.update(positions)
    if len(arrays) < 2 or carried != set(range(rank)):
        return None
    out = [k for k in range(rank) if k not in dropped and k not in kept]
    spec = ",".join("".join(_LABELS[k] for k in positions) for _, positions in arrays) \
        + "->" + "".join(_LABELS[k] for k in out)
    numpy_name = ctx.i.levels.numpy_name
    value = build.call(numpy_name + ".einsum",
                       [build.const(spec)] + [build.name(n) for n, _ in arrays])
    if kept:
        # the kept axes' places among the axes not dropped
        places = [k - sum(1 for d in dropped if d < k) for k in kept]
        value = build.call(numpy_name + ".expand_dims",
                           [value, build.literal(tuple(places)) if len(places) > 1
                            else build.const(places[0])])
    for number in reversed(numbers):
        value = build.binop(build.clone(number), "Mult", value)
    return build.unaryop("USub", value) if sign < 0 else value


def _factors(node):
    """(sign, [factor]) of a product of factors (`a * b * 2.0`, `-(a * b)`), or None."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        inner = _factors(node.operand)
        return None if inner is None else (-inner[0], inner[1])
    if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult):
        left, right = _factors(node.left), _factors(node.right)
        if left is None or right is None:
            return None
        return left[0] * right[0], left[1] + right[1]
    if isinstance(node, (gast.Name, gast.Constant, gast.Call)):
        return 1, [node]
    return None


def _is_number(ctx, node):
    """A real number: a literal int or float, or a name the facts say is a real number."""
    if isinstance(node, gast.Constant):
        return type(node.value) in (int, float)
    if not isinstance(node, gast.Name) or ctx.i.namer.is_adjoint(node.id):
        return False
    kind = ctx.i.kinds.of(node.id)
    return ctx.i.kinds.is_number(node.id) and kind.dtype is not None \
        and kind.dtype.startswith(("float", "int"))


def _array_axes(ctx, node, result, view, adjoint_of_any=False):
    """(name, axes) of a float64 array factor: a name whose kind the facts give in full
    (an adjoint name: of a variable of the result's axes; `adjoint_of_any`: of any
    variable), or `np.expand_dims(name, literal axes)` of one (its inserted axes of
    length 1). None otherwise."""
    if isinstance(node, gast.Call):
        return _expanded(ctx, node, result, view)
    if not isinstance(node, gast.Name):
        return None
    variable = node.id
    if ctx.i.namer.is_adjoint(variable):
        # the result's adjoint, or the one it was passed on as (`t6_0_bar` for t5_0 in
        # `t6_0 = t5_0 + beta`): not a loop's scalar zero here (the caller's test), an
        # array of that variable's shape
        variable = ctx.i.namer.variable_of_adjoint(variable)
        if variable is None or not (variable == result or adjoint_of_any
                                    or ctx.i.kinds.axes(variable) == ctx.i.kinds.axes(result)):
            return None
    kind = ctx.i.kinds.of(variable)
    axes = getattr(kind, "axes", None)
    if getattr(kind, "dtype", None) != "float64" or not axes \
            or any(a is not None for a in axes):
        return None
    return node.id, axes


def _expanded(ctx, node, result, view):
    from .view_adjoints import literal_int, view_axes     # (view_adjoints.py calls here)
    func = node.func
    if not (isinstance(func, gast.Attribute) and func.attr == "expand_dims"
            and isinstance(func.value, gast.Name)
            and func.value.id == ctx.i.levels.numpy_name
            and len(node.args) == 2 and not node.keywords):
        return None
    inner = _array_axes(ctx, node.args[0], result, False, adjoint_of_any=view)
    if inner is None:
        return None
    name, axes = inner
    given = node.args[1].elts if isinstance(node.args[1], gast.Tuple) else [node.args[1]]
    inserted = view_axes([literal_int(a) for a in given], len(axes) + len(given))
    if inserted is None or len(inserted) != len(given):
        return None
    out, rest = [], iter(axes)
    for k in range(len(axes) + len(given)):
        out.append(1 if k in inserted else next(rest))
    return name, tuple(out)
