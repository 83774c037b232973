"""Which primitives the facts (analyses/kinds.py) evaluate on stand-in values: those
whose result's kind (type, dtype, rank, length-1 axes) follows from their operands' kinds
and literal arguments alone. Anything else gives UNKNOWN there.

    evaluable(np.add)        True      (a ufunc of one result)
    evaluable(np.sum)        True      (a reduction: shape from the operand and axis)
    evaluable(np.nonzero)    False     (its length depends on the data)
"""
import math
import operator

import numpy as np

from ..ir.primitives import attribute_read, identity
from .. import runtime_mappings, runtime_shape
from .shapes import is_elementwise

_OPERATORS = {operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
              operator.matmul, operator.floordiv, operator.mod, operator.neg, operator.pos,
              operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne,
              identity, tuple, list, len, float, abs}
_NUMPY = {
    "sum", "mean", "prod", "max", "min", "amax", "amin", "std", "var", "dot", "vdot",
    "matmul", "tensordot", "inner", "outer", "einsum", "transpose", "swapaxes", "moveaxis",
    "reshape", "ravel", "expand_dims", "squeeze", "clip", "zeros", "ones", "full",
    "zeros_like", "ones_like", "full_like", "asarray", "array", "stack", "concatenate",
    "vstack", "hstack", "cumsum", "cumprod", "sort", "flip", "trace", "eye", "identity",
    "arange", "linspace", "tile", "repeat", "broadcast_to", "atleast_1d", "atleast_2d",
    "diag", "round", "around", "logsumexp", "norm", "inv", "det", "solve", "slogdet",
    "cholesky", "average", "triu", "tril", "diagonal", "real", "copy"}
# gathering, cutting, joining and picking: the result's shape follows from the operands'
# (and from literal indices, sections and conditions; see stand_ins.py for unknown ones)
_NUMPY |= {
    "take", "take_along_axis", "split", "array_split", "hsplit", "vsplit", "dsplit",
    "unstack", "rollaxis", "fliplr", "flipud", "rot90", "atleast_3d", "column_stack",
    "dstack", "row_stack", "append", "block", "meshgrid", "broadcast_arrays", "insert",
    "delete", "select", "choose", "imag", "nan_to_num", "cumulative_sum", "cumulative_prod",
    "roll"}
# statistics (numpy_statistics.py, numpy_nan_reductions.py): shapes from the operands and
# the literal q / axis / keepdims
_NUMPY |= {
    "median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile",
    "partition", "nansum", "nanmean", "nanprod", "nanmax", "nanmin", "nanvar", "nanstd",
    "nancumsum", "nancumprod", "cov", "corrcoef", "interp", "trapezoid", "gradient",
    "polyval", "polyder", "polyint", "poly", "i0"}


# scipy.special's Python-level functions with templates (its ufuncs are evaluated as ufuncs)
_SCIPY_SPECIAL = frozenset({"logsumexp", "softmax", "log_softmax", "polygamma", "multigammaln"})
# scipy.linalg's solvers with templates (templates/scipy_linalg.py): the result has the
# right-hand side's shape (stand-ins that make the system singular give no fact)
_SCIPY_LINALG = frozenset({"solve_sylvester", "solve_banded"})
# scipy.stats distributions' methods with templates (templates/scipy_stats.py) whose
# result is their arguments broadcast against each other
_SCIPY_STATS = {"norm": frozenset({"pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"}),
                "t": frozenset({"logpdf", "pdf", "cdf", "logcdf"}),
                "poisson": frozenset({"logpmf", "pmf", "cdf"}), "gamma": frozenset({"logpdf", "pdf", "cdf"}),
                "chi2": frozenset({"logpdf", "pdf", "cdf"}),
                "beta": frozenset({"logpdf", "pdf", "cdf"})}


def evaluable(primitive):
    """Is `primitive`'s result kind decided by evaluating it on stand-ins?"""
    if primitive in _OPERATORS or primitive is attribute_read \
            or primitive is runtime_mappings.make_mapping \
            or primitive is runtime_shape.outer_operand:     # ufunc.outer, as normalize writes it
        return True
    if isinstance(primitive, np.ufunc):
        return primitive.nout == 1
    owner = getattr(primitive, "__self__", None)
    if isinstance(owner, np.ufunc) and getattr(primitive, "__name__", "") in (
            "accumulate", "reduce"):
        # np.maximum.accumulate: the operand's kind; np.logaddexp.reduce(x, axis): as
        # np.sum's (the literal axis and keepdims decide it)
        return owner.nout == 1
    if type(owner).__module__.startswith("scipy.stats") and getattr(primitive, "__name__", "") \
            in _SCIPY_STATS.get(getattr(owner, "name", None), ()):
        return True                              # stats.norm.logpdf(x, loc, scale)
    if isinstance(primitive, type) and issubclass(primitive, np.generic):
        return True                              # np.float32(x)
    if getattr(primitive, "__module__", None) == "math" or \
            getattr(primitive, "__self__", None) is math:
        return is_elementwise(primitive)
    module = getattr(primitive, "__module__", None) or ""
    name = getattr(primitive, "__name__", "")
    return module.startswith("numpy") and name in _NUMPY \
        and getattr(np, primitive.__name__, None) is primitive \
        or getattr(np.linalg, name, None) is primitive \
        or module.startswith("scipy.special") and name in _SCIPY_SPECIAL \
        or module.startswith("scipy.linalg") and name in _SCIPY_LINALG
