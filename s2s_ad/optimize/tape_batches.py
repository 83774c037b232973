"""Stage 7 (specialised reverse mode): one tape entry per loop iteration, not one per value.

Each value a loop saves costs a `_tape.append(v)` in the forward sweep and a
`v = _tape.pop()` in the backward sweep: an attribute lookup and a call each, about as
much as the float arithmetic they serve. When a `for` loop saves several values (three
or more, or two that need no copy below), its iteration pushes them as one tuple where it
pushed the first of them, and the reversed loop pops that tuple where it popped the first
of them (the last one pushed):

    for t in t2_0:                                 for t in t2_0:
        _tape.append(t4_1)                             _tape.append((t4_1, t4_2, x))
        t4_1 = b * x                                   t4_1 = b * x
        _tape.append(t4_2)                             t4_2 = c * x
        t4_2 = c * x                     ->            x = t8_0 + t4_1 * t4_2
        _tape.append(x)
        x = t8_0 + t4_1 * t4_2
    ...                                            ...
    for t in t2_0[::-1]:                           for t in t2_0[::-1]:
        x = _tape.pop()                                t4_1_saved, t4_2, x = _tape.pop()
        t4_2 = _tape.pop()                             b_bar += x_bar * t4_1
        b_bar += x_bar * t4_1                          t4_1 = t4_1_saved
        t4_1 = _tape.pop()

Why the values are the same: the tape holds references, so pushing one earlier saves the
same object unless the name is rebound in between, and this applies only when no saved
name is rebound between the first push and its own push. The entries stay in LIFO order:
the loop's bodies touch the tape only through these pushes and pops (no nested loop or
branch that tapes), so between an iteration's tuple push and the reversed iteration's
pop nothing else reaches the tape. A popped value goes straight into its variable when
nothing between the tuple's pop and that value's own pop reads or binds the variable;
otherwise into a fresh name that the old pop's place copies from.

The body this writes is not differentiated again (the pipeline keeps the unbatched one
for that, as for optimize/buffers.py): only a specialised derivative's final code is
batched. Loops replayed by a trip count (`while`, `break`) keep one entry per value.
"""
import gast

from ..ir import build
from ..ir.walk import all_statements, names_loaded, names_stored, walk_tree, with_copies_of


def batch_loop_tapes(body, tape, fresh):
    """`body` (a derivative's statements: forward sweep, blank line, backward sweep) with
    each eligible loop's saves batched; tape: the tape's name; fresh(base): a new local
    name. Returns (body, changed); the statements given are not edited (the loops changed
    are in copies)."""
    plans = _plans(body, tape)
    if not plans:
        return body, False
    body, copies = with_copies_of(body, [node for plan in plans for node in plan[:2]])
    for loop, mirror, pushes, pops in plans:
        copies[id(loop)].body = _batched_pushes(loop.body, pushes, tape)
        copies[id(mirror)].body = _batched_pops(mirror.body, pops, tape, fresh)
    return body, True


def _plans(body, tape):
    """[(forward loop, its backward loop, pushes, pops)] of the loops to batch."""
    split = next((k for k, stmt in enumerate(body) if build.is_blank_line(stmt)), None)
    if split is None:
        return []
    forward, backward = body[:split], body[split + 1:]
    reversed_loops = [s for s in all_statements(backward) if isinstance(s, gast.For)]
    plans = []
    for loop in [s for s in all_statements(forward) if isinstance(s, gast.For)
                 and not s.orelse]:
        pushes = _top_level_tape_uses(loop.body, tape, _pushed)
        if pushes is None or len(pushes) < 2 or not _unbound_until_pushed(loop.body, pushes):
            continue
        mirror = [r for r in reversed_loops if _reverses(r, loop)]
        if len(mirror) != 1:
            continue
        pops = _top_level_tape_uses(mirror[0].body, tape, _popped)
        if pops is None or [v for _, v in pops] != [v for _, v in reversed(pushes)]:
            continue
        if len(pushes) == 2 and _touched_before_popped(mirror[0].body, pops):
            continue        # a tuple and a copy cost about what two calls each way do
        plans.append((loop, mirror[0], pushes, pops))
    return plans


