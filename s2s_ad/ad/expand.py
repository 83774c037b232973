"""Expanding one template for one levels-form statement.

    template:   d[x] += unbroadcast(d[y] * b, x)          (operator.mul, params a, b)
    statement:  t2_0 = a * t1_0
    expansion:  contribution to t1_0:  unbroadcast(t2_0_bar * a, t1_0)
                (and `unbroadcast` drops out when the shapes are provably equal)

Template parameters are replaced by the statement's operands (or the template's default
when the call leaves them out), `d[y]` by the result's adjoint, `_tmp` temporaries by
fresh names, and the template module's globals by names the generated code binds.
"""
import math
import operator
import types
from dataclasses import dataclass, field

import gast
import numpy

from ..analyses.activity import literal_dtype
from ..ir import build
from ..ir.build import dotted_path, number_literal
from ..ir.walk import Transformer
from . import template_dsl
from .binding import BindingError, reject_undifferentiated
from .held_calls import is_pure_function
from .registry import derivative_target, is_undifferentiated


@dataclass
class Expansion:
    statements: list = field(default_factory=list)      # temporaries, in order
    contributions: list = field(default_factory=list)   # (param, index or None, expr)
    # template line each contribution/temporary came from (for readable provenance)


def expand(template, bound, result, result_adjoint, context):
    """Expand a reverse template; `context` supplies names, globals and shape facts."""
    renames = {}
    out = Expansion()
    for stmt in template.body:
        if isinstance(stmt, gast.Assign):
            temp = stmt.targets[0].id
            value = _substitute(stmt.value, template, bound, result, result_adjoint,
                                renames, context)
            renames[temp] = context.fresh_name(temp)
            out.statements.append(build.assign(renames[temp], value))
            continue
        param, index = derivative_target(stmt.target)
        if is_undifferentiated(stmt, template):
            reject_undifferentiated(template, {param: bound[param]}, context.is_active_operand)
            continue
        if not context.is_active_operand(bound[param]):
            continue
        value = _substitute(stmt.value, template, bound, result, result_adjoint, renames, context)
        if index is not None:
            index = _substitute(index, template, bound, result, result_adjoint, renames, context)
        out.contributions.append((param, index, value))
    return out


def _substitute(node, template, bound, result, result_adjoint, renames, context):
    node = build.clone(node)
    return _Substituter(template, bound, result, result_adjoint, renames, context).visit(node)


