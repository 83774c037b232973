"""Reductions and scans: sum, mean, prod, max/min, ptp, cumsum, cumprod, the running
maximum and minimum (np.maximum.accumulate, np.minimum.accumulate), var/std, norm, average
(with weights).

numpy 2 keeps np.max/np.amax and np.min/np.amin as distinct function objects; each is
registered. Keywords a template does not list (out=, where=, initial=) are errors.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import extremum_share, reduced_count, unreduce
from s2s_ad.runtime_reductions import (reverse_cumsum, unreduce_extremum, unreduce_prod,
                                       unreduce_var)
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_spread import unreduce_norm, unreduce_std
from s2s_ad.runtime_pieces import along_axis_index, running_source
from s2s_ad.runtime_arrays import (linear_scan, shifted, spread_weights, sum_weighted,
                                   unlayout_weights, weights_total)


@adjoint(np.sum)
def sum_adjoint(y, a, axis=None, dtype=None, keepdims=False):
    """d sum(a) = sum(da)"""
    d[a] += unreduce(d[y], a, axis, keepdims)


@tangent(np.sum)
def sum_tangent(y, a, axis=None, dtype=None, keepdims=False):
    """sum is linear: d sum(a) = sum(da)"""
    d[y] = np.sum(d[a], axis=axis, keepdims=keepdims)


@adjoint(np.mean)
def mean_adjoint(y, a, axis=None, dtype=None, keepdims=False):
    """d mean(a) = sum(da) / count"""
    d[a] += unreduce(d[y] / reduced_count(a, axis), a, axis, keepdims)


@tangent(np.mean)
def mean_tangent(y, a, axis=None, dtype=None, keepdims=False):
    """mean is linear: d mean(a) = mean(da)"""
    d[y] = np.mean(d[a], axis=axis, keepdims=keepdims)


# np.average(a, axis, weights) = sum(a w) / sum(w) over axis, w laid out against a as numpy
# does (weights_layout: shaped like a, or 1-D / one length per axis of a tuple axis, along
# axis); weights=None is w = 1 (spread_weights then multiplies by nothing). returned= is
# not a parameter: passing it is an error
@adjoint(np.average)
def average_adjoint(y, a, axis=None, weights=None, keepdims=False):
    """d average(a, w) = sum(w da + (a - y) dw) / sum(w) over axis"""
    _q = d[y] / weights_total(a, weights, axis, keepdims)
    d[a] += spread_weights(_q, a, weights, axis, keepdims)
    d[weights] += unlayout_weights(
        unreduce(_q, a, axis, keepdims) * (a - unreduce(y, a, axis, keepdims)), weights, axis)


@tangent(np.average)
def average_tangent(y, a, axis=None, weights=None, keepdims=False):
    """d average(a, w) = (sum(w da) + sum((a - y) dw)) / sum(w) over axis"""
    d[y] = (sum_weighted(d[a], a, weights, axis, keepdims) + sum_weighted(
        a - unreduce(y, a, axis, keepdims), a, d[weights], axis, keepdims)) \
        / weights_total(a, weights, axis, keepdims)


@adjoint(np.prod)
def prod_adjoint(y, a, axis=None, dtype=None, keepdims=False):
    """d prod(a) = sum(prod(a) / a * da) (computed without dividing when a has zeros)"""
    d[a] += unreduce_prod(d[y], a, y, axis, keepdims)


@tangent(np.prod)
def prod_tangent(y, a, axis=None, dtype=None, keepdims=False):
    """d prod(a) = sum(prod of the other factors * da) (exact when a has zeros)"""
    _others = unreduce_prod(np.ones_like(y), a, y, axis, keepdims)
    d[y] = np.sum(_others * d[a], axis=axis, keepdims=keepdims)


@adjoint(np.max, np.amax, np.min, np.amin)
def extremum_adjoint(y, a, axis=None, keepdims=False):
    """d max(a) = da at the maximum (ties share equally); likewise min"""
    d[a] += unreduce_extremum(d[y], a, y, axis, keepdims)


@tangent(np.max, np.amax, np.min, np.amin)
def extremum_tangent(y, a, axis=None, keepdims=False):
    """d max(a) = da at the maximum (ties share equally, as in the adjoint); likewise min"""
    d[y] = np.sum(extremum_share(a, y, axis, keepdims) * d[a], axis=axis, keepdims=keepdims)


@adjoint(np.ptp)
def ptp_adjoint(y, a, axis=None, keepdims=False):
    """d (max(a) - min(a)) = da at the maximum - da at the minimum (ties share equally)"""
    _max = np.max(a, axis=axis, keepdims=keepdims)
    _min = np.min(a, axis=axis, keepdims=keepdims)
    d[a] += unreduce_extremum(d[y], a, _max, axis, keepdims) \
        - unreduce_extremum(d[y], a, _min, axis, keepdims)


@tangent(np.ptp)
def ptp_tangent(y, a, axis=None, keepdims=False):
    """d (max(a) - min(a)), the shares of the maximum and the minimum as in the adjoint"""
    _share = extremum_share(a, np.max(a, axis=axis, keepdims=keepdims), axis, keepdims) \
        - extremum_share(a, np.min(a, axis=axis, keepdims=keepdims), axis, keepdims)
    d[y] = np.sum(_share * d[a], axis=axis, keepdims=keepdims)


@adjoint(np.cumsum)
def cumsum_adjoint(y, a, axis=None, dtype=None):
    """d cumsum(a)[i] = sum(da[:i+1]): the adjoint is the reversed cumulative sum"""
    d[a] += reverse_cumsum(d[y], a, axis)


@tangent(np.cumsum)
def cumsum_tangent(y, a, axis=None, dtype=None):
    """cumsum is linear: d cumsum(a) = cumsum(da)"""
    d[y] = np.cumsum(d[a], axis=axis)


# y = np.maximum.accumulate(x, axis) is x taken at the entry holding the running maximum
# (running_source: on a tie the earlier entry keeps it, so the derivative goes to the first
# entry reaching the maximum, as builtin max's does); the derivative is that indexing's
@adjoint(np.maximum.accumulate)
def maximum_accumulate_adjoint(y, array, axis=0, dtype=None):
    """d y_i = d x_k(i): the adjoint lands on the source entries (repeats accumulate)"""
    d[array][along_axis_index(array, running_source(y, axis), axis)] += d[y]


@tangent(np.maximum.accumulate)
def maximum_accumulate_tangent(y, array, axis=0, dtype=None):
    """d y_i = d x_k(i)"""
    d[y] = np.take_along_axis(d[array], running_source(y, axis), axis)


@adjoint(np.minimum.accumulate)
def minimum_accumulate_adjoint(y, array, axis=0, dtype=None):
    """d y_i = d x_k(i), k(i) the first entry reaching the running minimum"""
    d[array][along_axis_index(array, running_source(y, axis), axis)] += d[y]


@tangent(np.minimum.accumulate)
def minimum_accumulate_tangent(y, array, axis=0, dtype=None):
    """d y_i = d x_k(i)"""
    d[y] = np.take_along_axis(d[array], running_source(y, axis), axis)


# e = shifted(y, axis, 1.0) is the product of the earlier factors (e_0 = 1, e_i = y_{i-1});
# cumprod's derivatives are scans (linear_scan) that never divide by a, so zeros are exact;
# axis=None works on the flattened a, like cumprod (reshape_like gives a's shape back)
@adjoint(np.cumprod)
def cumprod_adjoint(y, a, axis=None, dtype=None):
    """d y_i/d a_j = e_j prod_{j<k<=i} a_k: a_bar = e r, r_j = y_bar_j + a_{j+1} r_{j+1}"""
    _r = linear_scan(shifted(a, axis, 0.0, True), d[y], axis, True)
    d[a] += reshape_like(shifted(y, axis, 1.0) * _r, a)


@tangent(np.cumprod)
def cumprod_tangent(y, a, axis=None, dtype=None):
    """d y_i = a_i d y_{i-1} + y_{i-1} d a_i: a scan of e da"""
    d[y] = linear_scan(reshape_like(a, y), shifted(y, axis, 1.0) * reshape_like(d[a], y), axis)


@adjoint(np.var)
def var_adjoint(y, a, axis=None, dtype=None, ddof=0, keepdims=False):
    """d var(a) = 2 sum((a - mean(a)) da) / (N - ddof)"""
    d[a] += unreduce_var(d[y], a, axis, ddof, keepdims)


@tangent(np.var)
def var_tangent(y, a, axis=None, dtype=None, ddof=0, keepdims=False):
    """d var(a) = 2 sum((a - mean(a)) da) / (N - ddof)"""
    _centered = a - np.mean(a, axis=axis, keepdims=True)
    d[y] = 2.0 * np.sum(_centered * d[a], axis=axis, keepdims=keepdims) \
        / (reduced_count(a, axis) - ddof)


# where the spread is zero (all values equal) std is not differentiable: its derivative is
# taken as 0 (runtime_spread.py; README, "Semantics")
@adjoint(np.std)
def std_adjoint(y, a, axis=None, dtype=None, ddof=0, keepdims=False):
    """d std(a) = d var(a) / (2 std(a)) = sum((a - mean(a)) da) / ((N - ddof) std(a))"""
    d[a] += unreduce_std(d[y], a, y, axis, ddof, keepdims)


@tangent(np.std)
def std_tangent(y, a, axis=None, dtype=None, ddof=0, keepdims=False):
    """d std(a) = sum(d std/da * da), the partials being the adjoint's spread of ones"""
    _partials = unreduce_std(np.ones_like(y), a, y, axis, ddof, keepdims)
    d[y] = np.sum(_partials * d[a], axis=axis, keepdims=keepdims)


@adjoint(np.linalg.norm)
def norm_adjoint(y, x, ord=None, axis=None, keepdims=False):
    """d ||x|| = sum(x dx) / ||x|| (Frobenius / 2-norm; vector p-norms likewise; nuclear
    and spectral norms through the SVD); 0 at x = 0"""
    d[x] += unreduce_norm(d[y], x, y, ord, axis, keepdims)


@tangent(np.linalg.norm)
def norm_tangent(y, x, ord=None, axis=None, keepdims=False):
    """d ||x|| = sum(d||x||/dx * dx), the partials being the adjoint's spread of ones"""
    _partials = unreduce_norm(np.ones_like(y), x, y, ord, axis, keepdims)
    d[y] = np.sum(_partials * d[x], axis=axis, keepdims=keepdims)
