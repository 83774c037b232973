"""Stage 7 (specialised reverse mode): elementwise arithmetic done in arrays nothing reads again.

Written as an expression, `g = a * 2.0 * x + b * (1.0 - a * a)` allocates an array per
operation, and numpy's elision of temporaries does not happen in generated code: at 10^7
elements that is several times the memory of a hand-written gradient. This pass rewrites a
top-level assignment whose value is elementwise arithmetic (or ufunc calls) on arrays that
the facts (analyses/kinds.py) prove to be float arrays of one shape and dtype, so that each
operation writes into an array nothing reads again ("a buffer"): an intermediate result
of the same expression, or a value at its last read, with `*=`, `+=` or a ufunc's `out=`.
An array dead after an earlier statement is handed to the next allocation of its shape.

    t1_0 = np.tanh(x)                               t1_0 = np.tanh(x)
    x_bar = x * (x + t1_0 * (2.0 - t1_0 * x))  ->   x_bar = t1_0 * x
                                                    np.subtract(2.0, x_bar, out=x_bar)
                                                    x_bar *= t1_0
                                                    x_bar += x
                                                    x_bar *= x

A name may serve as a buffer when it is assigned once, at top level, the fresh result of
arithmetic or of a ufunc (never an argument, a seed or cotangent, a view, a helper's
result), and every read of it is an operand of arithmetic or of a ufunc, an attribute
such as `.size`, the array a numpy reduction reads, a shape check (check_broadcast), the
value of an in-place update (`g -= t`), or the returned value: nothing else can hold its
array. Operands are
taken in Python's order and each operation computes the same numbers from the same
operands (a buffer on the right of `+` or `*` moves to the left: IEEE addition and
multiplication commute exactly), so no value changes. A statement is rewritten only when
that saves an allocation; anything else is left as it was.
"""
from collections import Counter

import gast
import numpy

from .. import runtime_checks
from ..ir import build
from ..ir.naming import callee
from ..ir.walk import walk_tree
from .array_classes import ArrayClasses
from .buffer_plan import UFUNC_OF, NotScheduled, Plan
from .product_operands import product_operands_named, unplanned_operands_inlined

_HARMLESS_ATTRIBUTES = {"size", "shape", "ndim", "dtype"}
_SHAPE_CHECKS = (runtime_checks.check_broadcast, runtime_checks.check_matmul)


def schedule_in_place(body, kinds, resolve, numpy_name, fresh, generated, primal_of=None):
    """`body` (a specialised derivative's statements) with elementwise assignments
    evaluated in buffers. kinds: the facts of the levels form; resolve(name): what a free
    name of the generated code denotes; numpy_name: the name numpy is bound to there;
    fresh(base): a new name; generated(name): is it a name s2s_ad made (a temporary or
    an adjoint)? primal_of(name): the variable an adjoint name is for (an adjoint
    assigned a matrix product has its class: array_classes.product_class). Only those
    are built step by step: a user's variable is assigned its
    value in one statement (`z_1 = np.subtract(z, m, out=z)` at most; its steps before
    that go into a fresh name's array, `p = np.divide(1.0, p_part, out=p_part)`). A user's variable
    may lend its array once nothing reads it any more, as `z -= m` does in a gradient
    written by hand (softmax's shifted logits and their exponentials share one array).
    A product's elementwise operand is planned as an assignment of its own
    (product_operands.py). Returns (body, changed)."""
    schedule = _Schedule(body, kinds, resolve, numpy_name, fresh, generated, primal_of)
    split, named = product_operands_named(schedule, _allocates)
    if not named:
        return schedule.run()
    planned = _Schedule(split, kinds, resolve, numpy_name, fresh,
                        lambda name: name in named or generated(name), primal_of).run()[0]
    return unplanned_operands_inlined(planned, named), True