def _pushed(stmt, tape):
    """v for `tape.append(v)`, else None."""
    if isinstance(stmt, gast.Expr) and _is_tape_call(stmt.value, tape, "append") \
            and len(stmt.value.args) == 1 and isinstance(stmt.value.args[0], gast.Name):
        return stmt.value.args[0].id
    return None


def _popped(stmt, tape):
    """v for `v = tape.pop()`, else None."""
    if build.assigned_name(stmt) is not None \
            and _is_tape_call(stmt.value, tape, "pop") and not stmt.value.args:
        return stmt.targets[0].id
    return None


def _is_tape_call(node, tape, method):
    return isinstance(node, gast.Call) and not node.keywords \
        and isinstance(node.func, gast.Attribute) and node.func.attr == method \
        and isinstance(node.func.value, gast.Name) and node.func.value.id == tape


def _top_level_tape_uses(stmts, tape, recognise):
    """[(index, variable)] of the top-level statements `recognise` accepts, or None when
    the tape appears anywhere else in `stmts` (nested blocks included)."""
    found = []
    for index, stmt in enumerate(stmts):
        variable = recognise(stmt, tape)
        if variable is not None:
            found.append((index, variable))
        elif any(isinstance(n, gast.Name) and n.id == tape for n in walk_tree(stmt)):
            return None
    return found


def _unbound_until_pushed(stmts, pushes):
    """Is no pushed name bound between the first push and its own (nor pushed twice)?"""
    names = [v for _, v in pushes]
    if len(set(names)) != len(names):
        return False
    first, last = pushes[0][0], pushes[-1][0]
    stored = [set(names_stored(stmt)) for stmt in stmts[first:last]]
    return all(v not in bound for index, v in pushes for bound in stored[:index - first])


def _reverses(candidate, loop):
    """Is `candidate` the loop `for t in X[::-1]` the backward sweep made of `for t in X`?"""
    it = candidate.iter
    return isinstance(candidate.target, gast.Name) and isinstance(loop.target, gast.Name) \
        and candidate.target.id == loop.target.id and isinstance(it, gast.Subscript) \
        and isinstance(it.slice, gast.Slice) and it.slice.lower is None \
        and it.slice.upper is None and build.number_literal(it.slice.step) == -1 \
        and gast.dump(it.value) == gast.dump(loop.iter)


def _batched_pushes(stmts, pushes, tape):
    first, names = pushes[0][0], [v for _, v in pushes]
    batch = build.expr_stmt(build.call(build.attribute(build.name(tape), "append"),
                                       [build.tuple_([build.name(v) for v in names])]))
    dropped = {index for index, _ in pushes}
    return [batch if k == first else stmt for k, stmt in enumerate(stmts)
            if k == first or k not in dropped]


def _touched_before_popped(stmts, pops):
    """Names read or bound between the tuple's pop and their own: popped into a fresh
    name, then copied."""
    first = pops[0][0]
    return [v for index, v in pops
            if any(v in names_loaded(s) or v in names_stored(s) for s in stmts[first + 1:index])]


def _batched_pops(stmts, pops, tape, fresh):
    """Pop the tuple where the first pop was; each value straight into its variable when
    nothing in between reads or binds it, else into a fresh name copied at its old pop."""
    first = pops[0][0]
    touched = set(_touched_before_popped(stmts, pops))
    targets, copies = {}, {}
    for index, v in pops:
        targets[v] = fresh(f"{v}_saved") if v in touched else v
        if v in touched:
            copies[index] = build.assign(v, build.name(targets[v]))
    order = [v for _, v in reversed(pops)]          # the order the tuple was built in
    unpack = build.assign_tuple([targets[v] for v in order], build.call(
        build.attribute(build.name(tape), "pop")))
    out = []
    for k, stmt in enumerate(stmts):
        if k == first:
            out.append(unpack)
        elif k in copies:
            out.append(copies[k])
        elif k not in {index for index, _ in pops}:
            out.append(stmt)
    return out
