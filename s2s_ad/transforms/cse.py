"""Common subexpressions in straight-line code: a pure operation is computed once.

    t2_0 = x - mu                   t2_0 = x - mu
    ...                      ->     ...
    t2_1 = x - mu                   (t2_0 reused)

Only at the function's top level (not inside loops or branches), only for operators,
numpy and `math` functions (not the user's helpers, not np.random), and only when every
input is assigned once, so the earlier value is still the same value. A `math` call of
number literals is computed now (`math.sqrt(2.0)` -> 1.4142135623730951): the
derivative would otherwise repeat it on every run.
"""
import math

import gast
import numpy

from ..ir.walk import dump_key, walk_tree
from ..ir.build import dotted_path, number_literal


class CommonSubexpressionMixin:
    def _remember(self, op, name):
        """Record `name = op` for reuse, when op is pure and its inputs never change."""
        key = self._cse_key(op)
        if key is not None:
            self._available.setdefault(key, name)

    def _computed(self, op):
        key = self._cse_key(op)
        return self._available.get(key) if key is not None else None

    def _cse_key(self, op):
        if self._block_depth or not _is_pure(op, self.callees):
            return None
        if any(isinstance(n, gast.Name) and (n.id in self.multi_def or n.id in self.nested)
               for n in walk_tree(op)):
            return None
        return dump_key(op)


def constant_math(op, callees):
    """The value of `math.f(literals...)` (a finite float), or None."""
    if not isinstance(op, gast.Call) or op.keywords:
        return None
    obj = callees.get(dotted_path(op.func))
    if getattr(obj, "__module__", None) != "math" or not op.args:
        return None
    values = [number_literal(a) for a in op.args]
    if any(v is None for v in values):
        return None
    try:
        value = obj(*values)
    except (ValueError, OverflowError, ZeroDivisionError, TypeError):
        return None                     # raised where f raises, when the derivative runs
    return value if type(value) is float and math.isfinite(value) else None


def _is_pure(op, callees):
    """Operations whose value depends only on their operands (safe to compute once)."""
    if isinstance(op, (gast.BinOp, gast.UnaryOp, gast.Compare, gast.Subscript)):
        return True
    if isinstance(op, gast.Call):
        obj = callees.get(dotted_path(op.func))
        module = getattr(obj, "__module__", None) or ""
        return (isinstance(obj, numpy.ufunc) or module.startswith("numpy")
                or module == "math") and "random" not in module
    return False