class TemplateSubstituter(Transformer):
    """Names in a template's expression -> the statement's: the result, the operands
    bound to parameters, fresh temporaries, and the template module's globals under the
    names the generated code binds. Reverse and forward expansion add their `d[...]`."""

    def __init__(self, template, bound, result, renames, context):
        self.t = template
        self.bound = bound
        self.result = result
        self.renames = renames
        self.ctx = context

    def visit_Name(self, node):
        ident = node.id
        if ident == self.t.result:
            return build.name(self.result)
        if ident in self.bound:
            return build.clone(self.bound[ident])
        if ident in self.renames:
            return build.name(self.renames[ident])
        if ident in self.t.namespace:
            value = self.t.namespace[ident]
            if type(value) is float and math.isfinite(value):
                # a template module's float constant (TWO_OVER_SQRT_PI): its literal,
                # exact (repr round-trips), read without a global lookup, and foldable
                # with the template's other literals (optimize/fold.py)
                return build.literal(value)
            return build.name(self.ctx.global_name(ident, value))
        return node    # a builtin

    def visit_BinOp(self, node):
        """An int literal the statement binds (`x * 2`, `x ** 3`) in arithmetic with a
        derivative (`d[y] * b`) is written as a float: a derivative holds floats, so `g *
        2.0` is the same value of the same dtype, by the faster path Python and numpy
        take for float operands (on an array of 100, `g * 2` costs 1.3x `g * 2.0`).
        Exponents, indices and axes keep their ints (they are not such operands)."""
        with_derivative = isinstance(node.op, _ARITHMETIC) \
            and (_reads_derivative(node.left) or _reads_derivative(node.right))
        node = self.generic_visit(node)
        if with_derivative:
            node.left, node.right = _float_literal(node.left), _float_literal(node.right)
        return node

    def visit_IfExp(self, node):
        """`a if x is None else b` where x is bound to a literal here (a keyword left at
        its default None, or a number; `y if compute_uv else ...`, `... if mode == 'r'
        else ...`): the branch it picks, so that the generated code tests no `None is
        None` and never differentiates the branch not taken."""
        decided = self._activity_test(node.test)
        if decided is not None:
            return self.visit(node.body if decided else node.orelse)
        test = self.visit(node.test)
        decided = build.literal_test(test)
        if decided is not None:
            return self.visit(node.body if decided else node.orelse)
        node.test, node.body, node.orelse = test, self.visit(node.body), self.visit(node.orelse)
        return node

    def visit_Compare(self, node):
        """`b - (b != 0)` of pow's templates with b bound to a literal here: `b - 1` (or
        `b - 0`), which folds to a number (optimize/fold.py), as Python computes it."""
        node = self.generic_visit(node)
        if isinstance(node.ops[0], (gast.Eq, gast.NotEq)):
            decided = build.literal_test(node)
            if decided is not None:
                return build.literal(int(decided))
        return node

    def _activity_test(self, test):
        """`active(x)` (template_dsl.active) of an operand: is it active here? `is_one(x)`
        (template_dsl.is_one): is it the literal 1 here? Else None (not such a test)."""
        if not (isinstance(test, gast.Call) and isinstance(test.func, gast.Name)
                and len(test.args) == 1 and isinstance(test.args[0], gast.Name)
                and test.args[0].id in self.bound):
            return None
        predicate = self.t.namespace.get(test.func.id)
        operand = self.bound[test.args[0].id]
        if predicate is template_dsl.active:
            return self.ctx.is_active_operand(operand)
        if predicate is template_dsl.is_one:
            return number_literal(operand) == 1
        return None

    def constant_math(self, node):
        """`math.log(base)` (or `np.negative(shift)`) of a template whose operands are all
        literals here (the default base e of math.log, `math.sqrt(2.0)`): its value,
        computed now, rather than a call the derivative would repeat on every run. None
        otherwise."""
        func = node.func
        if not (isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name)
                and not node.keywords):
            return None
        module = self.t.namespace.get(func.value.id)
        # np.negative of a literal: roll's adjoint rolls back by `np.negative(shift)`
        # (np.negative takes a tuple of shifts too), `-1` for a literal shift of 1
        function = getattr(math, func.attr) if module is math and func.attr in _CONSTANT_MATH \
            else operator.neg if module is numpy and func.attr == "negative" else None
        if function is None:
            return None
        args = [self.visit(build.clone(a)) for a in node.args]
        values = [number_literal(a) for a in args]
        if not values or any(v is None for v in values):
            return None
        try:
            return build.literal(function(*values))
        except (ValueError, OverflowError, ZeroDivisionError):
            return None

    def number_sign(self, node):
        """`np.sign(x)` of a template where the facts prove x a Python float: the same
        number as a float, without a ufunc call (which costs twenty times the comparisons
        and gives an np.float64, so a float argument's gradient came back np.float64):

            1.0 if x > 0.0 else (-1.0 if x < 0.0 else x * 0.0)

        (x * 0.0 keeps np.sign's 0.0, -0.0 and nan, and has a zero derivative, as np.sign
        has, for a derivative of the derivative.) None otherwise."""
        func = node.func
        kinds = self.ctx.i.kinds
        if kinds is None or node.keywords or len(node.args) != 1 or not (
                isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name)
                and self.t.namespace.get(func.value.id) is numpy and func.attr == "sign"):
            return None
        arg = self.visit(build.clone(node.args[0]))
        kind = kinds.of(arg.id) if isinstance(arg, gast.Name) else None
        if not (getattr(kind, "type", None) is float and kind.axes == ()):
            return None
        return build.float_sign(arg)

    def cast_kept(self, node):
        """`through_cast(g, y, dtype)` is g when no dtype is given or the facts say the
        result holds floats or Python objects (a dtype written out as an integer one never
        gets here: its result carries no derivative). None when the runtime must decide."""
        func = node.func
        if not (isinstance(func, gast.Name) and func.id == "through_cast"
                and len(node.args) == 3 and isinstance(node.args[2], gast.Name)):
            return None
        dtype = self.bound.get(node.args[2].id)
        written = literal_dtype(dtype)
        if written is not None and written.kind == "f" and written.itemsize < 8:
            return self._cast_to(self.visit(node.args[0]), dtype)
        if isinstance(dtype, gast.Constant) and dtype.value is None \
                or written is not None and written.kind in "fcO":
            return self.visit(node.args[0])
        kinds = self.ctx.i.kinds
        kind = kinds.of(self.result) if kinds is not None else None
        if getattr(kind, "dtype", None) in ("float64", "float32", "float16"):
            return self.visit(node.args[0])
        return None


    def _cast_to(self, derivative, dtype):
        """The derivative through a conversion to float32 (float16) in that dtype too:
        `np.asarray(g, dtype=np.float32)` (the template's own conversion of g, if it has
        one, given that dtype instead of g's)."""
        for keyword in getattr(derivative, "keywords", ()):
            if keyword.arg == "dtype" and dotted_path(derivative.func) in (
                    f"{self.ctx.i.levels.numpy_name}.asarray",
                    f"{self.ctx.i.levels.numpy_name}.array"):
                keyword.value = build.clone(dtype)
                return derivative
        return build.call(f"{self.ctx.i.levels.numpy_name}.asarray", [derivative],
                          [("dtype", build.clone(dtype))])


