"""Stage 7 (specialised reverse mode): a loop over a tuple's items iterates the tuple.

The levels form loops over positions (`for c in coeffs` becomes `for index in
range(len(coeffs)): c = coeffs[index]`), so the backward sweep can run the same
positions backwards. When the position is read for nothing but that item, and the
sequence cannot change (a tuple, by the facts; or a list in a function that writes into
nothing and calls nothing that could), both loops read the items directly, as a
hand-written gradient does: an index read and a range object fewer per iteration.

    t1_0 = len(coeffs)                             for c in coeffs:
    t2_0 = range(t1_0)                                 ...
    for index in t2_0:                   ->        ...
        c = coeffs[index]                          for c in reversed(coeffs):
        ...                                            ...
    ...
    for index in t2_0[::-1]:
        c = coeffs[index]
        ...

Same values: the forward loop read coeffs[0], ..., coeffs[n-1] and the backward loop
coeffs[n-1], ..., coeffs[0] of an unchanging sequence of n items, which is what the
direct loops read. The position name must be read nowhere else (nor after the loops),
and the backward loop must be the forward one's mirror (`for index in t2_0[::-1]`); one
that does not read the item keeps running over the positions.
Like tape batching, this is final code only: the unrewritten body is what a derivative
of the derivative reads.
"""
import builtins
import math

import gast
import numpy

from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import name_counts, walk_tree, with_copies_of
from ..signature import Items, SequenceOf

_NON_WRITING = {len, range, reversed, float, int, abs, min, max, sum, isinstance, type}


def iterate_items(body, kinds, resolve, tape):
    """`body` (forward sweep, blank line, backward sweep; or a forward-mode derivative's
    one pass) with eligible position loops iterating their sequence. kinds: the facts
    (analyses/kinds.py); resolve(name): what a free name denotes; tape: the tape's name.
    Returns (body, changed); the statements given are not edited (the loops changed are
    in copies)."""
    plans = _plans(body, kinds, resolve, tape)
    if not plans:
        return body, False
    body, copies = with_copies_of(body, [plan[0] for plan in plans] +
                                  [plan[1] for plan in plans if plan[1] is not None])
    for loop, mirror, reread, (position, item, sequence), parts in plans:
        loop = copies[id(loop)]
        loop.target = build.name(item, store=True)
        loop.iter = _sequence_node(sequence)
        loop.body = [s for s in loop.body if not _reads_item(s, position, item, sequence)]
        if parts:
            # `for t1_1 in pairs: x = t1_1[0]; y = t1_1[1]` -> `for x, y in pairs:`
            loop.target = build.tuple_target(parts)
            loop.body = [s for s in loop.body if not _reads_part(s, item)] or [gast.Pass()]
        if reread:
            mirror = copies[id(mirror)]
            mirror.target = build.name(item, store=True)
            mirror.iter = _sequence_node(sequence[::-1]) if isinstance(sequence, tuple) \
                else build.call(build.name(_bound(resolve, reversed)), [build.name(sequence)])
            mirror.body = [s for s in mirror.body
                           if not _reads_item(s, position, item, sequence)] or [gast.Pass()]
    split = next((k for k, stmt in enumerate(body) if build.is_blank_line(stmt)), None)
    if split is None:
        return _without_unread(body, [])[0], True
    forward, backward = _without_unread(body[:split], body[split + 1:])
    return forward + [body[split]] + backward, True


