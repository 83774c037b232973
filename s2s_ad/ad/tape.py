"""The tape: saving values the forward sweep overwrites and the backward sweep needs.

The reverse generator brackets every overwrite with markers: `__s2s_save__(x, k)` before
an assignment in the forward sweep, `__s2s_restore__(x, k)` after its reverse in the
backward sweep (k: the pair's key, pair_key; `__s2s_save_item__(y, i)` /
`__s2s_restore_item__(y, i)` for `y[i] = v`).
Once the backward sweep exists, `resolve_markers` keeps the pairs whose restore some read
of the backward sweep sees (to-be-recorded) and drops the rest:

    forward:   __s2s_save__(h); h = np.tanh(t2_0)     ->   _tape.append(h); h = np.tanh(t2_0)
    backward:  ...; __s2s_restore__(h)                ->   ...; h = _tape.pop()

A loop whose body overwrites nothing the backward sweep reads therefore pushes nothing.
"""
import gast

from .. import runtime_mappings
from ..analyses.union_find import root_of
from ..ir import build
from ..ir.walk import all_statements, walk_tree
from .restore_liveness import live_restored_names

SAVE, RESTORE = "__s2s_save__", "__s2s_restore__"
SAVE_ITEM, RESTORE_ITEM = "__s2s_save_item__", "__s2s_restore_item__"
UNDO_APPEND = "__s2s_undo_append__"     # a list's append is undone by a pop: no tape
_MARKERS = (SAVE, RESTORE, SAVE_ITEM, RESTORE_ITEM, UNDO_APPEND)


def marker(kind, *args):
    return build.expr_stmt(build.call(build.name(kind), list(args)))


def _marker_of(stmt):
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
            and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id in _MARKERS:
        return stmt.value.func.id, stmt.value.args
    return None, None


def names_read(stmts):
    """Names the statements read (markers excluded)."""
    found = set()
    for stmt in stmts:
        kind, _ = _marker_of(stmt)
        if kind:
            continue
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            heads = [stmt.iter] if isinstance(stmt, gast.For) else [stmt.test]
            found |= names_read([gast.Expr(value=h) for h in heads])
            found |= names_read(stmt.body) | names_read(stmt.orelse)
            continue
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
                found.add(node.id)
    return found


def shape_only_reads(stmts, positions):
    """Names the statements read only as shape arguments (`unbroadcast(g, x)`'s x):
    positions maps a callee name to the argument positions that are read for shape."""
    shape_nodes = set()
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            continue
        for node in walk_tree(stmt):
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                    and node.func.id in positions:
                shape_nodes |= {id(a) for k, a in enumerate(node.args)
                                if k in positions[node.func.id] and isinstance(a, gast.Name)}
    shapes, values = set(), set()
    for stmt in stmts:
        kind, _ = _marker_of(stmt)
        if kind:
            continue
        if isinstance(stmt, (gast.If, gast.For, gast.While)):   # its body comes separately
            stmt = stmt.iter if isinstance(stmt, gast.For) else stmt.test
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
                (shapes if id(node) in shape_nodes else values).add(node.id)
    return shapes - values


def _with_aliases(forward, needed, copies):
    """`needed` with every name a forward `a = b`, `a = b[i]` or `a = b.T` may bind to
    the same memory as a needed name: an element written into b is seen through a (`t = v
    if c else w` makes t hold v's array; `for row in M` makes each row a view of M), so
    b's old elements are restored for the backward sweep reading a. A read the facts prove
    a number or a copy (`copies(a)`: x[i] of a vector) shares nothing."""
    parent = {}

    def root(name):
        while parent.get(name, name) != name:
            name = parent[name]
        return name
    for stmt in all_statements(forward):
        if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
            continue
        value, target = stmt.value, stmt.targets[0].id
        if isinstance(value, (gast.Subscript, gast.Attribute)) and not copies(target) \
                and (isinstance(value, gast.Subscript) or value.attr == "T"):
            value = value.value
        if isinstance(value, gast.Name):
            parent[root(target)] = root(value.id)
    roots = {root(name) for name in needed}
    return set(needed) | roots | {name for name in parent if root(name) in roots}


