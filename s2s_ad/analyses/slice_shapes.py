"""Slices of one array that provably have one shape (`u[1:] - u[:-1]`, `z[2:]`, `z[1:-1]`).

A basic slice `x[a:b]` with literal bounds (or none) and no step takes, of an axis of
length n, max(stop(n) - start(n), 0) elements; a slice of a slice composes those lengths.
Two slices of the same array have one shape when, on every axis, their lengths agree for
every n. Each length is piecewise linear in n, with its kinks at n below the sum S of the
literals' sizes, and linear beyond: so agreeing at every n in 0..S+2 is agreeing at all n.
Elementwise results of operands with one slice shape take that shape (numpy broadcasting
leaves no other choice when the operands agree).

    t1_0 = u[1:, :]             (u, axis 0: [1:])
    t1_1 = u[:-1, :]            (u, axis 0: [:-1])     ->  t1_0 ~ t1_1 ~ dx
    dx = t1_0 - t1_1
    t3_0 = dx[:, :-1]           (u, [1:], [:-1])
    t3_1 = dy[:-1, :]           dy = u[:, 1:] - ...: (u, [:-1], [1:])   ->  t3_0 ~ t3_1

Only top-level statements, over arrays never rebound nor written into. Returns pairs of
variables to put in one shape class (analyses/shapes.py); never writes to nodes.

`sliced_array` is what the facts analysis (kinds.py) knows of a slice whose length is no
fact (`x[k:k + n]` in a loop, `u[1:]` of a length that may be 2): an array of x's dtype,
its axes not; `unsized_result` carries that through elementwise arithmetic:

    t1_0 = u[1:]                float64[?]    (sliced_array)
    d = t1_0 - u[:-1]           float64[?]    (unsized_result)
    e = 2.0 * d                 float64[?]
    s = np.sum(e)               np.float64
"""
import operator

import gast
import numpy as np

from ..ir.primitives import operation_of
from ..signature import UNKNOWN, Num
from .shapes import FULL_REDUCTIONS


def slice_shape_pairs(levels, stable):
    """[(a, b)] of top-level variables provably of one shape because they are slices of
    one array (`stable`: names of arrays assigned at most once and never written into)."""
    from .shapes import is_elementwise          # (shapes.py calls this module)
    shapes = {}                     # variable -> (root, ((slice, ...) per axis))
    for stmt in levels.tree.body:
        if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], gast.Name)):
            continue
        target = stmt.targets[0].id
        if target not in stable:
            continue
        op = operation_of(stmt.value, levels.callees)
        shape = None
        if op.primitive is operator.getitem and isinstance(op.args[0], gast.Name) \
                and op.args[0].id in stable:
            shape = _sliced(shapes.get(op.args[0].id, (op.args[0].id, ())), op.args[1])
        elif is_elementwise(op.primitive) and not op.keywords:
            operands = [shapes.get(a.id) for a in op.args if isinstance(a, gast.Name)]
            numbers = all(isinstance(a, gast.Name) or _is_number(a) for a in op.args)
            if numbers and operands and None not in operands \
                    and all(_same(operands[0], o) for o in operands[1:]):
                shape = operands[0]
        if shape is not None:
            shapes[target] = shape
    names = sorted(shapes)
    pairs = []
    for k, a in enumerate(names):
        for b in names[k + 1:]:
            if _same(shapes[a], shapes[b]):
                pairs.append((a, b))
                break               # b pairs on with the ones after it
    return pairs


def sliced_array(kind, index):
    """What `x[a:b]` is to the facts (analyses/kinds.py) when its length is none (bounds
    known only at run time, as `x[k:k + n]` in a loop): an array of x's dtype, its axes
    not known. UNKNOWN when x is no such array or the index is not made of slices alone."""
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    if isinstance(kind, Num) and kind.type is np.ndarray and kind.dtype is not None \
            and all(isinstance(p, gast.Slice) for p in parts):
        return Num(np.ndarray, kind.dtype, None)
    return UNKNOWN


