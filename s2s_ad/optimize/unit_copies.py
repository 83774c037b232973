"""Stage 7 (specialised reverse mode, final code): `y = x * 1.0` on a float array that
nothing writes into is `y = x`.

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
"""
import gast
import numpy

from ..ir import build
from ..ir.walk import walk_tree
from ..signature import Num

# calls and methods that write into an array given to them (besides out= / into=)
_WRITING = {"copyto", "put", "place", "putmask", "fill", "sort", "partition", "resize",
            "setfield", "itemset", "put_along_axis", "fill_diagonal", "at"}


def share_unit_copies(statements, kinds):
    """(statements, changed) for the final flattened body; kinds: the specialisation's
    facts (kinds.of(name) -> Num or None)."""
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
    return out, changed


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
