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
"""
import gast

from ..ir.primitives import operation_of
from ..ir.walk import walk_tree
from .held_calls import is_pure_function


def loop_invariant_numbers(top_level, callees, is_number):
    """ids of the qualifying statements."""
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
        for stmt in loop.body:
            if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
                continue
            target = stmt.targets[0].id
            if stores.get(target) != 1 or loads.get(target, 0) != in_loop_loads.get(target, 0) \
                    or not is_number(target):
                continue
            value = stmt.value
            if isinstance(value, (gast.BinOp, gast.UnaryOp)):
                atoms = [value.left, value.right] if isinstance(value, gast.BinOp) \
                    else [value.operand]
            else:
                op = operation_of(value, callees)
                if not isinstance(value, gast.Call) or op.keywords \
                        or not is_pure_function(op.primitive):
                    continue
                atoms = op.args
            if all(isinstance(a, gast.Constant) and type(a.value) in (int, float)
                   or isinstance(a, gast.Name) and is_number(a.id)
                   and (a.id not in in_loop_stores or a.id in invariant) for a in atoms):
                invariant.add(target)
                found.add(id(stmt))
    return found
