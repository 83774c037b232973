"""Stage 7 (reverse mode): a straight-line gradient read as exact rational functions,
for optimize/closed_forms.py.

`straight_line_parts(body)` splits a gradient whose forward sweep is pure single
assignments into (forward, forward checks, output checks, backward, return), else None.
`SweepReading(parts, ...)` interprets it: each forward name's value as a rational function
over atoms (parameters, globals, and calls it does not cover, with the atom whose shape
each has by construction), then the backward sweep's adjoints, `unbroadcast`/`unreduce`/
`reduced_count`/kink shares included where every array has one shape. A statement it
cannot read (`Opaque`) is kept as it is, with the operands it can read in closed form:

    t1 = np.exp(x)                      values:   t1 an atom (its shape x's),
    p = t1 / (1.0 + t1)                           p = t1 / (1 + t1)
    p_bar = y - p                 ->    adjoints: p_bar = y - t1 / (1 + t1)
    t1_bar = p_bar / (1.0 + t1) ** 2              t1_bar = p_bar / (1 + t1)^2
    x_bar = t1_bar * t1                 kept:     nothing (every statement read)

It only reads: closed_forms.py decides, renders and checks the rewrite.
"""
import gast

from .. import runtime, runtime_checks
from ..ir import build
from ..ir.naming import callee, output_check_call
from ..ir.walk import every_call, names_loaded, walk_tree
from . import rational
from .kink_zeros import vanishing_share, whole_share

COUNT = "#count"        # the atom for reduced_count(<an array of the shape>, None)


class Opaque(Exception):
    """An expression the closed form does not cover."""


def straight_line_parts(body, pure_call, resolve):
    """(forward, forward checks, output checks, backward, return) of a straight-line
    body, else None."""
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
        if build.assigned_name(stmt) in (None, *assigned) \
                or not every_call(stmt, pure_call):
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


class SweepReading:
    """The forward values and backward adjoints of straight-line parts as rational values."""

    def __init__(self, parts, is_adjoint, resolve, elementwise_call, is_number):
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
            except Opaque:
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
            except Opaque:
                return None
            classes |= {self.atom_class[a] for a in rational.atoms_of(num) | rational.atoms_of(den)
                        if a not in self.numbers}
        return next(iter(classes)) if len(classes) == 1 else None

    # ---- expressions -----------------------------------------------------------------------
    def _rational(self, node, backward):
        """(value, is_array) of an expression; Opaque if it is not covered."""
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
                    raise Opaque()
                value, array = self._rational(node.left, backward)
                return f.power(value, exponent.value), array
            op = {gast.Add: f.add, gast.Sub: f.sub, gast.Mult: f.mul,
                  gast.Div: f.div}.get(type(node.op))
            if op is None:
                raise Opaque()
            (a, left), (b, right) = (self._rational(node.left, backward),
                                     self._rational(node.right, backward))
            return op(a, b), left or right
        if backward and isinstance(node, gast.Call):
            return self._helper_call(node)
        if backward and is_size(node) and self._full_shape(node.value):
            return (rational.atom(COUNT), rational.const(1)), False    # x.size (facts)
        raise Opaque()

    def _name(self, ident, backward):
        if backward and ident in self.adjoints:
            return self.adjoints[ident]
        if backward and (self.is_adjoint(ident) or ident in self.backward_names):
            raise Opaque()                  # a value of the sweep this pass does not cover
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
            raise Opaque()
        helper, args = callee(node.func, self.resolve), node.args
        if helper is runtime.unbroadcast and len(args) == 2 and self._full_shape(args[1]):
            return self._rational(args[0], True)[0], True
        if helper is runtime.unreduce and len(args) in (2, 3, 4) and self._full_shape(args[1]) \
                and (len(args) < 3 or build.is_none(args[2])):
            value, array = self._rational(args[0], True)
            if array:
                raise Opaque()
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
        raise Opaque()

    def _full_shape(self, node):
        """Does node have the arrays' shape (a value of them)?"""
        return isinstance(node, gast.Name) and node.id not in self.adjoints \
            and self._name(node.id, True)[1]


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
                    raise Opaque()
                self.defined_at[target] = index
                self.interpreted.append(index)
                continue
            except Opaque:
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
                except Opaque:
                    pass
        return closed


def is_size(node):
    """`x.size`: an element count the facts wrote out (ad/context.py element_count)."""
    return isinstance(node, gast.Attribute) and node.attr == "size" \
        and isinstance(node.value, gast.Name)
