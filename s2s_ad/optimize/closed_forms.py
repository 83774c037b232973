"""Stage 7 (reverse mode): closed forms for the elementwise part of a backward sweep.

The chain rule through elementwise code is arithmetic on numbers once every array it
reads has one shape: then `unbroadcast` has nothing to sum and the adjoints are rational
functions of the forward values. This pass computes them exactly (optimize/rational.py),
writes each adjoint the rest of the sweep needs in the shortest form it finds with the
forward values at hand (optimize/closed_form_render.py), checks the rewrite in exact
arithmetic at random points, and keeps it only when it does fewer array operations.
It applies only where one shape is certain: the facts of a specialisation prove it
(`same_shapes`), or every array the closed form reads is one numpy computed elementwise
from a single array (one shape by construction, floats). Otherwise (the general
derivative, or facts that leave a shape open) the sweep stays as generated; there is no
run-time shape test and no second copy of the sweep:

    t3_0 = np.exp(-(X @ w))                     t3_0 = np.exp(-(X @ w))
    t4_0 = 1.0 + t3_0                           t4_0 = 1.0 + t3_0
    p = 1.0 / t4_0                              p = 1.0 / t4_0
    t1_1 = 1.0 - y                       ->     (w: float64[D], X: float64[N, D],
    t6_1 = 1.0 - p                               y: float64[N] proved one shape)
    (eight adjoint lines of the                 w_bar = matmul_adjoint_b((p - y) / y.size, X, w)
     log-likelihood and the sigmoid)

Only straight-line gradients whose forward sweep is pure single assignments qualify.

Any failure inside this pass leaves the body as it was (the general sweep is always
right); with S2S_AD_STRICT_PASSES=1 (the test suite sets it) it raises instead.
"""
import os

import gast
import numpy

from .. import runtime, runtime_checks
from ..analyses.raising import forward_to_keep
from ..ir import build
from ..ir.naming import callee, dotted_callee, output_check_call
from ..ir.walk import names_loaded, walk_tree
from . import rational
from .closed_form_render import Renderer, rewrite_agrees
from .kink_zeros import vanishing_share, whole_share

COUNT = "#count"        # the atom for reduced_count(<an array of the shape>, None)


class _Opaque(Exception):
    """An expression the closed form does not cover."""


def closed_form_adjoints(body, is_adjoint, resolve, pure_call, elementwise_call,
                         same_shapes=None, raising=None, is_number=None):
    """`body` rewritten, or `body` itself when nothing qualifies or nothing gets cheaper.
    same_shapes(names) says whether the facts prove these arrays have one shape and hold
    floats (without it, or when it says no, only one-shape-by-construction code qualifies). Forward statements of f that may raise (`raising`,
    analyses/raising.py) still run, or checks standing in for them. is_number(name): the
    facts prove a name a number (a float parameter such as a loss's `nu`): it scales
    the arrays, it is not one of them."""
    parts = _split(body, pure_call, resolve)
    if parts is None:
        return body
    try:
        return _Rewrite(parts, is_adjoint, resolve, elementwise_call, same_shapes,
                        raising, is_number).run() or body
    except (_Opaque, ZeroDivisionError, KeyError, rational.TooComplex):
        return body             # not covered (KeyError: a call the exact check cannot run)
    except Exception:
        if os.environ.get("S2S_AD_STRICT_PASSES"):
            raise
        return body


