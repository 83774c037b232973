"""Dead-code elimination over a generated function body.

A forward statement survives when its value is read later (by the backward sweep, a
return, or another surviving statement); calls kept for their effects (`print(x)`) and
asserts always survive. Backward statements are kept as generated: the adjoint
bookkeeping only emits what the gradient needs. `drop_empty_comments` removes provenance
comments whose block turned out empty, and `if t: pass`.

    t1_0 = np.exp(x)          t1_0 = np.exp(x)
    y = t1_0 + 1.0      ->    (y removed: nothing reads it)
    ...                       ...
"""
import re

import gast

from ..ir import build
from ..ir.walk import (all_statements, every_call, names_loaded, walk_tree, with_blocks,
                       without_statements)


def eliminate_dead_code(body, raising=None):
    """Returns (new body, changed). `raising` (analyses/raising.py) keeps a statement of
    f that may raise, or puts a check of the same condition in its place."""
    needed = set()
    kept = []
    changed = False
    later_checks = {}       # a check put in below -> (its place in kept, the names it reads)
    next_check = None       # what the next check below reads, when nothing between may raise
    for stmt in reversed(body):
        if isinstance(stmt, gast.Assign) and all(isinstance(t, gast.Name) for t in stmt.targets) \
                and not _pops(stmt.value):
            if not any(t.id in needed for t in stmt.targets):
                stand_in = raising.stand_in(stmt) if raising is not None else None
                if stand_in is None:
                    changed = True
                    continue
                changed |= stand_in is not stmt
                stmt = stand_in
        check = raising is not None and raising.is_check(stmt)
        if check:
            key, checked = gast.dump(stmt), set(names_loaded(stmt))
            if key in later_checks:            # the same check below: this one does it
                kept[later_checks[key][0]] = None
                changed = True
            elif next_check is not None and checked <= next_check:
                changed = True                 # the next check covers this one's shapes
                continue
            later_checks[key] = (len(kept), checked)
            next_check = checked
        stored, reads = _stores_and_reads(stmt)
        if raising is not None and not check and (raising.may_raise(stmt)
                                                  or stored & (next_check or set())):
            next_check = None
        if _empty_loop(stmt, needed):
            changed = True
            continue
        if stored:
            later_checks = {k: v for k, v in later_checks.items() if not v[1] & stored}
        kept.append(stmt)
        needed |= reads
    return [s for s in reversed(kept) if s is not None], changed


def _stores_and_reads(stmt):
    """The names a statement binds, and those it reads (an augmented assignment's target
    too), from one walk."""
    stored, reads = set(), set()
    for node in walk_tree(stmt):
        if isinstance(node, gast.Name):
            (reads if isinstance(node.ctx, gast.Load) else
             stored if isinstance(node.ctx, gast.Store) else set()).add(node.id)
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            reads.add(node.target.id)
    return stored, reads


def _empty_loop(stmt, needed):
    """`for i in t1_0: pass` over a name or its reverse, with `i` read nowhere later: it
    does nothing (a loop whose body had nothing to differentiate)."""
    return isinstance(stmt, gast.For) and not stmt.orelse \
        and all(isinstance(s, gast.Pass) for s in stmt.body) \
        and not any(isinstance(n, gast.Call) for n in walk_tree(stmt.iter)) \
        and not any(isinstance(n, gast.Name) and n.id in needed for n in walk_tree(stmt.target))


def _pops(value):
    """`x = _tape.pop()` must stay even when x is dead: the pop balances the tape. So must
    a pop inside the value, `x = placeholder(_tape.pop())` (a shape restore): dropping it
    alone leaves its push on the tape, and every later pop reads the entry pushed before
    its own (a shape where an array was pushed). So must `x_bar = pop_adjoint(tape_bar)`
    in a gradient differentiated again (the reverse of `_tape.append(x)`): the list
    adjoint's entries are pushed by the reversed pops (push_adjoint), and one left
    unpopped hands every later pop_adjoint the adjoint of another entry."""
    return any(isinstance(n, gast.Call) and (
        isinstance(n.func, gast.Attribute) and n.func.attr == "pop"
        or isinstance(n.func, gast.Name) and _POP_ADJOINT.fullmatch(n.func.id))
        for n in walk_tree(value))


# the runtime's pop_adjoint under the name the bindings gave it (pop_adjoint, or
# pop_adjoint_2 beside a user's function of that name)
_POP_ADJOINT = re.compile(r"pop_adjoint(_\d+)?")


