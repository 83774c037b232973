"""Stage 7 (specialised reverse mode): a float array a loop reads item by item, read from a list.

A loop on Python numbers that reads one entry of an array per step (`obs[t]`, made a
Python float by `float(...)` in the levels form) pays numpy's indexing and a conversion
each time, several times the float arithmetic around it. A hand-writer calls
`obs.tolist()` once. So does this pass, when the facts say the array is a 1-d float
array, and every read of it in the derivative is `float(obs[i])` with `i` the target of
an enclosing `for` loop:

    t1_4 = len(obs_x)                             obs_x_items = obs_x.tolist()
    for t in t2_1:                                t1_4 = len(obs_x)
        ...                            ->         for t in t2_1:
        t1_5 = float(obs_x[t])                        ...
                                                      t1_5 = obs_x_items[t]

Same values: `tolist()` of a float64 or float32 array holds the Python float of each
entry, which is what `float(obs_x[t])` makes of it; nothing writes into the array (every
use of its name is such a read, or `len(obs_x)`), and an index past either end raises
IndexError both ways. Final code only, like the other rewrites of the in-place schedule.
"""
import gast

from ..ir import build
from ..ir.walk import names_stored, walk_tree, with_copies_of
from ..signature import Num

_FLOAT_DTYPES = ("float64", "float32")


def read_arrays_as_lists(body, kinds, resolve, fresh):
    """`body` (forward sweep, blank line, backward sweep) with the arrays loops read item
    by item read from their `tolist()`. kinds: the facts; resolve(name): what a free name
    of the generated code denotes; fresh(base): a new local name. Returns (body, changed);
    the statements given are not edited (those changed are copies)."""
    if resolve("float") is not float:
        return body, False
    candidates = {name for name, kind in kinds.facts.items()
                  if isinstance(kind, Num) and kind.type is not None
                  and kind.dtype in _FLOAT_DTYPES and kind.axes is not None
                  and len(kind.axes) == 1 and _is_ndarray(kind.type)}
    if not candidates:
        return body, False
    reads, other = {}, set()
    _collect(body, frozenset(), reads, other, candidates)
    chosen = [name for name in reads if name not in other and name in candidates]
    if chosen:      # the names the body binds, from one walk (not one walk per array)
        bound = {name for stmt in body for name in names_stored(stmt)}
        chosen = sorted(name for name in chosen if name not in bound)
    if not chosen:
        return body, False
    lists = {name: fresh(f"{name}_items") for name in chosen}
    rewrite = _Rewrite(lists)
    body, _ = with_copies_of(body, [n for name in chosen for n in reads[name]])
    rewrite.visit_block(body)
    prelude = [build.assign(lists[name], build.call(build.attribute(build.name(name), "tolist")))
               for name in chosen]
    return prelude + body, True


def _is_ndarray(t):
    import numpy
    return t is numpy.ndarray


def _float_read(node, loop_targets):
    """The array name of `float(a[i])` with i a loop target, else None."""
    if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
            and node.func.id == "float" and len(node.args) == 1 and not node.keywords:
        item = node.args[0]
        if isinstance(item, gast.Subscript) and isinstance(item.value, gast.Name) \
                and isinstance(item.slice, gast.Name) and item.slice.id in loop_targets:
            return item.value.id
    return None


def _len_of(node):
    if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
            and node.func.id == "len" and len(node.args) == 1 \
            and isinstance(node.args[0], gast.Name):
        return node.args[0].id
    return None


def _collect(stmts, loop_targets, reads, other, candidates):
    """reads: array -> its reads float(a[i]) in a loop over i; other: arrays used so
    otherwise."""
    for stmt in stmts:
        if isinstance(stmt, gast.For):
            _uses(stmt.iter, loop_targets, reads, other, candidates)
            inner = loop_targets | ({stmt.target.id} if isinstance(stmt.target, gast.Name)
                                    else frozenset())
            _collect(stmt.body, inner, reads, other, candidates)
            _collect(stmt.orelse, loop_targets, reads, other, candidates)
        elif isinstance(stmt, (gast.If, gast.While)):
            _uses(stmt.test, loop_targets, reads, other, candidates)
            _collect(stmt.body, loop_targets, reads, other, candidates)
            _collect(stmt.orelse, loop_targets, reads, other, candidates)
        else:
            _uses(stmt, loop_targets, reads, other, candidates)


def _uses(node, loop_targets, reads, other, candidates):
    # one walk: breadth first, a call comes before the names inside it
    allowed = set()
    for n in walk_tree(node):
        name = _float_read(n, loop_targets)
        if name is not None:
            reads.setdefault(name, []).append(n)
            allowed.add(id(n.args[0].value))
        elif _len_of(n) in candidates:
            allowed.add(id(n.args[0]))
        elif isinstance(n, gast.Name) and n.id in candidates and id(n) not in allowed:
            other.add(n.id)


class _Rewrite(gast.NodeTransformer):
    """float(a[i]) -> a_items[i] for the chosen arrays (the index is a loop target: the
    collection above only chose arrays all of whose reads are such)."""

    def __init__(self, lists):
        self.lists = lists

    def visit_block(self, stmts):
        for stmt in stmts:
            self.visit(stmt)

    def rewritten(self, node):
        """`a_items[i]` for a node `float(a[i])` of a chosen array, else None."""
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id == "float" and len(node.args) == 1 and not node.keywords \
                and isinstance(node.args[0], gast.Subscript) \
                and isinstance(node.args[0].value, gast.Name) \
                and node.args[0].value.id in self.lists \
                and isinstance(node.args[0].slice, gast.Name):
            return build.subscript(build.name(self.lists[node.args[0].value.id]),
                                   build.name(node.args[0].slice.id))
        return None

    def visit_Call(self, node):
        self.generic_visit(node)
        return self.rewritten(node) or node
