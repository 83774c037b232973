"""Stage 7 (reverse mode): a quotient of two functions of one operand read as one call.

The chain rule through `log(cosh(u))` multiplies by sinh(u) and divides by the cosh(u)
the forward sweep kept: an array held from the forward sweep only for this, a second
transcendental call, and a division, for what is tanh(u). The same holds for the
adjoint of `log(sin(u))` (cos(u) / sin(u)) and the other quotients listed below. This pass
reads such a quotient in the backward sweep as the one call; the forward value then
has no reader left and dead-code elimination drops it (one array alive instead of two):

    t1_0 = pred - target                     t1_0 = pred - target
    t2_0 = np.cosh(t1_0)               ->
    t1_0_bar = a / t2_0 * np.sinh(t1_0)      t1_0_bar = a * np.tanh(t1_0)

It applies where the divisor is a forward name bound once at the top level of the
forward sweep to `g(u)`, u a name bound at most once (or a parameter), and the backward
sweep multiplies by `f(u)` of the same u: `a / v * f(u)` and `f(u) / v`. The values are
the same numbers up to rounding (tanh(u) is correctly computed where sinh(u) / cosh(u)
overflows to nan past |u| ~ 710).
"""
import math

import gast
import numpy as np

from ..ir import build
from ..ir.naming import callee
from ..ir.walk import CopyingTransformer, assigned_at_most_once

# (numerator's function, denominator's function) -> the function of their quotient
_QUOTIENTS = {(np.sinh, np.cosh): np.tanh, (np.sin, np.cos): np.tan,
              (math.sinh, math.cosh): math.tanh, (math.sin, math.cos): math.tan}


def read_quotients(body, resolve):
    """(body, changed): body (a flattened statement list, forward sweep, blank line,
    backward sweep) with the quotients above read as one call. resolve(name): what a
    name of the generated code denotes. `body` is not written into."""
    split = next((k for k, stmt in enumerate(body) if build.is_blank_line(stmt)), None)
    if split is None:
        return body, False
    once = assigned_at_most_once(body)
    divisors = {}                   # forward name -> (its function, the operand's name)
    for stmt in body[:split]:
        if build.assigned_name(stmt) in once:
            operand = _single_name_call(stmt.value, resolve, once)
            if operand is not None:
                divisors[stmt.targets[0].id] = operand
    if not divisors:
        return body, False
    rewrite = _Quotients(divisors, resolve, once)
    backward = [rewrite.visit(stmt) for stmt in body[split:]]
    return (body[:split] + backward, True) if rewrite.changed else (body, False)


def _single_name_call(node, resolve, once):
    """(function, operand name) of `f(u)` with f one of _QUOTIENTS' and u bound at most
    once, else None."""
    if isinstance(node, gast.Call) and len(node.args) == 1 and not node.keywords \
            and isinstance(node.args[0], gast.Name) and node.args[0].id in once:
        function = callee(node.func, resolve)
        if any(function is f for pair in _QUOTIENTS for f in pair):
            return function, node.args[0].id
    return None


class _Quotients(CopyingTransformer):
    """The quotients read as one call in new nodes (the statements given stay as they were)."""

    def __init__(self, divisors, resolve, once):
        self.divisors, self.resolve, self.once = divisors, resolve, once
        self.changed = False

    def visit_BinOp(self, node):
        node = self.generic_visit(node)
        if isinstance(node.op, gast.Mult) and isinstance(node.left, gast.BinOp) \
                and isinstance(node.left.op, gast.Div):
            quotient = self._quotient(node.right, node.left.right)      # a / v * f(u)
            if quotient is not None:
                self.changed = True
                return build.binop(node.left.left, "Mult", quotient)
        if isinstance(node.op, gast.Div):
            quotient = self._quotient(node.left, node.right)            # f(u) / v
            if quotient is not None:
                self.changed = True
                return quotient
        return node

    def _quotient(self, top, bottom):
        """The call of the quotient's function for `top / bottom`, or None."""
        if not isinstance(bottom, gast.Name) or bottom.id not in self.divisors:
            return None
        numerator = _single_name_call(top, self.resolve, self.once)
        below, operand = self.divisors[bottom.id]
        if numerator is None or numerator[1] != operand:
            return None
        function = next((q for (f, g), q in _QUOTIENTS.items()
                         if f is numerator[0] and g is below), None)
        if function is None or not isinstance(top.func, gast.Attribute):
            return None
        call = build.clone(top)
        call.func.attr = function.__name__          # np.sinh -> np.tanh, math.sin -> math.tan
        return call
