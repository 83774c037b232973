"""Arguments written as literals that a template's runtime helper would refuse when the
code runs (np.pad(x, 1, mode="empty"), np.quantile(x, q, method="weibull"),
np.linspace(a, b, retstep=True)): refused when the derivative is built instead, so the
error points at the call in f. Each check is the runtime helper's own (the one that
refuses a value known only when the code runs), so both say the same.

    bind_operands(pad template, [x, 1], {'mode': 'empty'})  ->  BindingError("s2s_ad
        differentiates np.pad with mode= one of 'constant', ..., not mode='empty'")
"""
import gast
import numpy as np

from ..runtime_arrays import pad_mode_problem
from ..runtime_creation import linspace_retstep_problem
from ..runtime_statistics import quantile_method_problem

_PROBLEMS = (
    (np.pad, "mode", pad_mode_problem),
    (np.linspace, "retstep", linspace_retstep_problem),
    (np.quantile, "method", quantile_method_problem),
    (np.percentile, "method", quantile_method_problem),
    (np.nanquantile, "method", quantile_method_problem),
    (np.nanpercentile, "method", quantile_method_problem),
)


def literal_problem(primitive, bound):
    """What is wrong with a literal argument of this call (bound: template parameter ->
    operand node), or None."""
    for owner, param, problem in _PROBLEMS:
        if primitive is owner and isinstance(bound.get(param), gast.Constant):
            found = problem(bound[param].value)
            if found:
                return found
    return None
