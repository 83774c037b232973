"""Statements of f that may raise: what dead-code elimination keeps, or replaces by a check.

The derivative must raise where f raises. A forward statement the derivative does not
need is dropped by dead-code elimination; when it may raise, it is kept instead, or
stands in as a cheap check of the same condition:

    z = y[5]          (out of range?)                 kept
    t = x + w         (shapes that may not broadcast)  check_broadcast(x, w)
    t = X @ w         (inner lengths that may differ)  check_matmul(X, w)
    q = helper(x)     (anything may raise)             kept

This holds for dead code in f itself (values that reach neither f's result nor its
control flow), whatever it costs: f computes it too. It holds as well for a statement
whose value reaches the result but that the derivative does not need (`t = a * b` in
`np.sum(a * b)`, `c = np.linalg.inv(B)` of a B the derivative does not follow). A
broadcasting check reads, for each operand made by elementwise steps, the names that
operand's shape comes from (the broadcast sources), so it seldom makes the derivative
compute a value it would not have:

    y = x * 2.0; v = w + 1.0; u = y + v       check_broadcast(x, w)   (x, w arguments)
    t = X @ P; u = t * X   (u alone reads t)    check_broadcast(product_like(X, P), X)

An operation the derivative follows (active) is left to its own derivative, which
raises as f does (the adjoint of `inv(B)` reads the inverse). What cannot raise is
dropped as before: arithmetic with a number (the kind facts, kinds.py, tell which values
are numbers), slices, elementwise functions of one argument, full reductions, attribute
reads. Only statements assigning a variable of f's levels form count; the adjoint code
the generator writes never does.
"""
import math
from collections import Counter

import gast
import numpy as np

from ..ir.build import dotted_path
from ..ir import build
from ..ir.walk import all_statements, names_loaded, names_stored, walk_tree
from ..signature import Items, named_tuple_length
from .. import runtime_checks

_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.FloorDiv, gast.Mod)
_FULL_REDUCTIONS = {np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin}
_SAFE_BUILTINS = {len, range, float, int, abs, bool, tuple, list, enumerate, zip, isinstance,
                  type, print}
# math functions of one number that raise (a domain error, an overflow) only outside an
# open interval (None: unbounded): an unneeded call of one on a value the derivative does
# not follow stands as `if not 0.0 < t3_1 < 1e+305: math.lgamma(t3_1)`, which raises
# where f does and costs one comparison elsewhere (the normalising constant of a
# log-likelihood, `math.lgamma(y + 1.0)`)
_MATH_RANGES = {math.lgamma: (0.0, 1e305), math.gamma: (0.0, 171.0), math.log: (0.0, None),
                math.log2: (0.0, None), math.log10: (0.0, None), math.log1p: (-1.0, None),
                math.sqrt: (0.0, None), math.exp: (None, 709.0), math.expm1: (None, 709.0)}
_DOMAIN = "domain"


