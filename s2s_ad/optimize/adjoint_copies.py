"""Stage 7 (specialised reverse mode): copies of an adjoint that nothing needs.

Reversing `x = x + dt * dx` where x is overwritten, the backward sweep keeps the adjoint
of the new x while it restores the old one (`x_bar_1 = x_bar`), then passes the identity
part back (`x_bar = x_bar_1`). On Python numbers in a loop each of those statements costs
as much as an operation. In a block of the backward sweep:

    x_bar_1 = x_bar                                x = _tape.pop()
    x = _tape.pop()                                dx_bar = x_bar * dt
    x_bar = x_bar_1                   ->           x_bar = x_bar + t4_1_bar * b
    dx_bar = x_bar_1 * dt
    x_bar = x_bar + t4_1_bar * b

- `b = a` after `a = b` in the same block, with neither name bound in between, binds b
  to the object it already holds: it goes.
- `a = b` where a is an adjoint bound nowhere else and read only later in the same block,
  before b is bound again (a read in the statement that binds b counts: its right-hand
  side is evaluated first): each read of a reads b instead, and the copy goes. The two
  names hold one object until b is bound again, so every read sees the same value, and a
  write into that object (`b += ...` on an array rebinds b here, so it ends the range)
  reaches both alike.

- an adjoint bound once to a float literal (the seed `loss_bar = 1.0` a loop reads on
  every step): its reads read the literal, folded where exact (`2.0 * t9_0`).

Only adjoints (`x_bar`, `x_bar_1`) are touched, never a user's variable. Final code only,
like the other rewrites of the in-place schedule; statements it changes are copies.
"""

import gast

from ..ir import build
from ..ir.walk import names_loaded, names_stored, walk_tree, with_blocks, with_copies_of
from .fold import fold_expression, fold_operands


def drop_adjoint_copies(body, is_adjoint):
    """`body` (forward sweep, blank line, backward sweep) without the needless adjoint
    copies of its backward sweep. Returns (body, changed)."""
    split = next((k for k, stmt in enumerate(body) if _is_blank(stmt)), None)
    if split is None:
        return body, False
    counts = {}                       # name -> (times bound, times read) in the body
    for stmt in body:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name):
                bound, read = counts.get(node.id, (0, 0))
                load = isinstance(node.ctx, gast.Load)
                counts[node.id] = (bound + (not load), read + load)
    names = _StatementNames()
    backward, changed = _block(body[split + 1:], is_adjoint, counts, names)
    backward, seeded = _literal_seeds(backward, is_adjoint, counts, names)
    changed |= seeded
    return (body[:split + 1] + backward, True) if changed else (body, False)


def _literal_seeds(stmts, is_adjoint, counts, names):
    """An adjoint bound once, at the top level of the backward sweep, to a float literal
    (`loss_bar = 1.0`, a seed a loop reads on every step), read only after that: its
    reads read the literal, folded where that is exact (`1.0 * 2.0 * t9_0` ->
    `2.0 * t9_0`, optimize/fold.py), and the binding goes."""
    seeds = {}
    for k, stmt in enumerate(stmts):
        if build.assigned_name(stmt) is not None and isinstance(stmt.value, gast.Constant) and type(stmt.value.value) is float \
                and is_adjoint(stmt.targets[0].id) \
                and counts.get(stmt.targets[0].id, (0, 0))[0] == 1:
            name = stmt.targets[0].id
            after = sum(names.loaded(s).count(name) for s in stmts[k + 1:])
            if after == counts[name][1]:
                seeds[name] = (k, stmt.value.value)
    if not seeds:
        return stmts, False
    reads = [n for s in stmts for n in walk_tree(s)
             if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load) and n.id in seeds]
    copied, _ = with_copies_of(stmts, reads)
    dropped = {k for k, _ in seeds.values()}
    out = []
    for k, (old, new) in enumerate(zip(stmts, copied)):
        if k in dropped:
            continue
        if new is not old:
            _substitute(new, seeds)
        out.append(new)
    return out, True


def _substitute(stmt, seeds):
    """Literals for the seeds' reads in (a copy of) a statement, then folded."""
    for node in [stmt] + [s for s in walk_tree(stmt) if isinstance(s, gast.stmt)]:
        for field in ("value", "test", "iter"):
            expr = getattr(node, field, None)
            if isinstance(expr, gast.expr):
                setattr(node, field, _folded(_Literals(seeds).visit(expr),
                                             isinstance(node, (gast.Assign, gast.AugAssign))))


