"""Stage 7 (specialised reverse mode, final code): `y = x * 1.0` on a float array that
nothing writes into is `y = x`; `y = float_copy(x)` at x's last read is `y = x`.

Folding keeps `x * 1.0` on arrays (optimize/fold.py): it makes a new array, and `y = x`
would alias x, so a later write into y would reach x. Once the in-place schedule has run
(buffers.py, inplace.py) the code is final and every write is written out: an `out=` or
`into=` argument, `y += ...`, `y[...] = ...`, a method such as `y.fill(...)` or a call such
as `np.copyto(y, ...)`. When neither name meets one, the two names can hold one array:
the copy (a pass over the array and a fresh allocation, page faults included) goes.

    Z_bar = Z * 1.0                                                   Z_bar = Z
    L_bar_lt = L_bar_lt - Z_bar @ np.swapaxes(Z, -1, -2)      ->      (unchanged)

Conditions, all from the specialisation's facts and the final statements: x is a float64
or float32 array (times the float 1.0 it keeps its dtype and its values, -0.0 and nan
included); x and y are each assigned once, at the top level, and never written into
anywhere, also through a view; x is assigned arithmetic (a fresh array: no view of an
argument, which a returned y would share memory with); x and y, or views of them, are not
both returned (two results would be one array).

The same final code has a second kind of copy: `y = float_copy(x)`, written where a slice's
adjoint is added into an adjoint that was an alias of a forward array (a data term
`0.5 * np.sum((X - Y) ** 2)` beside a penalty on `X[:, 2:] - 2 * X[:, 1:-1] + X[:, :-2]`:
X's adjoint is the residual `X - Y` itself, then each slice's share is added into it).
When x is read nowhere after the copy, y may take x's array: the writes into y that
follow cannot be seen through x.

    t1_3 = X - Y                                              t1_3 = X - Y
    ...                                                       ...
    X_bar = float_copy(t1_3)                          ->      X_bar = t1_3
    X_bar[:, :-2] += d2_bar                                   X_bar[:, :-2] += d2_bar

Conditions: x is a float64 or float32 array (float_copy keeps its dtype and values),
assigned once, at the top level, by arithmetic (a fresh array, no view of an argument);
the copy is a top-level statement after which neither x nor any name that may view x
(assigned from it other than by arithmetic, along chains) is read or returned; and nothing
else may keep x's array for a later read: a call whose result is dropped (`_tape.append(x)`),
an item or attribute store, a list added to.
"""
import gast
import numpy

from .. import runtime_flow
from ..ir import build
from ..ir.walk import walk_tree
from ..signature import Num

# calls and methods that write into an array given to them (besides out= / into=)
_WRITING = {"copyto", "put", "place", "putmask", "fill", "sort", "partition", "resize",
            "setfield", "itemset", "put_along_axis", "fill_diagonal", "at"}


def share_unit_copies(statements, kinds, resolve=None):
    """(statements, changed) for the final flattened body; kinds: the specialisation's
    facts (kinds.of(name) -> Num or None); resolve(name) -> the object a name of the
    derivative is bound to (without it, float_copy's rule is not applied). Both rules
    rewrite top-level statements only: without a unit copy or a float_copy among them
    the body is not walked at all (most derivatives have neither)."""
    copies = resolve is not None and any(
        _float_copy(s) is not None and resolve(s.value.func.id) is runtime_flow.float_copy
        for s in statements)
    if not copies and not any(_unit_copy(s) is not None for s in statements):
        return statements, False
    stores, written, returned, sources = _writes(statements)
    fresh = {s.targets[0].id for s in statements if isinstance(s, gast.Assign)
             and len(s.targets) == 1 and isinstance(s.targets[0], gast.Name)
             and isinstance(s.value, (gast.BinOp, gast.UnaryOp))}
    changed, out = False, []
    for stmt in statements:
        source = _unit_copy(stmt)
        if source is not None:
            target = stmt.targets[0].id
            kind = kinds.of(source)
            if isinstance(kind, Num) and kind.type is numpy.ndarray \
                    and kind.dtype in ("float64", "float32") and source in fresh \
                    and stores.get(source) == 1 and stores.get(target) == 1 \
                    and not written & {source, target} \
                    and not (_views(source, sources) & returned
                             and _views(target, sources) & returned):
                stmt = build.assign(target, build.name(source))
                changed = True
        out.append(stmt)
    if not copies:
        return out, changed
    out, moved = _copies_at_last_read(out, kinds, resolve, fresh, stores, sources)
    return out, changed or moved


def _copies_at_last_read(statements, kinds, resolve, fresh, stores, sources):
    """`y = float_copy(x)` -> `y = x` where x is read nowhere after (the module docstring's
    second rule). Returns (statements, changed)."""
    kept = _kept_elsewhere(statements)
    out, changed = list(statements), False
    for k, stmt in enumerate(statements):
        source = _float_copy(stmt)
        if source is None or resolve(stmt.value.func.id) is not runtime_flow.float_copy:
            continue
        kind = kinds.of(source)
        if not (isinstance(kind, Num) and kind.type is numpy.ndarray
                and kind.dtype in ("float64", "float32") and source in fresh
                and stores.get(source) == 1 and source not in kept):
            continue
        # the names that may hold x's array, other than through this copy's target
        others = [(t, v) for t, v in sources if v is not stmt.value]
        holders = _views(source, others)
        later = {n.id for s in statements[k + 1:] for n in walk_tree(s)
                 if isinstance(n, gast.Name)}
        if holders & later:
            continue
        out[k] = build.assign(stmt.targets[0].id, build.name(source))
        changed = True
    return out, changed