class RaisingStatements:
    """`stand_in(stmt)`: None when a dead `stmt` may go; `stmt` itself when it must stay;
    else the check statement to put in its place."""

    def __init__(self, levels, kinds, bindings, activity=None):
        self._dead = _dead_in_f(levels.tree)
        self._variables = set(names_stored(levels.tree))
        self._parameters = set(levels.resolution.parameters)
        self._callees = levels.callees
        self._kinds = kinds
        self._bindings = bindings
        self._activity = activity
        self._shapes = set()            # names bound to `x.shape`
        self._items = {}                # names bound once to a tuple or list display
        self._products = {}             # names bound once to `a @ b` of names never rebound
        self._reads = Counter(names_loaded(levels.tree))     # name -> reads in f's code
        self._sources = self._broadcast_sources(levels.tree)
        self._check_names = set()

    def stand_in(self, stmt):
        if not isinstance(stmt, gast.Assign) or len(stmt.targets) != 1 \
                or not isinstance(stmt.targets[0], gast.Name):
            return None
        if stmt.targets[0].id not in self._variables:
            return None                 # the generator's own (an adjoint's zeros)
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
        return self._check(*checks[0], stmt)

    def _contributing(self, stmt):
        """A statement whose value reaches f's output, dropped because the derivative
        does not need it: kept when it may raise and the derivative does not follow it
        (inactive), else checked, from the operands' broadcast sources."""
        verdicts = [self._verdict(node) for node in walk_tree(stmt.value)]
        checks = [v for v in verdicts if v not in (None, "keep")]
        if "keep" in verdicts or len(checks) > 1 or checks and checks[0][1] is not stmt.value:
            active = self._activity is None or self._activity.is_active(stmt.targets[0].id)
            return None if active else stmt
        return self._check(*checks[0], stmt) if checks else None

    def _check(self, helper, node, stmt):
        """`helper(operands)`, each operand replaced by its broadcast sources (its only
        source for a product's operand); None when one shape is all there is; `stmt`
        itself when an operand is an expression the sources do not cover."""
        if helper is _DOMAIN:
            low, high = _math_range(self._callees.get(dotted_path(node.func)))
            return build.if_stmt(build.outside(node.args[0], low, high),
                                 [build.expr_stmt(build.clone(node))])
        operands, matmul_operands = {}, []
        for operand in _operands(node):
            sources = self._sources_of(operand)
            if sources is None:
                return stmt
            if helper is runtime_checks.check_matmul and len(sources) != 1:
                if isinstance(operand, gast.Constant):
                    return stmt
                sources = (operand.id,) if isinstance(operand, gast.Name) else None
                if sources is None:
                    return stmt
            operands.update(dict.fromkeys(sources))
            matmul_operands.extend(sources)
        if helper is runtime_checks.check_broadcast and len(operands) < 2:
            return None
        # a product takes its two operands even when both come from one name (v2 @ x with
        # v2 made from x elementwise: check_matmul(x, x)); a broadcast, each source once
        names = matmul_operands if helper is runtime_checks.check_matmul else operands
        name = self._bindings.name_for(helper.__name__, helper)
        self._check_names.add(name)
        own = {o.id for o in _operands(node) if isinstance(o, gast.Name)}
        return build.expr_stmt(build.call(build.name(name), [
            self._shape_source(n) if helper is runtime_checks.check_broadcast and n in own
            else build.name(n) for n in names]))

    def _shape_source(self, name):
        """`name`, or for a product `t = X @ P` that only the checked step reads, the
        array of its shape that `product_like(X, P)` makes without multiplying: the check
        of `t * X` then reads X and P, and the product goes (`np.sum((X @ P) * X)`)."""
        if name not in self._products or self._reads.get(name) != 1:
            return build.name(name)
        helper = runtime_checks.product_like
        return build.call(build.name(self._bindings.name_for(helper.__name__, helper)),
                          [build.name(n) for n in self._products[name]])

    def _sources_of(self, node):
        """The names whose shapes `node`'s is the broadcast of (() for a number), or None
        when an operation other than an elementwise one makes it."""
        found, todo = {}, [node]
        while todo:
            node = todo.pop()
            if isinstance(node, gast.Name):
                if not self._is_number(node):
                    found.update(dict.fromkeys(self._sources.get(node.id, (node.id,))))
            elif not self._makes_a_number(node):
                operands = self._elementwise_operands(node)
                if operands is None:
                    return None
                todo.extend(reversed(operands))
        return tuple(found)

    @property
    def parameters(self):
        """f's parameter names (a check may read them wherever it stands)."""
        return self._parameters

    def may_raise(self, stmt):
        """Might `stmt` (a statement of the derivative) raise? False only for an
        assignment of what cannot raise."""
        return not isinstance(stmt, gast.Assign) or any(
            self._verdict(node) is not None for node in walk_tree(stmt.value))

    def is_check(self, stmt):
        """Is `stmt` a check this table stood in for a statement?"""
        return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
            and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id in self._check_names

    def _broadcast_sources(self, tree):
        """For each variable assigned once by an elementwise step (arithmetic, a
        comparison, a ufunc) of variables never rebound: the names its shape is the
        broadcast of (f's arguments, or values made otherwise), numbers left out.

            y = x * 2.0; u = y + w       {y: (x,), u: (x, w)}
        """
        stored = {}
        for stmt in all_statements(tree.body):
            own = stmt.target if isinstance(stmt, gast.For) else None \
                if isinstance(stmt, (gast.If, gast.While)) else stmt   # not nested blocks
            for name in names_stored(own) if own is not None else ():
                stored[name] = stored.get(name, 0) + 1
        sources = self._sources = {}
        for stmt in all_statements(tree.body):
            if not isinstance(stmt, gast.Assign) or len(stmt.targets) != 1 \
                    or not isinstance(stmt.targets[0], gast.Name) \
                    or stored[stmt.targets[0].id] != 1 \
                    or stmt.targets[0].id in self._parameters:    # a rebound argument
                continue
            if isinstance(stmt.value, gast.Attribute) and stmt.value.attr == "shape":
                self._shapes.add(stmt.targets[0].id)
            if isinstance(stmt.value, (gast.Tuple, gast.List)):
                self._items[stmt.targets[0].id] = stmt.value.elts
            product = _operands(stmt.value) if isinstance(stmt.value, gast.BinOp) \
                and isinstance(stmt.value.op, gast.MatMult) else ()
            if product and all(isinstance(o, gast.Name) and stored.get(o.id, 0) == (
                    0 if o.id in self._parameters else 1) for o in product):
                self._products[stmt.targets[0].id] = [o.id for o in product]
            operands = () if self._makes_a_number(stmt.value) \
                else self._elementwise_operands(stmt.value)
            if operands is None or not all(isinstance(o, (gast.Name, gast.Constant))
                                           for o in operands) or any(
                    isinstance(o, gast.Name) and stored.get(o.id, 0) > (
                        0 if o.id in self._parameters else 1) for o in operands):
                continue
            sources[stmt.targets[0].id] = self._sources_of(stmt.value)
        return sources

    def _elementwise_operands(self, value):
        """The operands of an elementwise step, else None (an item of a tuple display,
        `steps = t[2]` of `t = (h0, 0.0, n)`, is its only operand)."""
        if isinstance(value, gast.Subscript) and isinstance(value.value, gast.Name) \
                and value.value.id in self._items and isinstance(value.slice, gast.Constant) \
                and isinstance(value.slice.value, int) \
                and -len(self._items[value.value.id]) <= value.slice.value \
                < len(self._items[value.value.id]):
            return [self._items[value.value.id][value.slice.value]]
        if isinstance(value, gast.BinOp) and isinstance(value.op, _ARITHMETIC):
            operands = [value.left, value.right]
        elif isinstance(value, gast.UnaryOp) and isinstance(value.op, (gast.USub, gast.UAdd)):
            operands = [value.operand]
        elif isinstance(value, gast.Compare) and len(value.comparators) == 1:
            operands = [value.left, value.comparators[0]]
        elif isinstance(value, gast.Call) and not value.keywords and isinstance(
                self._callees.get(dotted_path(value.func)), np.ufunc) \
                and self._callees[dotted_path(value.func)].signature is None \
                and len(value.args) == self._callees[dotted_path(value.func)].nin:
            operands = list(value.args)
        else:
            return None
        return operands

    def _makes_a_number(self, value):
        """A number whatever the operands: a full reduction, a length, `x.shape[0]`."""
        if isinstance(value, gast.Constant):
            return True
        if isinstance(value, gast.Attribute):
            return value.attr in ("ndim", "size")
        if isinstance(value, gast.Subscript):
            return isinstance(value.slice, gast.Constant) and (
                isinstance(value.value, gast.Attribute) and value.value.attr == "shape"
                or isinstance(value.value, gast.Name) and value.value.id in self._shapes)
        if not isinstance(value, gast.Call):
            return False
        callee = self._callees.get(dotted_path(value.func))
        return callee in (len, float, int) or callee in _FULL_REDUCTIONS \
            and len(value.args) == 1 and all(k.arg == "axis" and isinstance(
                k.value, gast.Constant) and k.value.value is None for k in value.keywords)

    def _is_number(self, atom):
        return self._kinds is not None and self._kinds.axes(atom) == ()

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
        if _math_range(callee) and len(call.args) == 1 and not call.keywords \
                and isinstance(call.args[0], gast.Name) and self._is_number(call.args[0]) \
                and self._activity is not None \
                and not self._activity.is_active(call.args[0].id):
            return (_DOMAIN, call)
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
        the facts know (a named tuple's: its fields) does not either."""
        index = node.slice
        parts = index.elts if isinstance(index, gast.Tuple) else [index]
        if all(isinstance(p, gast.Slice) or (isinstance(p, gast.Constant) and p.value in
                                             (None, Ellipsis)) for p in parts):
            return all(not isinstance(p, gast.Slice) or _constant_bounds(p) for p in parts)
        kind = self._kinds.of(node.value) if self._kinds is not None else None
        length = len(kind.items) if isinstance(kind, Items) else named_tuple_length(kind)
        return length is not None and isinstance(index, gast.Constant) \
            and type(index.value) is int and -length <= index.value < length


def _math_range(callee):
    """(low, high) of a math function in _MATH_RANGES, else None."""
    return _MATH_RANGES.get(callee) if getattr(callee, "__self__", None) is math else None


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
