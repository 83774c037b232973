"""Writes through a second name for the same array, which value semantics would miss.

s2s_ad follows values: `y = x` gives y the value of x, and `y[0] = 5.0` changes y. In
numpy both names hold one array, so the write changes x too. When the other name is
read after such a write, the gradient would be that of a different function; this
analysis finds those writes so that they are a located error, never a silent wrong
gradient.

    y = x                     pairs: {y: x}
    y[0] = 5.0          ->    [(the write, 'y', 'x')]  (x is read below)
    return np.sum(x * x)

An augmented assignment `y *= 2.0` counts as such a write (numpy updates the array in
place); the normaliser's side table (LevelsForm.in_place) gives its binding the name it
updates. On a number (the facts say so: a float, x[0] of a vector) it binds a new number
and is no write; where the facts do not say it is an array, the finding is `unknown`
(checked when the derivative runs).

Views count as second names too: `y = x.T`, `y = np.reshape(x, ...)`, `y = np.flip(x)`,
and `y = x[0]`, `x[1:3]`, `x[:, None]`, `x[::-1]` (basic indexing), both ways: a write into
x is seen through y unless the facts (analyses.kinds) say y is a number (x[i] of a vector)
or the index is an integer or boolean array (numpy copies then). When the facts do not
tell (the general derivative: is x a vector or a matrix?) the finding is marked
`unknown`: the derivative checks at run time whether y shares x's memory. So do lists
holding the array (`rows.append(row)`, `items = [z]`), and a loop's next iteration.
"""
import bisect
import inspect

import gast
import numpy as np

from ..backend.sources import is_generated
from ..ir.build import dotted_path
from .argument_writes import parameters_returned
from ..ir.primitives import appended_list
from ..ir.walk import names_loaded, names_stored, walk_tree
from ..signature import Items, Mapping, Num, SequenceOf

_VIEWS = {np.transpose, np.reshape, np.ravel, np.squeeze, np.expand_dims, np.swapaxes,
          np.diagonal, np.broadcast_to, np.flip, np.fliplr, np.flipud, np.rot90, np.moveaxis,
          np.asarray, np.atleast_1d, np.atleast_2d, np.atleast_3d}


