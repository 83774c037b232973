"""Shape-equality analysis: which values provably have the same shape.

Used to drop `unbroadcast` where it can only be the identity. Facts used: a numeric
literal is a scalar; grad's output is a scalar (checked at run time by `check_scalar_output`);
an elementwise operation's result has its operands' broadcast shape, so a scalar result
means scalar operands and a scalar operand means the result has the other operand's
shape; a full reduction (no axis) is a scalar.

    t1_0 = 2 * x1           x1 ~ t1_0         (2 is a scalar)
    t2_0 = np.exp(t1_0)     t2_0 ~ t1_0
    y = t2_0 + c            y is scalar  =>  t2_0, c scalar  =>  x1 scalar
"""
import math
import operator
from dataclasses import dataclass

import gast
import numpy as np

from ..ir.walk import walk_tree
# np.logaddexp's derivative, and the wholes ad/composites.py reverses as one: elementwise
from ..runtime import logistic, power_of_exp, scaled_pair_maximum, written_sigmoid
from ..ir.primitives import identity, operation_of
from .union_find import root_of

SCALAR = "<scalar>"
_ELEMENTWISE_OPERATORS = {operator.add, operator.sub, operator.mul, operator.truediv,
                          operator.pow, operator.mod, operator.neg, operator.pos, identity}
FULL_REDUCTIONS = {np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin,
                    np.std, np.var, np.linalg.norm}


@dataclass(frozen=True)
class Shapes:
    classes: dict   # variable -> representative

    def same(self, a, b):
        return self._rep(a) == self._rep(b)

    def is_scalar(self, a):
        return self._rep(a) == SCALAR

    def _rep(self, atom):
        if isinstance(atom, str):
            return self.classes.get(atom, atom)
        if isinstance(atom, gast.Name):
            return self.classes.get(atom.id, atom.id)
        if isinstance(atom, gast.Constant) and isinstance(atom.value, (int, float)):
            return SCALAR
        if isinstance(atom, gast.UnaryOp) and isinstance(atom.operand, gast.Constant):
            return SCALAR
        return object()


_ELEMENTWISE_HELPERS = (logistic, written_sigmoid, scaled_pair_maximum, power_of_exp)


def is_elementwise(primitive):
    if primitive in _ELEMENTWISE_OPERATORS or primitive in _ELEMENTWISE_HELPERS:
        return True
    if isinstance(primitive, np.ufunc) and primitive.nout == 1 and primitive.nin in (1, 2) \
            and primitive.signature is None:     # not a generalized ufunc like matmul
        return True
    return getattr(primitive, "__module__", None) == "math" or \
        getattr(primitive, "__self__", None) is math


def _always_scalar(op):
    """A full reduction without keywords, or a `math` function: a scalar by construction."""
    if op.primitive in FULL_REDUCTIONS and not op.keywords and len(op.args) == 1:
        return True
    return getattr(op.primitive, "__module__", None) == "math"


def scalar_output_leaves(levels, output):
    """The values whose shapes decide the shape of `output` through elementwise steps.

    `output` is a scalar exactly when all of them are, so grad checks these (often just
    its arguments) instead of computing the output only to look at its shape.

        t1_0 = 2 * x1; t2_0 = np.exp(t1_0); y = t2_0 + x2     ->   ['x1', 'x2']
        t1_0 = np.sum(x); y = t1_0 / n                        ->   ['n']
    """
    defs = _single_definitions(levels)
    scalars = _scalar_variables(levels)
    leaves, stack, seen = [], [output], set()
    while stack:
        name = stack.pop()
        if name in seen or name in scalars:
            continue
        seen.add(name)
        if name not in defs:
            leaves.append(name)
            continue
        op = operation_of(defs[name], levels.callees)
        if _always_scalar(op):
            continue
        if is_elementwise(op.primitive) and not op.keywords:
            stack.extend(a.id for a in reversed(op.args) if isinstance(a, gast.Name))
            continue
        leaves.append(name)
    params = set(levels.resolution.parameters)
    if any(n not in params and n not in defs for n in leaves):
        # a leaf assigned several times (a gradient differentiated again restores its
        # variables from the tape) may hold another value where the check runs: the
        # output itself is what holds its shape there
        return [output]
    return sorted(leaves)