def _split(body, pure_call, resolve):
    """(forward, checks, backward, return) of a straight-line body, else None."""
    blank = next((k for k, s in enumerate(body) if build.is_blank_line(s)), None)
    if blank is None or not isinstance(body[-1], gast.Return):
        return None
    forward, rest = body[:blank], body[blank + 1:-1]
    forward_checks = [s for s in forward if isinstance(s, gast.Expr) and isinstance(
        s.value, gast.Call) and callee(s.value.func, resolve) in (
            runtime_checks.check_broadcast, runtime_checks.check_matmul)]
    forward = [s for s in forward if not any(s is c for c in forward_checks)]
    assigned = set()
    for stmt in forward:
        if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], gast.Name)) or stmt.targets[0].id in assigned \
                or any(isinstance(n, gast.Call) and not pure_call(n) for n in walk_tree(stmt)):
            return None
        assigned.add(stmt.targets[0].id)
    checks, backward = [], []
    for stmt in rest:
        if output_check_call(stmt, resolve) is not None:
            checks.append(stmt)
        elif isinstance(stmt, (gast.Assign, gast.AugAssign, gast.Expr)):
            targets = stmt.targets if isinstance(stmt, gast.Assign) else \
                [stmt.target] if isinstance(stmt, gast.AugAssign) else []
            if any(not isinstance(t, gast.Name) or t.id in assigned for t in targets):
                return None
            backward.append(stmt)
        else:
            return None
    return forward, forward_checks, checks, backward, body[-1]