def _whole_needed(forward, backward, returned, needed):
    """(pairs, names): the whole-value save/restore pairs kept, as (name, pair) and as
    names all of whose pairs are kept. A pair is kept when a read of the backward sweep
    (or of `returned`) can see its restore (restore_liveness.py), not whenever its name
    is read somewhere. A name also saved element by element, or a list whose appends are
    undone, keeps its pairs whenever it is read: its element restores write into
    whatever array the whole restores left bound; so does a name whose saves and
    restores do not name the same pairs (a statement reversed from a copy)."""
    def restored(stmt):
        kind, args = _marker_of(stmt)
        return (args[0].id, _pair(args)) if kind == RESTORE else None
    live = live_restored_names(backward, returned, restored,
                               lambda stmt: _marker_of(stmt)[0] is not None)
    if live is None:
        return frozenset(), needed
    itemised, pairs = set(), {SAVE: set(), RESTORE: set()}
    for stmt in all_statements(forward + backward):
        kind, args = _marker_of(stmt)
        if kind in (SAVE_ITEM, RESTORE_ITEM, UNDO_APPEND):
            itemised.add(args[0].id)
        elif kind in pairs:
            pairs[kind].add((args[0].id, _pair(args)))
    unmatched = {name for name, _ in pairs[SAVE] ^ pairs[RESTORE]}
    return live, {name for name, _ in live if name in unmatched} | (needed & itemised)


def _pair(args):
    """What a statement's save and restore markers share (`pair_key`), or None."""
    return args[1].value if len(args) > 1 and isinstance(args[1], gast.Constant) else None


def pair_key(stmt):
    """The key the save and the restore of one levels-form statement share: the
    statement itself, for the length of one generation (never written out)."""
    return build.const(id(stmt))