def writes_through_aliases(levels, kinds=None, item_views=True):
    """[(write statement, written name, other name, unknown)] for each index write into an
    array that another name also holds, when that other name is read after the write.
    `kinds` (analyses.kinds) tells which item reads are views, numbers or copies; unknown
    is True when they do not tell whether the other name is a view. `item_views=False`
    (for derivatives s2s_ad generated, which restore what they overwrite before reading
    it again) leaves writes into x unseen through the items read out of it."""
    ordered = _in_order(levels.tree.body)
    uses = _uses(ordered, levels)
    loops = {id(node): node for node in walk_tree(levels.tree) if isinstance(node, gast.For)}
    unknown = set()    # names that may or may not be views of what they were read from
    shared = {}        # name -> names whose reads see a write into the array it holds
    members = {}       # list name -> names of the arrays it holds
    positions = {}     # list or tuple literal never appended to -> its items' names
    fresh = {}         # name rebound in a branch -> (its path, the names kept, position)
    born = {}          # (written, reader) -> paths of the statements that made them share
    one_way = set()    # (written, reader): the reader is a list holding what is written
    found = []

    def record(bound, path):
        """The pairs `bound` is in now were made (again) at a statement at `path`."""
        for written, readers in shared.items():
            for reader in readers:
                if bound in (written, reader):
                    born.setdefault((written, reader), set()).add(path)

    def meets(written, reader, path):
        """May a run reach a write at `path` after a statement that made the two names
        share? Not when every such statement is in the other branch of an if the write
        is in (`if c: z = x` / `else: x *= 2`: on the else path z is not x)."""
        paths = born.get((written, reader))
        return paths is None or any(not _exclusive(p, path) for p in paths)

    def still_shared(written, others, k, path):
        """Of the names sharing `written` at a write, those that may see it: not those
        a rebinding of `written` earlier in the same run of its branch left behind (the
        write goes into the new array), unless bound again since."""
        if written not in fresh:
            return others
        fresh_path, kept, since = fresh[written]
        if path[:len(fresh_path)] != fresh_path:
            return others
        return {o for o in others if o not in kept or _bound_between(ordered, since, k, o)}

    def affects(names, reader, holder=False):
        """A write into any of `names`, or into what they see, is seen through `reader`
        (one way: a write through `reader` is not seen through them). `holder`: the
        reader is a list holding them, which a view of what it holds never sees."""
        for written in set(shared) | set(names):
            if written != reader and (written in names or shared.get(written, set()) & names):
                if holder and reader not in shared.setdefault(written, set()):
                    one_way.add((written, reader))
                shared[written].add(reader)

    for k, (stmt, path) in enumerate(ordered):
        appended = appended_list(stmt)
        if appended is not None:
            # the list holds the array itself: a later write into it changes the list
            items = {n.id for n in stmt.value.args if isinstance(n, gast.Name)}
            members[appended] = members.get(appended, set()) | items
            positions.pop(appended, None)
            affects(items, appended, holder=True)
            # `b = a; b.append(v)`: the one list grows, seen through a (in the user's
            # code: a derivative's own tapes are popped in the order they were pushed)
            for other in sorted(still_shared(appended, shared.get(appended, set()), k, path)
                                - {appended} if item_views else ()):
                if _read_before_rebound(ordered, uses, k, other) \
                        and meets(appended, other, path):
                    found.append((stmt, appended, other, other in unknown))
            record(appended, path)
            continue
        if not isinstance(stmt, gast.Assign):
            continue
        target = stmt.targets[0]
        updated = levels.updated_in_place(stmt)
        if _number(updated, kinds):
            updated = None        # `s += e` on a number rebinds s: no memory is written
        if isinstance(target, gast.Name) and updated is not None:
            # `y *= 2` on an array writes into it: every name sharing it sees the change;
            # when the facts do not say it is an array (a number binds a new one), the
            # derivative checks at run time
            array = _array(updated, kinds)
            group = still_shared(updated, shared.get(updated, set()), k, path) - {target.id}
            next_item = _next_item_read(ordered[k][1], updated, loops)
            found.extend((stmt, updated, other, other in unknown or updated in unknown
                          or not array)
                         for other in sorted(group)
                         if _read_before_rebound(ordered, uses, k, other, next_item)
                         and meets(updated, other, path))
            shared[target.id] = (group | {updated}) - {target.id}
            affects({updated}, target.id)
            record(target.id, path)
        elif isinstance(target, gast.Name):
            source = _viewed(stmt.value, levels.callees)
            # in a branch, t may still hold what it held: `t = v if c else u` leaves t
            # holding v on one path
            kept = set(shared.get(target.id, set())) if _in_branch(path) else set()
            if kept:
                fresh[target.id] = (path, kept, k)
            else:
                fresh.pop(target.id, None)
            if not _in_branch(path):
                for group in shared.values():
                    group.discard(target.id)      # rebound: no longer the same array
            shared[target.id] = set()
            one_way.difference_update({p for p in one_way if target.id in p})
            if not kept:
                # in a branch, a name that may still hold a possible view of another
                # path stays "may be a view" (checked at run time)
                unknown.discard(target.id)
            members.pop(target.id, None)
            positions.pop(target.id, None)
            if isinstance(stmt.value, (gast.List, gast.Tuple)):
                # a write into an item is seen through the list, not the other way round
                positions[target.id] = [e.id if isinstance(e, gast.Name) else None
                                        for e in stmt.value.elts]
                items = {e for e in positions[target.id] if e is not None}
                members[target.id] = items
                affects(items, target.id, holder=True)
            elif source is not None and isinstance(stmt.value, gast.Subscript) \
                    and source in members:
                # an item taken from a list: one of its arrays (the one at a constant
                # index of a literal), seen through the list
                held = _item_names(stmt.value.slice, positions.get(source), members[source])
                shared[target.id] = set().union(*(shared.get(n, set()) for n in held)) \
                    | held | {source}
                affects(held, target.id)
                if held & unknown or not all(_array(n, kinds) for n in held):
                    unknown.add(target.id)       # a number shares nothing: check at run time
            elif source is not None:
                together = shared.setdefault(source, set()) | {source}
                verdict = "view" if not isinstance(stmt.value, gast.Subscript) else \
                    _item_read(stmt.value, target.id, kinds) if item_views else "copy"
                if verdict != "copy":
                    # writes into x are seen through y (not when y is a number or a copy)
                    for name in together:
                        # (a list holding x does not see a write into y: y is no item)
                        if (source, name) not in one_way:
                            shared.setdefault(name, set()).add(target.id)
                    if verdict == "unknown" or together & unknown:
                        unknown.add(target.id)
                shared[target.id] = set(together)
                one_way.update((target.id, n) for n in together if (source, n) in one_way)
            shared[target.id] = (shared[target.id] | kept) - {target.id}
            record(target.id, path)
        elif isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
            written = target.value.id
            if not shared.get(written):
                continue
            for other in sorted(still_shared(written, shared[written], k, path) - {written}):
                if _read_before_rebound(ordered, uses, k, other) \
                        and meets(written, other, path):
                    found.append((stmt, written, other, other in unknown))
    return _first_of_each(found)


