"""Shifts the output does not see: a max (or min) subtracted out and added back.

log-sum-exp and softmax are written with the max shifted out for stability:

    m = np.max(z)                  m: the shift c
    t2_0 = z - m                   z - c
    t3_0 = np.exp(t2_0)            exp(z) * exp(-c)
    t4_0 = np.sum(t3_0)            sum(exp(z)) * exp(-c)
    t5_0 = np.log(t4_0)            log(sum(exp(z))) - c
    t6_0 = m + t5_0                log(sum(exp(z)))        -> does not depend on c
    return t6_0                                            -> shift_cuts == {'m'}

Replace the max's result by a free value c and follow it through the statements after it:
every value stays of the form `v0 + k*c` ("add") or `v0 * exp(k*c)` ("mul") with an
integer k, and c broadcast against the value varies only along known axes. When the output
ends with k = 0 it does not depend on c at all, so the derivative through the max is zero
everywhere, ties included: the max is a constant for differentiation and its adjoint (a
reduction, a comparison with z, a tie count, a scatter) need not be computed. Anything the
rules do not cover (a loop, a branch, an unknown rank, an operation not listed) ends the
search for that max: nothing is cut. Returns a frozen set of names; never writes to nodes.
"""
import operator
from dataclasses import dataclass

import gast
import numpy as np

from ..ir.build import number_literal
from ..ir.primitives import identity, operation_of
from ..ir.walk import names_stored, walk_tree
from ..signature import Num

_EXTREMA = (np.max, np.min, np.amax, np.amin)
_ADD = {operator.add: 1, operator.sub: -1, np.add: 1, np.subtract: -1}
_MUL = {operator.mul: 1, operator.truediv: -1, np.multiply: 1, np.divide: -1}


@dataclass(frozen=True)
class _Shift:
    form: str           # "add": v0 + k*c;  "mul": v0 * exp(k*c)
    k: int
    varies: tuple       # per axis of the value (its rank long): does c vary along it


def shift_cuts(levels, outputs, kinds):
    """The names of max/min results the output provably does not depend on."""
    body = levels.tree.body
    if not outputs or not body or not isinstance(body[-1], gast.Return):
        return frozenset()
    stores = None           # walked for only when a max or min is found (most have none)
    cuts = set()
    for index, stmt in enumerate(body):
        seed = _seed(stmt, levels, kinds)
        if seed is None:
            continue
        stores = names_stored(levels.tree) if stores is None else stores
        if stores.count(stmt.targets[0].id) != 1:
            continue
        name = stmt.targets[0].id
        if _output_free_of(body[index + 1:], {name: seed}, outputs, levels, kinds):
            cuts.add(name)
    return frozenset(cuts)


def _seed(stmt, levels, kinds):
    """`m = np.max(z, axis=..., keepdims=...)`: m as the shift itself (k = 1)."""
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
            and isinstance(stmt.value, gast.Call)):
        return None
    op = operation_of(stmt.value, levels.callees)
    if not any(op.primitive is f for f in _EXTREMA) or len(op.args) != 1:
        return None
    reduced = _reduction(op, _rank(op.args[0], kinds))
    rank = _rank(stmt.targets[0], kinds)
    if reduced is None or rank is None:
        return None
    axes, keepdims = reduced
    varies = tuple(not (keepdims and a in axes) for a in range(rank))
    return _Shift("add", 1, varies)


def _output_free_of(rest, shifted, outputs, levels, kinds):
    for stmt in rest:
        if isinstance(stmt, gast.Return):
            return not any(n in shifted for n in _names_read(stmt))
        if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], gast.Name)):
            if any(n in shifted for n in _names_read(stmt) + names_stored(stmt)):
                return False
            continue
        target = stmt.targets[0].id
        if not any(n in shifted for n in _names_read(stmt.value)):
            shifted.pop(target, None)
            continue
        fact = _through(operation_of(stmt.value, levels.callees), target, shifted, kinds)
        if fact is False:
            return False
        shifted.pop(target, None)
        if fact is not None:
            shifted[target] = fact
    return False