def _reads_derivative(node):
    """Is this template expression a derivative `d[...]`, or arithmetic on one (through
    + - * /, negation, and unbroadcast, which only sums it)?"""
    while True:
        if isinstance(node, gast.UnaryOp):
            node = node.operand
        elif isinstance(node, gast.BinOp) and isinstance(node.op, _ARITHMETIC):
            if _reads_derivative(node.left):
                return True
            node = node.right
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id == "unbroadcast" and node.args:
            node = node.args[0]
        else:
            return derivative_target(node) is not None


def _float_literal(node):
    """`2` -> `2.0` (and `-2` -> `-2.0`); any other node as it is."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        operand = _float_literal(node.operand)
        return node if operand is node.operand else build.unaryop("USub", operand)
    if isinstance(node, gast.Constant) and type(node.value) is int \
            and abs(node.value) < 2 ** 53:
        return build.const(float(node.value))
    return node


_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div)
_CONSTANT_MATH = {"log", "log2", "log10", "sqrt", "exp"}


class _Substituter(TemplateSubstituter):
    def __init__(self, template, bound, result, result_adjoint, renames, context):
        super().__init__(template, bound, result, renames, context)
        self.result_adjoint = result_adjoint

    def visit_Subscript(self, node):
        target = derivative_target(node)
        if target is not None and target[1] is None:
            if target[0] != self.t.result:
                raise BindingError("a reverse template may only read d[result]")
            return build.clone(self.result_adjoint)
        node = self.generic_visit(node)
        # `d[y][k]` of a result whose items' adjoints are a tuple written now
        # (ad/result_items.py): that item's expression
        if isinstance(node.value, gast.Tuple) and isinstance(node.slice, gast.Constant) \
                and type(node.slice.value) is int \
                and -len(node.value.elts) <= node.slice.value < len(node.value.elts):
            return node.value.elts[node.slice.value]
        return node

    def visit_Call(self, node):
        folded = self.constant_math(node)
        if folded is None:
            folded = self.cast_kept(node)
        if folded is None:
            folded = self.number_sign(node)
        if folded is None:
            folded = self._held_call(node)
        if folded is not None:
            return folded
        # unbroadcast(g, x) is the identity when g's shape (the result's) equals x's
        if isinstance(node.func, gast.Name) and node.func.id == "unbroadcast" \
                and len(node.args) == 2 and isinstance(node.args[1], gast.Name) \
                and node.args[1].id in self.bound:
            if self._same_shape(node.args[1].id) \
                    and not self._zero_times_another_shape(node.args[1].id):
                return self.visit(node.args[0])
            product = self._adjoint_times_operand(node.args[0])
            contribution = self.visit(node.args[0])
            reduced = None
            if product is not None:
                reduced = self.ctx.dot_to_number(contribution, product, self.result,
                                                 self.bound[node.args[1].id])
            if reduced is None:
                reduced = self.ctx.reduce_to_operand(contribution, self.result,
                                                     self.bound[node.args[1].id])
            if reduced is not None:
                return reduced
            node.args[0] = contribution         # substituted once, never twice
            node.args[1] = self.visit(node.args[1])
            node.func = self.visit(node.func)
            return node
        writer = self._writer(node)
        if writer is not None:
            args = [self.visit(a) for a in node.args]
            written = writer(*args)
            if written is not None:
                return written
            node.args = args
            node.func = self.visit(node.func)
            return node
        if isinstance(node.func, gast.Name) and node.func.id == "reduced_count" \
                and len(node.args) == 2 and not node.keywords:
            count = self.ctx.element_count(self.visit(node.args[0]), self.visit(node.args[1]))
            if count is not None:
                return count
        return self.generic_visit(node)

    def _writer(self, node):
        """The context's writer of a runtime helper's call from the facts (ad/context.py:
        matmul_adjoint_a/b and dot_adjoint_a/b, as_columns, unreduce_var), called with the substituted
        arguments and answering None when the facts do not decide; None for other calls."""
        func = node.func
        if not isinstance(func, gast.Name) or node.keywords:
            return None
        arity, writer = {
            "matmul_adjoint_a": (3, lambda *args: self.ctx.matmul_adjoint("a", *args)),
            "matmul_adjoint_b": (3, lambda *args: self.ctx.matmul_adjoint("b", *args)),
            # np.dot of vectors and matrices is their matmul: the same writer
            "dot_adjoint_a": (3, lambda *args: self.ctx.matmul_adjoint("a", *args)),
            "dot_adjoint_b": (3, lambda *args: self.ctx.matmul_adjoint("b", *args)),
            "as_columns": (3, self.ctx.solve_columns),
            "unreduce_var": (5, self.ctx.var_adjoint)}.get(func.id, (None, None))
        return writer if arity == len(node.args) else None

    def _held_call(self, node):
        """`math.sin(E)` in a template where the user's code computed `s = math.sin(E)`
        earlier in the block and s still holds it: s (ad/held_calls.py). None otherwise."""
        func = node.func
        if node.keywords or not (isinstance(func, gast.Attribute)
                                 and isinstance(func.value, gast.Name)):
            return None
        module = self.t.namespace.get(func.value.id)
        if not isinstance(module, types.ModuleType):
            return None
        function = getattr(module, func.attr, None)
        if not self.ctx.held_calls or not is_pure_function(function):
            return None
        return self.ctx.held_value(function, [self.visit(build.clone(a)) for a in node.args])

    def _adjoint_times_operand(self, node):
        """The operand atom x of a template's `d[result] * x` (or `x * d[result]`), x a
        parameter of the template or the result itself; else None."""
        if not (isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult)):
            return None
        for adjoint, other in ((node.left, node.right), (node.right, node.left)):
            target = derivative_target(adjoint) if isinstance(adjoint, gast.Subscript) else None
            if target is not None and target[1] is None and target[0] == self.t.result \
                    and isinstance(other, gast.Name):
                if other.id in self.bound:
                    return self.bound[other.id]
                if other.id == self.t.result:
                    return build.name(self.result)
        return None

    def _zero_times_another_shape(self, param):
        """May the adjoint be the shapeless 0.0 of a loop or branch that never contributed,
        while another operand is an array the facts do not shape like the result? Then
        `g * b` is zeros of b's shape, not the result's (w1 (n, 1) *= b (1,) after w1 was
        overwritten unread): unbroadcast gives them the operand's shape."""
        return self.ctx.adjoint_may_be_scalar_zero and any(
            not self.ctx.is_scalar(atom) and not self.ctx.same_shape(self.result, atom)
            for p, atom in self.bound.items() if p != param)

    def _same_shape(self, param):
        """Is the result provably shaped like operand `param`? Either a known fact, or the
        other operands are all scalars (then the result has this operand's shape here)."""
        if self.ctx.same_shape(self.result, self.bound[param]):
            return True
        others = [atom for p, atom in self.bound.items() if p != param]
        return self.ctx.elementwise and all(self.ctx.is_scalar(a) for a in others)
