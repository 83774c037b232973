"""Specialisation on facts: float arithmetic a loop repeats on values it never changes runs once.

Users write loop-invariant terms inside the loop (`S = S * math.exp((r - 0.5 * sigma *
sigma) * dt + ...)` in a time-stepping loop). Computed there, each such temporary is
overwritten every iteration, so the derivative tapes it, pops it, and sums its adjoint
into the parameters' adjoints on every step. A hand-writer computes it once before the
loop. So does the derivative specialised on the arguments' kinds:

    for z in normals:                            t1_1 = 0.5 * sigma
        t1_1 = 0.5 * sigma            ->         t2_1 = t1_1 * sigma
        t2_1 = t1_1 * sigma                      for z in normals:
        t3_1 = t2_1 * z                              t3_1 = t2_1 * z

A statement of a top-level `for` loop's body moves to just before the loop when it is
`t = a op b` (op one of +, -, *; or `-a`) with t a temporary the function assigns only
there, every operand a float literal or a name the facts prove a Python float that is a
parameter, assigned by a plain statement before the loop, or moved already, and nothing
in the loop assigns. Same values: the operands are the same in every iteration. Nothing
can go wrong by running it when the loop runs zero times: these operations on Python
floats never raise (division, powers and calls, which can, stay in the loop), and t was
read nowhere but in the loop, where it now holds the same value. Values of other kinds
(numpy scalars, arrays, ints) are left alone.

`hoist_invariant_floats(levels, kinds, analyse)` returns `(levels, kinds)`: the input pair
when nothing moves, else a new LevelsForm (the input is not modified) with the kinds
`analyse(new_levels)` finds for it.
"""
import dataclasses
import re

import gast

from ..ir.build import clone
from ..ir.walk import names_stored
from ..signature import Num

_TEMPORARY = re.compile(r"t\d+_\d+$")
_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult)


def hoist_invariant_floats(levels, kinds, analyse):
    body = levels.tree.body
    if not any(isinstance(stmt, gast.For) for stmt in body):
        return levels, kinds        # only loops of the body itself are looked into
    stores = {}
    for stmt in body:
        for name in names_stored(stmt):
            stores[name] = stores.get(name, 0) + 1
    available = set(levels.resolution.parameters)
    plans = []                       # (index of the loop, indices of its moved statements)
    for index, stmt in enumerate(body):
        if isinstance(stmt, gast.For):
            moved = _invariants(stmt, available, stores, kinds)
            if moved:
                plans.append((index, moved))
        elif isinstance(stmt, gast.Assign):
            available |= set(names_stored(stmt))
    if not plans:
        return levels, kinds
    tree = clone(levels.tree)
    out, start = [], 0
    for index, moved in plans:
        out.extend(tree.body[start:index])
        loop = tree.body[index]
        out.extend(loop.body[k] for k in moved)
        loop.body = [s for k, s in enumerate(loop.body) if k not in moved]
        out.append(loop)
        start = index + 1
    tree.body = out + tree.body[start:]
    candidate = dataclasses.replace(levels, tree=tree)
    return candidate, analyse(candidate)


def _invariants(loop, available, stores, kinds):
    """Indices of the loop body's statements that can run once before the loop."""
    written = set(names_stored(loop))
    ready = set(available) - written
    moved = []
    for k, stmt in enumerate(loop.body):
        if _movable(stmt, ready, stores, kinds):
            moved.append(k)
            ready.add(stmt.targets[0].id)
    # a body left empty keeps its loop as it was (the loop still runs its trip count)
    return moved if len(moved) < len(loop.body) else moved[:-1]


def _movable(stmt, ready, stores, kinds):
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name)):
        return False
    target = stmt.targets[0].id
    if not (_TEMPORARY.match(target) and stores.get(target) == 1
            and _python_float(kinds.of(target))):
        return False
    value = stmt.value
    if isinstance(value, gast.BinOp) and isinstance(value.op, _ARITHMETIC):
        operands = (value.left, value.right)
    elif isinstance(value, gast.UnaryOp) and isinstance(value.op, gast.USub):
        operands = (value.operand,)
    else:
        return False
    return all(_invariant_float(a, ready, kinds) for a in operands)


def _invariant_float(atom, ready, kinds):
    if isinstance(atom, gast.Constant):
        return type(atom.value) is float
    return isinstance(atom, gast.Name) and atom.id in ready \
        and _python_float(kinds.of(atom.id))


def _python_float(kind):
    return isinstance(kind, Num) and kind.type is float and kind.axes == ()