def _plans(body, kinds, resolve, tape):
    """[(forward loop, backward loop, does it read the item, (position, item, sequence),
    the names its parts are unpacked to or None)]."""
    split = next((k for k, stmt in enumerate(body) if build.is_blank_line(stmt)), None)
    # a forward-mode derivative (no backward sweep): its loops have no mirror
    forward, backward = (body, None) if split is None else (body[:split], body[split + 1:])
    if not any(isinstance(s, gast.For) and isinstance(s.target, gast.Name)
               and (_first_read(s.body) or (None,))[0] == s.target.id for s in forward):
        return []                     # no loop reads an item by its position: no walks
    definitions = _single_definitions(body)
    loads = name_counts(body)[0]
    lists_fixed = None          # decided once, when a list's loop asks
    plans = []
    for loop in [s for s in forward if isinstance(s, gast.For)]:
        found = _position_loop(loop, definitions)
        if found is None:
            continue
        position, item, sequence = found
        # a tuple literal of numbers (`for c in (0.5, -1.5, 2.0)`): its items, as written
        container = tuple if isinstance(sequence, tuple) else \
            _container(kinds.facts.get(sequence))
        if container is list and lists_fixed is None:
            lists_fixed = _writes_nothing(body, resolve, tape)
        if not (container is tuple or container is list and lists_fixed):
            continue
        mirror = [None] if backward is None else \
            [s for s in backward if isinstance(s, gast.For) and _mirrors(s, loop)]
        if len(mirror) != 1:
            continue
        # a backward loop that does not read the item keeps running over the positions
        reread = mirror[0] is not None and \
            _first_read(mirror[0].body) == (position, item, sequence)
        # the position is read by the item reads only (not after the loops)
        loops = (loop,) if mirror[0] is None else (loop, mirror[0])
        if loads.get(position, 0) != 1 + reread \
                or _stored_elsewhere(body, position, loops) \
                or not isinstance(sequence, tuple) and _stored_elsewhere(body, sequence, ()):
            continue
        plans.append((loop, mirror[0], reread, found,
                      _item_parts(loop, item, kinds.facts.get(sequence), loads, reread)))
    return plans


def _item_parts(loop, item, kind, loads, reread):
    """The names x, y of `x = item[0]; y = item[1]` right after the item's read, when
    they take every part of a tuple item of a length the facts know (a list of pairs)
    and nothing else reads the item: the loop unpacks it, `for x, y in pairs`, where the
    guard has proved every item a tuple of that length. Else None."""
    if reread or not (isinstance(kind, SequenceOf) and isinstance(kind.item, Items)):
        return None
    n = len(kind.item.items)
    statements = [s for s in loop.body[1:] if not _is_comment(s)][:n]
    names = [s.targets[0].id for s in statements if _reads_part(s, item)]
    if len(names) != n or len(set(names)) != n or item in names or loads.get(item, 0) != n \
            or any(build.number_literal(s.value.slice) != k for k, s in enumerate(statements)):
        return None
    return names


def _reads_part(stmt, item):
    """Is `stmt` `x = item[k]`, k a literal position?"""
    return build.assigned_name(stmt) is not None and isinstance(stmt.value, gast.Subscript) \
        and isinstance(stmt.value.value, gast.Name) and stmt.value.value.id == item \
        and type(build.number_literal(stmt.value.slice)) is int


def _bound(resolve, builtin):
    """The generated code's name for a builtin (its own, unless something rebinds it)."""
    return builtin.__name__ if resolve(builtin.__name__) is builtin else \
        f'__import__("builtins").{builtin.__name__}'


def _single_definitions(body):
    """name -> its assignment's value, for names assigned once (at top level)."""
    counts, values = {}, {}
    for stmt in body:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                counts[node.id] = counts.get(node.id, 0) + 1
    for stmt in body:
        if build.assigned_name(stmt) is not None and counts[stmt.targets[0].id] == 1:
            values[stmt.targets[0].id] = stmt.value
    return values


def _position_loop(loop, definitions):
    """(position, item, sequence) of `for i in R: c = S[i]` with R = range(len(S))."""
    if not (isinstance(loop.target, gast.Name) and isinstance(loop.iter, gast.Name)
            and not loop.orelse):
        return None
    rng = definitions.get(loop.iter.id)
    if not (_is_call_of(rng, "range") and len(rng.args) == 1):
        return None
    length = rng.args[0]
    if isinstance(length, gast.Name):
        length = definitions.get(length.id)
    if not (_is_call_of(length, "len") and len(length.args) == 1):
        return None
    read = _first_read(loop.body)
    if read is None or read[0] != loop.target.id or read[2] != _sequence_key(length.args[0]):
        return None
    return read