def unsized_result(primitive, args):
    """The kind of an elementwise operation (shapes.is_elementwise), a matrix product or a
    full reduction (np.sum(x)) on `args` [(kind, per-world stand-ins)], where some operand
    is an array whose dtype is a fact and whose axes are not (stand-ins None): an array of
    the dtype numpy gives (it does not depend on shapes), its axes not known, or the
    reduction's number. UNKNOWN when an operand's dtype is no fact."""
    if primitive in (operator.matmul, np.matmul):
        # a matrix product with a matrix is an array (of one rank less or more: no fact)
        if len(args) != 2 or not all(isinstance(k, Num) and k.type is np.ndarray
                                     and k.dtype is not None for k, _ in args) \
                or not any(k.axes is not None and len(k.axes) >= 2 for k, _ in args):
            return UNKNOWN
        dtype = np.result_type(*(np.dtype(k.dtype) for k, _ in args))
        return Num(np.ndarray, dtype.name, None) if dtype.kind in "biuf" else UNKNOWN
    if primitive in FULL_REDUCTIONS and len(args) != 1:
        return UNKNOWN
    values = []
    for kind, worlds in args:
        if not isinstance(kind, Num) or kind.dtype is None or kind.type is None:
            return UNKNOWN
        if worlds is None:
            if kind.type is not np.ndarray:
                return UNKNOWN
            values.append(np.ones((1,), dtype=kind.dtype))
        else:
            values.append(worlds[0])
    try:
        with np.errstate(all="ignore"):
            result = primitive(*values)
    except Exception:
        return UNKNOWN
    if primitive in FULL_REDUCTIONS and isinstance(result, np.generic) \
            and result.dtype.kind in "biuf":
        return Num(type(result), result.dtype.name, ())   # a number, whatever the shape
    if type(result) is not np.ndarray or result.dtype.kind not in "biuf":
        return UNKNOWN
    return Num(np.ndarray, result.dtype.name, None)


def _is_number(node):
    return isinstance(node, gast.Constant) and type(node.value) in (int, float) or \
        isinstance(node, gast.UnaryOp) and isinstance(node.operand, gast.Constant) \
        and type(node.operand.value) in (int, float)


def _sliced(shape, index):
    """The shape of `x[index]` for x of `shape`, or None (not a basic literal slice)."""
    root, axes = shape
    items = index.elts if isinstance(index, gast.Tuple) else [index]
    bounds = []
    for item in items:
        if not isinstance(item, gast.Slice) or item.step is not None:
            return None
        lower, upper = _literal(item.lower), _literal(item.upper)
        if lower is False or upper is False:
            return None
        bounds.append((lower, upper))
    chains = list(axes) + [()] * max(0, len(bounds) - len(axes))
    for k, bound in enumerate(bounds):
        if bound != (None, None):               # `:` keeps the axis as it is
            chains[k] = chains[k] + (bound,)
    return root, tuple(chains)


def _literal(node):
    """An int bound, None for none written, False for anything else."""
    if node is None or isinstance(node, gast.Constant) and node.value is None:
        return None
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub) \
            and isinstance(node.operand, gast.Constant) and type(node.operand.value) is int:
        return -node.operand.value
    return False


def _same(a, b):
    if a[0] != b[0]:
        return False
    rank = max(len(a[1]), len(b[1]))
    for k in range(rank):
        first = a[1][k] if k < len(a[1]) else ()
        second = b[1][k] if k < len(b[1]) else ()
        size = sum(abs(v) for lo_hi in first + second for v in lo_hi if v is not None)
        if any(_length(first, n) != _length(second, n) for n in range(size + 3)):
            return False
    return True


def _length(chain, n):
    """How many elements slicing an axis of length n by each slice in turn leaves."""
    for lower, upper in chain:
        n = len(range(n)[lower:upper])
    return n
