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
A call of a function chosen when the code runs (`z = model(y)`, an identity layer
returning y itself) may be any array it is given: checked at run time.
"""
import inspect

import gast
import numpy as np

from ..backend.sources import is_generated
from ..ir.build import dotted_path
from .argument_writes import parameters_returned
from ..ir.primitives import appended_list
from ..ir.walk import all_statements, walk_tree
from ..runtime_functions import call_function
from .container_items import item_names, literal_items, put_item, repeated_list
from .run_order import (bound_between, exclusive, in_branch, in_order, next_item_read,
                        read_before_rebound, uses_of)
from ..signature import Attributes, Items, Mapping, Num, Opaque, SequenceOf

_VIEWS = {np.transpose, np.reshape, np.ravel, np.squeeze, np.expand_dims, np.swapaxes,
          np.diagonal, np.broadcast_to, np.flip, np.fliplr, np.flipud, np.rot90, np.moveaxis,
          np.asarray, np.atleast_1d, np.atleast_2d, np.atleast_3d}


def writes_through_aliases(levels, kinds=None, item_views=True):
    """[(write statement, written name, other name, unknown)] for each index write into an
    array that another name also holds, when that other name is read after the write.
    `kinds` (analyses.kinds) tells which item reads are views, numbers or copies; unknown
    is True when they do not tell whether the other name is a view. `item_views=False`
    (for derivatives s2s_ad generated, which restore what they overwrite before reading
    it again) leaves writes into x unseen through the items read out of it. A body that
    writes into no item, updates nothing in place and grows no list has nothing to find:
    its statements are not ordered, nor its names' uses read."""
    if not any(_may_write(stmt, levels) for stmt in all_statements(levels.tree.body)):
        return []
    ordered = in_order(levels.tree.body)
    uses = uses_of(ordered)
    loops = {id(node): node for node in walk_tree(levels.tree) if isinstance(node, gast.For)}
    unknown = set()    # names that may or may not be views of what they were read from
    shared = {}        # name -> names whose reads see a write into the array it holds
    members = {}       # list name -> names of the arrays it holds
    positions = {}     # list or tuple literal never appended to -> its items' names
    doubled = set()    # lists or dicts holding one array at two places or more
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
        is in (`if c: z = x` / `else: x *= 2`: on the else path z is not x). Nor, in a
        derivative s2s_ad generated, a list holding the array: f's reads of its lists
        were checked in f, and the backward sweep reads them after its restores."""
        if not item_views and reader in members:
            return False
        paths = born.get((written, reader))
        return paths is None or any(not exclusive(p, path) for p in paths)

    def still_shared(written, others, k, path):
        """Of the names sharing `written` at a write, those that may see it: not those
        a rebinding of `written` earlier in the same run of its branch left behind (the
        write goes into the new array), unless bound again since."""
        if written not in fresh:
            return others
        fresh_path, kept, since = fresh[written]
        if path[:len(fresh_path)] != fresh_path:
            return others
        return {o for o in others if o not in kept or bound_between(ordered, since, k, o)}

    def affects(names, reader, holder=False):
        """A write into any of `names`, or into what they see, is seen through `reader`
        (one way: a write through `reader` is not seen through them). `holder`: the
        reader is a list holding them, which a view of what it holds never sees."""
        for written in set(shared) | set(names):
            if written != reader and (written in names or shared.get(written, set()) & names):
                readers = shared.setdefault(written, set())
                if holder and reader not in readers:
                    one_way.add((written, reader))
                readers.add(reader)

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
                if read_before_rebound(ordered, uses, k, other) \
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
            next_item = next_item_read(ordered[k][1], updated, loops)
            found.extend((stmt, updated, other, other in unknown or updated in unknown
                          or not array)
                         for other in sorted(group)
                         if read_before_rebound(ordered, uses, k, other, next_item)
                         and meets(updated, other, path))
            shared[target.id] = (group | {updated}) - {target.id}
            affects({updated}, target.id)
            record(target.id, path)
        elif isinstance(target, gast.Name):
            source = _viewed(stmt.value, levels.callees, kinds)
            # in a branch, t may still hold what it held: `t = v if c else u` leaves t
            # holding v on one path
            kept = set(shared.get(target.id, set())) if in_branch(path) else set()
            if kept:
                fresh[target.id] = (path, kept, k)
            else:
                fresh.pop(target.id, None)
            if not in_branch(path):
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
            literal = literal_items(stmt.value, levels.callees, positions)
            repeated = repeated_list(stmt.value, members)
            doubled.discard(target.id)
            if repeated is not None:
                # `[z] * 2`, `a + b` of lists: the same arrays, at places not followed
                members[target.id] = set(repeated)
                doubled.add(target.id)
                affects(repeated, target.id, holder=True)
            elif literal is not None:
                # a write into an item is seen through the list, not the other way round
                positions[target.id] = literal
                held = [e for e in (literal.values() if isinstance(literal, dict)
                                    else literal) if e is not None]
                items = set(held)
                if len(items) < len(held):
                    doubled.add(target.id)          # `[z, z]`: one array at two places
                members[target.id] = items
                affects(items, target.id, holder=True)
            elif _spread_arguments(stmt.value, levels.callees) in members:
                # `z = model(y)` with model chosen at run time (an identity layer
                # returns y itself): z may be any of the arrays it is given; whether it
                # is, only the run can tell (a write into one, the other read later, is
                # checked then)
                held = members[_spread_arguments(stmt.value, levels.callees)]
                shared[target.id] = set().union(*(shared.get(n, set()) for n in held)) | held
                affects(held, target.id)
                unknown.add(target.id)
            elif source is not None and isinstance(stmt.value, gast.Subscript) \
                    and source in members:
                # an item taken from a list: one of its arrays (the one at a constant
                # index of a literal), seen through the list
                held = item_names(stmt.value.slice, positions.get(source), members[source])
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
            item = levels.updated_item(stmt)
            if item is not None and written in members and not _number(item, kinds):
                # `c[k] op= v`, `c[k][j] = v` of a list or dict c: numpy writes into the
                # array c[k] holds, which the names holding it see
                group = still_shared(item, shared.get(item, set()), k, path) - {written, item}
                if written in doubled:
                    group.add(written)      # `[z] * 2`: its other places hold that array
                found.extend((stmt, item, other, other in unknown or not _array(item, kinds))
                             for other in sorted(group)
                             if read_before_rebound(ordered, uses, k, other)
                             and meets(item, other, path))
            if written in members and isinstance(stmt.value, gast.Name):
                # `d["z"] = z`, `items[0] = z`: the list or dict holds z's array from here
                # (at which place, unknown in a branch; an item update keeps its place's)
                if in_branch(path):
                    positions.pop(written, None)
                elif item is None:
                    put_item(positions, written, target.slice, stmt.value.id)
                members[written] = members[written] | {stmt.value.id}
                affects({stmt.value.id}, written, holder=True)
            if not shared.get(written):
                continue
            for other in sorted(still_shared(written, shared[written], k, path) - {written}):
                if read_before_rebound(ordered, uses, k, other) \
                        and meets(written, other, path):
                    found.append((stmt, written, other, other in unknown))
    return _first_of_each(found)


def _may_write(stmt, levels):
    """Is `stmt` one of the statements writes_through_aliases reports: a list grown, an
    augmented assignment updating an array in place, a write into an item?"""
    if appended_list(stmt) is not None:
        return True
    return isinstance(stmt, gast.Assign) and (
        isinstance(stmt.targets[0], gast.Subscript)
        or levels.updated_in_place(stmt) is not None)


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


def _spread_arguments(value, callees):
    """The name of the tuple of arguments `value` passes to a function chosen at run
    time (`call_function(model, t2_0)`, a call the derivative cannot read), else None."""
    if isinstance(value, gast.Call) and len(value.args) == 2 \
            and isinstance(value.args[1], gast.Name) \
            and callees.get(dotted_path(value.func)) is call_function:
        return value.args[1].id
    return None


def _viewed(value, callees, kinds=None):
    """The name whose array `value` may share: `x`, `x[...]`, `x.T`, np.reshape(x, ...),
    an argument a def of yours returns (a method's, for the class the facts give the
    object it is called on)."""
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
            first = value.args[0] if value.args else None
            kind = kinds.of(first.id) if kinds is not None and isinstance(first, gast.Name) \
                else None
            owner = kind.type if isinstance(kind, (Attributes, Opaque)) \
                and isinstance(kind.type, type) else None
            for i in parameters_returned(callee, owner):
                if i < len(value.args) and isinstance(value.args[i], gast.Name):
                    return value.args[i].id
    return None