def _folded(expr, whole_value):
    """The folded expression; a statement's whole value only to arithmetic (folding
    `1.0 * t` to `t` would make the adjoint share t's array, see optimize/fold.py)."""
    folded = fold_expression(expr)
    if whole_value and not isinstance(folded, (gast.BinOp, gast.UnaryOp, gast.Constant)):
        return fold_operands(expr)
    return folded


class _Literals(gast.NodeTransformer):
    def __init__(self, seeds):
        self.seeds = seeds

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load) and node.id in self.seeds:
            return build.const(self.seeds[node.id][1])
        return node


def _is_blank(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id == "__s2s_blank__"


def _copy_of(stmt, is_adjoint):
    """(a, b) for an adjoint copy `a = b`, else None."""
    if build.assigned_name(stmt) is not None and isinstance(stmt.value, gast.Name) \
            and is_adjoint(stmt.targets[0].id) and is_adjoint(stmt.value.id):
        return stmt.targets[0].id, stmt.value.id
    return None


class _StatementNames:
    """names_loaded / set(names_stored) of a statement, each statement walked once: the
    steps below drop statements or replace them by edited copies, never edit one, so a
    statement's names stay what they were (each entry keeps its statement alive, so its
    id names no other)."""

    def __init__(self):
        self._memo = {}

    def _of(self, stmt):
        entry = self._memo.get(id(stmt))
        if entry is None:
            entry = self._memo[id(stmt)] = (stmt, names_loaded(stmt), set(names_stored(stmt)))
        return entry

    def loaded(self, stmt):
        return self._of(stmt)[1]

    def stored(self, stmt):
        return self._of(stmt)[2]


def _block(stmts, is_adjoint, counts, names):
    out, changed = [], False
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            new = with_blocks(stmt, lambda block: _block(block, is_adjoint, counts, names)[0])
            changed |= new is not stmt
            stmt = new
        out.append(stmt)
    while True:
        step = _no_op_back_copy(out, is_adjoint, counts, names) or \
            _alias(out, is_adjoint, counts, names)
        if step is None:
            return out, changed
        out, changed = step, True


def _no_op_back_copy(stmts, is_adjoint, counts, names):
    stored = None
    for i, stmt in enumerate(stmts):
        pair = _copy_of(stmt, is_adjoint)
        if pair is None:
            continue
        a, b = pair
        stored = stored or [names.stored(s) for s in stmts]
        for j in range(i + 1, len(stmts)):
            if _copy_of(stmts[j], is_adjoint) == (b, a):
                counts[a] = (counts[a][0], counts[a][1] - 1)      # the counts stay true
                counts[b] = (counts[b][0] - 1, counts[b][1])
                return stmts[:j] + stmts[j + 1:]
            if {a, b} & stored[j]:
                break
    return None


def _alias(stmts, is_adjoint, counts, names):
    loaded = stored = None
    for i, stmt in enumerate(stmts):
        pair = _copy_of(stmt, is_adjoint)
        if pair is None or counts.get(pair[0], (0, 0))[0] != 1:
            continue
        a, b = pair
        if loaded is None:            # once per call: the block changes only on return
            loaded = [names.loaded(s) for s in stmts]
            stored = [names.stored(s) for s in stmts]
        reads = [found.count(a) for found in loaded]
        readers = [j for j in range(i + 1, len(stmts)) if reads[j]]
        # every read of a in the whole body is in this block, after the copy
        if not readers or sum(reads[i + 1:]) != counts[a][1]:
            continue
        last = readers[-1]
        rebinds = [j for j in range(i + 1, last + 1) if b in stored[j]]
        if rebinds and (rebinds[0] < last or isinstance(stmts[last], (gast.If, gast.For,
                                                                        gast.While))):
            continue
        new = list(stmts[:i])
        for j in range(i + 1, len(stmts)):
            new.append(_renamed(stmts[j], a, b) if j in readers else stmts[j])
        # the counts stay true: a's reads are b's now, and the copy's read of b is gone
        counts[b] = (counts[b][0], counts[b][1] - 1 + counts[a][1])
        counts[a] = (0, 0)
        return new
    return None


def _renamed(stmt, old, new):
    stmt = build.clone(stmt)
    for node in walk_tree(stmt):
        if isinstance(node, gast.Name) and node.id == old and isinstance(node.ctx, gast.Load):
            node.id = new
    return stmt
