"""Stage 7 (a specialisation): a Python float argument's gradient is a Python float.

numpy's functions of a Python float give an np.float64 (`np.tanh(x)`), and so does every
derivative computed from them, where the same function written with `math` gives floats.
A gradient has its argument's type (float in, float out, in reverse and forward mode
alike): each returned gradient of a parameter the signature says is a Python float is
made one with `float(...)`, unless the generated code proves it one already: a float
literal, a float parameter, math's float functions, `abs`/`float`/`min`/`max` of such
values, +, -, *, / and choices among them, names all of whose assignments are such.

    t1_0 = np.tanh(x)                             (same statements)
    ...                                   ->
    x_bar = t1_1_bar + y * (1.0 - t1_0 * t1_0)
    y_bar = t1_0 - t1_1_bar
    return x_bar, y_bar                           return float(x_bar), float(y_bar)

    dp_dx = dp_dx * x + p  (all floats)           (proved: unchanged)

The cast is exact (an np.float64, an int or a 0-d array holding the same number).
"""
import builtins
import math

import gast

from ..ir import build
from ..ir.naming import callee
from ..signature import Num, loosely_guarded
from .float_gradients import _MATH_INTEGERS, _Proof

_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div)
_OF_NUMBERS = {builtins.abs, builtins.min, builtins.max}
# math's functions whose result is not a float
_NOT_FLOATS = _MATH_INTEGERS | {math.isnan, math.isinf, math.isfinite, math.isclose,
                                math.frexp, math.modf, math.prod}


_FLOAT = Num(float, "float64", ())
_INT = Num(int, "int64", ())


def python_float_casts(body, request, params, resolve, kinds, cast_name):
    """float_gradients' `python_float`: (k, gradient) -> `cast_name()(gradient)` where
    the k-th gradient (in wrt order) is of a Python float parameter the signature has and
    may not be a Python float, else None; None when no such parameter is differentiated.
    `kinds`: the facts, which prove f's own values Python floats (a loop's item of a tuple
    of floats) or ints (a step count: a float divided by it is a float)."""
    float_params = {name for name, kind in request.signature or () if kind == _FLOAT}
    chosen = {k for k, name in enumerate(request.wrt) if name in float_params}
    if not chosen:
        return None
    proof = _PythonFloats(body, params, resolve, float_params,
                          lambda name: kinds.of(name) == _FLOAT,
                          lambda name: kinds.of(name) == _INT)

    def cast(k, gradient):
        if k not in chosen or proof.is_float(gradient):
            return None
        return build.call(build.name(cast_name()), [gradient])
    return cast


def loose_lists(request):
    """Does the signature hold a list of floats (or of tuples with float positions) f does
    not differentiate? Its guard lets ints and bools in too (signature.loosely_guarded),
    so the facts' float items prove no returned gradient a float."""
    return any(loosely_guarded(kind, name in request.wrt)
               for name, kind in request.signature or ())


class _PythonFloats(_Proof):
    """Which expressions certainly are Python floats (not numpy scalars, not ints)."""

    def __init__(self, body, params, resolve, float_params, known, known_int):
        super().__init__(body, params, resolve, lambda name: False)
        self.known, self.known_int = known, known_int
        for name in float_params:
            values = self.definitions.get(name)
            if values and values[0] is None:
                values[0] = gast.Constant(value=0.0, kind=None)    # a float on entry

    def _parts(self, node):
        item = self._tuple_item(node)
        return [item] if item is not None else super()._parts(node)

    def _tuple_item(self, node):
        """The item `t[k]` reads where t's one assignment is a tuple display (`t1_0 =
        theta0, 0.0` of tuple unpacking), else None."""
        if not (isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name)
                and isinstance(node.slice, gast.Constant) and type(node.slice.value) is int):
            return None
        values = self.definitions.get(node.value.id, [])
        if len(values) != 1 or not isinstance(values[0], gast.Tuple) \
                or not -len(values[0].elts) <= node.slice.value < len(values[0].elts):
            return None
        return values[0].elts[node.slice.value]

    def _combine(self, node, parts, proved):
        if isinstance(node, gast.Subscript):
            return self._tuple_item(node) is not None and parts[0]
        if isinstance(node, gast.Constant):
            return type(node.value) is float
        if isinstance(node, gast.BinOp):
            operands = (node.left, node.right)
            return isinstance(node.op, _ARITHMETIC) and any(parts) and all(
                p or _int_literal(a) or isinstance(a, gast.Name) and self.known_int(a.id)
                for p, a in zip(parts, operands))
        if isinstance(node, gast.UnaryOp):
            return isinstance(node.op, (gast.USub, gast.UAdd)) and parts[0]
        if isinstance(node, gast.IfExp):
            return all(parts)
        if isinstance(node, gast.Name):
            if self.known(node.id):
                return True
            if node.id in self.definitions:
                return node.id in proved
            return type(self.resolve(node.id)) is float           # a global
        if isinstance(node, gast.Call) and not node.keywords:
            target = callee(node.func, self.resolve)
            if target is builtins.float:
                return len(node.args) == 1
            if getattr(target, "__module__", None) == "math" and target not in _NOT_FLOATS:
                return True
            return target in _OF_NUMBERS and bool(parts) and all(parts)
        return False


def _int_literal(node):
    return isinstance(node, gast.Constant) and type(node.value) is int
