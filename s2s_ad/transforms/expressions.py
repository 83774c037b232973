"""Normalizing expressions: each operation of an expression becomes one primitive
operation over atoms (names, literals, dotted constants), bound to a fresh temporary
`t{m}_{j}` whose level m is one more than its operands' highest.

    y = a * x ** 2 + c     ->   t1_0 = x ** 2
                                t2_0 = a * t1_0
                                y = t2_0 + c          (the last one bound by the assignment)

`_atom(expr)` gives the atom standing for an expression (a temporary that already
computes the same pure operation is reused); `_operation(expr)` the one operation over
atoms it lowers to. Statements come from the normalizer (normalize.py), calls from
calls.py, expressions carrying control flow from control.py. Used by `normalize` (mixed
into its normalizer); it reads the user's tree and builds new nodes.
"""
import builtins

import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from ..runtime_objects import attribute_of
from . import desugar
from .cse import constant_math


class ExpressionMixin:
    """Lowering of expressions to atoms and single operations."""

    def _atom(self, expr):
        """An atom standing for `expr`, emitting temporaries for its operations."""
        literal = _literal_value(expr)
        if literal is not _NOT_LITERAL:
            return build.literal(literal), 0
        if isinstance(expr, gast.Name):
            if expr.id in self.current:
                ssa = self.current[expr.id]
                return build.name(ssa), self.levels[ssa]
            if expr.id in self.nested and getattr(self.nested[expr.id], "lineno", 0) \
                    < getattr(expr, "lineno", 0):
                # nested functions are inlined where they are called (inline.py): as a
                # value there is nothing to pass
                raise UnsupportedSyntaxError(
                    f"the nested function `{expr.id}` is used as a value (passed, stored or "
                    f"returned): nested functions and lambdas are supported where they are "
                    f"called or passed to your own defs", self.smap.locate(expr),
                    f"call `{expr.id}` here or pass it to a def of yours (`apply({expr.id}, "
                    f"x)`), or define it at module level")
            if self.res.is_value(expr.id):
                raise UnsupportedSyntaxError(f"`{expr.id}` is used before it is assigned",
                                             self.smap.locate(expr))
            if expr.id in self.runtime_names.values():
                # a function bound by the normalizer, passed as a value (a class has_class tests for)
                return build.name(expr.id), 0
            self._check_bound(expr.id, expr)
            return build.name(expr.id), 0
        path = dotted_path(expr)
        # a name bound here is a value, also one the user never wrote (`W_1`, the iterated
        # array a loop that rebinds `W` reads: `W_1.T`)
        if path and not self.res.is_value(path.split(".")[0]) \
                and path.split(".")[0] not in self.current:
            self._check_bound(path, expr)
            return build.dotted(path), 0
        op, level = self._operation(expr)
        if isinstance(op, gast.Name):
            return op, level     # already a value (a comprehension's list, an if's result)
        value = constant_math(op, self.callees)
        if value is not None:
            return build.literal(value), 0
        return self._bound_to_temp(op, level)

    def _bound_to_temp(self, op, level):
        """The atom holding operation `op` (a new level temporary, or the one that already
        computes it), and its level."""
        known = self._computed(op)
        if known is not None:
            return build.name(known), self.levels[known]
        temp = self.namer.level_temp(level)
        self.levels[temp] = level
        self.current[temp] = temp
        self._remember(op, temp)
        self._pending.append((level, len(self._pending), build.assign(temp, op)))
        return build.name(temp), level

    def _operation(self, expr):
        """One primitive operation over atoms for `expr`, and its level."""
        op, level = self._lower(expr)
        if hasattr(expr, "lineno") and not hasattr(op, "lineno"):
            build.with_location(op, expr)   # errors point at the user's sub-expression
        return op, level

    def _lower(self, expr):
        if isinstance(expr, (gast.BinOp, gast.UnaryOp)) \
                and (lowered := self._operator_method(expr)) is not None:
            return lowered                      # `a + b` of a class with def __add__
        if isinstance(expr, gast.BinOp):
            (left, l1), (right, l2) = self._atom(expr.left), self._atom(expr.right)
            return gast.BinOp(left=left, op=expr.op, right=right), 1 + max(l1, l2)
        if isinstance(expr, gast.UnaryOp):
            operand, level = self._atom(expr.operand)
            return gast.UnaryOp(op=expr.op, operand=operand), 1 + level
        if isinstance(expr, gast.Compare):
            if len(expr.ops) != 1:
                return self._chained_compare(expr)
            (left, l1), (right, l2) = self._atom(expr.left), self._atom(expr.comparators[0])
            return gast.Compare(left=left, ops=expr.ops, comparators=[right]), 1 + max(l1, l2)
        if isinstance(expr, gast.JoinedStr):
            # f"loss {loss:.3f}": formatting only (no derivative); its values become atoms
            level, parts = 0, []
            for part in expr.values:
                if isinstance(part, gast.FormattedValue):
                    atom, lvl = self._atom(part.value)
                    level = max(level, lvl)
                    part = gast.FormattedValue(value=atom, conversion=part.conversion,
                                               format_spec=part.format_spec)
                parts.append(part)
            return gast.JoinedStr(values=parts), level + 1
        if isinstance(expr, gast.NamedExpr):
            # `(n := e)`: n is bound where e is evaluated, and the expression is n
            # (frontend/assignment_expressions.py says which forms reach here)
            op, level = self._operation(expr.value)
            self._pend(level, self._bind(expr.target.id, op, level))
            return build.name(self.current[expr.target.id]), level
        if isinstance(expr, gast.IfExp):
            return self._if_expression(expr)
        if isinstance(expr, gast.BoolOp):
            return self._bool_op(expr)
        if isinstance(expr, (gast.ListComp, gast.GeneratorExp)):
            return self._comprehension(expr)
        if isinstance(expr, gast.Dict):
            return self._mapping_display(expr)
        if isinstance(expr, gast.DictComp):
            return self._mapping_comprehension(expr)
        if isinstance(expr, gast.Call) and dotted_path(expr.func) == "sum" \
                and self.res.lookup("sum") is builtins.sum and len(expr.args) == 1 \
                and not expr.keywords and isinstance(expr.args[0], (gast.ListComp,
                                                                    gast.GeneratorExp)):
            return self._comprehension(expr.args[0], accumulate=True)
        if isinstance(expr, gast.Call) and (read := self._named_attribute(expr)) is not None:
            return self._lower(read)
        if isinstance(expr, gast.Call):
            return self._call(expr)
        if isinstance(expr, gast.Subscript):
            if (lowered := self._axis_concatenation(expr)) is not None:   # np.r_[...]
                return lowered
            if (call := self._item_method(expr)) is not None:    # s[i], def __getitem__
                return self._method_call(expr.value, "__getitem__", call)
            value, l1 = self._atom(expr.value)
            index, l2 = self._index(expr.slice)
            return build.subscript(value, index), 1 + max(l1, l2)
        if isinstance(expr, gast.Attribute):
            getter = self._property_getter(expr)
            if getter is not None:
                # self.scale of a `@property def scale(self)`: scale(self), a helper
                # differentiated through the attributes it reads
                call = self._runtime_call(getter, [expr.value])
                return self._call(build.with_location(call, expr))
            # `W.T` -> np.transpose(W) on the user's expression: the call lowers its
            # argument itself (an atom here would already be W's current version, `W_1`,
            # which is no user name to look up)
            lowered = desugar.attribute_call(
                expr.value, expr.attr, expr, self.smap, isinstance(expr.value, gast.Name)
                and expr.value.id in self.res.receivers)
            if lowered is None or lowered == desugar.OBJECT_ATTRIBUTE:
                value, level = self._atom(expr.value)
                read = build.attribute(value, expr.attr)
                if lowered is not None:        # the primitive attribute_of (primitives.py)
                    self.callees[dotted_path(read)] = attribute_of
                return read, 1 + level
            return self._numpy_call(lowered[0], lowered[1], [], 0, expr)
        if isinstance(expr, (gast.Tuple, gast.List)):
            atoms = [self._atom(e) for e in expr.elts]
            node = build.tuple_([a for a, _ in atoms])
            if isinstance(expr, gast.List):
                node = gast.List(elts=node.elts, ctx=gast.Load())
            return node, 1 + max([lvl for _, lvl in atoms], default=0)
        atom, level = self._atom(expr)
        return atom, level

    def _named_attribute(self, expr):
        """`getattr(obj, "name")` (the builtin, a literal name, no default) as the read
        `obj.name` it is, so that it is differentiated, and refused, as that read is (it
        was a call without a derivative: a zero where obj carried one)."""
        if dotted_path(expr.func) != "getattr" or len(expr.args) != 2 or expr.keywords \
                or self.res.lookup("getattr") is not builtins.getattr \
                or not isinstance(expr.args[1], gast.Constant) \
                or not str(expr.args[1].value).isidentifier():
            return None
        return build.with_location(gast.Attribute(value=expr.args[0], attr=expr.args[1].value,
                                                  ctx=gast.Load()), expr)

    def _index(self, index):
        if isinstance(index, gast.Slice):
            level, parts = 0, []
            for bound in (index.lower, index.upper, index.step):
                if bound is None:
                    parts.append(None)
                    continue
                atom, lvl = self._atom(bound)
                parts.append(atom)
                level = max(level, lvl)
            return gast.Slice(lower=parts[0], upper=parts[1], step=parts[2]), level
        if isinstance(index, gast.Tuple):
            items = [self._index(e) for e in index.elts]
            return build.tuple_([i for i, _ in items]), max([lvl for _, lvl in items], default=0)
        return self._atom(index)

    def _check_bound(self, path, node):
        if not self.res.has(path):
            error = UnsupportedSyntaxError(
                f"`{path}` is not defined when the derivative is built", self.smap.locate(node),
                "define (or import) it before the derivative is first called")
            error.undefined = path      # (grad() waits for the first call: api._deferred)
            raise error


_NOT_LITERAL = object()


def _literal_value(expr):
    """The Python value of a literal expression (3, -1.5, None, (0, 1), ...)."""
    if isinstance(expr, gast.Constant):
        return expr.value
    if isinstance(expr, gast.UnaryOp) and isinstance(expr.op, gast.USub) \
            and isinstance(expr.operand, gast.Constant) \
            and isinstance(expr.operand.value, (int, float)) \
            and not isinstance(expr.operand.value, bool):
        return -expr.operand.value
    if isinstance(expr, gast.Tuple) and expr.elts:
        values = tuple(_literal_value(e) for e in expr.elts)
        if all(v is not _NOT_LITERAL for v in values):
            return values
    return _NOT_LITERAL