def _float_copy(stmt):
    """x for a top-level `y = h(x)` (x and y names, h a name: the caller tests that h is
    float_copy); else None."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Call)
            and isinstance(stmt.value.func, gast.Name)
            and len(stmt.value.args) == 1 and not stmt.value.keywords
            and isinstance(stmt.value.args[0], gast.Name)):
        return None
    return stmt.value.args[0].id


def _kept_elsewhere(statements):
    """Names whose array something other than a name may keep for a later read: handed to
    a call whose result is dropped (`_tape.append(x)`), stored into an item or attribute
    (`saved[k] = x`), or put into a list added to one (`xs += [x]`)."""
    kept = set()
    for node in (n for s in statements for n in walk_tree(s)):
        if isinstance(node, gast.Expr):
            held = node.value
        elif isinstance(node, gast.Assign) and not all(_plain_target(t) for t in node.targets):
            held = node.value
        elif isinstance(node, gast.AugAssign):
            held = gast.Tuple(elts=[n for n in walk_tree(node.value) if isinstance(
                n, (gast.List, gast.Tuple, gast.Set, gast.Dict))], ctx=gast.Load())
        else:
            continue
        kept.update(n.id for n in walk_tree(held) if isinstance(n, gast.Name))
    return kept


def _unit_copy(stmt):
    """x for a top-level `y = x * 1.0` or `y = 1.0 * x` (x and y names); else None."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.BinOp)
            and isinstance(stmt.value.op, gast.Mult)):
        return None
    for one, other in ((stmt.value.right, stmt.value.left), (stmt.value.left, stmt.value.right)):
        if isinstance(one, gast.Constant) and type(one.value) is float and one.value == 1.0 \
                and isinstance(other, gast.Name):
            return other.id
    return None


def _writes(statements):
    """(assignments per name, names written into, names returned). A parameter is assigned
    zero times, so it never counts as assigned once."""
    stores, written, returned = {}, set(), set()
    for node in (n for s in statements for n in walk_tree(s)):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, gast.AugAssign):
            written.add(_base(node.target))
        elif isinstance(node, (gast.Subscript, gast.Attribute)) \
                and isinstance(node.ctx, (gast.Store, gast.Del)):
            written.add(_base(node))
        elif isinstance(node, gast.Call):
            written.update(_base(k.value) for k in node.keywords if k.arg in ("out", "into"))
            name = node.func.attr if isinstance(node.func, gast.Attribute) else \
                getattr(node.func, "id", None)
            if name in _WRITING:
                written.update(_base(a) for a in node.args)
                if isinstance(node.func, gast.Attribute):
                    written.add(_base(node.func.value))
        elif isinstance(node, gast.Return) and node.value is not None:
            returned.update(n.id for n in walk_tree(node.value) if isinstance(n, gast.Name))
        elif isinstance(node, gast.For):       # its target may be a view of what it iterates
            written.update(n.id for n in walk_tree(node.iter) if isinstance(n, gast.Name))
    # a name assigned from x (perhaps a view of x: `v = x[1:]`, `v = np.transpose(x)`) and
    # written into may write into x: x counts as written, and so on along chains of such
    # names. Arithmetic (`v = x * 2.0`, `v = x @ w`) makes a new array: no view of x
    sources = [(name.id, node.value) for node in (n for s in statements for n in walk_tree(s))
               if isinstance(node, gast.Assign)
               and not isinstance(node.value, (gast.BinOp, gast.UnaryOp, gast.Compare))
               for target in node.targets
               for name in walk_tree(target)
               if isinstance(name, gast.Name) and isinstance(name.ctx, gast.Store)]
    grown = True
    while grown:
        grown = False
        for target, value in sources:
            if target in written:
                read = {n.id for n in walk_tree(value) if isinstance(n, gast.Name)}
                grown |= not read <= written
                written |= read
    return stores, written, returned, sources


def _plain_target(target):
    """A name, or a tuple of plain targets (`a, (b, c) = ...`)."""
    return isinstance(target, gast.Name) or isinstance(target, gast.Tuple) \
        and all(_plain_target(e) for e in target.elts)


def _views(name, sources):
    """name and the names that may view its array (assigned from it other than by
    arithmetic, `v = name[1:]`, `v = np.transpose(name)`, and so on along such chains)."""
    found, grown = {name}, True
    while grown:
        grown = False
        for target, value in sources:
            if target not in found and any(isinstance(n, gast.Name) and n.id in found
                                           for n in walk_tree(value)):
                found.add(target)
                grown = True
    return found


def _base(node):
    """The name an expression's storage belongs to (`y[0].T` -> y); None if none."""
    while isinstance(node, (gast.Subscript, gast.Attribute, gast.Starred)):
        node = node.value
    if isinstance(node, gast.Tuple):          # out=(a,)
        return next((_base(e) for e in node.elts), None)
    return node.id if isinstance(node, gast.Name) else None