def _scalar_variables(levels):
    """Variables that are scalars whatever the arguments: every definition is a number, a
    full reduction, a `math` function, or elementwise on such values. This covers the
    loop accumulator `loss = 0.0` ... `loss = loss + np.sum(r ** 2)`, which
    `_single_definitions` cannot (it has several definitions)."""
    values, other = {}, set(levels.resolution.parameters)
    for node in walk_tree(levels.tree):
        if isinstance(node, gast.Assign) and isinstance(node.targets[0], gast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
            continue
        if isinstance(node, (gast.Assign, gast.AugAssign, gast.For)):
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            other |= {n.id for t in targets for n in walk_tree(t) if isinstance(n, gast.Name)}
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                and isinstance(node.func.value, gast.Name):
            other.add(node.func.value.id)           # x.append(...), x.sort(): mutated
    scalars = set(values) - other
    while True:
        kept = {name for name in scalars
                if all(_scalar_value(v, scalars, values, levels) for v in values[name])}
        if kept == scalars:
            return scalars
        scalars = kept


def _scalar_value(value, scalars, values, levels):
    op = operation_of(value, levels.callees)
    if _always_scalar(op) or op.primitive is len:
        return True
    if isinstance(value, gast.Attribute) and value.attr in ("ndim", "size"):
        return True                                         # ints, whatever the array
    if op.primitive is operator.getitem and isinstance(op.args[0], gast.Name) \
            and isinstance(op.args[1], gast.Constant) and type(op.args[1].value) is int:
        # `steps = t2_0[2]` with `t2_0 = h0, 0.0, len(xs)`: an item of a tuple literal;
        # `n = t1_0[0]` with `t1_0 = X.shape`: an int
        packs = values.get(op.args[0].id, [])
        k = op.args[1].value
        return bool(packs) and all(
            (isinstance(p, gast.Attribute) and p.attr == "shape") or (
                isinstance(p, gast.Tuple) and -len(p.elts) <= k < len(p.elts)
                and _scalar_value(p.elts[k], scalars, values, levels)) for p in packs)
    if not is_elementwise(op.primitive) or op.keywords:
        return False
    return all((isinstance(a, gast.Name) and a.id in scalars) or (
        isinstance(a, gast.Constant) and type(a.value) in (int, float, bool)) for a in op.args)


def _single_definitions(levels):
    """variable -> its value, for variables defined exactly once (by a plain assignment)
    and never written in place: only their shapes are facts."""
    counts, values = {}, {}
    for node in walk_tree(levels.tree):
        if isinstance(node, gast.Assign):
            target = node.targets[0]
            if isinstance(target, gast.Name):
                counts[target.id] = counts.get(target.id, 0) + 1
                values[target.id] = node.value
            elif isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
                counts[target.value.id] = counts.get(target.value.id, 0) + 2
        elif isinstance(node, gast.For):
            counts[node.target.id] = counts.get(node.target.id, 0) + 2
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                and node.func.attr == "append" and isinstance(node.func.value, gast.Name):
            counts[node.func.value.id] = counts.get(node.func.value.id, 0) + 2
    params = set(levels.resolution.parameters)
    return {name: value for name, value in values.items()
            if counts[name] == 1 and name not in params}


def _stable_arrays(levels, definitions):
    """Variables defined once and parameters never assigned nor written into."""
    touched = {n.id for n in walk_tree(levels.tree) if isinstance(n, gast.Name)
               and isinstance(n.ctx, gast.Store)}
    return set(definitions) | (set(levels.resolution.parameters) - touched)


def analyse_shapes(levels, scalar_outputs=()):
    from .slice_shapes import slice_shape_pairs     # (it reads is_elementwise from here)
    parent = {}

    def find(x):
        return root_of(parent, x)

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            # keep SCALAR as the representative so is_scalar stays a lookup
            if rb == SCALAR:
                ra, rb = rb, ra
            parent[rb] = ra
            return True
        return False

    def key(atom):
        if isinstance(atom, gast.Name):
            return atom.id
        if isinstance(atom, gast.Constant) and isinstance(atom.value, (int, float)):
            return SCALAR
        if isinstance(atom, gast.UnaryOp) and isinstance(atom.operand, gast.Constant):
            return SCALAR
        return None

    for name in list(scalar_outputs) + sorted(_scalar_variables(levels)):
        union(SCALAR, name)
    definitions = _single_definitions(levels)
    for a, b in slice_shape_pairs(levels, _stable_arrays(levels, definitions)):
        union(a, b)
    rules = []
    for target, value in definitions.items():
        op = operation_of(value, levels.callees)
        if is_elementwise(op.primitive) and not op.keywords:
            rules.append((target, [key(a) for a in op.args]))
        elif _always_scalar(op):
            union(SCALAR, target)
    changed = True
    while changed:
        changed = False
        for target, operands in rules:
            if None in operands:
                continue
            arrays = [o for o in operands if find(o) != SCALAR]
            if find(target) == SCALAR:
                for o in operands:
                    changed |= union(SCALAR, o)
            elif not arrays:
                changed |= union(SCALAR, target)
            elif len({find(o) for o in arrays}) == 1:
                changed |= union(target, arrays[0])
    return Shapes({name: find(name) for name in set(parent) | {SCALAR}})
