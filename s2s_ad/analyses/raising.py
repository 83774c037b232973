"""Statements of f that may raise: what dead-code elimination keeps, or replaces by a check.

The derivative must raise where f raises. A forward statement the derivative does not
need is dropped by dead-code elimination; when it may raise, it is kept instead, or
stands in as a cheap check of the same condition:

    z = y[5]          (out of range?)                 kept
    t = x + w         (shapes that may not broadcast)  check_broadcast(x, w)
    t = X @ w         (inner lengths that may differ)  check_matmul(X, w)
    q = helper(x)     (anything may raise)             kept

This holds for dead code in f itself (values that reach neither f's result nor its
control flow), whatever it costs: f computes it too. A statement whose value reaches the
result but that the derivative does not need (`t = a * b` in `np.sum(a * b)`) is checked
only when its operands are f's arguments, so the check computes nothing new. What cannot
raise is dropped as before: arithmetic with a number (the kind facts, kinds.py, tell
which values are numbers), slices, elementwise functions of one argument, full
reductions, attribute reads. Only statements assigning a variable of f's levels form
count; the adjoint code the generator writes never does.
"""
import gast
import numpy as np

from ..ir.build import dotted_path
from ..ir import build
from ..ir.walk import all_statements, names_loaded, names_stored, walk_tree
from ..signature import Items
from .. import runtime_checks

_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.FloorDiv, gast.Mod)
_FULL_REDUCTIONS = {np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin}
_SAFE_BUILTINS = {len, range, float, int, abs, bool, tuple, list, enumerate, zip, isinstance,
                  type, print}


class RaisingStatements:
    """`stand_in(stmt)`: None when a dead `stmt` may go; `stmt` itself when it must stay;
    else the check statement to put in its place."""

    def __init__(self, levels, kinds, bindings):
        self._dead = _dead_in_f(levels.tree)
        self._parameters = set(levels.resolution.parameters)
        self._callees = levels.callees
        self._kinds = kinds
        self._bindings = bindings

    def stand_in(self, stmt):
        if not isinstance(stmt, gast.Assign) or len(stmt.targets) != 1 \
                or not isinstance(stmt.targets[0], gast.Name):
            return None
        if stmt.targets[0].id not in self._dead:
            return self._contributing(stmt)
        verdicts = [self._verdict(node) for node in walk_tree(stmt.value)]
        if "keep" in verdicts:
            return stmt
        checks = [v for v in verdicts if v not in (None, "keep")]
        if not checks:
            return None
        if len(checks) > 1 or checks[0][1] is not stmt.value:
            return stmt                 # several conditions: the statement says them all
        helper, node = checks[0]
        return self._check(helper, _operands(node))

    def _contributing(self, stmt):
        """A statement whose value reaches f's output, dropped because the derivative
        needs only its operands: checked only when its operands are f's arguments (the
        check then costs no computation the derivative would not do)."""
        verdict = self._verdict(stmt.value)
        if not isinstance(verdict, tuple) or verdict[0] is not runtime_checks.check_broadcast \
                and verdict[0] is not runtime_checks.check_matmul:
            return None
        operands = _operands(stmt.value)
        if not all(isinstance(o, gast.Constant) or isinstance(o, gast.Name)
                   and o.id in self._parameters for o in operands):
            return None
        return self._check(verdict[0], operands)

    def _check(self, helper, operands):
        name = self._bindings.name_for(helper.__name__, helper)
        return build.expr_stmt(build.call(build.name(name), [build.clone(o) for o in operands]))

    def _verdict(self, node):
        """None (cannot raise), "keep", or (check helper, node)."""
        if isinstance(node, gast.Subscript):
            return None if self._safe_index(node) else "keep"
        if isinstance(node, gast.BinOp) and isinstance(node.op, gast.MatMult):
            return (runtime_checks.check_matmul, node)
        if isinstance(node, gast.BinOp) and isinstance(node.op, _ARITHMETIC):
            return self._broadcast(node, [node.left, node.right])
        if isinstance(node, gast.Compare) and len(node.comparators) == 1:
            return self._broadcast(node, [node.left, node.comparators[0]])
        if isinstance(node, gast.Call):
            return self._call(node)
        return None

    def _broadcast(self, node, operands):
        axes = [self._kinds.axes(o) if self._kinds is not None else None for o in operands]
        if any(isinstance(o, gast.Constant) for o in operands) or () in axes:
            return None                           # a number broadcasts with anything
        # (the facts' shape classes assume the operation ran: no proof for a dropped one)
        if all(isinstance(o, gast.Name) for o in operands) and \
                operands[0].id == operands[1].id:
            return None
        return (runtime_checks.check_broadcast, node)

    def _call(self, call):
        callee = self._callees.get(dotted_path(call.func))
        module = getattr(callee, "__module__", None) or ""
        if module in ("s2s_ad.runtime", "s2s_ad.runtime_flow", "s2s_ad.runtime_arrays",
                      "s2s_ad.runtime_linalg", "s2s_ad.runtime_checks") \
                or callee in _SAFE_BUILTINS:
            return None
        if callee is np.matmul and len(call.args) == 2 and not call.keywords:
            return (runtime_checks.check_matmul, call)
        if isinstance(callee, np.ufunc) and callee.signature is not None:
            return "keep"          # a generalized ufunc (vecdot, matvec): core dimensions
        if isinstance(callee, np.ufunc) and callee.nin == 1 and len(call.args) == 1:
            return None
        if isinstance(callee, np.ufunc) and callee.nin == 2 and len(call.args) == 2 \
                and not call.keywords:
            return self._broadcast(call, call.args)
        if callee in _FULL_REDUCTIONS and len(call.args) == 1 and all(
                k.arg == "axis" and isinstance(k.value, gast.Constant)
                and k.value.value is None for k in call.keywords):
            return None
        return "keep"           # the user's helpers, math (domain errors), numpy with axes

    def _safe_index(self, node):
        """A basic slice never raises; a constant index into a tuple or list whose length
        the facts know does not either."""
        index = node.slice
        parts = index.elts if isinstance(index, gast.Tuple) else [index]
        if all(isinstance(p, gast.Slice) or (isinstance(p, gast.Constant) and p.value in
                                             (None, Ellipsis)) for p in parts):
            return all(not isinstance(p, gast.Slice) or _constant_bounds(p) for p in parts)
        kind = self._kinds.of(node.value) if self._kinds is not None else None
        return isinstance(kind, Items) and isinstance(index, gast.Constant) \
            and isinstance(index.value, int) and -len(kind.items) <= index.value < len(
                kind.items)


