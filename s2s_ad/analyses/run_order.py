"""Statements in an order they may run in, with the blocks they sit in, and what a read
or a binding after a statement can reach (analyses/aliases.py asks these).

    for i in range(n):            in_order: [(y *= 2, ((loop, 0),)), (z = y, ((loop, 0),)),
        y *= 2                               (y *= 2, ((loop, 1),)), (z = y, ((loop, 1),)),
        z = y                                (return, ())]
    return np.sum(z)

A loop's body appears twice (what one iteration leaves, the next may see), an if's two
branches one after the other, each statement with its path: the blocks that hold it, a
loop's copies as (id, 0) and (id, 1), an if's branches as (id, "body") and (id, "else").
The input is only read.
"""
import bisect

import gast

from ..ir.primitives import appended_list
from ..ir.walk import names_loaded, names_stored


def in_order(body):
    """[(statement, path)] for the simple statements of `body` in an order they may run
    in: a loop's body twice (what one iteration shares, the next may write into), then
    both branches of an if. The path names the blocks a statement is in (each copy of a
    loop body, each branch its own).

    Only the second copy of a loop's body holds its inner loops twice (the first holds
    each once): loops nested d deep give d + 1 copies of the innermost body, not 2**d,
    and the second copy still follows one whole iteration with every order of the inner
    loops'. Built from an explicit stack: nothing recurses on the nesting."""
    ordered = []
    stack = [(list(body), 0, (), True)]       # (statements, next one, path, loops twice)
    while stack:
        stmts, k, path, twice = stack.pop()
        if k == len(stmts):
            continue
        stmt = stmts[k]
        stack.append((stmts, k + 1, path, twice))
        if isinstance(stmt, (gast.For, gast.While)):
            blocks = [(stmt.body, (id(stmt), 0), False)]
            if twice:
                blocks.append((stmt.body, (id(stmt), 1), True))
            blocks.append((stmt.orelse, (id(stmt), "else"), twice))
        elif isinstance(stmt, gast.If):
            blocks = [(stmt.body, (id(stmt), "body"), twice),
                      (stmt.orelse, (id(stmt), "else"), twice)]
        else:
            ordered.append((stmt, path))
            continue
        for block, step, inner_twice in reversed(blocks):
            stack.append((list(block), 0, path + (step,), inner_twice))
    return ordered


def uses_of(ordered):
    """name -> [(position, 'load' or 'rebind')]: where `ordered` reads the name, or else
    binds it anew, in order. The binding of an in-place update (`m_2 = m_1 * b` for
    `self.m *= b`) is a rebinding of its target too: the target gets the value numpy
    leaves in the array, which is what s2s_ad computes for it."""
    uses = {}
    for k, (stmt, _) in enumerate(ordered):
        loaded = names_loaded(stmt)
        for name in loaded:
            uses.setdefault(name, []).append((k, "load"))
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and stmt.targets[0].id not in loaded:
            uses.setdefault(stmt.targets[0].id, []).append((k, "rebind"))
    return uses


def read_before_rebound(ordered, uses, k, name, next_item=None):
    """Is `name` read after statement k while it may still hold the same array? A
    rebinding hides the reads after it in its own block (and blocks inside it) only:
    a later read outside that block may follow a path that skipped the rebinding, unless
    both branches of an if rebind it. `next_item`: (statement, path) of a read that does
    not count (the next iteration's item, `next_item_read`)."""
    events = uses.get(name, [])
    rebound_in = []
    written_at = ordered[k][1]
    for position, what in events[bisect.bisect_right(events, (k, "~")):]:
        stmt, path = ordered[position]
        if any(path[:len(p)] == p for p in rebound_in) or (
                next_item is not None and stmt is next_item[0] and path == next_item[1]):
            continue
        if what == "load":
            return True
        if written_at[:len(path)] == path and not any(
                isinstance(s, (gast.Break, gast.Continue, gast.Return))
                for s, _ in ordered[k + 1:position]):
            # rebound in the block that holds the write, after it, with no jump between:
            # every run of the write goes on to the rebinding (`y *= 2; z = y` in a loop)
            return False
        rebound_in.append(path)
        rebound_in.extend(_rebound_on_both_branches(rebound_in))
    return False


def _rebound_on_both_branches(paths):
    """The enclosing paths of ifs rebinding a name in both their branches: after such an
    if the name holds its new value whichever branch ran (`y = a if c else b` becomes
    one assignment per branch)."""
    found = []
    for path in paths:
        if path and path[-1][1] == "body":
            enclosing = path[:-1]
            if enclosing + ((path[-1][0], "else"),) in paths and enclosing not in paths:
                found.append(enclosing)
    return found


def next_item_read(write_path, updated, loops):
    """(statement, path) of the next iteration's `r = x[index]` when the in-place update
    of `updated` at `write_path` runs in the first copy of a loop over `index` whose body
    starts by binding `updated` to an item: the next iteration reads another item, which
    the write did not touch (an iteration after that, or another run of the loop, still
    counts)."""
    if not write_path or write_path[-1][1] != 0 or write_path[-1][0] not in loops:
        return None
    loop = loops[write_path[-1][0]]
    first = loop.body[0] if loop.body else None
    if isinstance(loop.target, gast.Name) and isinstance(first, gast.Assign) \
            and isinstance(first.targets[0], gast.Name) and first.targets[0].id == updated \
            and isinstance(first.value, gast.Subscript) \
            and isinstance(first.value.slice, gast.Name) \
            and first.value.slice.id == loop.target.id:
        return first, write_path[:-1] + ((write_path[-1][0], 1),)
    return None


def exclusive(first, second):
    """Are two statement paths (from in_order) in different branches of one run of an
    if? (A loop's copies and its else follow each other: never exclusive.)"""
    for a, b in zip(first, second):
        if a != b:
            return a[0] == b[0] and {a[1], b[1]} == {"body", "else"}
    return False


def bound_between(ordered, start, end, name):
    """Is `name` bound, updated or appended to by a statement strictly between positions
    start and end of `ordered`?"""
    return any(name in names_stored(stmt) or appended_list(stmt) == name
               for stmt, _ in ordered[start + 1:end])


def in_branch(path):
    """Is a statement at this path (from in_order) inside a branch of an if?"""
    return any(step[1] in ("body", "else") for step in path)