def _exclusive(first, second):
    """Are two statement paths (from _in_order) in different branches of one run of an
    if? (A loop's copies and its else follow each other: never exclusive.)"""
    for a, b in zip(first, second):
        if a != b:
            return a[0] == b[0] and {a[1], b[1]} == {"body", "else"}
    return False


def _bound_between(ordered, start, end, name):
    """Is `name` bound, updated or appended to by a statement strictly between positions
    start and end of `ordered`?"""
    return any(name in names_stored(stmt) or appended_list(stmt) == name
               for stmt, _ in ordered[start + 1:end])


def _in_branch(path):
    """Is a statement at this path (from _in_order) inside a branch of an if?"""
    return any(step[1] in ("body", "else") for step in path)


def _item_names(index, items, held):
    """The names an item `index` of a list may be: the one at a constant index of a
    literal (`items`), else any it holds."""
    if items is not None and isinstance(index, gast.Constant) \
            and isinstance(index.value, int) and -len(items) <= index.value < len(items):
        item = items[index.value]
        return {item} if item is not None else set()
    return held


def _in_order(body):
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


def _uses(ordered, levels):
    """name -> [(position, 'load' or 'rebind')]: where `ordered` reads the name, or else
    binds it anew (not an in-place update), in order."""
    uses = {}
    for k, (stmt, _) in enumerate(ordered):
        loaded = names_loaded(stmt)
        for name in loaded:
            uses.setdefault(name, []).append((k, "load"))
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and levels.updated_in_place(stmt) is None \
                and stmt.targets[0].id not in loaded:
            uses.setdefault(stmt.targets[0].id, []).append((k, "rebind"))
    return uses


def _read_before_rebound(ordered, uses, k, name, next_item=None):
    """Is `name` read after statement k while it may still hold the same array? A
    rebinding hides the reads after it in its own block (and blocks inside it) only:
    a later read outside that block may follow a path that skipped the rebinding, unless
    both branches of an if rebind it. `next_item`: (statement, path) of a read that does
    not count (the next iteration's item, `_next_item_read`)."""
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


def _next_item_read(write_path, updated, loops):
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


def _first_of_each(found):
    """One finding per (statement, names): a loop's body is read twice."""
    seen, out = set(), []
    for stmt, written, other, unknown in found:
        if (id(stmt), written, other) not in seen:
            seen.add((id(stmt), written, other))
            out.append((stmt, written, other, unknown))
    return out


def _item_read(value, name, kinds):
    """`name = x[index]`: "view" (numpy returns a view of x), "copy" (a number, an item of
    a list, or an integer or boolean array index: nothing shared with x) or "unknown"."""
    parts = value.slice.elts if isinstance(value.slice, gast.Tuple) else [value.slice]
    if kinds is None:
        return "unknown"
    for part in parts:
        part_kind = kinds.of(part) if isinstance(part, gast.Name) else None
        if isinstance(part, gast.List) or isinstance(part_kind, (Items, SequenceOf)) \
                or isinstance(part_kind, Num) and part_kind.axes:
            return "copy"                       # integer or boolean array indexing
    kind, base = kinds.of(name), kinds.of(value.value)
    if isinstance(kind, Num) and kind.axes == () and kind.type not in (None, np.ndarray) \
            or isinstance(base, (Items, SequenceOf, Mapping)):
        return "copy"
    if isinstance(kind, Num) and kind.axes and isinstance(base, Num) \
            and base.type is np.ndarray:
        return "view"
    return "unknown"


def _number(name, kinds):
    """The facts say `name` holds a number (Python or numpy scalar: immutable)."""
    kind = kinds.of(name) if kinds is not None and name is not None else None
    return isinstance(kind, Num) and kind.axes == () and kind.type not in (None, np.ndarray)


def _array(name, kinds):
    """The facts say `name` holds a numpy array."""
    kind = kinds.of(name) if kinds is not None else None
    return isinstance(kind, Num) and kind.type is np.ndarray


def _viewed(value, callees):
    """The name whose array `value` may share: `x`, `x[...]`, `x.T`, np.reshape(x, ...)."""
    if isinstance(value, gast.Name):
        return value.id
    if isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name):
        return value.value.id
    if isinstance(value, gast.Call) and value.args and isinstance(value.args[0], gast.Name) \
            and callees.get(dotted_path(value.func)) in _VIEWS:
        return value.args[0].id
    if isinstance(value, gast.Call):
        # a def of yours returning (a view of) what it is given: `return M[0]`
        callee = callees.get(dotted_path(value.func))
        if inspect.isfunction(callee) and not (callee.__module__ or "").startswith(
                ("numpy", "scipy", "s2s_ad")) and not is_generated(callee):
            for i in parameters_returned(callee):
                if i < len(value.args) and isinstance(value.args[i], gast.Name):
                    return value.args[i].id
    return None