def _sequence_key(node):
    """What a position loop reads items of: a name, or the values of a tuple literal of
    numbers (as a Python tuple); None for anything else."""
    if isinstance(node, gast.Name):
        return node.id
    if isinstance(node, gast.Tuple) and node.elts and all(
            type(build.number_literal(e)) in (int, float) for e in node.elts):
        return tuple(build.number_literal(e) for e in node.elts)
    return None


def _sequence_node(key):
    """The expression for a sequence key (_sequence_key's inverse)."""
    if isinstance(key, tuple):
        return build.tuple_([build.literal(v) for v in key])
    return build.name(key)


def _is_call_of(node, builtin):
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
        and node.func.id == builtin and not node.keywords


def _first_read(stmts):
    """(position, item, sequence) of a block's first statement `c = S[i]` (comments
    skipped), else None."""
    for stmt in stmts:
        if _is_comment(stmt):
            continue
        if build.assigned_name(stmt) is not None and isinstance(stmt.value, gast.Subscript) \
                and _sequence_key(stmt.value.value) is not None \
                and isinstance(stmt.value.slice, gast.Name):
            return stmt.value.slice.id, stmt.targets[0].id, _sequence_key(stmt.value.value)
        return None
    return None


def _is_comment(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id == "__s2s_comment__"


def _reads_item(stmt, position, item, sequence):
    return isinstance(stmt, gast.Assign) and _first_read([stmt]) == (position, item, sequence)


def _mirrors(candidate, loop):
    it = candidate.iter
    return isinstance(candidate.target, gast.Name) and candidate.target.id == loop.target.id \
        and isinstance(it, gast.Subscript) and isinstance(it.slice, gast.Slice) \
        and it.slice.lower is None and it.slice.upper is None \
        and build.number_literal(it.slice.step) == -1 \
        and isinstance(it.value, gast.Name) and it.value.id == loop.iter.id


def _stored_elsewhere(body, name, loops):
    """Is `name` bound anywhere but as the target of `loops`?"""
    targets = {id(loop.target) for loop in loops}
    return any(isinstance(n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Store)
               and id(n) not in targets for stmt in body for n in walk_tree(stmt))


def _container(kind):
    if isinstance(kind, (SequenceOf, Items)):
        return kind.container
    return None


def _writes_nothing(body, resolve, tape):
    """Can nothing in `body` change a list: no index or attribute writes, and no calls
    but numpy's and math's functions, a few builtins, and the tape's own methods?"""
    for stmt in body:
        for node in walk_tree(stmt):
            if isinstance(node, (gast.Subscript, gast.Attribute)) \
                    and isinstance(node.ctx, (gast.Store, gast.Del)):
                return False
            if isinstance(node, gast.Call) and not _harmless_call(node, resolve, tape):
                return False
    return True


def _harmless_call(call, resolve, tape):
    func = call.func
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
            and func.value.id == tape and func.attr in ("append", "pop"):
        return True
    if isinstance(func, gast.Name) and func.id.startswith("__s2s_"):
        return True                                  # comments and blank lines
    if any(k.arg == "out" for k in call.keywords):
        return False
    path = dotted_path(func)
    if path is None:
        return False
    head, _, rest = path.partition(".")
    root = resolve(head)
    if not rest:
        return root in _NON_WRITING and root is getattr(builtins, head, None)
    return root is math or root is numpy and not rest.startswith("random")


def _without_unread(forward, backward):
    """Drop top-level `R = range(L)` / `L = len(S)` assignments nothing reads any more."""
    while True:
        loads = {n.id for stmt in forward + backward for n in walk_tree(stmt)
                 if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
        kept = [s for s in forward if not (
            build.assigned_name(s) is not None and s.targets[0].id not in loads
            and (_is_call_of(s.value, "range") or _is_call_of(s.value, "len")))]
        if len(kept) == len(forward):
            return forward, backward
        forward = kept
