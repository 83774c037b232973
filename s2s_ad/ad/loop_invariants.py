"""Numbers a top-level loop computes again in every iteration from values it never changes.

`t1_2 = math.sqrt(dt)` inside `for z in normals:` holds the same number in every
iteration. The tape saves what an overwrite destroys for the backward sweep; overwriting
t1_2 with the value it already holds destroys nothing, so its save and restore go:

    for z in normals:                         for z in normals:
        _tape.append((t1_2, t6_0, S))             _tape.append((t6_0, S))
        t1_2 = math.sqrt(dt)          ->          t1_2 = math.sqrt(dt)
        ...                                       ...
    for z in reversed(normals):               for z in reversed(normals):
        t1_2_saved, t6_0_saved, S = ...           t6_0_saved, S = _tape.pop()
        ...; t1_2 = t1_2_saved                    ...

(The statement stays in the loop: moving a call that may raise, like math.sqrt of a
negative number, before a loop that may run zero times would change what f does; the
arithmetic that cannot raise is moved out by transforms/invariant_floats.py.)

A statement qualifies when it sits directly in the body of a `for` loop of the function's
top level (a loop nested in another runs again with other values) that has no `break`,
`continue` or `else`, assigns a name the
function assigns nowhere else and reads nowhere outside this loop, and computes arithmetic
or a pure function (math's, numpy's ufuncs) of number literals and of names the loop
never assigns (or that qualified before it); the facts prove the result and every operand
a number (immutable: nothing written into an array can change it behind a name).

So do the length of a sequence whose length f never changes and a `range` of invariant
numbers, which is what an inner `for c in coeffs:` becomes in every iteration of an
outer loop (`t1_3 = len(coeffs)`, `t2_1 = range(t1_3)`; a range is immutable): the
backward sweep's `for index_1 in t2_1[::-1]` reads the range the forward sweep left.
A sequence qualifies (`fixed_length_sequences`) when it is a parameter the facts prove a
list or tuple, f never rebinds it, writes into it or reads it other than by index or
length (so no method of it runs and no other name of f holds it), and the loop calls no
function of the user's (which might reach the list through a global and change it).
"""
import types

import gast

from ..analyses.item_kinds import Items, SequenceOf
from ..ir.build import dotted_path
from ..ir.primitives import operation_of
from ..ir.walk import names_stored, walk_tree
from .held_calls import is_pure_function


def fixed_length_sequences(levels, kinds, dataflow):
    """Parameters whose length f never changes (see above)."""
    if kinds is None:
        return frozenset()
    stored = set(names_stored(levels.tree))
    return frozenset(
        name for name in levels.resolution.parameters
        if isinstance(kinds.of(name), (SequenceOf, Items))
        and kinds.of(name).container in (list, tuple) and name not in stored
        and name in dataflow.indexed_only and name not in dataflow.written_through)


def _calls_no_user_function(loop, callees):
    return not any(isinstance(node, gast.Call) and isinstance(
        callees.get(dotted_path(node.func)), (types.FunctionType, types.MethodType))
        for node in walk_tree(loop))


def _invariant_atoms(value, callees, fixed_length, plain):
    """The operands a qualifying value reads, or None when it does not qualify."""
    if isinstance(value, (gast.BinOp, gast.UnaryOp)):
        return [value.left, value.right] if isinstance(value, gast.BinOp) else [value.operand]
    op = operation_of(value, callees)
    if not isinstance(value, gast.Call) or op.keywords:
        return None
    if op.primitive is len and plain and len(op.args) == 1 \
            and isinstance(op.args[0], gast.Name) and op.args[0].id in fixed_length:
        return []
    return op.args if is_pure_function(op.primitive) or op.primitive is range else None


def loop_invariant_numbers(top_level, callees, is_number, fixed_length=frozenset()):
    """ids of the qualifying statements (fixed_length: fixed_length_sequences)."""
    stores, loads = {}, {}
    for stmt in top_level:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name):
                table = stores if isinstance(node.ctx, gast.Store) else loads
                table[node.id] = table.get(node.id, 0) + 1
    found = set()
    for loop in top_level:
        if not isinstance(loop, gast.For) or loop.orelse or any(
                isinstance(n, (gast.Break, gast.Continue)) for n in walk_tree(loop)):
            continue        # (an iteration cut short may never assign the value)
        in_loop_stores, in_loop_loads = {}, {}
        for node in walk_tree(loop):
            if isinstance(node, gast.Name):
                table = in_loop_stores if isinstance(node.ctx, gast.Store) else in_loop_loads
                table[node.id] = table.get(node.id, 0) + 1
        invariant = set()
        plain = _calls_no_user_function(loop, callees)
        for stmt in loop.body:
            if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
                continue
            target = stmt.targets[0].id
            atoms = _invariant_atoms(stmt.value, callees, fixed_length, plain)
            is_range = isinstance(stmt.value, gast.Call) \
                and operation_of(stmt.value, callees).primitive is range
            if stores.get(target) != 1 or loads.get(target, 0) != in_loop_loads.get(target, 0) \
                    or not (is_number(target) or is_range) or atoms is None:
                continue
            if all(isinstance(a, gast.Constant) and type(a.value) in (int, float)
                   or isinstance(a, gast.Name) and is_number(a.id)
                   and (a.id not in in_loop_stores or a.id in invariant) for a in atoms):
                invariant.add(target)
                found.add(id(stmt))
    return found
