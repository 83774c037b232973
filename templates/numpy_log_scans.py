"""np.logaddexp and np.logaddexp2 as reductions and scans: the ufunc methods
`np.logaddexp.reduce(x, axis)` (log sum exp along axis) and `np.logaddexp.accumulate(x,
axis)` (its running value), and the same for base 2. (np.add / np.multiply / np.maximum
/ np.minimum's reduce and accumulate are np.sum, np.prod, np.max, np.min, np.cumsum and
np.cumprod under other names: transforms/desugar.py writes them so.)

The derivatives spread with softmax weights w = exp(x - y) (2 ** (x - y) in base 2), at
most 1 where y >= x, so they never overflow where f does not. A scan's derivative is a
first-order recurrence, y_i = logaddexp(y_{i-1}, x_i):
    dy_i = exp(y_{i-1} - y_i) dy_{i-1} + exp(x_i - y_i) dx_i
solved by linear_scan (forward for the tangent, backward for the adjoint), whose factors
exp(y_{i-1} - y_i) are at most 1 as well. Keywords a template does not list (out=,
initial=, where=) are errors.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unreduce
from s2s_ad.runtime_arrays import linear_scan, logsumexp_weights, shifted

_LN2 = 0.6931471805599453        # exp(ln 2 * v) = 2 ** v


@adjoint(np.logaddexp.reduce)
def logaddexp_reduce_adjoint(y, array, axis=0, dtype=None, keepdims=False):
    """d log(sum(exp(x))) = sum(exp(x - y) dx)"""
    d[array] += unreduce(d[y], array, axis, keepdims) \
        * logsumexp_weights(array, y, axis, None, keepdims)


@tangent(np.logaddexp.reduce)
def logaddexp_reduce_tangent(y, array, axis=0, dtype=None, keepdims=False):
    """d log(sum(exp(x))) = sum(exp(x - y) dx)"""
    d[y] = np.sum(logsumexp_weights(array, y, axis, None, keepdims) * d[array], axis=axis,
                  keepdims=keepdims)


@adjoint(np.logaddexp2.reduce)
def logaddexp2_reduce_adjoint(y, array, axis=0, dtype=None, keepdims=False):
    """d log2(sum(2 ** x)) = sum(2 ** (x - y) dx)"""
    d[array] += unreduce(d[y], array, axis, keepdims) \
        * logsumexp_weights(_LN2 * array, _LN2 * y, axis, None, keepdims)


@tangent(np.logaddexp2.reduce)
def logaddexp2_reduce_tangent(y, array, axis=0, dtype=None, keepdims=False):
    """d log2(sum(2 ** x)) = sum(2 ** (x - y) dx)"""
    d[y] = np.sum(logsumexp_weights(_LN2 * array, _LN2 * y, axis, None, keepdims) * d[array],
                  axis=axis, keepdims=keepdims)


@adjoint(np.logaddexp.accumulate)
def logaddexp_accumulate_adjoint(y, array, axis=0, dtype=None):
    """dx_j = exp(x_j - y_j) r_j,  r_j = dy_j + exp(y_j - y_{j+1}) r_{j+1}"""
    _carry = np.exp(shifted(y, axis, -np.inf) - y)
    _r = linear_scan(shifted(_carry, axis, 0.0, True), d[y], axis, True)
    d[array] += np.exp(array - y) * _r


@tangent(np.logaddexp.accumulate)
def logaddexp_accumulate_tangent(y, array, axis=0, dtype=None):
    """dy_i = exp(y_{i-1} - y_i) dy_{i-1} + exp(x_i - y_i) dx_i"""
    d[y] = linear_scan(np.exp(shifted(y, axis, -np.inf) - y), np.exp(array - y) * d[array],
                       axis)


@adjoint(np.logaddexp2.accumulate)
def logaddexp2_accumulate_adjoint(y, array, axis=0, dtype=None):
    """dx_j = 2 ** (x_j - y_j) r_j,  r_j = dy_j + 2 ** (y_j - y_{j+1}) r_{j+1}"""
    _carry = np.exp2(shifted(y, axis, -np.inf) - y)
    _r = linear_scan(shifted(_carry, axis, 0.0, True), d[y], axis, True)
    d[array] += np.exp2(array - y) * _r


@tangent(np.logaddexp2.accumulate)
def logaddexp2_accumulate_tangent(y, array, axis=0, dtype=None):
    """dy_i = 2 ** (y_{i-1} - y_i) dy_{i-1} + 2 ** (x_i - y_i) dx_i"""
    d[y] = linear_scan(np.exp2(shifted(y, axis, -np.inf) - y), np.exp2(array - y) * d[array],
                       axis)
