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
place); the normaliser marks its binding with `in_place_of`, the name it updates.

Views count as second names too: `y = x.T`, `y = np.reshape(x, ...)`, and `y = x[1:3]`
when y is written into (x[i] is often a number, so a write into x does not count).
"""
import gast
import numpy as np

from ..frontend.resolve import dotted_path
from ..ir.walk import all_statements, names_loaded

_VIEWS = {np.transpose, np.reshape, np.ravel, np.squeeze, np.expand_dims, np.swapaxes,
          np.diagonal, np.broadcast_to}


def writes_through_aliases(levels):
    """[(write statement, written name, other name)] for each index write into an array
    that another name also holds, when that other name is read after the write."""
    statements = list(all_statements(levels.tree.body))
    shared = {}                      # name -> names holding the same array
    found = []
    for k, stmt in enumerate(statements):
        if not isinstance(stmt, gast.Assign):
            continue
        target = stmt.targets[0]
        updated = getattr(stmt, "in_place_of", None)
        if isinstance(target, gast.Name) and updated is not None:
            # `y *= 2` on an array writes into it: every name sharing it sees the change
            group = shared.get(updated, set()) - {target.id}
            later = {n for s in statements[k + 1:] for n in names_loaded(s)}
            found.extend((stmt, updated, other) for other in sorted(group) if other in later)
            together = group | {updated}
            for name in together:
                shared.setdefault(name, set()).add(target.id)
            shared[target.id] = together - {target.id}
        elif isinstance(target, gast.Name):
            source = _viewed(stmt.value, levels.callees)
            for group in shared.values():
                group.discard(target.id)          # rebound: no longer the same array
            shared[target.id] = set()
            if source is not None:
                together = shared.setdefault(source, set()) | {source}
                if not isinstance(stmt.value, gast.Subscript):
                    # x[i] is often a number, not a view: writes into x leave it alone
                    for name in together:
                        shared.setdefault(name, set()).add(target.id)
                shared[target.id] = set(together)
        elif isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
            written = target.value.id
            if not shared.get(written):
                continue
            later = {n for s in statements[k + 1:] for n in names_loaded(s)}
            for other in sorted(shared[written]):
                if other in later:
                    found.append((stmt, written, other))
    return found


def _viewed(value, callees):
    """The name whose array `value` may share: `x`, `x[...]`, `x.T`, np.reshape(x, ...)."""
    if isinstance(value, gast.Name):
        return value.id
    if isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name):
        return value.value.id
    if isinstance(value, gast.Call) and value.args and isinstance(value.args[0], gast.Name) \
            and callees.get(dotted_path(value.func)) in _VIEWS:
        return value.args[0].id
    return None