class _Schedule(ArrayClasses):
    def __init__(self, body, kinds, resolve, numpy_name, fresh, generated, primal_of):
        super().__init__(kinds, resolve)
        self.body = body
        self.numpy_name, self.fresh, self.generated = numpy_name, fresh, generated
        stores, self.last_read = {}, {}
        for index, stmt in enumerate(body):
            if self._shape_check(stmt):
                continue          # reads shapes only, which a buffer keeps
            for node in walk_tree(stmt):
                if isinstance(node, gast.Name):
                    if isinstance(node.ctx, gast.Load):
                        self.last_read[node.id] = index
                    else:
                        stores[node.id] = stores.get(node.id, 0) + 1
        self.once = {name for name, count in stores.items() if count == 1}
        # an array assigned once and then only added into (`pt_bar = ...; pt_bar -= ...`
        # at top level) keeps its class: numpy's `-=` writes into the array
        added = Counter(s.target.id for s in body if isinstance(s, gast.AugAssign)
                        and isinstance(s.target, gast.Name))
        for stmt in body:
            target = build.assigned_name(stmt)
            if target in self.kinds.facts or target in self.classes:
                continue
            if target in self.once or target in added and stores[target] == 1 + added[target]:
                cls = self.class_of(stmt.value)
                if cls is None and target in self.once and self.generated(target):
                    cls = self.product_class(target, stmt.value, primal_of)
                if cls is not None and (target in self.once or isinstance(cls, tuple)):
                    self.classes[target] = cls
        self.buffers = self._buffers()

    def _shape_check(self, stmt):
        """`check_broadcast(x, w)` / `check_matmul(X, w)` (analyses/raising.py): it reads
        its operands' shapes only, and a buffer holds values of its own shape alone."""
        return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
            and callee(stmt.value.func, self.resolve) in _SHAPE_CHECKS

    def _buffers(self):
        """Names whose array nothing but this function's arithmetic can see."""
        allowed = set()           # ids of Name nodes read where no reference is kept
        for stmt in self.body:
            if self._shape_check(stmt):
                allowed.update(id(a) for a in stmt.value.args if isinstance(a, gast.Name))
                continue
            for node in walk_tree(stmt):
                if isinstance(node, (gast.BinOp, gast.UnaryOp, gast.Compare)) or \
                        self.ufunc(node) is not None:
                    allowed.update(id(c) for c in gast.iter_child_nodes(node)
                                   if isinstance(c, gast.Name))
                elif self.reduction(node) or self.fresh_helper(node) \
                        or self.contraction(node):                     # no reference kept
                    allowed.update(id(a) for a in node.args if isinstance(a, gast.Name))
                elif isinstance(node, gast.Attribute) and node.attr in _HARMLESS_ATTRIBUTES:
                    allowed.add(id(node.value))
                elif isinstance(node, gast.AugAssign) and isinstance(node.value, gast.Name) \
                        and isinstance(node.target, gast.Name) \
                        and isinstance(self.name_class(node.target.id), tuple):
                    # `g -= t` on an array g: numpy reads t and keeps nothing (a list's
                    # `+=` would keep t's rows)
                    allowed.add(id(node.value))
                elif isinstance(node, gast.Return):
                    value = node.value
                    parts = value.elts if isinstance(value, gast.Tuple) else [value]
                    allowed.update(id(p) for p in parts)
        candidates = set()
        for stmt in self.body:
            target = build.assigned_name(stmt)
            if target in self.once and \
                    isinstance(self.name_class(target), tuple) and _allocates(stmt.value, self):
                candidates.add(target)
        for stmt in self.body:
            for node in walk_tree(stmt):
                if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) \
                        and id(node) not in allowed:
                    candidates.discard(node.id)
        return candidates

    # ---- the schedule -----------------------------------------------------------------
    def run(self):
        out, changed = [], False
        self.free = {}            # class -> names of buffers nothing reads any more
        self.used = set()         # buffers whose array now holds another value
        last_reads = {}           # index -> the buffers read last there, sorted by name
        for name in sorted(self.buffers):
            last_reads.setdefault(self.last_read.get(name), []).append(name)
        for index, stmt in enumerate(self.body):
            rewritten = self._statement(index, stmt)
            if rewritten is None:
                out.append(stmt)
            else:
                out.extend(rewritten)
                changed = True
            for name in last_reads.get(index, ()):
                if name not in self.used:
                    self.free.setdefault(self.name_class(name), []).append(name)
                    self.used.add(name)
        return (out, True) if changed else (self.body, False)

    def _statement(self, index, stmt):
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name) \
                and isinstance(self.name_class(stmt.target.id), tuple):
            return self._update(index, stmt)
        target = build.assigned_name(stmt)
        # a user's variable is assigned its value in one step, as the user wrote it
        # (checked below, once the plan is made)
        if target is None or not isinstance(self.class_of(stmt.value), tuple) \
                or any(isinstance(n, gast.Name) and n.id == target
                       for n in walk_tree(stmt.value)):
            return None
        dying = {n.id for n in walk_tree(stmt.value) if isinstance(n, gast.Name)
                 and n.id in self.buffers and n.id not in self.used
                 and self.last_read.get(n.id) == index}
        plan = Plan(self, target, dying)
        try:
            result = plan.evaluate(stmt.value)
        except NotScheduled:
            return None
        operations = sum(isinstance(self.class_of(n), tuple) and isinstance(
            n, (gast.BinOp, gast.UnaryOp, gast.Call)) for n in walk_tree(stmt.value))
        if plan.allocations >= operations:
            return None                       # nothing saved: the expression reads better
        statements = plan.statements
        if not self.generated(target) and (len(statements) != 1 or result != target):
            # built step by step in an array of s2s_ad's, the user's variable bound by
            # the last step alone
            statements = self._bound_by_last_step(statements, target) \
                if result == target else None
            if statements is None:
                return None
        if result != target:
            statements.append(build.assign(target, build.name(result)))
        # the target holds the statement's value from now on, whatever array it is
        self.free, self.used = plan.free, self.used | (plan.taken - {target})
        return [build.with_location(s, stmt) for s in statements]


    def _update(self, index, stmt):
        """`g += V` on an array g: V's operations planned like an assignment's value (into
        arrays read here for the last time), then one update; None where that saves no
        allocation, or V reads g.

            eta_bar += t2_0_bar * t1_1 * e_1
        ->  eta_bar_term = np.multiply(t2_0_bar, t1_1, out=t2_0_bar)
            eta_bar_term *= e_1
            eta_bar += eta_bar_term
        """
        if any(isinstance(n, gast.Name) and n.id == stmt.target.id
               for n in walk_tree(stmt.value)):
            return None
        term, outer = self.fresh(f"{stmt.target.id}_term"), self.generated
        self.generated = lambda name: name == term or outer(name)
        try:
            planned = self._statement(index, build.with_location(
                build.assign(term, build.clone(stmt.value)), stmt))
        finally:
            self.generated = outer
        if planned is None:
            return None
        value = build.name(term)
        last = planned[-1]
        if build.assigned_name(last) == term and isinstance(last.value, gast.Name):
            planned, value = planned[:-1], last.value      # `term = t2_0_bar`: that array
        update = build.aug_assign(stmt.target.id, type(stmt.op).__name__, value)
        return planned + [build.with_location(update, stmt)]

    def _bound_by_last_step(self, statements, target):
        """A plan's steps building a user's variable in its own array, renamed to build it
        in a fresh name's, the variable assigned once, by the last step: the sigmoid
        `p = 1.0 / (1.0 + t2_0)` takes one array where it took two, and p still holds
        nothing but its value. None when the last step is not one ufunc writing into
        the target, or a step binds another name (a second operand's array, a row): a
        name holds its array to the end of the function, where the expression's
        temporary was freed at once (`K = sf2 * E + sn2 * I` would keep an N x N more).

            p = 1.0 + t2_0                      p_part = 1.0 + t2_0
            np.divide(1.0, p, out=p)     ->     p = np.divide(1.0, p_part, out=p_part)
        """
        last = statements[-1]
        if isinstance(last, gast.AugAssign) and isinstance(last.target, gast.Name) \
                and last.target.id == target and type(last.op) in UFUNC_OF:
            func = build.dotted(f"{self.numpy_name}.{UFUNC_OF[type(last.op)]}")
            call = build.call(func, [build.name(target), build.clone(last.value)],
                              [("out", build.name(target))])
        elif isinstance(last, gast.Expr) and isinstance(last.value, gast.Call) \
                and isinstance(callee(last.value.func, self.resolve), numpy.ufunc) and any(
                k.arg == "out" and isinstance(k.value, gast.Name) and k.value.id == target
                for k in last.value.keywords):
            call = build.clone(last.value)
        else:
            return None
        if any(build.assigned_name(s) not in (None, target) for s in statements):
            return None
        part = self.fresh(f"{target}_part")
        steps = [_renamed(build.clone(s), target, part) for s in statements[:-1]]
        return steps + [build.assign(target, _renamed(call, target, part))]


def _renamed(node, old, new):
    for n in walk_tree(node):
        if isinstance(n, gast.Name) and n.id == old:
            n.id = new
    return node


def _allocates(value, schedule):
    """Is `value` a new array (arithmetic or a ufunc on an array)?"""
    return isinstance(value, (gast.BinOp, gast.UnaryOp)) or \
        schedule.ufunc(value) is not None or schedule.spread(value) \
        or schedule.fresh_helper(value) or schedule.matrix_product(value)