def resolve_markers(forward, backward, tape_name, numpy_name, shape_helpers=None,
                    bind=None, mappings=frozenset(), copies=None, returned=()):
    """Replace markers by tape pushes/pops where needed; returns (forward, backward, used).

    shape_helpers: (positions, shape_of name, placeholder name) — a value the backward
    sweep reads only for its shape is taped as its shape and restored as a placeholder.
    bind(helper) names a runtime helper: an entry under a string key, or of one of
    `mappings` (names holding dicts), which the write may create, is saved and restored
    by runtime_mappings' helpers. copies(name): does the facts prove `name` a number or
    a copy (never a view of the array it was read from)? None: nothing is proved.
    returned: the expressions returned after the backward sweep (a parameter's gradient
    shaped like the parameter reads its value as passed: restored, if rebound)."""
    needed = names_read(backward) | names_read([gast.Expr(value=e) for e in returned])
    written_needed = _with_aliases(forward, needed, copies or (lambda name: False))
    whole_pairs, whole_needed = _whole_needed(forward, backward, returned, needed)
    shape_only = set()
    if shape_helpers is not None:
        shape_only = shape_only_reads(list(all_statements(backward)), shape_helpers[0])
        # values restored element by element are written into: they must be real arrays;
        # lists the backward sweep pops (`items.pop()`) must be the lists themselves
        shape_only -= {args[0].id for stmt in all_statements(forward + backward)
                       for kind, args in [_marker_of(stmt)]
                       if kind in (SAVE_ITEM, RESTORE_ITEM, UNDO_APPEND)}
    used = [False]

    def rewrite(stmts):
        out = []
        for stmt in stmts:
            kind, args = _marker_of(stmt)
            if kind is None:
                for field in ("body", "orelse"):
                    inner = getattr(stmt, field, None)
                    if inner:
                        setattr(stmt, field, rewrite(inner) or [gast.Pass()])
                out.append(stmt)
                continue
            if kind in (SAVE, RESTORE):
                if args[0].id not in whole_needed \
                        and (args[0].id, _pair(args)) not in whole_pairs:
                    continue
            elif args[0].id not in (written_needed if kind in (SAVE_ITEM, RESTORE_ITEM)
                                    else needed):
                continue
            if kind == UNDO_APPEND:
                out.append(build.expr_stmt(build.call(build.attribute(args[0], "pop"))))
                continue
            used[0] = True
            tape = build.name(tape_name)
            if kind == SAVE and args[0].id in shape_only:
                shape = build.call(build.name(shape_helpers[1]), [args[0]])
                out.append(build.expr_stmt(build.call(build.attribute(tape, "append"),
                                                      [shape])))
            elif kind == RESTORE and args[0].id in shape_only:
                out.append(build.assign(args[0].id, build.call(
                    build.name(shape_helpers[2]), [build.call(build.attribute(tape, "pop"))])))
            elif kind == SAVE:
                out.append(build.expr_stmt(build.call(build.attribute(tape, "append"),
                                                      [args[0]])))
            elif kind in (SAVE_ITEM, RESTORE_ITEM) and bind is not None and (
                    isinstance(args[1], gast.Constant) and isinstance(args[1].value, str)
                    or args[0].id in mappings):
                if kind == SAVE_ITEM:
                    saved = build.call(bind(runtime_mappings.saved_entry), [args[0], args[1]])
                    out.append(build.expr_stmt(build.call(build.attribute(tape, "append"),
                                                          [saved])))
                else:
                    out.append(build.expr_stmt(build.call(
                        bind(runtime_mappings.restore_entry),
                        [build.name(args[0].id), args[1], build.call(
                            build.attribute(tape, "pop"))])))
            elif kind == SAVE_ITEM:
                item = build.subscript(args[0], args[1])
                copy = build.call(f"{numpy_name}.copy", [item])
                out.append(build.expr_stmt(build.call(build.attribute(tape, "append"), [copy])))
            elif kind == RESTORE:
                out.append(build.assign(args[0].id, build.call(build.attribute(tape, "pop"))))
            else:
                target = build.store_subscript(build.name(args[0].id), args[1])
                out.append(build.assign(target, build.call(build.attribute(tape, "pop"))))
        return out

    forward = rewrite(forward)
    backward = rewrite(backward)
    return forward, backward, used[0]


def push(tape_name, value):
    return build.expr_stmt(build.call(build.attribute(build.name(tape_name), "append"), [value]))


def pop(tape_name):
    return build.call(build.attribute(build.name(tape_name), "pop"))


def shapes_read_off_kept_values(stmts, positions, shape_class, stable, parameters,
                                zeros_like, counts=frozenset()):
    """A specialisation's shape-only arguments (`unbroadcast(g, t7_0)`'s t7_0, see
    shape_only_reads) read off a value the facts prove of the same shape (kinds'
    shape_class) that `stmts` read as a value anyway, so that the forward sweep need not
    keep the other one alive (dead-code elimination then drops its computation). Only
    `stable` names (parameters never rebound, names bound once at the top level) stand
    in for one another: their shapes are the same at every point of the backward sweep.
    `zeros_like`: (numpy's name, same_dtype(a, b)): `np.zeros_like(x)`'s x is read off
    too, and every replacement has the same dtype (the helpers' results take it), but in
    a call of a helper named in `counts` (reduced_count: a number of elements, whatever
    the dtype; so also where the facts know no dtype). Edits the calls in `stmts` (the
    generator's own, new statements):

        t16_0 = t15_0 * t15_0                      (dropped later: read for its shape only)
        t15_0_bar = 1.0 / reduced_count(t16_0, None) * 2.0 * t15_0
                      ->  1.0 / reduced_count(t15_0, None) * 2.0 * t15_0
    """
    if not shape_class:
        return
    numpy_name, same_dtype = zeros_like
    shape_args, values = _shape_args_and_values(stmts, positions, numpy_name)
    alive = set(values) | set(parameters)
    for call, k in shape_args:
        name = call.args[k].id
        if name in stable and name not in alive:
            root = shape_class.get(name, name)
            # of the same dtype: the helpers' results take the dtype of what they read
            # (reduced over an int index array, a float32 adjoint would become float64)
            kept = next((v for v in values if v in stable and shape_class.get(v, v) == root
                         and (_counts(call, counts) or same_dtype(v, name))), name)
            call.args[k] = build.name(kept)