def remove_unread_assignments(body, raising=None):
    """Assignments anywhere (inside loops and branches too) to names the function never
    reads: `result_bar_1 = result_bar` left over in a branch. Returns (body, changed).
    A statement of f that may raise (`raising`) stays."""
    read = {n.id for stmt in body for n in walk_tree(stmt)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
    read |= {n.target.id for stmt in body for n in walk_tree(stmt)     # `x += e` reads x
             if isinstance(n, gast.AugAssign) and isinstance(n.target, gast.Name)}
    changed = [False]

    def unread(stmt):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and stmt.targets[0].id not in read and not _pops(stmt.value) \
                and not _calls(stmt.value) \
                and (raising is None or raising.stand_in(stmt) is None):
            changed[0] = True
            return True
        return False

    return without_statements(body, unread), changed[0]


def _calls(value):
    """Calls may have effects (a user's helper printing): keep them."""
    return any(isinstance(n, gast.Call) for n in walk_tree(value))


def remove_dead_cycles(body, pure_call, raising=None):
    """Assignments whose values reach nothing but each other, also around a loop: an
    accumulator `loss = loss + np.sum(r ** 2)` that the gradient does not return. A
    value is needed when a statement other than a plain assignment reads it (a return,
    a tape push, a loop or branch head, an index write, a call kept for its effects), or
    when a needed value's assignment reads it. Only assignments whose calls are all
    pure (`pure_call`), that do not pop the tape and that cannot raise (`raising`) are
    removed; one that may raise and has a check (`raising.stand_in`) is replaced by it.
    Returns (body, changed)."""
    definitions, needed, checks = {}, set(), {}
    for stmt in all_statements(body):
        removable = _removable(stmt, pure_call)      # walks the value: once, not twice
        stand_in = raising.stand_in(stmt) if raising is not None and removable else None
        if stand_in is not None and stand_in is not stmt:
            # a math call or a broadcast that may raise: when dead, its check stays in its
            # place (`check_broadcast(t3_0, SCALE)` for `t4_0 = t3_0 * SCALE` in a loop,
            # not the product nothing reads)
            checks[id(stmt)] = stand_in
            needed |= set(names_loaded(stand_in))
            stand_in = None
        if removable and stand_in is None:
            target = stmt.target if isinstance(stmt, gast.AugAssign) else stmt.targets[0]
            definitions.setdefault(target.id, []).append(stmt)
            continue
        heads = [stmt.iter] if isinstance(stmt, gast.For) else [stmt.test] \
            if isinstance(stmt, (gast.If, gast.While)) else [stmt]
        needed |= {n.id for h in heads for n in walk_tree(h)
                   if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
            needed.add(stmt.target.id)     # a kept `x += e` reads x: x's start is needed
    pending = list(needed)
    while pending:
        for stmt in definitions.get(pending.pop(), ()):
            reads = list(walk_tree(stmt.value))
            if isinstance(stmt, gast.AugAssign):
                reads.append(gast.Name(id=stmt.target.id, ctx=gast.Load(), annotation=None,
                                       type_comment=None))     # `x += e` reads x
            for node in reads:
                if isinstance(node, gast.Name) and node.id not in needed:
                    needed.add(node.id)
                    pending.append(node.id)
    dead = [s for name, stmts in definitions.items() if name not in needed for s in stmts]
    if not dead:
        return body, False
    dead_ids = {id(s) for s in dead if id(s) not in checks}
    body = _replaced(body, {id(s): checks[id(s)] for s in dead if id(s) in checks})
    return without_statements(body, lambda stmt: id(stmt) in dead_ids), True


def _replaced(body, table):
    """`body` with the statements whose ids `table` holds replaced (nested ones too)."""
    return [with_blocks(table.get(id(stmt), stmt), lambda block: _replaced(block, table))
            for stmt in body]


def _removable(stmt, pure_call):
    """`x = e` and `x += e` (generated code adds in place only into arrays it owns)."""
    plain = build.assigned_name(stmt) is not None
    augmented = isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name)
    return (plain or augmented) and not _pops(stmt.value) \
        and every_call(stmt.value, pure_call)


def drop_empty_comments(body):
    """Remove `# grad of:` comments followed by nothing of their own."""
    changed = [False]

    def block(stmts):
        out = []
        for k, stmt in enumerate(stmts):
            stmt = with_blocks(stmt, lambda inner: (block(inner) or [gast.Pass()])
                               if inner else inner)
            if isinstance(stmt, gast.If) and all(isinstance(s, gast.Pass)
                                                 for s in stmt.body + stmt.orelse):
                changed[0] = True       # `if t: pass` left by an emptied backward branch
                continue
            if _is_comment(stmt):
                following = stmts[k + 1] if k + 1 < len(stmts) else None
                if following is None or _is_comment(following) or build.is_blank_line(following) \
                        or isinstance(following, gast.Return):
                    changed[0] = True
                    continue
            out.append(stmt)
        return out

    return block(body), changed[0]


def _is_comment(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id == "__s2s_comment__"