class _Rewrite:
    def __init__(self, parts, is_adjoint, resolve, elementwise_call, same_shapes, raising,
                 is_number):
        self.same_shapes, self.raising = same_shapes, raising
        self.is_number = is_number or (lambda name: False)
        self.numbers = set()      # atoms the facts prove numbers
        self.forward, self.forward_checks, self.checks, self.backward, self.ret = parts
        self.is_adjoint, self.resolve = is_adjoint, resolve
        self.elementwise_call = elementwise_call
        self.field = rational.Field()
        self.values = {}          # forward name -> rational value over atoms
        self.atom_class = {}      # array atom -> the atom whose shape it has by construction
        self.order = []           # array atoms in order of appearance
        self.adjoints = {}        # interpreted backward name -> (value, is_array)
        self.touched = set()      # array atoms the interpreted code depends on
        self.defined_at = {}      # interpreted adjoint -> index of its last statement
        self.interpreted = []     # indices of the backward statements interpreted
        self.vanished = set()     # ids of kink_share calls proved zero (kink_zeros.py)
        self.whole = set()        # ids of kink_share calls proved their g (kink_zeros.py)
        self.forward_names = {s.targets[0].id for s in self.forward}
        self.backward_names = {n.id for stmt in self.backward for n in walk_tree(stmt)
                               if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}

    # ---- forward: rational definitions over atoms ------------------------------------------
    def _forward(self):
        for stmt in self.forward:
            name = stmt.targets[0].id
            try:
                self.values[name] = self._rational(stmt.value, backward=False)[0]
            except _Opaque:
                self._new_atom(name, self._class_of_call(stmt.value))

    def _new_atom(self, name, same_as=None):
        if self.is_number(name):
            self.numbers.add(name)
        self.order.append(name)
        self.atom_class[name] = self.atom_class.get(same_as, name) if same_as else name
        self.values[name] = (rational.atom(name), rational.const(1))

    def _class_of_call(self, value):
        """The atom an elementwise call of one shape class takes its shape from."""
        if not (isinstance(value, gast.Call) and self.elementwise_call(value)):
            return None
        classes = set()
        for arg in value.args:
            try:
                (num, den), _ = self._rational(arg, backward=False)
            except _Opaque:
                return None
            classes |= {self.atom_class[a] for a in rational.atoms_of(num) | rational.atoms_of(den)
                        if a not in self.numbers}
        return next(iter(classes)) if len(classes) == 1 else None

    # ---- expressions -----------------------------------------------------------------------
    def _rational(self, node, backward):
        """(value, is_array) of an expression; _Opaque if it is not covered."""
        f = self.field
        if isinstance(node, gast.Constant) and type(node.value) in (int, float):
            return (rational.const(node.value), rational.const(1)), False
        if isinstance(node, gast.Name):
            return self._name(node.id, backward)
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
            value, array = self._rational(node.operand, backward)
            return f.neg(value), array
        if isinstance(node, gast.BinOp):
            if isinstance(node.op, gast.Pow):
                exponent = node.right
                if not (isinstance(exponent, gast.Constant) and type(exponent.value) is int
                        and 0 < abs(exponent.value) <= 4):
                    raise _Opaque()
                value, array = self._rational(node.left, backward)
                return f.power(value, exponent.value), array
            op = {gast.Add: f.add, gast.Sub: f.sub, gast.Mult: f.mul,
                  gast.Div: f.div}.get(type(node.op))
            if op is None:
                raise _Opaque()
            (a, left), (b, right) = (self._rational(node.left, backward),
                                     self._rational(node.right, backward))
            return op(a, b), left or right
        if backward and isinstance(node, gast.Call):
            return self._helper_call(node)
        if backward and _is_size(node) and self._full_shape(node.value):
            return (rational.atom(COUNT), rational.const(1)), False    # x.size (facts)
        raise _Opaque()

    def _name(self, ident, backward):
        if backward and ident in self.adjoints:
            return self.adjoints[ident]
        if backward and (self.is_adjoint(ident) or ident in self.backward_names):
            raise _Opaque()                  # a value of the sweep this pass does not cover
        if ident not in self.values:
            self._new_atom(ident)            # a parameter or a global
        value = self.values[ident]
        atoms = (rational.atoms_of(value[0]) | rational.atoms_of(value[1])) - self.numbers
        if backward:
            self.touched |= atoms
        return value, bool(atoms)

    def _helper_call(self, node):
        """unbroadcast(a, x), unreduce(g, x, None, _), reduced_count(x, None): with every
        array of one shape, the first two pass their value on and the last is a number."""
        if node.keywords:
            raise _Opaque()
        helper, args = callee(node.func, self.resolve), node.args
        if helper is runtime.unbroadcast and len(args) == 2 and self._full_shape(args[1]):
            return self._rational(args[0], True)[0], True
        if helper is runtime.unreduce and len(args) in (2, 3, 4) and self._full_shape(args[1]) \
                and (len(args) < 3 or build.is_none(args[2])):
            value, array = self._rational(args[0], True)
            if array:
                raise _Opaque()
            return value, True
        if vanishing_share(node, self.forward, self.resolve,
                           lambda arg: self._rational(arg, True)[0], self.field):
            self.vanished.add(id(node))
            return (rational.const(0), rational.const(1)), True
        if whole_share(node, self.forward, self.resolve,
                       lambda arg: self._rational(arg, True)[0], self.field):
            self.whole.add(id(node))
            return self._rational(args[0], True)[0], True
        if helper is runtime.reduced_count and len(args) in (1, 2) \
                and self._full_shape(args[0]) and (len(args) < 2 or build.is_none(args[1])):
            return (rational.atom(COUNT), rational.const(1)), False
        raise _Opaque()

    def _full_shape(self, node):
        """Does node have the arrays' shape (a value of them)?"""
        return isinstance(node, gast.Name) and node.id not in self.adjoints \
            and self._name(node.id, True)[1]

    # ---- the rewrite -----------------------------------------------------------------------
    def run(self):
        self._forward()
        kept, materialise = self._backward()
        if not self.adjoints:
            return None
        renderer = Renderer(self.field, {n: v for n, v in self.values.items()
                                         if n not in self.atom_class},
                            {COUNT: None}, {COUNT} | self.numbers)
        classes = sorted({self.atom_class[a] for a in self.touched}, key=self.order.index)
        count = next((n.id for stmt in self.backward for n in walk_tree(stmt)
                      if isinstance(n, gast.Name)
                      and self.resolve(n.id) is runtime.reduced_count), None)
        if count is not None and classes:       # any array of the one shape will do
            renderer.atoms[COUNT] = build.call(build.name(count),
                                               [build.name(classes[0]), build.const(None)])
        elif classes and any(_is_size(n) for stmt in self.backward for n in walk_tree(stmt)):
            renderer.atoms[COUNT] = build.attribute(build.name(classes[0]), "size")
        # the test: one array per shape class, and every argument or global read (one
        # could hold booleans; values numpy computes here are floats)
        inputs = [a for a in sorted(self.touched, key=self.order.index)
                  if a not in self.forward_names]
        tested = classes + [a for a in inputs if a not in classes] \
            if len(classes) > 1 or inputs else []
        if tested and (self.same_shapes is None or not self.same_shapes(tested)):
            return None                 # shapes the facts do not prove: the sweep stays
        return self._assemble(kept, materialise, renderer)

    def _backward(self):
        """Interpret the sweep. Returns the statements kept (with the arguments they take
        in closed form) and the interpreted adjoints to write out, each where it was
        defined: [(index, name, (value, is_array))]."""
        kept, materialise = [], []
        for index, stmt in enumerate(self.backward):
            if isinstance(stmt, gast.Expr):
                continue                                   # a `# grad of` comment
            target = stmt.targets[0].id if isinstance(stmt, gast.Assign) else stmt.target.id
            try:
                if isinstance(stmt, gast.Assign) and self.is_adjoint(target):
                    self.adjoints[target] = self._rational(stmt.value, True)
                elif isinstance(stmt, gast.AugAssign) and target in self.adjoints \
                        and isinstance(stmt.op, (gast.Add, gast.Sub)):
                    value, array = self._rational(stmt.value, True)
                    old, was_array = self.adjoints[target]
                    combine = self.field.add if isinstance(stmt.op, gast.Add) else self.field.sub
                    self.adjoints[target] = (combine(old, value), array or was_array)
                else:
                    raise _Opaque()
                self.defined_at[target] = index
                self.interpreted.append(index)
                continue
            except _Opaque:
                pass
            closed = self._closed_arguments(stmt)
            inside = {id(m) for arg, _, _ in closed.values() for m in walk_tree(arg)}
            needed = {n.id for n in walk_tree(stmt) if isinstance(n, gast.Name)
                      and isinstance(n.ctx, gast.Load) and n.id in self.adjoints
                      and id(n) not in inside}
            if isinstance(stmt, gast.AugAssign) and target in self.adjoints:
                needed.add(target)
            for name in sorted(needed, key=lambda n: self.defined_at[n]):
                # once per definition: `h_bar = g @ W.T` and `W_bar = h.T @ g` read one g
                if (self.defined_at[name], name) not in {(i, n) for i, n, _ in materialise}:
                    materialise.append((self.defined_at[name], name, self.adjoints[name]))
            kept.append((index, stmt, closed))
            self.adjoints.pop(target, None)
        written = {(i, n) for i, n, _ in materialise}
        for name in sorted(set(names_loaded(self.ret)) & set(self.adjoints), key=lambda n: self.defined_at[n]):
            if (self.defined_at[name], name) not in written:
                materialise.append((self.defined_at[name], name, self.adjoints[name]))
        return kept, materialise

    def _closed_arguments(self, stmt):
        """{position: (argument, value, is_array)} for the operands of a kept
        `v = helper(...)` (positions 0, 1, ...) or `v = g @ X` ("left", "right") that read
        interpreted adjoints and are covered."""
        closed = {}
        value = stmt.value
        if not isinstance(stmt, gast.Assign):
            return closed
        if isinstance(value, gast.Call):
            operands = list(enumerate(value.args))
        elif isinstance(value, gast.BinOp) and isinstance(value.op, gast.MatMult):
            operands = [("left", value.left), ("right", value.right)]
        else:
            operands = []
        for k, arg in operands:
            if set(names_loaded(arg)) & set(self.adjoints):
                try:
                    closed[k] = (arg, *self._rational(arg, True))
                except _Opaque:
                    pass
        return closed

    def _assemble(self, kept, materialise, renderer):
        fast, outputs, new_cost, earlier = {}, [], 0.0, []
        for index, name, (value, array) in sorted(materialise, key=lambda m: m[0]):
            expr = self._render(renderer, value, array, earlier)
            fast.setdefault(index, []).append(build.assign(name, expr))
            outputs.append((index, "after", build.name(name), expr))
            new_cost += _cost(renderer, expr)
            earlier = [(n, v) for n, v in earlier if n != name] + [(name, value)]
        old_cost = sum(_cost(renderer, self.backward[k].value) for k in self.interpreted)
        for index, stmt, closed in kept:
            stmt = build.clone(stmt)
            value = stmt.value
            fresh = isinstance(value, gast.BinOp) and isinstance(value.op, gast.MatMult) \
                or isinstance(value, gast.Call) \
                and dotted_callee(value.func, self.resolve) in _FRESH_RESULTS
            for k, (arg, value, array) in sorted(closed.items(), key=lambda c: str(c[0])):
                expr = self._render(renderer, value, array, own_array=not fresh)
                if isinstance(k, str):
                    setattr(stmt.value, k, expr)
                else:
                    stmt.value.args[k] = expr
                outputs.append((index, "before", arg, expr))
                old_cost += _cost(renderer, arg)
                new_cost += _cost(renderer, expr)
            fast.setdefault(index, []).append(stmt)
        fast_body = [build.comment("closed form of the adjoints below: the arrays they "
                                   "read have one shape")] + \
            [stmt for index in sorted(fast) for stmt in fast[index]]
        before = self._needed(fast_body)
        old_cost += sum(_cost(renderer, s.value) for s in self.forward
                        if s.targets[0].id not in before)
        if new_cost >= old_cost or not self._exact(outputs):
            return None
        forward, checks = forward_to_keep(self.forward, before, self.raising,
                                          self.forward_checks)
        return forward + checks + [build.blank_line()] + self.checks + fast_body + [self.ret]

    def _render(self, renderer, value, array, earlier=(), own_array=True):
        """`own_array`: the expression must be an array of its own (not one of a kept
        product's or solve's operands, which return a new array and write into none)."""
        if array != bool((rational.atoms_of(value[0]) | rational.atoms_of(value[1]))
                         - {COUNT} - self.numbers):
            raise _Opaque()          # e.g. an array of ones whose closed form is 1.0
        expr = renderer.render(value, earlier)[0]
        if own_array and isinstance(expr, gast.Name):
            # a gradient must be an array of its own: not the caller's array, the returned
            # value or a view of an argument (W.T, W[:, 0]), where writing into one would
            # change the other; and floats (np.arange(3) holds integers)
            expr = gast.BinOp(left=expr, op=gast.Mult(), right=build.const(1.0))
        return expr

    def _needed(self, fast_body):
        """Forward names the closed form, the checks and the return read."""
        definitions = {s.targets[0].id: s for s in self.forward}
        pending = list(set().union(names_loaded(self.ret), *map(names_loaded, self.checks),
                                   *map(names_loaded, fast_body)))
        seen = set()
        while pending:
            name = pending.pop()
            if name in definitions and name not in seen:
                seen.add(name)
                pending.extend(names_loaded(definitions[name].value))
        return seen

    def _exact(self, outputs):
        """Do the original statements and the closed forms agree at random points?"""
        return rewrite_agrees(
            [s for s in self.forward if s.targets[0].id not in self.atom_class],
            self.backward, self.interpreted, outputs, set(self.atom_class) | {COUNT},
            self.resolve, COUNT, self.vanished, self.whole)


# kept calls whose result is a new array and which write into none of their operands:
# an operand that is a forward name needs no copy (`solve(L^T, Z)`, not `Z * 1.0`)
_FRESH_RESULTS = (numpy.linalg.solve, numpy.outer, numpy.dot, numpy.matmul)


def _cost(renderer, expr):
    return renderer.cost(expr) + sum(isinstance(n, gast.Call) for n in walk_tree(expr))


def _is_size(node):
    """`x.size`: an element count the facts wrote out (ad/context.py element_count)."""
    return isinstance(node, gast.Attribute) and node.attr == "size" \
        and isinstance(node.value, gast.Name)
