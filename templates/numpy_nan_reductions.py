"""The nan-ignoring reductions and scans: nansum, nanmean, nanprod, nanmax/nanmin,
nanvar/nanstd, nancumsum, nancumprod (nanmedian and the nan quantiles are with the
quantiles, numpy_statistics.py).

numpy treats a nan entry as absent (a 0 in a sum, a 1 in a product, left out of a mean,
a variance or an extremum); its derivative is 0 there, never nan, in both modes: the
adjoint is masked with np.where(np.isnan(a), 0.0, ...), and a tangent reads d[a] only
where a is not nan (the tangent of a nan entry may itself be anything). A slice that is
all nan has a nan value and a zero derivative. Each template is written in primitives
that have templates themselves (np.where, np.nanmean, unreduce, ...), so second
derivatives follow. Ties of nanmax/nanmin share the derivative equally, as for np.max.

    y = np.nansum(a)      a_bar = where(isnan(a), 0, y_bar)
    y = np.nanmean(a)     a_bar = where(isnan(a), 0, y_bar / count of non-nan entries)
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unreduce
from s2s_ad.runtime_reductions import reverse_cumsum, unreduce_extremum, unreduce_prod
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_arrays import linear_scan, shifted
from s2s_ad.runtime_flow import float_dtype
from s2s_ad.runtime_spread import spread_reciprocal


@adjoint(np.nansum)
def nansum_adjoint(y, a, axis=None, dtype=None, keepdims=False):
    """d nansum(a) = sum of da over the entries that are not nan"""
    d[a] += np.where(np.isnan(a), 0.0, unreduce(d[y], a, axis, keepdims))


@tangent(np.nansum)
def nansum_tangent(y, a, axis=None, dtype=None, keepdims=False):
    """d nansum(a) = sum of da over the entries that are not nan"""
    d[y] = np.sum(np.where(np.isnan(a), 0.0, d[a]), axis=axis, keepdims=keepdims)


# n: how many entries of each slice are not nan (0 for an all-nan slice, whose mean is
# nan and whose entries np.where masks before the division by 0 reaches them), counted in
# a's float dtype (an integer count would make float32 derivatives float64)
@adjoint(np.nanmean)
def nanmean_adjoint(y, a, axis=None, dtype=None, keepdims=False):
    """d nanmean(a) = sum of da over the entries that are not nan, / their count n"""
    _n = np.sum(np.logical_not(np.isnan(a)), axis=axis, keepdims=keepdims, dtype=float_dtype(a))
    d[a] += np.where(np.isnan(a), 0.0, unreduce(d[y] / _n, a, axis, keepdims))


@tangent(np.nanmean)
def nanmean_tangent(y, a, axis=None, dtype=None, keepdims=False):
    """d nanmean(a) = nansum(da) / n"""
    _n = np.sum(np.logical_not(np.isnan(a)), axis=axis, keepdims=keepdims, dtype=float_dtype(a))
    d[y] = np.sum(np.where(np.isnan(a), 0.0, d[a]), axis=axis, keepdims=keepdims) / _n


# nan entries count as 1: the product of the other factors is np.prod's, of the filled a
@adjoint(np.nanprod)
def nanprod_adjoint(y, a, axis=None, dtype=None, keepdims=False):
    """d nanprod(a) = sum(product of the other non-nan factors * da) over non-nan entries"""
    _filled = np.where(np.isnan(a), 1.0, a)
    d[a] += np.where(np.isnan(a), 0.0, unreduce_prod(d[y], _filled, y, axis, keepdims))


@tangent(np.nanprod)
def nanprod_tangent(y, a, axis=None, dtype=None, keepdims=False):
    """d nanprod(a) = sum(product of the other non-nan factors * da) over non-nan entries"""
    _filled = np.where(np.isnan(a), 1.0, a)
    _others = unreduce_prod(np.ones_like(y), _filled, y, axis, keepdims)
    d[y] = np.sum(np.where(np.isnan(a), 0.0, _others * d[a]), axis=axis, keepdims=keepdims)


# a nan entry never equals the extremum y, so np.max's rule already leaves it out
@adjoint(np.nanmax, np.nanmin)
def nanextremum_adjoint(y, a, axis=None, keepdims=False):
    """d nanmax(a) = da at the largest non-nan entry (ties share equally); likewise nanmin"""
    d[a] += unreduce_extremum(d[y], a, y, axis, keepdims)


@tangent(np.nanmax, np.nanmin)
def nanextremum_tangent(y, a, axis=None, keepdims=False):
    """d nanmax(a) = da at the largest non-nan entry (ties share equally); likewise nanmin"""
    _share = unreduce_extremum(np.ones_like(y), a, y, axis, keepdims)
    d[y] = np.sum(np.where(np.isnan(a), 0.0, _share * d[a]), axis=axis, keepdims=keepdims)


@adjoint(np.nanvar)
def nanvar_adjoint(y, a, axis=None, dtype=None, ddof=0, keepdims=False):
    """d nanvar(a) = 2 sum((a - nanmean(a)) da) / (n - ddof) over the non-nan entries"""
    _n = np.sum(np.logical_not(np.isnan(a)), axis=axis, keepdims=keepdims, dtype=float_dtype(a))
    _centered = a - np.nanmean(a, axis=axis, keepdims=True)
    d[a] += np.where(np.isnan(a), 0.0,
                     2.0 * _centered * unreduce(d[y] / (_n - ddof), a, axis, keepdims))


@tangent(np.nanvar)
def nanvar_tangent(y, a, axis=None, dtype=None, ddof=0, keepdims=False):
    """d nanvar(a) = 2 sum((a - nanmean(a)) da) / (n - ddof) over the non-nan entries"""
    _n = np.sum(np.logical_not(np.isnan(a)), axis=axis, keepdims=keepdims, dtype=float_dtype(a))
    _centered = a - np.nanmean(a, axis=axis, keepdims=True)
    d[y] = 2.0 * np.sum(np.where(np.isnan(a), 0.0, _centered * d[a]), axis=axis,
                        keepdims=keepdims) / (_n - ddof)


# 1 / nanstd is 0 where the spread is zero (np.std's convention, runtime_spread.py): the
# nan entries are filled with the mean, so the rounding guard sees nanmean
@adjoint(np.nanstd)
def nanstd_adjoint(y, a, axis=None, dtype=None, ddof=0, keepdims=False):
    """d nanstd(a) = sum((a - nanmean(a)) da) / ((n - ddof) nanstd(a)), non-nan entries"""
    _n = np.sum(np.logical_not(np.isnan(a)), axis=axis, keepdims=keepdims, dtype=float_dtype(a))
    _mean = np.nanmean(a, axis=axis, keepdims=True)
    _r = spread_reciprocal(y, np.where(np.isnan(a), _mean, a), axis, keepdims)
    d[a] += np.where(np.isnan(a), 0.0,
                     (a - _mean) * unreduce(d[y] * _r / (_n - ddof), a, axis, keepdims))


@tangent(np.nanstd)
def nanstd_tangent(y, a, axis=None, dtype=None, ddof=0, keepdims=False):
    """d nanstd(a) = sum((a - nanmean(a)) da) / ((n - ddof) nanstd(a)), non-nan entries"""
    _n = np.sum(np.logical_not(np.isnan(a)), axis=axis, keepdims=keepdims, dtype=float_dtype(a))
    _mean = np.nanmean(a, axis=axis, keepdims=True)
    _r = spread_reciprocal(y, np.where(np.isnan(a), _mean, a), axis, keepdims)
    d[y] = np.sum(np.where(np.isnan(a), 0.0, (a - _mean) * d[a]), axis=axis,
                  keepdims=keepdims) * _r / (_n - ddof)


@adjoint(np.nancumsum)
def nancumsum_adjoint(y, a, axis=None, dtype=None):
    """d nancumsum(a) = cumsum(da with nan entries 0): the reversed cumulative sum"""
    d[a] += np.where(np.isnan(a), 0.0, reverse_cumsum(d[y], a, axis))


@tangent(np.nancumsum)
def nancumsum_tangent(y, a, axis=None, dtype=None):
    """d nancumsum(a) = cumsum(da with nan entries 0)"""
    d[y] = np.cumsum(np.where(np.isnan(a), 0.0, d[a]), axis=axis)


# np.cumprod's scans (numpy_reductions.py) over a with its nan entries taken as 1
@adjoint(np.nancumprod)
def nancumprod_adjoint(y, a, axis=None, dtype=None):
    """as cumprod's adjoint over the filled a, 0 at the nan entries"""
    _r = linear_scan(shifted(np.where(np.isnan(a), 1.0, a), axis, 0.0, True), d[y], axis,
                     True)
    d[a] += np.where(np.isnan(a), 0.0, reshape_like(shifted(y, axis, 1.0) * _r, a))


@tangent(np.nancumprod)
def nancumprod_tangent(y, a, axis=None, dtype=None):
    """d y_i = a_i d y_{i-1} + y_{i-1} d a_i over the filled a, da 0 at the nan entries"""
    d[y] = linear_scan(reshape_like(np.where(np.isnan(a), 1.0, a), y), shifted(y, axis, 1.0)
                       * reshape_like(np.where(np.isnan(a), 0.0, d[a]), y), axis)
