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
