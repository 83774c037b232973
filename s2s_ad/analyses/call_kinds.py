"""Kinds across calls of the user's own functions (for analyses/kinds.py and pipeline.py).

    call_signature(affine, `t = affine(row, w)`, levels, kinds)
        -> (("x", float64[n]), ("w", float64[n]), ("b", float))    the helper's signature here
    helper_results(front)(affine, {"x": ..., "w": ..., "b": ...})
        -> float64[n]                                               the kind it returns
"""
import inspect

import gast

from ..ir.primitives import operation_of
from ..signature import UNKNOWN, kind_of
from .kinds import analyse_kinds


def helper_results(front, depth=0, active=(), memo=None):
    """helper_result for analyse_kinds: the kind a user function returns, from the
    analysis of its own levels form (helpers of helpers too, three calls deep; a
    recursive call is UNKNOWN). `front(function)` gives (levels form, namer); each
    function's levels form and each (function, signature) answer is worked out once per
    derivative (a loop's fixed point asks again each round)."""
    memo = {} if memo is None else memo

    def result(function, signature):
        if depth >= 3 or function in active:
            return UNKNOWN
        key = (function, tuple(signature.items()))
        if key in memo:
            return memo[key]
        try:
            if function not in memo:
                memo[function] = front(function)[0]
            levels = memo[function]
        except Exception:            # not ours to report here: its derivative will
            return UNKNOWN
        kinds = analyse_kinds(levels, signature,
                              helper_results(front, depth + 1, active + (function,), memo))
        returned = levels.tree.body[-1]
        memo[key] = kinds.of(returned.value) if isinstance(returned, gast.Return) \
            and returned.value is not None else UNKNOWN
        return memo[key]
    return result


def call_signature(helper, stmt, levels, kinds):
    """((parameter, kind), ...) of `helper` at this call: the kinds of the operands bound
    to its parameters (defaults by their values); None when they do not bind."""
    op = operation_of(stmt.value, levels.callees)
    try:
        parameters = inspect.signature(helper).parameters
        bound = inspect.signature(helper).bind(*op.args, **op.keywords)
    except (TypeError, ValueError):
        return None
    kinds_of = []
    for name, parameter in parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            return None
        if name in bound.arguments:
            kinds_of.append((name, kinds.of(bound.arguments[name])))
        else:
            kinds_of.append((name, kind_of(parameter.default)))
    return tuple(kinds_of)
