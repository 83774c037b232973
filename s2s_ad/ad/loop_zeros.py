"""Values whose adjoint is zero at the start of every backward iteration of a loop.

The backward walk keeps an accumulated adjoint's zero symbolic (ad/adjoints.py: reset,
nothing written) until something adds to it, which then simply assigns. Across a loop
that needs a fact: is the adjoint zero again each time the backward body starts? It is
for a value the loop body computes before it reads it, on every path, and that nothing
outside the loop mentions: its adjoint receives contributions only from reads inside the
same iteration, and the reversed definition (reached after them, backwards) resets it.
A value read before it is computed in the body (loop-carried, `x = layer(x)`) or read
after the loop carries adjoint from one backward iteration into the next.

    for layer in layers:                  t = layer(x): zero at each backward iteration's
        t = layer(x)          ->          start, so `t_bar = x_bar` (not t_bar + x_bar);
        x = t                             x is read before it is written: not zero there

`iteration_local(loop, function_body)`: the names, from the levels form (not changed).
"""
import gast

from ..ir.walk import walk_tree


def iteration_local(loop, function_body):
    """Names mentioned only inside `loop`'s body, and there always computed before read."""
    inside = _mentions(loop.body + loop.orelse)
    everywhere = _mentions(function_body)
    local = {name for name, count in inside.items() if everywhere.get(name) == count}
    exposed, _ = _exposed(loop.body, set())
    target = {loop.target.id} if isinstance(loop, gast.For) \
        and isinstance(loop.target, gast.Name) else set()
    return frozenset(local - exposed - target)


def _mentions(stmts):
    counts = {}
    for stmt in stmts:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name):
                counts[node.id] = counts.get(node.id, 0) + 1
    return counts


def _exposed(stmts, defined):
    """(names read before any definition on some path through `stmts`, names defined on
    every path) given `defined` on entry."""
    exposed, defined = set(), set(defined)
    for stmt in stmts:
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name):
            exposed |= _names(stmt.value) - defined
            defined.add(stmt.targets[0].id)
        elif isinstance(stmt, gast.If):
            exposed |= _names(stmt.test) - defined
            in_body, after_body = _exposed(stmt.body, defined)
            in_else, after_else = _exposed(stmt.orelse, defined)
            exposed |= in_body | in_else
            defined = after_body & after_else
        elif isinstance(stmt, (gast.For, gast.While)):
            head = stmt.iter if isinstance(stmt, gast.For) else stmt.test
            exposed |= _names(head) - defined
            inner = set(defined)
            if isinstance(stmt, gast.For) and isinstance(stmt.target, gast.Name):
                inner.add(stmt.target.id)
            in_body, _ = _exposed(stmt.body + stmt.orelse, inner)
            exposed |= in_body          # (the body may not run: it defines nothing for sure)
        else:
            # anything else (an index write reads its array, a call statement, a with
            # block): every name in it read, none surely defined
            exposed |= _names(stmt) - defined
    return exposed, defined


def _names(node):
    return {n.id for n in walk_tree(node) if isinstance(n, gast.Name)}
