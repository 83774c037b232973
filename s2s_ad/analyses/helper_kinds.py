"""The kind of a user function's result at a call (mixed into the facts analysis,
analyses/kinds.py): the function's own analysis with the kinds of the operands it is
called with (helper_result, analyses/call_kinds.py), and the operand whose shape its
result provably has (helper_result.shaped_like, read by lengths.py).

    def affine(x, w, b):                    z = affine(X, w, 0.5)     X: float64[n, d]
        return x @ w + b                ->  z: float64[n]   (affine analysed with
                                            x: float64[n, d], w: float64[d], b: float)

A call whose operands do not bind to the parameters (or that spreads *args/**kwargs into
them) gives UNKNOWN, as every call the analysis cannot follow does.
"""
import inspect

from ..signature import UNKNOWN
from .stand_ins import constant, stand_ins


class HelperKinds:
    """Reads self.helper_result (None: user functions are not followed) and self._atom."""

    def _helper(self, function, op):
        """A user function's result, from its own analysis with the operands' kinds."""
        bound = self._helper_signature(function, op)
        if bound is None:
            return UNKNOWN, None
        kind = self.helper_result(function, bound[0])
        return kind, stand_ins(kind)

    def _helper_shaped_like(self, function, op):
        """The operand whose shape a user function's result provably has (call_kinds'
        shaped_like, asked after _helper), or None."""
        bound = self._helper_signature(function, op)
        shaped_like = getattr(self.helper_result, "shaped_like", None)
        if bound is None or shaped_like is None:
            return None
        parameter = shaped_like(function, bound[0])
        return bound[1].get(parameter) if parameter is not None else None

    def _helper_signature(self, function, op):
        """(parameter -> kind, parameter -> operand) of a call of a user function, or None
        when its operands do not bind."""
        try:
            parameters = inspect.signature(function).parameters
            bound = inspect.signature(function).bind(*op.args, **op.keywords)
        except (TypeError, ValueError):
            return None
        signature = {}
        for name, parameter in parameters.items():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                return None
            if name in bound.arguments:
                signature[name] = self._atom(bound.arguments[name])[0]
            else:
                signature[name] = constant(parameter.default)[0]
        return signature, dict(bound.arguments)
