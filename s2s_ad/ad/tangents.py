"""Expanding a tangent (forward-mode) template for one levels-form statement.

    template:   d[y] = d[a] * b + a * d[b]         (operator.mul)
    statement:  t2_0 = w * x        (x depends on the inputs, w does not)
    expansion:  t2_0_dot = w * x_dot

Operands that do not depend on the inputs have the symbolic tangent ZERO, which
simplifies away: ZERO*e, e*ZERO, ZERO@e, e@ZERO, ZERO/e, -ZERO -> ZERO; ZERO+e, e+ZERO,
e-ZERO -> e; ZERO-e -> -e. A ZERO that survives (an argument of np.where, an item of a
list) becomes concrete zeros shaped like its operand: zero_tangent(w).
"""

import gast

from ..ir import build
from .expand import TemplateSubstituter
from .registry import derivative_target

ZERO = "__s2s_zero__"


def is_zero(node):
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
        and node.func.id == ZERO


def zero_of(atom):
    return build.call(build.name(ZERO), [build.clone(atom)])


def expand_tangent(template, bound, result, tangent_of, context):
    """(temporary statements, tangent expression or None when it is zero).

    tangent_of(atom) -> the tangent expression of an operand (a Name, or zero_of(atom))."""
    renames = {}
    statements = []
    value = None
    for stmt in template.body:
        target = stmt.targets[0]
        expr = _Substituter(template, bound, result, tangent_of, renames, context).visit(
            build.clone(stmt.value))
        expr = simplify(expr)
        if isinstance(target, gast.Name):
            renames[target.id] = context.fresh_name(target.id)
            statements.append(build.assign(renames[target.id], expr))
        else:
            value = expr
    return statements, (None if is_zero(value) else value)


def simplify(node):
    return _Simplifier().visit(node)


class _Simplifier(gast.NodeTransformer):
    def visit_BinOp(self, node):
        self.generic_visit(node)
        left, right, op = is_zero(node.left), is_zero(node.right), type(node.op)
        if op in (gast.Mult, gast.MatMult) and (left or right):
            return node.left if left else node.right
        if op in (gast.Div, gast.FloorDiv, gast.Mod) and left:
            return node.left
        if op is gast.Add and (left or right):
            return node.right if left else node.left
        if op is gast.Sub and right:
            return node.left
        if op is gast.Sub and left:
            return gast.UnaryOp(op=gast.USub(), operand=node.right)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, gast.Name) and node.func.id == "broadcast_tangent" \
                and node.args and is_zero(node.args[0]):
            return node.args[0]
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, (gast.USub, gast.UAdd)) and is_zero(node.operand):
            return node.operand
        return node


class _Substituter(TemplateSubstituter):
    def __init__(self, template, bound, result, tangent_of, renames, context):
        super().__init__(template, bound, result, renames, context)
        self.tangent_of = tangent_of

    def visit_Subscript(self, node):
        target = derivative_target(node)
        if target is not None and target[1] is None and target[0] in self.bound:
            return self.tangent_of(self.bound[target[0]])
        return self.generic_visit(node)

    def visit_Call(self, node):
        folded = self.constant_math(node)
        if folded is None:
            folded = self.cast_kept(node)
        if folded is None:
            folded = self.number_sign(node)
        if folded is not None:
            return folded
        if isinstance(node.func, gast.Name) and node.func.id == "broadcast_tangent" \
                and len(node.args) == 2 and self.ctx.tangent_shape_known(self.bound):
            return self.visit(node.args[0])
        function = _named_object(node.func, self.t.namespace)
        node = self.generic_visit(node)
        positions = linear_positions(function)
        if positions and any(k < len(node.args) and is_zero(node.args[k]) for k in positions):
            # linear in a zero: zero, of the call's shape (np.reshape, np.sum and matmul
            # change it), should it survive into the code
            return zero_of(node)
        return node


def _named_object(func, namespace):
    """The object a template's callee expression (`np.sum`, `unbroadcast`) names."""
    if isinstance(func, gast.Name):
        return namespace.get(func.id)
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
        return getattr(namespace.get(func.value.id), func.attr, None)
    return None


def linear_positions(function):
    """Argument positions in which `function` is linear (a zero there makes it zero)."""
    if function is None:
        return ()
    table = _linear_table()
    try:
        return table.get(function, ())
    except TypeError:
        return ()


_LINEAR = None


def _linear_table():
    global _LINEAR
    if _LINEAR is None:
        import numpy as np
        from .. import (runtime, runtime_arrays, runtime_creation, runtime_flow, runtime_linalg,
                        runtime_pieces)
        _LINEAR = {
            runtime_creation.through_cast: (0,),
            runtime_arrays.spread_weights: (0, 2), runtime_arrays.sum_weighted: (0, 2),
            runtime_arrays.weights_total: (1,), runtime_arrays.unlayout_weights: (0,),
            np.convolve: (0, 1), np.correlate: (0, 1),
            runtime.unbroadcast: (0,), runtime.unreduce: (0,), runtime.broadcast_tangent: (0,),
            runtime_pieces.kink_share: (0,), runtime_pieces.where_negated: (0,),
            runtime_linalg.matmul_adjoint_a: (0, 2), runtime_linalg.matmul_adjoint_b: (0, 1),
            runtime_flow.take_adjoint: (0,), runtime_flow.copy_adjoint: (0,),
            runtime_flow.match_adjoint: (0,),
            np.sum: (0,), np.mean: (0,), np.transpose: (0,), np.reshape: (0,),
            np.ravel: (0,), np.squeeze: (0,), np.expand_dims: (0,), np.swapaxes: (0,),
            np.matmul: (0, 1), np.dot: (0, 1), np.outer: (0, 1), np.inner: (0, 1),
            np.cumsum: (0,), np.trace: (0,), np.negative: (0,),
        }
    return _LINEAR
