"""Stage 7 (specialised reverse mode, final code): `y = float_copy(x)` at x's last read is
`y = x`.

A slice's adjoint added into an adjoint that was an alias of a forward array is written
`y = float_copy(x)` (a data term `0.5 * np.sum((X - Y) ** 2)` beside a penalty on
`X[:, 2:] - 2 * X[:, 1:-1] + X[:, :-2]`: X's adjoint is the residual `X - Y` itself, then
each slice's share is added into it). Once the in-place schedule has run (buffers.py,
inplace.py) the code is final: when x is read nowhere after the copy, y may take x's
array (the writes into y that follow cannot be seen through x), and the copy (a pass over
the array and a fresh allocation, page faults included) goes.

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

(Session 24: the module's first rule, `y = x * 1.0` of an array nothing writes into read
as `y = x`, is deleted: it changed no program of benchmarks/pass_effects.py's corpus since
the closed forms read a cholesky's Z itself; see benchmarks/PASS_EFFECTS.md.)
"""
import gast
import numpy

from .. import runtime_flow
from ..ir import build
from ..ir.walk import walk_tree
from ..signature import Num

def share_unit_copies(statements, kinds, resolve):
    """(new statements, changed) for the final flattened body; kinds: the specialisation's
    facts (kinds.of(name) -> Num or None); resolve(name) -> the object a name of the
    derivative is bound to. Without a float_copy among the top-level statements the body
    is not walked at all (most derivatives have none)."""
    if not any(_float_copy(s) is not None and resolve(s.value.func.id) is runtime_flow.float_copy
               for s in statements):
        return statements, False
    stores, sources = _bindings(statements)
    fresh = {s.targets[0].id for s in statements if isinstance(s, gast.Assign)
             and len(s.targets) == 1 and isinstance(s.targets[0], gast.Name)
             and isinstance(s.value, (gast.BinOp, gast.UnaryOp))}
    return _copies_at_last_read(statements, kinds, resolve, fresh, stores, sources)


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


def _bindings(statements):
    """(assignments per name, [(name, value)] of the assignments other than arithmetic:
    a name that may view its value's array). A parameter is assigned zero times, so it
    never counts as assigned once."""
    stores = {}
    for node in (n for s in statements for n in walk_tree(s)):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    # arithmetic (`v = x * 2.0`, `v = x @ w`) makes a new array: no view of x
    sources = [(name.id, node.value) for node in (n for s in statements for n in walk_tree(s))
               if isinstance(node, gast.Assign)
               and not isinstance(node.value, (gast.BinOp, gast.UnaryOp, gast.Compare))
               for target in node.targets
               for name in walk_tree(target)
               if isinstance(name, gast.Name) and isinstance(name.ctx, gast.Store)]
    return stores, sources


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