def _operands(node):
    if isinstance(node, gast.BinOp):
        return [node.left, node.right]
    if isinstance(node, gast.Compare):
        return [node.left, node.comparators[0]]
    return list(node.args)


def _dead_in_f(tree):
    """The variables of the levels form whose values never reach f's result nor decide
    its control flow (dead code in f itself)."""
    assigned, read_by = set(), {}
    live = set()
    for stmt in all_statements(tree.body):
        if isinstance(stmt, gast.Assign) and all(isinstance(t, gast.Name) for t in stmt.targets):
            for target in stmt.targets:
                assigned.add(target.id)
                read_by.setdefault(target.id, set()).update(names_loaded(stmt.value))
            continue
        heads = [stmt.iter] if isinstance(stmt, gast.For) else [stmt.test] \
            if isinstance(stmt, (gast.If, gast.While)) else [stmt]
        live.update(n for h in heads for n in names_loaded(h))
        if isinstance(stmt, gast.For):
            live.update(names_stored(stmt.target))
    pending = list(live)
    while pending:
        for name in read_by.get(pending.pop(), ()):
            if name not in live:
                live.add(name)
                pending.append(name)
    return assigned - live


def _constant_bounds(part):
    """Slice bounds that are constants or names (a name holding a non-integer raises)."""
    return all(b is None or isinstance(b, gast.Constant) for b in (part.lower, part.upper,
                                                                    part.step))


def forward_to_keep(forward, wanted, raising, checks=()):
    """Of a straight-line forward sweep (single assignments), the statements defining the
    `wanted` names, those of f that may raise, and what they read; a statement a check can
    stand in for gives its check instead. Returns (statements in order, checks), the
    checks (after `checks`, those already there) to run once the statements have."""
    definitions = {s.targets[0].id: s for s in forward}
    needed, stand_ins = set(wanted), list(checks)
    for stmt in forward:
        name = stmt.targets[0].id
        stand_in = raising.stand_in(stmt) if raising is not None and name not in needed \
            else None
        if stand_in is stmt:
            needed.add(name)
        elif stand_in is not None:
            stand_ins.append(stand_in)
    pending = list(needed) + [n.id for c in stand_ins for n in walk_tree(c)
                              if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)]
    while pending:
        name = pending.pop()
        needed.add(name)
        for node in walk_tree(definitions[name].value) if name in definitions else ():
            if isinstance(node, gast.Name) and node.id not in needed:
                pending.append(node.id)
    return [s for s in forward if s.targets[0].id in needed], stand_ins
