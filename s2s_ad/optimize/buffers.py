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
such as `.size`, the array a numpy reduction reads, or the returned value: nothing else
can hold its array. Operands are
taken in Python's order and each operation computes the same numbers from the same
operands (a buffer on the right of `+` or `*` moves to the left: IEEE addition and
multiplication commute exactly), so no value changes. A statement is rewritten only when
that saves an allocation; anything else is left as it was.
"""
import gast
import numpy

from .. import runtime
from ..ir import build
from ..ir.naming import callee
from ..ir.walk import walk_tree
from ..signature import Num

_UFUNC_OF = {gast.Add: "add", gast.Sub: "subtract", gast.Mult: "multiply",
             gast.Div: "divide", gast.Pow: "power"}
_COMMUTATIVE = (gast.Add, gast.Mult)
_HARMLESS_ATTRIBUTES = {"size", "shape", "ndim", "dtype"}
_REDUCTIONS = {numpy.sum, numpy.mean, numpy.max, numpy.min, numpy.prod}
_WEAK = "python number"        # a Python int or float: never changes an array's dtype


class _NotScheduled(Exception):
    """The statement holds something the schedule does not cover: leave it as it was."""


def schedule_in_place(body, kinds, resolve, numpy_name, fresh, generated):
    """`body` (a specialised derivative's statements) with elementwise assignments
    evaluated in buffers. kinds: the facts of the levels form; resolve(name): what a free
    name of the generated code denotes; numpy_name: the name numpy is bound to there;
    fresh(base): a new name; generated(name): is it a name s2s_ad made (a temporary or
    an adjoint)? Only those are written into or built step by step: a user's variable
    holds the value the user gave it whenever a debugger shows it. Returns (body,
    changed)."""
    return _Schedule(body, kinds, resolve, numpy_name, fresh, generated).run()


class _Schedule:
    def __init__(self, body, kinds, resolve, numpy_name, fresh, generated):
        self.body, self.kinds, self.resolve = body, kinds, resolve
        self.numpy_name, self.fresh, self.generated = numpy_name, fresh, generated
        self.classes = {}         # generated name -> its class, from its one assignment
        self._class_memo = {}     # id(node) -> (class, node: kept alive so ids stay unique)
        stores, self.last_read = {}, {}
        for index, stmt in enumerate(body):
            for node in walk_tree(stmt):
                if isinstance(node, gast.Name):
                    if isinstance(node.ctx, gast.Load):
                        self.last_read[node.id] = index
                    else:
                        stores[node.id] = stores.get(node.id, 0) + 1
        self.once = {name for name, count in stores.items() if count == 1}
        for stmt in body:
            target = _assigned_name(stmt)
            if target in self.once and target not in self.kinds.facts:
                cls = self.class_of(stmt.value)
                if cls is not None:
                    self.classes[target] = cls
        self.buffers = self._buffers()

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
                and isinstance(node.value, gast.Name):
            return _WEAK                                        # a Python int
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return self.class_of(node.operand)
        if isinstance(node, gast.BinOp) and type(node.op) in _UFUNC_OF:
            return _combine(self.class_of(node.left), self.class_of(node.right))
        if self._spread(node):
            return self.class_of(node.args[1])
        ufunc = self._ufunc(node)
        if ufunc is not None:
            classes = [self.class_of(a) for a in node.args]
            cls = classes[0] if classes else None
            for other in classes[1:]:
                cls = _combine(cls, other)
            # only ufuncs that give an array of its operands' float dtype (not np.isnan)
            if isinstance(cls, tuple) and _keeps_dtype(ufunc, cls[1]):
                return cls
        return None

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
        if kind.type is numpy.ndarray and kind.axes and kind.dtype in ("float64", "float32"):
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
        if isinstance(function, numpy.ufunc) and function.nout == 1 \
                and function.nin == len(node.args):
            return function
        return None

    def _buffers(self):
        """Names whose array nothing but this function's arithmetic can see."""
        allowed = set()           # ids of Name nodes read where no reference is kept
        for stmt in self.body:
            for node in walk_tree(stmt):
                if isinstance(node, (gast.BinOp, gast.UnaryOp, gast.Compare)) or \
                        self._ufunc(node) is not None:
                    allowed.update(id(c) for c in gast.iter_child_nodes(node)
                                   if isinstance(c, gast.Name))
                elif self._reduction(node):
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
            if target in self.once and self.generated(target) and \
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
        if target is None or not self.generated(target) \
                or not isinstance(self.class_of(stmt.value), tuple) \
                or any(isinstance(n, gast.Name) and n.id == target
                       for n in walk_tree(stmt.value)):
            return None
        dying = {n.id for n in walk_tree(stmt.value) if isinstance(n, gast.Name)
                 and n.id in self.buffers and n.id not in self.used
                 and self.last_read.get(n.id) == index}
        plan = _Plan(self, target, dying)
        try:
            result = plan.evaluate(stmt.value)
        except _NotScheduled:
            return None
        operations = sum(isinstance(self.class_of(n), tuple) and isinstance(
            n, (gast.BinOp, gast.UnaryOp, gast.Call)) for n in walk_tree(stmt.value))
        if plan.allocations >= operations:
            return None                       # nothing saved: the expression reads better
        statements = plan.statements
        if result != target:
            statements.append(build.assign(target, build.name(result)))
        # the target holds the statement's value from now on, whatever array it is
        self.free, self.used = plan.free, self.used | (plan.taken - {target})
        return [build.with_location(s, stmt) for s in statements]


class _Plan:
    """One statement's value evaluated operation by operation, in Python's order."""

    def __init__(self, schedule, target, dying):
        self.s, self.target, self.dying = schedule, target, dying
        self.free = {cls: list(names) for cls, names in schedule.free.items()}
        self.taken = set()           # buffers (named values) written into or freed
        self.freed = set()
        self.statements = []
        self.allocations = 0
        self.reads = {}              # name -> reads of it not yet consumed
        self.bound_target = False

    def evaluate(self, value):
        for node in walk_tree(value):
            if isinstance(node, gast.Name):
                self.reads[node.id] = self.reads.get(node.id, 0) + 1
        result = self._operand(value)
        if not isinstance(result, str):
            raise _NotScheduled()
        return result

    def _operand(self, node):
        """A buffer's name (str) for an operation on arrays of a class, else the node
        itself as an operand (a name, a number) read where the operation is written."""
        cls = self.s.class_of(node)
        children = _operands(node) if isinstance(cls, tuple) else None
        if children is None:
            if not _is_atom(node):
                raise _NotScheduled()       # its reads could move past a write
            return node
        operands = [self._operand(child) for child in children]
        names_here = {}
        for operand in operands:
            if not isinstance(operand, str):
                for n in walk_tree(operand):
                    if isinstance(n, gast.Name):
                        names_here[n.id] = names_here.get(n.id, 0) + 1
        # buffers this operation may write into: intermediate results of this
        # statement, and values read here for the last time
        owned = [k for k, operand in enumerate(operands) if isinstance(operand, str)
                 or isinstance(operand, gast.Name) and operand.id in self.dying
                 and operand.id not in self.taken
                 and self.reads[operand.id] == names_here[operand.id]
                 and self.s._name_class(operand.id) == cls]
        for ident, count in names_here.items():
            self.reads[ident] -= count
        if owned:
            # the statement's own result first (it reads as one array worked on), then
            # other intermediate results, then the left-most
            k = min(owned, key=lambda j: (operands[j] != self.target,
                                          not isinstance(operands[j], str), j))
            buffer = _ident(operands[k])
            self.taken.add(buffer)
            for j in owned:                  # the other buffers die here
                other = _ident(operands[j])
                if other not in (buffer, self.target) and other not in self.freed:
                    self.free.setdefault(cls, []).append(other)
                    self.freed.add(other)
                    self.taken.add(other)
            if not isinstance(operands[k], str) and not self.bound_target:
                # into a value read for the last time: the target names that array
                # from now on (`y_bar = np.subtract(t7_1, t6_0, out=t7_1)`)
                self.bound_target = True
                self.statements.append(build.assign(self.target, self._ufunc_call(
                    node, operands, buffer)))
                return self.target
            self.statements.append(self._in_place(node, operands, k, buffer))
            return buffer
        spare = self.free.get(cls)
        if spare and not self.s._spread(node):     # unreduce(...) takes no out=: allocate
            buffer = spare.pop(0)
            call = self._ufunc_call(node, operands, buffer)
            if not self.bound_target:
                self.bound_target = True
                self.statements.append(build.assign(self.target, call))
                return self.target
            self.statements.append(build.expr_stmt(call))
            return buffer
        self.allocations += 1
        name = self.target if not self.bound_target else self.s.fresh(f"{self.target}_part")
        self.bound_target = True
        self.statements.append(build.assign(name, _rebuilt(node, operands)))
        return name

    def _in_place(self, node, operands, k, buffer):
        """The statement writing `node`'s value into operand k's array."""
        values = [build.name(o) if isinstance(o, str) else build.clone(o) for o in operands]
        if isinstance(node, gast.BinOp):
            if k == 0 or isinstance(node.op, _COMMUTATIVE):
                other = values[1 - k]
                return build.aug_assign(buffer, type(node.op).__name__, other)
        return build.expr_stmt(self._ufunc_call(node, operands, buffer))

    def _ufunc_call(self, node, operands, buffer):
        values = [build.name(o) if isinstance(o, str) else build.clone(o) for o in operands]
        if isinstance(node, gast.BinOp):
            func = build.dotted(f"{self.s.numpy_name}.{_UFUNC_OF[type(node.op)]}")
        elif isinstance(node, gast.UnaryOp):
            func = build.dotted(f"{self.s.numpy_name}."
                                f"{'negative' if isinstance(node.op, gast.USub) else 'positive'}")
        else:
            func = build.clone(node.func)
        return build.call(func, values, [("out", build.name(buffer))])


def _ident(operand):
    return operand if isinstance(operand, str) else operand.id


def _operands(node):
    if isinstance(node, gast.BinOp) and type(node.op) in _UFUNC_OF:
        return [node.left, node.right]
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        return [node.operand]
    if isinstance(node, gast.Call) and not node.keywords:
        return list(node.args)
    return None


def _rebuilt(node, operands):
    """`node` with its operands replaced by the values computed for them."""
    values = [build.name(o) if isinstance(o, str) else build.clone(o) for o in operands]
    if isinstance(node, gast.BinOp):
        return build.binop(values[0], type(node.op).__name__, values[1])
    if isinstance(node, gast.UnaryOp):
        return build.unaryop(type(node.op).__name__, values[0])
    return build.call(build.clone(node.func), values)


def _is_atom(node):
    """Read where its operation is written without changing what it reads: a name, a
    number, a numeric attribute or arithmetic on numbers."""
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    if isinstance(node, gast.Attribute):
        return node.attr in ("size", "ndim") and isinstance(node.value, gast.Name)
    if isinstance(node, gast.UnaryOp):
        return _is_atom(node.operand)
    if isinstance(node, gast.BinOp):
        return _is_atom(node.left) and _is_atom(node.right)
    return False


def _allocates(value, schedule):
    """Is `value` a new array (arithmetic or a ufunc on an array)?"""
    return isinstance(value, (gast.BinOp, gast.UnaryOp)) or \
        schedule._ufunc(value) is not None or schedule._spread(value)


def _assigned_name(stmt):
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name):
        return stmt.targets[0].id
    return None


def _combine(a, b):
    """The class of an elementwise operation on operands of classes a and b."""
    if a is None or b is None:
        return None
    if isinstance(a, tuple) and isinstance(b, tuple):
        return a if a == b else None
    if isinstance(b, tuple):
        a, b = b, a
    if isinstance(a, tuple):              # an array and a number
        if b == _WEAK or numpy.promote_types(b, a[1]) == numpy.dtype(a[1]):
            return a
        return None
    return _WEAK if a == b == _WEAK else None


_DTYPE_KEPT = {}


def _keeps_dtype(ufunc, dtype):
    key = (ufunc, dtype)
    if key not in _DTYPE_KEPT:
        try:
            with numpy.errstate(all="ignore"):           # arctanh(1.0) is inf: fine
                probe = ufunc(*[numpy.ones(1, dtype=dtype)] * ufunc.nin)
            _DTYPE_KEPT[key] = probe.dtype == numpy.dtype(dtype)
        except Exception:
            _DTYPE_KEPT[key] = False
    return _DTYPE_KEPT[key]