def shapes_read_within_iterations(iterations, positions, edges_of, stable, same_dtype,
                                  counts=frozenset()):
    """The same inside a loop, for the values of one iteration. In the backward sweep a
    name bound once in the body, at position j, holds in the chunk of the body's k-th
    statement the value that statement saw: the tape restores it only after chunk j,
    which runs before chunk k when j > k. An edge of kinds' iteration_classes, seen by
    its statement at position p, relates the values chunk k sees when k >= p and
    neither name is bound at a position in (p, k]. So in chunk k a shape-only argument
    reads off a member of its class over those edges that the loop's backward body reads
    as a value anyway (or a `stable` name), of the same dtype. `iterations`: (loop, [(position, chunk)])
    from the backward walk; edits the calls in those chunks (the generator's own):

        for x_t in xs:                          # t11_0 = t10_0 * t10_0 at position 4
            ... reduced_count(t11_0, None) * 2.0 * t10_0    ->  reduced_count(t10_0, None)
    """
    for loop, chunks in iterations:
        edges, bound_at = (edges_of or {}).get(id(loop), ((), {}))
        if not edges:
            continue
        statements = [s for _, chunk in chunks for s in chunk]
        _, values = _shape_args_and_values(statements, positions)
        for position, chunk in chunks:
            shape_args, _ = _shape_args_and_values(chunk, positions)
            if not shape_args:
                continue
            parent, members = {}, set()
            for seen, result, operand in edges:
                if seen <= position and all(not seen < bound_at.get(n, -1) <= position
                                            for n in (result, operand)):
                    parent[root_of(parent, operand)] = root_of(parent, result)
                    members |= {result, operand}
            for call, k in shape_args:
                name = call.args[k].id
                if name not in members or name in values:
                    continue
                root = root_of(parent, name)
                kept = next((v for v in values if v != name and v in members
                             and root_of(parent, v) == root
                             and (_counts(call, counts) or same_dtype(v, name))
                             and (v in stable or v in bound_at)), None)
                if kept is not None:
                    call.args[k] = build.name(kept)


def _counts(call, counts):
    """Is `call` one of a helper that reads its argument's shape only (no dtype)?"""
    return isinstance(call.func, gast.Name) and call.func.id in counts


def _reads_dtype(call, numpy_name):
    """`np.zeros_like(x)`: x read for its shape and its dtype."""
    return numpy_name is not None and isinstance(call.func, gast.Attribute) \
        and call.func.attr == "zeros_like" and isinstance(call.func.value, gast.Name) \
        and call.func.value.id == numpy_name and len(call.args) == 1 and not call.keywords


def _shape_args_and_values(stmts, positions, numpy_name=None):
    """[(call, argument position)] of shape-only reads (and of `np.zeros_like(x)`'s x
    when numpy's name is given), and the names read as values."""
    shape_args, loads, marked = [], [], set()
    for node in walk_tree(gast.Module(body=list(stmts), type_ignores=[])):
        if isinstance(node, gast.Call) and _reads_dtype(node, numpy_name) \
                and isinstance(node.args[0], gast.Name):
            shape_args.append((node, 0))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id in positions:
            shape_args += [(node, k) for k, a in enumerate(node.args)
                           if k in positions[node.func.id] and isinstance(a, gast.Name)]
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id == RESTORE:        # names a value; reads none
            marked |= {id(a) for a in node.args}
        elif isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            loads.append(node)
    skipped = {id(call.args[k]) for call, k in shape_args} | marked
    values = [node.id for node in loads if id(node) not in skipped]
    return shape_args, values
