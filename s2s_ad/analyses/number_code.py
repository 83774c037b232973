"""Which sweep builds a gradient: the one declared place where the mode is chosen.

A gradient of a function of few numbers is cheapest in forward mode: each input's
derivative is carried along with the values (k tangents for k inputs, one pass, no tape,
no backward loop), which is how a gradient of such code is written by hand. Reverse mode
pays for a tape and a second loop that forward mode does not need; it wins only when the
inputs are many (arrays). So a specialised gradient is built in forward mode when its
facts prove that it is number code:

- grad or value_and_grad of the function the user called (not a helper's adjoint, no
  aux output), for a signature (the general derivative does not know the kinds);
- at most MAX_DIRECTIONS differentiated arguments, each a float number (a Python float,
  np.float64 or np.float32: not an array, not even a 0-d one); more than one only when
  they are Python floats and a loop computes values carrying derivatives (straight-line
  code has no tape, and there one reverse sweep costs less than k forward ones; on numpy
  scalars arithmetic costs several times a float's, and the tape is cheap beside it);
- every value carrying a derivative is such a number (loops over lists and tuples of
  floats, math.* and numpy calls on numbers are fine; a list or array on the
  differentiated path is not);
- the values carrying a derivative flow through plain assignments only: no calls of the
  user's own functions with them (their derivatives are built as adjoints), no lists
  built item by item, no index writes.

    def horner(x, a, coeffs):              x: float, a: float, coeffs: tuple[float, ...]
        p = 0.0                            -> forward: dp_dx, dp_da carried along with p
        for c in coeffs:
            p = p * x + a * c
        return p

    def loss(w, X):                        w: float64[D]  -> reverse (w is an array)
    def price(S, sigma): closed form       S, sigma: float -> reverse (no loop, 2 inputs)

Everything else keeps reverse mode. S2S_AD_REVERSE=1 in the environment keeps it for
number code too (to compare both, and for the tests of the reverse sweep's own passes).
"""
import inspect
import operator
import os

import gast
import numpy as np

from ..ir.primitives import appended_list, operation_of, popped_list
from ..ir.walk import walk_tree
from ..signature import Items, Num

MAX_DIRECTIONS = 4          # forward mode costs one tangent per input: few inputs only
_FLOATS = ("float64", "float32")


def forward_gradient_applies(request, levels, kinds, activity, registry):
    """Build this gradient in forward mode (ad/forward_gradient.py)? See the module doc."""
    if reverse_forced():
        return False
    if request.mode not in ("grad", "value_and_grad") or request.helper \
            or request.has_aux or request.signature is None or kinds is None:
        return False
    if not 1 <= len(request.wrt) <= MAX_DIRECTIONS:
        return False
    if not all(_float_number(kinds, name) for name in request.wrt):
        return False
    out = levels.tree.body[-1].value
    if not (isinstance(out, gast.Name) and isinstance(kinds.of(out.id), Num)
            and _number(kinds, out.id)):
        return False            # a tuple returned: reverse mode's seed check refuses it
    if len(request.wrt) > 1 and not (
            _active_loop(levels.tree.body, activity)
            and all(kinds.of(name).type is float for name in request.wrt)):
        # straight-line code: one reverse sweep costs less than k forward ones, and it
        # needs no tape there; on numpy scalars each operation costs several times a
        # float's, and the tape is cheap beside them
        return False
    return _number_statements(levels.tree.body[:-1], levels, kinds, activity, registry)


def _active_loop(stmts, activity):
    """Is there a loop computing values that carry derivatives (whose reverse sweep
    would need a tape)?"""
    for stmt in stmts:
        if isinstance(stmt, (gast.For, gast.While)) and any(
                isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)
                and activity.is_active(n.id) for s in stmt.body for n in walk_tree(s)):
            return True
        if isinstance(stmt, gast.If) and _active_loop(stmt.body + stmt.orelse, activity):
            return True
    return False


def reverse_forced():
    """S2S_AD_REVERSE=1: number code in reverse mode too (derivatives built either way are
    cached apart: derivative_cache.py)."""
    return bool(os.environ.get("S2S_AD_REVERSE"))


def _float_number(kinds, name):
    kind = kinds.of(name)
    return kinds.is_number(name) and kind.dtype in _FLOATS


def _number(kinds, name):
    """A number, though perhaps not known which (a Python float on one path, an
    np.float64 on another), or a tuple of numbers (`theta, omega = theta0, 0.0` builds
    one): never an array."""
    return _number_kind(kinds.of(name))


def _number_kind(kind):
    if isinstance(kind, Items) and kind.container is tuple:
        return all(_number_kind(item) for item in kind.items)
    return isinstance(kind, Num) and kind.axes == () and kind.type is not np.ndarray


def _number_statements(stmts, levels, kinds, activity, registry):
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            if isinstance(stmt, gast.For) and activity.is_active(
                    getattr(stmt.target, "id", None)):
                return False            # iterating over values that carry derivatives
            if not _number_statements(stmt.body + stmt.orelse, levels, kinds, activity,
                                      registry):
                return False
        elif isinstance(stmt, gast.Assign):
            if not _number_assignment(stmt, levels, kinds, activity, registry):
                return False
        elif isinstance(stmt, gast.With):
            return False                # insert_grad_of: a backward-sweep hook
        elif appended_list(stmt) is not None and activity.is_active(appended_list(stmt)):
            return False
        elif isinstance(stmt, gast.Expr) and any(
                isinstance(n, gast.Name) and activity.is_active(n.id)
                for n in walk_tree(stmt)):
            return False                # a call on a value carrying a derivative
    return True


def _number_assignment(stmt, levels, kinds, activity, registry):
    target = stmt.targets[0]
    if not isinstance(target, gast.Name):
        return not activity.is_active(getattr(target.value, "id", None))
    if not activity.is_active(target.id):
        return popped_list(stmt.value) is None or not activity.is_active(
            popped_list(stmt.value))
    if not _number(kinds, target.id) or popped_list(stmt.value) is not None:
        return False
    op = operation_of(stmt.value, levels.callees)
    if op.primitive is operator.getitem and op.args and isinstance(op.args[0], gast.Name) \
            and activity.is_active(op.args[0].id) and _number(kinds, op.args[0].id) \
            and not isinstance(kinds.of(op.args[0].id), Items):
        return False                    # x[()] of a numpy number: its tangent is a float
    if op.primitive is not None and registry.has_own_adjoint(op.primitive):
        return False                    # the user's adjoint of it: used in reverse mode
    if op.callee is not None and inspect.isfunction(op.primitive) \
            and registry.tangent(op.primitive) is None:
        return False                    # the user's own function: built as an adjoint
    return all(_number(kinds, n.id) for a in list(op.args) + list(op.keywords.values())
               for n in walk_tree(a)
               if isinstance(n, gast.Name) and activity.is_active(n.id))
