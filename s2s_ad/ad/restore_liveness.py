"""Which names' tape restores some read of the backward sweep can see (flow-aware).

The tape (tape.py) keeps a `__s2s_save__(x)` / `__s2s_restore__(x)` pair only when the
backward sweep needs x's old value. A read of x anywhere in the backward sweep is not
enough: a read before the first restore, or after an assignment that rebinds x, sees
another value. Here a restore is live when a read of its name can see it: on some path
from the restore to the read no other restore of the name and no assignment to it
intervene. Loops are walked to a fixed point (a restore at the end of an iteration is
seen by the reads at the start of the next); an `if` joins its two branches.

    before (backward):   x_bar = x + x                 # reads the final x: no restore
                         for _ in t[::-1]:
                             x = _tape.pop()           # seen by nothing -> dead
                             w_bar = bwd_h(p[1], x_bar)
    live_restored_names(backward) == set(): x is neither pushed nor popped.

Decisions are per save/restore pair: a restore is named by (name, pair), `pair` being
what its statement's save and restore share, and a pair whose restore no read sees is
dropped in both sweeps (its push and pop run equally often, so the tape stays balanced).
An outer loop's `power = 1.0` before an inner loop that rebinds power: the inner
loop's backward body pops power before each read, so the restore after it is seen by
nothing and goes, while the inner pair stays. Backward sweeps holding a construct the
walk does not model (break, continue, return, try, with, a nested def or lambda, whose
reads happen when called) return None: the caller falls back to every read name.
"""
import gast

from ..ir.walk import walk_tree

_OPAQUE = (gast.Break, gast.Continue, gast.Return, gast.Try, gast.With, gast.FunctionDef,
           gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef, gast.Global, gast.Nonlocal)


# statements visited before the walk gives up (a body of a few thousand statements in
# loops a few deep takes well under this)
_MOST_VISITS = 200_000


class _Opaque(Exception):
    pass


def live_restored_names(backward, returned, restore_name, is_marker):
    """The (name, pair)s of the restores some read can see, or None (see above).

    backward: the backward sweep's statements (with markers); returned: expressions read
    after it; restore_name(stmt): (the name a whole-value restore marker rebinds, its
    pair), or None; is_marker(stmt): any tape marker (read nothing)."""
    live, visits = set(), [0]

    def reads(node, state):
        for inner in walk_tree(node):
            if isinstance(inner, _OPAQUE):
                raise _Opaque
            if isinstance(inner, gast.Name) and (
                    isinstance(inner.ctx, gast.Load)
                    or isinstance(inner.ctx, gast.Store) and isinstance(node, gast.AugAssign)):
                live.update(seen for seen in state if seen[0] == inner.id)

    def kills(targets, state):
        # only plain names rebound by the statement itself (a missed kill keeps more)
        names = {t.id for target in targets for t in walk_tree(target)
                 if isinstance(t, gast.Name) and isinstance(t.ctx, gast.Store)}
        return {seen for seen in state if seen[0] in names}

    def block(stmts, state):
        for stmt in stmts:
            state = statement(stmt, state)
        return state

    def loop(head_reads, target, body, orelse, state):
        entry, seen = set(state), set(state)
        while True:
            inner = set(seen)
            head_reads(inner)
            inner -= kills([target], inner) if target is not None else set()
            out = block(body, inner)
            if out <= seen:
                break
            seen |= out
        head_reads(seen)                       # the test that ends a while loop
        return block(orelse, seen | entry)

    def statement(stmt, state):
        visits[0] += 1
        if visits[0] > _MOST_VISITS:
            # loops nested deep, each walked to its fixed point once per pass of the
            # loop around it: the caller's every-read-name answer instead of 2**depth walks
            raise _Opaque
        restored = restore_name(stmt)
        if restored is not None:        # the name's other restores are no longer seen
            return {seen for seen in state if seen[0] != restored[0]} | {restored}
        if is_marker(stmt):
            return state
        if isinstance(stmt, gast.If):
            reads(stmt.test, state)
            return block(stmt.body, set(state)) | block(stmt.orelse, set(state))
        if isinstance(stmt, gast.For):
            reads(stmt.iter, state)
            return loop(lambda s: None, stmt.target, stmt.body, stmt.orelse, state)
        if isinstance(stmt, gast.While):
            return loop(lambda s: reads(stmt.test, s), None, stmt.body, stmt.orelse, state)
        reads(stmt, state)
        if isinstance(stmt, (gast.Assign, gast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, gast.Assign) else [stmt.target]
            return state - kills(targets, state)
        return state

    try:
        final = block(backward, set())
        for expr in returned:
            reads(expr, final)
    except _Opaque:
        return None
    return live
