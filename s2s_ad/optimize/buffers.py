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
such as `.size`, the array a numpy reduction reads, a shape check (check_broadcast), or
the returned value: nothing else can hold its array. Operands are
taken in Python's order and each operation computes the same numbers from the same
operands (a buffer on the right of `+` or `*` moves to the left: IEEE addition and
multiplication commute exactly), so no value changes. A statement is rewritten only when
that saves an allocation; anything else is left as it was.
"""
from collections import Counter
from dataclasses import dataclass

import gast
import numpy

from .. import runtime, runtime_checks, runtime_pieces
from ..ir import build
from ..ir.naming import callee
from ..ir.walk import walk_tree
from ..signature import Num
from .buffer_plan import UFUNC_OF, NotScheduled, Plan, keeps_dtype
from .product_operands import product_operands_named, unplanned_operands_inlined

_HARMLESS_ATTRIBUTES = {"size", "shape", "ndim", "dtype"}
_REDUCTIONS = {numpy.sum, numpy.mean, numpy.max, numpy.min, numpy.prod}
# runtime helpers whose result is always a new float array of the shape and dtype of an
# elementwise operation on their first k operands (given float arrays and numbers there,
# numbers or flags after): a buffer like arithmetic's. helper -> k
_FRESH_HELPERS = {runtime.logistic: 1, runtime_pieces.kink_share: 3,
                  runtime_pieces.where_negated: 1}
# those of them that take `into=` (an array of their result's class to write into) ->
# may it be one of their operands' (they read all operands before writing)?
_OUT_HELPERS = {runtime_pieces.kink_share: True, runtime_pieces.where_negated: False}
_SHAPE_CHECKS = (runtime_checks.check_broadcast, runtime_checks.check_matmul)
# ufuncs given a free buffer or a new array, never their operand's: np.sign of 10^6 float64
# takes 5.3 ms in place, 0.6 ms into another array (numpy 2.4; abs's adjoint met it)
_SLOW_IN_PLACE = {numpy.sign}
# np.clip(x, lo, hi) applies numpy's clip ufunc to its operands and takes its `out=`
_CLIP = (getattr(numpy, "_core", None) or numpy.core).umath.clip
_WEAK = "python number"        # a Python int or float: never changes an array's dtype


def schedule_in_place(body, kinds, resolve, numpy_name, fresh, generated):
    """`body` (a specialised derivative's statements) with elementwise assignments
    evaluated in buffers. kinds: the facts of the levels form; resolve(name): what a free
    name of the generated code denotes; numpy_name: the name numpy is bound to there;
    fresh(base): a new name; generated(name): is it a name s2s_ad made (a temporary or
    an adjoint)? Only those are built step by step: a user's variable is assigned its
    value in one statement (`z_1 = np.subtract(z, m, out=z)` at most). A user's variable
    may lend its array once nothing reads it any more, as `z -= m` does in a gradient
    written by hand (softmax's shifted logits and their exponentials share one array).
    A product's elementwise operand is planned as an assignment of its own
    (product_operands.py). Returns (body, changed)."""
    schedule = _Schedule(body, kinds, resolve, numpy_name, fresh, generated)
    split, named = product_operands_named(schedule, _allocates)
    if not named:
        return schedule.run()
    planned = _Schedule(split, kinds, resolve, numpy_name, fresh,
                        lambda name: name in named or generated(name)).run()[0]
    return unplanned_operands_inlined(planned, named), True


class _Schedule:
    def __init__(self, body, kinds, resolve, numpy_name, fresh, generated):
        self.body, self.kinds, self.resolve = body, kinds, resolve
        self.numpy_name, self.fresh, self.generated = numpy_name, fresh, generated
        self.classes = {}         # generated name -> its class, from its one assignment
        self._class_memo = {}     # id(node) -> (class, node: kept alive so ids stay unique)
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
            target = _assigned_name(stmt)
            if target in self.kinds.facts or target in self.classes:
                continue
            if target in self.once or target in added and stores[target] == 1 + added[target]:
                cls = self.class_of(stmt.value)
                if cls is not None and (target in self.once or isinstance(cls, tuple)):
                    self.classes[target] = cls
        self.buffers = self._buffers()

    def _shape_check(self, stmt):
        """`check_broadcast(x, w)` / `check_matmul(X, w)` (analyses/raising.py): it reads
        its operands' shapes only, and a buffer holds values of its own shape alone."""
        return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
            and callee(stmt.value.func, self.resolve) in _SHAPE_CHECKS

    # ---- facts ------------------------------------------------------------------------
    def class_of(self, node):
        """(shape class, dtype) of a float array, _WEAK or a dtype name for a number, or
        None when the facts do not say."""
        key = id(node)
        if key not in self._class_memo:         # each node once: deep expressions
            self._class_memo[key] = (self._class_of(node), node)
        return self._class_memo[key][0]

    def _class_of(self, node):
        if isinstance(node, gast.Constant):
            return _WEAK if type(node.value) in (int, float) else None
        if isinstance(node, gast.Name):
            return self._name_class(node.id)
        if isinstance(node, gast.Attribute) and node.attr in ("size", "ndim") \
                and isinstance(node.value, gast.Name) or _is_length(node):
            return _WEAK                                        # a Python int
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return self.class_of(node.operand)
        if isinstance(node, gast.BinOp) and type(node.op) in UFUNC_OF:
            return self._combine(self.class_of(node.left), self.class_of(node.right))
        if self._spread(node):
            return self.class_of(node.args[1])
        if self.fresh_helper(node):
            cls = self.class_of(node.args[0])
            for operand in node.args[1:_FRESH_HELPERS[callee(node.func, self.resolve)]]:
                cls = self._combine(cls, self.class_of(operand))
            return cls if isinstance(cls, tuple) else None
        if self._reduction(node):
            return self._kept_reduction(node)
        ufunc = self._ufunc(node)
        if ufunc is not None:
            classes = [self.class_of(a) for a in node.args]
            cls = classes[0] if classes else None
            for other in classes[1:]:
                cls = self._combine(cls, other)
            # only ufuncs that give an array of its operands' float dtype (not np.isnan)
            if isinstance(cls, tuple) and keeps_dtype(ufunc, cls[1]):
                return cls
        return None

    def _kept_reduction(self, node):
        """`np.sum(a, axis=k, keepdims=True)` of a float array a: a _Row (a's axes with
        axis k of length 1), else None."""
        keywords = {k.arg: k.value for k in node.keywords}
        axis = build.number_literal(keywords.get("axis", build.const(None)))
        keepdims = keywords.get("keepdims")
        cls = self.class_of(node.args[0]) if len(node.args) == 1 else None
        axes = self._axes(cls)
        if type(axis) is not int or not (isinstance(keepdims, gast.Constant)
                                         and keepdims.value is True) \
                or axes is None or not -len(axes) <= axis < len(axes):
            return None
        kept = list(axes)
        kept[axis] = 1
        return _Row(tuple(kept), cls[1] if isinstance(cls, tuple) else cls.dtype)

    def _axes(self, cls):
        """The axes (1 or None for any other length) of a class's arrays, or None."""
        if isinstance(cls, _Row):
            return cls.axes
        if isinstance(cls, tuple):
            return self.kinds.axes(cls[0])
        return None

    def _combine(self, a, b):
        """The class of an elementwise operation on operands of classes a and b: a float
        array's class also when the other operand is an array that broadcasts against it
        without growing it (a row of means against its matrix), never when the result
        would be larger than either."""
        if a is None or b is None:
            return None
        if a == b:
            return a
        if not isinstance(a, (tuple, _Row)):
            a, b = b, a
        if not isinstance(a, (tuple, _Row)):
            return _WEAK if a == b == _WEAK else None
        if not isinstance(b, (tuple, _Row)):              # an array and a number
            if b == _WEAK or numpy.promote_types(b, _dtype(a)) == numpy.dtype(_dtype(a)):
                return a
            return None
        for big, small in ((a, b), (b, a)):
            if isinstance(big, tuple) and self._broadcasts_into(small, big):
                return big
        return None

    def _broadcasts_into(self, small, big):
        small_axes, big_axes = self._axes(small), self._axes(big)
        if small_axes is None or big_axes is None or len(small_axes) > len(big_axes) \
                or numpy.promote_types(_dtype(small), _dtype(big)) != numpy.dtype(_dtype(big)):
            return False
        pairs = zip(reversed(small_axes), reversed(big_axes))
        return all(s == 1 or s is None and b is None for s, b in pairs)

    def _name_class(self, ident):
        if ident in self.classes:
            return self.classes[ident]
        kind = self.kinds.of(ident)
        if not isinstance(kind, Num) or kind.dtype is None:
            return None
        if kind.axes == ():
            if kind.type in (int, float):
                return _WEAK
            return kind.dtype if kind.type is not None and kind.type is not numpy.ndarray \
                else None
        if kind.type is numpy.ndarray and kind.dtype in ("float64", "float32") \
                and (kind.axes or kind.axes is None and ident in self.once):
            # axes None (`u[1:, :] - u[:-1, :]`, lengths no fact): still an array, whose
            # class meets numbers and its shape class only, nothing that may broadcast
            return ((self.kinds.shape_class or {}).get(ident, ident), kind.dtype)
        return None

    def _spread(self, node):
        """`unreduce(g, x, None, False)` with g a Python number: a reduction's seed spread
        over x, a new array of x's shape and dtype (runtime.unreduce)."""
        return isinstance(node, gast.Call) and not node.keywords and len(node.args) >= 2 \
            and callee(node.func, self.resolve) is runtime.unreduce \
            and all(isinstance(a, gast.Constant) and a.value in (None, False)
                    for a in node.args[2:]) \
            and self.class_of(node.args[0]) == _WEAK

    def fresh_helper(self, node):
        """`logistic(z, 0.0)`, `kink_share(g, 1.0, d, True)`, `where_negated(g, c)`: a
        helper of _FRESH_HELPERS on names and numbers (its first k operands, one of them a
        name), numbers, flags or a mask that fits in the first operand after them."""
        if not (isinstance(node, gast.Call) and not node.keywords and node.args):
            return False
        k = _FRESH_HELPERS.get(callee(node.func, self.resolve))
        if k is None or len(node.args) < k:
            return False
        operands, rest = node.args[:k], node.args[k:]
        return any(isinstance(a, gast.Name) for a in operands) \
            and all(isinstance(a, gast.Name) or self.class_of(a) == _WEAK for a in operands) \
            and all(self.class_of(a) == _WEAK or isinstance(a, gast.Constant)
                    and type(a.value) is bool or self._mask_within(a, operands[0])
                    for a in rest)

    def _mask_within(self, node, array):
        """Is `node` a boolean array (where_negated's mask) that broadcasts into `array`'s
        class without growing it?"""
        kind = self.kinds.of(node.id) if isinstance(node, gast.Name) else None
        axes = self._axes(self.class_of(array))
        if not (isinstance(kind, Num) and kind.dtype == "bool" and kind.axes is not None
                and axes is not None and len(kind.axes) <= len(axes)):
            return False
        pairs = zip(reversed(kind.axes), reversed(axes))
        return all(s == 1 or s is None and b is None for s, b in pairs)

    def takes_out(self, node):
        """_OUT_HELPERS's entry for `node`'s callee (None: it takes no `into=`)."""
        return _OUT_HELPERS.get(callee(node.func, self.resolve))

    def slow_in_place(self, node):
        return self._ufunc(node) in _SLOW_IN_PLACE     # (its operand is no buffer for it)

    def _reduction(self, node):
        """A numpy reduction (`np.sum(t, axis=1)`): it reads its array and returns a new
        one, keeping no reference, so the array may serve as a buffer after it."""
        return isinstance(node, gast.Call) and callee(node.func, self.resolve) in _REDUCTIONS \
            and all(k.arg in ("axis", "keepdims") for k in node.keywords)

    def _ufunc(self, node):
        """The numpy ufunc a call without keywords applies elementwise, else None."""
        if not isinstance(node, gast.Call) or node.keywords:
            return None
        function = callee(node.func, self.resolve)
        if function is numpy.clip:
            function = _CLIP
        if isinstance(function, numpy.ufunc) and function.nout == 1 \
                and function.nin == len(node.args):
            return function
        return None

    def _buffers(self):
        """Names whose array nothing but this function's arithmetic can see."""
        allowed = set()           # ids of Name nodes read where no reference is kept
        for stmt in self.body:
            if self._shape_check(stmt):
                allowed.update(id(a) for a in stmt.value.args if isinstance(a, gast.Name))
                continue
            for node in walk_tree(stmt):
                if isinstance(node, (gast.BinOp, gast.UnaryOp, gast.Compare)) or \
                        self._ufunc(node) is not None:
                    allowed.update(id(c) for c in gast.iter_child_nodes(node)
                                   if isinstance(c, gast.Name))
                elif self._reduction(node) or self.fresh_helper(node):   # no reference kept
                    allowed.update(id(a) for a in node.args if isinstance(a, gast.Name))
                elif isinstance(node, gast.Attribute) and node.attr in _HARMLESS_ATTRIBUTES:
                    allowed.add(id(node.value))
                elif isinstance(node, gast.Return):
                    value = node.value
                    parts = value.elts if isinstance(value, gast.Tuple) else [value]
                    allowed.update(id(p) for p in parts)
        candidates = set()
        for stmt in self.body:
            target = _assigned_name(stmt)
            if target in self.once and \
                    isinstance(self._name_class(target), tuple) and _allocates(stmt.value, self):
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
        for index, stmt in enumerate(self.body):
            rewritten = self._statement(index, stmt)
            if rewritten is None:
                out.append(stmt)
            else:
                out.extend(rewritten)
                changed = True
            for name in sorted(self.buffers - self.used):
                if self.last_read.get(name) == index:
                    self.free.setdefault(self._name_class(name), []).append(name)
                    self.used.add(name)
        return (out, True) if changed else (self.body, False)

    def _statement(self, index, stmt):
        target = _assigned_name(stmt)
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
            return None
        if result != target:
            statements.append(build.assign(target, build.name(result)))
        # the target holds the statement's value from now on, whatever array it is
        self.free, self.used = plan.free, self.used | (plan.taken - {target})
        return [build.with_location(s, stmt) for s in statements]


def _allocates(value, schedule):
    """Is `value` a new array (arithmetic or a ufunc on an array)?"""
    return isinstance(value, (gast.BinOp, gast.UnaryOp)) or \
        schedule._ufunc(value) is not None or schedule._spread(value) \
        or schedule.fresh_helper(value)


def _assigned_name(stmt):
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name):
        return stmt.targets[0].id
    return None


def _is_length(node):
    """`x.shape[-1]`: a Python int."""
    return isinstance(node, gast.Subscript) and build.number_literal(node.slice) is not None \
        and isinstance(node.value, gast.Attribute) and node.value.attr == "shape" \
        and isinstance(node.value.value, gast.Name)


@dataclass(frozen=True)
class _Row:
    """The class of an array a reduction kept the axes of (`np.sum(g, axis=1,
    keepdims=True)`): its axes and dtype. It is never a buffer; arithmetic reads it where
    it broadcasts against an array of a class."""
    axes: tuple
    dtype: str


def _dtype(cls):
    return cls.dtype if isinstance(cls, _Row) else cls[1]

