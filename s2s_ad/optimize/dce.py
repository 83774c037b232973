"""Dead-code elimination over a generated function body.

A forward statement survives when its value is read later (by the backward sweep, a
return, or another surviving statement); calls kept for their effects (`print(x)`) and
asserts always survive. Backward statements are kept as generated: the adjoint
bookkeeping only emits what the gradient needs.

    t1_0 = np.exp(x)          t1_0 = np.exp(x)
    y = t1_0 + 1.0      ->    (y removed: nothing reads it)
    ...                       ...
"""
import gast

from ..ir.walk import without_statements


def eliminate_dead_code(body):
    """Returns (new body, changed)."""
    needed = set()
    kept = []
    changed = False
    for stmt in reversed(body):
        if isinstance(stmt, gast.Assign) and all(isinstance(t, gast.Name) for t in stmt.targets) \
                and not _pops(stmt.value):
            if not any(t.id in needed for t in stmt.targets):
                changed = True
                continue
        kept.append(stmt)
        for node in gast.walk(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
                needed.add(node.id)
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
                needed.add(node.target.id)
    return list(reversed(kept)), changed


def _pops(value):
    """`x = _tape.pop()` must stay even when x is dead: the pop balances the tape."""
    return isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
        and value.func.attr == "pop"


def remove_unread_assignments(body):
    """Assignments anywhere (inside loops and branches too) to names the function never
    reads: `result_bar_1 = result_bar` left over in a branch. Returns (body, changed)."""
    read = {n.id for stmt in body for n in gast.walk(stmt)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
    changed = [False]

    def unread(stmt):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and stmt.targets[0].id not in read and not _pops(stmt.value) \
                and not _calls(stmt.value):
            changed[0] = True
            return True
        return False

    return without_statements(body, unread), changed[0]


def _calls(value):
    """Calls may have effects (a user's helper printing): keep them."""
    return any(isinstance(n, gast.Call) for n in gast.walk(value))