def _through(op, target, shifted, kinds):
    """The result's shift (None: free of c), or False when the rules do not decide."""
    rank = _rank(target, kinds)
    if rank is None:
        return False
    facts = [shifted.get(a.id) if isinstance(a, gast.Name) else None for a in op.args]
    nested = list(op.keywords.values()) + [a for a in op.args[:1] if not isinstance(a, gast.Name)]
    if op.primitive is not operator.getitem:
        nested += [a for a in op.args[1:] if not isinstance(a, gast.Name)]
    if any(isinstance(v, gast.AST) and any(n in shifted for n in _names_read(v))
           for v in nested):
        return False            # read inside an expression the rules do not follow
    prim = op.primitive
    if prim in _ADD and len(facts) == 2:
        return _combine(facts, (1, _ADD[prim]), "add", rank)
    if prim in _MUL and len(facts) == 2:
        if facts[0] is None and facts[1] is not None and _MUL[prim] == 1:
            facts = facts[::-1]          # free * shifted: scale, as shifted * free
        if facts[1] is None:
            return _scaled(facts[0], rank)
        return _combine(facts, (1, _MUL[prim]), "mul", rank)
    if prim is operator.getitem and facts[0] and not facts[1] \
            and not any(n in shifted for n in _names_read(op.args[1])):
        return _indexed(facts[0], op.args[1], rank)
    fact = facts[0] if len(facts) == 1 else False
    if not fact:
        return False
    if prim in (operator.neg, operator.pos, identity):
        sign = -1 if prim is operator.neg and fact.form == "add" else 1
        return _Shift(fact.form, sign * fact.k, fact.varies)
    if prim is np.exp and fact.form == "add":
        return _Shift("mul", fact.k, fact.varies)
    if prim is np.log and fact.form == "mul":
        return _Shift("add", fact.k, fact.varies)
    if prim in (np.sum, np.mean) + _EXTREMA:
        if prim is np.sum and fact.form != "mul":
            return False        # a sum of c over n elements is n*c: not followed
        return _reduced(fact, op, rank)
    return False


def _combine(facts, signs, form, rank):
    """a + b, a - b (form "add") or a * b, a / b (form "mul") of shifted operands."""
    present = [(f, s) for f, s in zip(facts, signs) if f is not None]
    if any(f.form != form or len(f.varies) > rank for f, _ in present):
        return False
    patterns = {_padded(f.varies, rank) for f, _ in present}
    if len(patterns) != 1:
        return False            # two shifts broadcast differently: not one c
    k = sum(s * f.k for f, s in present)
    return None if k == 0 else _Shift(form, k, patterns.pop())


def _scaled(fact, rank):
    """shifted * free, shifted / free: exp(k*c) stays a factor; v0 + k*c does not."""
    if fact.form != "mul" or len(fact.varies) > rank:
        return False
    return _Shift("mul", fact.k, _padded(fact.varies, rank))


def _reduced(fact, op, rank):
    """sum/mean/max/min along axes c does not vary on: c passes through unchanged."""
    reduced = _reduction(op, len(fact.varies))
    if reduced is None:
        return False
    axes, keepdims = reduced
    if any(fact.varies[a] for a in axes):
        return False
    varies = fact.varies if keepdims else tuple(
        v for a, v in enumerate(fact.varies) if a not in axes)
    return _Shift(fact.form, fact.k, varies) if len(varies) == rank else False


def _indexed(fact, index, rank):
    """m[:, None]: full slices keep an axis, None inserts one c does not vary on; an
    integer drops one it does not vary on (`m[:, 0]` of a max with keepdims)."""
    items = index.elts if isinstance(index, gast.Tuple) else [index]
    varies, source = [], list(fact.varies)
    for item in items:
        if isinstance(item, gast.Constant) and item.value is None:
            varies.append(False)
        elif isinstance(item, gast.Slice) and item.lower is None and item.upper is None \
                and item.step is None and source:
            varies.append(source.pop(0))
        elif _int_literal(item) and source and not source[0]:
            source.pop(0)       # m[:, 0]: an axis c does not vary on, c the same at any index
        else:
            return False
    varies = tuple(varies + source)
    return _Shift(fact.form, fact.k, varies) if len(varies) == rank else False


def _reduction(op, rank):
    """(reduced axes, keepdims) of a reduction written with literal arguments, or None."""
    if rank is None or len(op.args) > 1 or set(op.keywords) - {"axis", "keepdims"}:
        return None
    axis = op.keywords.get("axis")
    keepdims = op.keywords.get("keepdims")
    if keepdims is None:
        keep = False
    elif isinstance(keepdims, gast.Constant) and isinstance(keepdims.value, bool):
        keep = keepdims.value
    else:
        return None
    if axis is None or isinstance(axis, gast.Constant) and axis.value is None:
        return frozenset(range(rank)), keep
    values = axis.elts if isinstance(axis, gast.Tuple) else [axis]
    axes = set()
    for value in values:
        number = number_literal(value)
        number = number if type(number) is int else None
        if number is None or not -rank <= number < rank:
            return None
        axes.add(number % rank)
    return frozenset(axes), keep


def _padded(varies, rank):
    return (False,) * (rank - len(varies)) + tuple(varies)


def _rank(atom, kinds):
    kind = kinds.of(atom)
    if isinstance(atom, gast.Constant) and isinstance(atom.value, (int, float)):
        return 0
    if isinstance(kind, Num) and kind.axes is not None:
        return len(kind.axes)
    return None


def _names_read(node):
    return [n.id for n in walk_tree(node) if isinstance(n, gast.Name)
            and not isinstance(n.ctx, gast.Store)]


def _int_literal(node):
    """Is node an int written out (`0`, `-1`)?"""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        node = node.operand
    return isinstance(node, gast.Constant) and type(node.value) is int
