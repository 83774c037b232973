"""One statement's elementwise value evaluated in buffers (optimize/buffers.py's plan).

buffers.py decides which arrays may be written into (the buffers free before a
statement, the values it reads for the last time) and what class (shape and dtype) each
operation's result has; a Plan walks the statement's value in Python's order and writes
each operation into a buffer it owns, or allocates where none is free:

    x_bar = x * (x + t1_0 * (2.0 - t1_0 * x))   ->   x_bar = t1_0 * x
    (t1_0, x read again later: no buffer           np.subtract(2.0, x_bar, out=x_bar)
     but the statement's own result)                x_bar *= t1_0
                                                    x_bar += x
                                                    x_bar *= x

It builds new statements (`statements`, with `allocations` counted) and never changes
the value it reads; anything it does not cover raises NotScheduled, and the statement
stays as it was.
"""
import gast
import numpy

from ..ir import build
from ..ir.walk import walk_tree

UFUNC_OF = {gast.Add: "add", gast.Sub: "subtract", gast.Mult: "multiply",
            gast.Div: "divide", gast.Pow: "power"}
_COMMUTATIVE = (gast.Add, gast.Mult)


class NotScheduled(Exception):
    """The statement holds something the schedule does not cover: leave it as it was."""


class Plan:
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
        self.classes = {}            # buffer -> the class of the value it holds now

    def evaluate(self, value):
        for node in walk_tree(value):
            if isinstance(node, gast.Name):
                self.reads[node.id] = self.reads.get(node.id, 0) + 1
        self.result_class = self.s.class_of(value)
        result = self._operand(value)
        if not isinstance(result, str):
            raise NotScheduled()
        return result

    def _operand(self, node):
        """A buffer's name (str) for an operation on arrays of a class, else the node
        itself as an operand (a name, a number) read where the operation is written."""
        result = self._operation(node)
        if isinstance(result, str):
            self.classes[result] = self.s.class_of(node)
        return result

    def _operation(self, node):
        cls = self.s.class_of(node)
        if isinstance(cls, tuple) and self.s.fresh_helper(node):
            names_here = {}
            for n in walk_tree(node):
                if isinstance(n, gast.Name):
                    names_here[n.id] = names_here.get(n.id, 0) + 1
                    self.reads[n.id] -= 1
            buffer = self._helper_buffer(node, cls, names_here)
            if buffer is None:      # a new array (logistic takes no out=): as written
                return self._allocate(build.clone(node))
            return self._written(build.call(
                build.clone(node.func), [build.clone(a) for a in node.args],
                [("into", build.name(buffer))]), buffer)
        if cls is not None and not isinstance(cls, str) and cls != self.result_class \
                and not _is_atom(node):
            return self._hoisted(node)     # an array broadcast against the result
        children = _operands(node) if isinstance(cls, tuple) else None
        if children is None:
            if not _is_atom(node):
                raise NotScheduled()       # its reads could move past a write
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
        # (an intermediate result of another class, a row this operation broadcasts,
        # cannot hold the result)
        # (unreduce(...) takes no out=: it never writes into an operand's array)
        owned = [] if self.s.slow_in_place(node) or self.s.spread(node) else \
            [k for k, operand in enumerate(operands)
             if isinstance(operand, str) and self.classes.get(operand) == cls
             or isinstance(operand, gast.Name) and operand.id in self.dying
             and operand.id not in self.taken
             and self.reads[operand.id] == names_here[operand.id]
             and self.s.name_class(operand.id) == cls]
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
        if spare and not self.s.spread(node):     # unreduce(...) takes no out=: allocate
            buffer = spare.pop(0)
            return self._written(self._ufunc_call(node, operands, buffer), buffer)
        return self._allocate(_rebuilt(node, operands))

    def _written(self, call, buffer):
        """`call` writing into `buffer`: the statement's target names it, the first time."""
        if not self.bound_target:
            self.bound_target = True
            self.statements.append(build.assign(self.target, call))
            return self.target
        self.statements.append(build.expr_stmt(call))
        return buffer

    def _helper_buffer(self, node, cls, names_here):
        """The array a helper taking `into=` (kink_share, where_negated) may write its
        result into: an operand of its class read here for the last time (where the
        helper reads its operands before it writes), or a free buffer of that class;
        None: a new array."""
        into_operand = self.s.takes_out(node)
        if into_operand is None:
            return None
        for operand in node.args if into_operand else ():
            if isinstance(operand, gast.Name) and operand.id in self.dying \
                    and operand.id not in self.taken and self.reads[operand.id] == 0 \
                    and self.s.name_class(operand.id) == cls:
                self.taken.add(operand.id)
                return operand.id
        spare = self.free.get(cls)
        return spare.pop(0) if spare else None

    def _allocate(self, value):
        """A new array for `value`: the target's if not bound yet, else a fresh name."""
        self.allocations += 1
        name = self.target if not self.bound_target else self.s.fresh(f"{self.target}_part")
        self.bound_target = True
        self.statements.append(build.assign(name, value))
        return name

    def _hoisted(self, node):
        """An array of another class that broadcasts against the result (a row of sums,
        `np.sum(g, axis=1, keepdims=True) / t6_0`), computed in its own statement where
        Python's order reaches it: nothing written before can be one it reads (its reads
        are still to come, so none of them is a buffer yet), so it is the same value."""
        name = self.s.fresh(f"{self.target}_row")
        self.statements.append(build.assign(name, build.clone(node)))
        for n in walk_tree(node):
            if isinstance(n, gast.Name):
                self.reads[n.id] -= 1
        self.reads[name] = 1
        return build.name(name)

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
            func = build.dotted(f"{self.s.numpy_name}.{UFUNC_OF[type(node.op)]}")
        elif isinstance(node, gast.UnaryOp):
            func = build.dotted(f"{self.s.numpy_name}."
                                f"{'negative' if isinstance(node.op, gast.USub) else 'positive'}")
        else:
            func = build.clone(node.func)
        return build.call(func, values, [("out", build.name(buffer))])


def _ident(operand):
    return operand if isinstance(operand, str) else operand.id


def _operands(node):
    if isinstance(node, gast.BinOp) and type(node.op) in UFUNC_OF:
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
    if isinstance(node, gast.Subscript):                   # x.shape[-1]
        return build.number_literal(node.slice) is not None \
            and isinstance(node.value, gast.Attribute) and node.value.attr == "shape" \
            and isinstance(node.value.value, gast.Name)
    if isinstance(node, gast.UnaryOp):
        return _is_atom(node.operand)
    if isinstance(node, gast.BinOp):
        return _is_atom(node.left) and _is_atom(node.right)
    return False


_DTYPE_KEPT = {}


def keeps_dtype(ufunc, dtype):
    """Does `ufunc` on arrays of `dtype` give an array of `dtype` (so that it may write
    into one with out=)? Probed once per pair."""
    key = (ufunc, dtype)
    if key not in _DTYPE_KEPT:
        try:
            with numpy.errstate(all="ignore"):           # arctanh(1.0) is inf: fine
                probe = ufunc(*[numpy.ones(1, dtype=dtype)] * ufunc.nin)
            _DTYPE_KEPT[key] = probe.dtype == numpy.dtype(dtype)
        except Exception:
            _DTYPE_KEPT[key] = False
    return _DTYPE_KEPT[key]
