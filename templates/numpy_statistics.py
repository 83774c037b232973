"""Order statistics: np.quantile, np.percentile, np.median, their nan- versions
(np.nanquantile, np.nanpercentile, np.nanmedian) and np.partition; np.cov, np.corrcoef.

A quantile is a weighted sum of sorted entries (runtime_statistics.py): y = sum(W x) over
the reduced axes, W shaped q.shape + x.shape and piecewise constant in x, so

    a_bar = sum over q's axes of W * y_bar
    q_bar = sum over a's axes of dW/dq * a * y_bar  ('linear': (n - 1) (x_(i+1) - x_(i)))

np.percentile is the quantile at q / 100, np.median at 0.5. Ties: the derivative goes to
the tied entry a stable sort puts at the chosen place. np.partition moves the values of a
to new places: its derivative moves da the same way (partition_order finds which entry of
a each entry of y is). Keywords numpy has and these templates do not (out=, weights=,
the deprecated interpolation=) are errors; overwrite_input= changes nothing here.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast, unreduce
from s2s_ad.runtime_flow import float_dtype
from s2s_ad.runtime_statistics import (covariance_shape, observation_count, observations,
                                       partition_order, quantile_axes, leading_axes,
                                       quantile_slopes, quantile_weights, unobserve)


@adjoint(np.quantile)
def quantile_adjoint(y, a, q, axis=None, overwrite_input=False, method="linear",
                     keepdims=False):
    """y = sum(W a) over axis: a_bar = W y_bar, q_bar = sum(dW/dq a y_bar)"""
    _w = quantile_weights(a, q, axis, method)
    _g = unreduce(d[y], _w, quantile_axes(a, q, axis), keepdims)
    d[a] += np.sum(_w * _g, axis=leading_axes(q))
    d[q] += np.sum(quantile_slopes(a, q, axis, method) * a * _g, axis=quantile_axes(a, q))


@tangent(np.quantile)
def quantile_tangent(y, a, q, axis=None, overwrite_input=False, method="linear",
                     keepdims=False):
    """dy = sum(W da + dW/dq dq a) over axis"""
    _dq = np.asarray(d[q], dtype=float_dtype(y))     # in y's dtype (float32 kept)
    d[y] = np.sum(quantile_weights(a, q, axis, method) * d[a] + quantile_slopes(
        a, q, axis, method) * a * np.expand_dims(_dq, quantile_axes(a, q)),
        axis=quantile_axes(a, q, axis), keepdims=keepdims)


@adjoint(np.nanquantile)
def nanquantile_adjoint(y, a, q, axis=None, overwrite_input=False, method="linear",
                        keepdims=False):
    """as np.quantile's over the entries that are not nan (W is 0 at nan entries)"""
    _w = quantile_weights(a, q, axis, method, True)
    _g = unreduce(d[y], _w, quantile_axes(a, q, axis), keepdims)
    d[a] += np.sum(_w * _g, axis=leading_axes(q))
    d[q] += np.sum(quantile_slopes(a, q, axis, method, True) * np.where(np.isnan(a), 0.0, a)
                   * _g, axis=quantile_axes(a, q))


@tangent(np.nanquantile)
def nanquantile_tangent(y, a, q, axis=None, overwrite_input=False, method="linear",
                        keepdims=False):
    """as np.quantile's over the entries that are not nan"""
    _dq = np.asarray(d[q], dtype=float_dtype(y))     # in y's dtype (float32 kept)
    d[y] = np.sum(np.where(np.isnan(a), 0.0, quantile_weights(a, q, axis, method, True) * d[a]
                           + quantile_slopes(a, q, axis, method, True) * a
                           * np.expand_dims(_dq, quantile_axes(a, q))),
                  axis=quantile_axes(a, q, axis), keepdims=keepdims)


@adjoint(np.percentile)
def percentile_adjoint(y, a, q, axis=None, overwrite_input=False, method="linear",
                       keepdims=False):
    """np.quantile's at q / 100"""
    _q = np.asarray(q) / 100.0
    _w = quantile_weights(a, _q, axis, method)
    _g = unreduce(d[y], _w, quantile_axes(a, q, axis), keepdims)
    d[a] += np.sum(_w * _g, axis=leading_axes(q))
    d[q] += np.sum(quantile_slopes(a, _q, axis, method) * a * _g,
                   axis=quantile_axes(a, q)) / 100.0


@tangent(np.percentile)
def percentile_tangent(y, a, q, axis=None, overwrite_input=False, method="linear",
                       keepdims=False):
    """np.quantile's at q / 100"""
    _dq = np.asarray(d[q], dtype=float_dtype(y))     # in y's dtype (float32 kept)
    _q = np.asarray(q) / 100.0
    d[y] = np.sum(quantile_weights(a, _q, axis, method) * d[a] + quantile_slopes(
        a, _q, axis, method) * a * np.expand_dims(_dq / 100.0, quantile_axes(a, q)),
        axis=quantile_axes(a, q, axis), keepdims=keepdims)


@adjoint(np.nanpercentile)
def nanpercentile_adjoint(y, a, q, axis=None, overwrite_input=False, method="linear",
                          keepdims=False):
    """np.nanquantile's at q / 100"""
    _q = np.asarray(q) / 100.0
    _w = quantile_weights(a, _q, axis, method, True)
    _g = unreduce(d[y], _w, quantile_axes(a, q, axis), keepdims)
    d[a] += np.sum(_w * _g, axis=leading_axes(q))
    d[q] += np.sum(quantile_slopes(a, _q, axis, method, True)
                   * np.where(np.isnan(a), 0.0, a) * _g, axis=quantile_axes(a, q)) / 100.0


@tangent(np.nanpercentile)
def nanpercentile_tangent(y, a, q, axis=None, overwrite_input=False, method="linear",
                          keepdims=False):
    """np.nanquantile's at q / 100"""
    _dq = np.asarray(d[q], dtype=float_dtype(y))     # in y's dtype (float32 kept)
    _q = np.asarray(q) / 100.0
    d[y] = np.sum(np.where(np.isnan(a), 0.0, quantile_weights(a, _q, axis, method, True) * d[a]
                           + quantile_slopes(a, _q, axis, method, True) * a
                           * np.expand_dims(_dq / 100.0, quantile_axes(a, q))),
                  axis=quantile_axes(a, q, axis), keepdims=keepdims)


@adjoint(np.median)
def median_adjoint(y, a, axis=None, overwrite_input=False, keepdims=False):
    """np.quantile's at 0.5: the middle entry, or half of each of the two middle ones"""
    d[a] += quantile_weights(a, 0.5, axis) * unreduce(d[y], a, axis, keepdims)


@tangent(np.median)
def median_tangent(y, a, axis=None, overwrite_input=False, keepdims=False):
    """np.quantile's at 0.5"""
    d[y] = np.sum(quantile_weights(a, 0.5, axis) * d[a], axis=axis, keepdims=keepdims)


@adjoint(np.nanmedian)
def nanmedian_adjoint(y, a, axis=None, overwrite_input=False, keepdims=False):
    """np.nanquantile's at 0.5"""
    d[a] += quantile_weights(a, 0.5, axis, "linear", True) * unreduce(d[y], a, axis, keepdims)


@tangent(np.nanmedian)
def nanmedian_tangent(y, a, axis=None, overwrite_input=False, keepdims=False):
    """np.nanquantile's at 0.5"""
    d[y] = np.sum(np.where(np.isnan(a), 0.0, quantile_weights(a, 0.5, axis, "linear", True)
                           * d[a]), axis=axis, keepdims=keepdims)


# y = a[order] along axis (flat positions for axis=None), as np.sort's templates
@adjoint(np.partition)
def partition_adjoint(y, a, kth, axis=-1, kind="introselect", order=None):
    """d partition(a) = da[order]: each adjoint goes back to where its value came from"""
    _flat = np.reshape(np.arange(np.size(a)), np.shape(a))
    _order = partition_order(a, y, axis)
    d[a][np.unravel_index(np.take_along_axis(_flat, _order, axis=axis), np.shape(a))] += d[y]


@tangent(np.partition)
def partition_tangent(y, a, kth, axis=-1, kind="introselect", order=None):
    """d partition(a) = da[order]"""
    _flat = np.reshape(np.arange(np.size(a)), np.shape(a))
    _order = partition_order(a, y, axis)
    d[y] = d[a][np.unravel_index(np.take_along_axis(_flat, _order, axis=axis), np.shape(a))]


# np.cov: C = Xc Xc^T / (N - ddof), Xc = X - mean(X) over the observations, X from m and y
# (observations); the result is C squeezed (a number for one variable). Xc's rows have mean
# 0, and so have those of (G + G^T) Xc: the centring's adjoint leaves them as they are.
# fweights= and aweights= are not parameters: passing them is an error.
@adjoint(np.cov)
def cov_adjoint(c, m, y=None, rowvar=True, bias=False, ddof=None):
    """X_bar = (G + G^T) Xc / (N - ddof), G = C_bar, split back into m_bar and y_bar"""
    _x = observations(m, y, rowvar, m, y)
    _g = np.reshape(unbroadcast(d[c], c), covariance_shape(_x))
    _xbar = (_g + np.swapaxes(_g, 0, 1)) @ (_x - np.mean(_x, axis=1, keepdims=True)) \
        / observation_count(_x, bias, ddof)
    d[m] += unobserve(_xbar, m, y, rowvar, 0)
    d[y] += unobserve(_xbar, m, y, rowvar, 1)


@tangent(np.cov)
def cov_tangent(c, m, y=None, rowvar=True, bias=False, ddof=None):
    """dC = (dXc Xc^T + Xc dXc^T) / (N - ddof)"""
    _x = observations(m, y, rowvar, m, y)
    _dx = observations(d[m], d[y], rowvar, m, y)
    _cross = (_dx - np.mean(_dx, axis=1, keepdims=True)) @ np.swapaxes(
        _x - np.mean(_x, axis=1, keepdims=True), 0, 1) / observation_count(_x, bias, ddof)
    d[c] = np.reshape(_cross + np.swapaxes(_cross, 0, 1), np.shape(c))


# np.corrcoef: R = C / (s s^T), s = sqrt(diag C); N - ddof cancels, so C = Xc Xc^T here.
# dR = dC / (s s^T) - R (h_i + h_j), h = diag(dC) / (2 diag C); so C_bar = G / (s s^T) -
# diag(sum_j (G R)_ij + (G R)_ji) / (2 diag C), and X_bar as for np.cov. The diagonal
# (1, clipped to [-1, 1] by numpy) has derivative 0, as this gives.
@adjoint(np.corrcoef)
def corrcoef_adjoint(r, x, y=None, rowvar=True):
    """C_bar = G / (s s^T) - diag(rowsum(G R) + colsum(G R)) / (2 diag C); X_bar as cov's"""
    _x = observations(x, y, rowvar, x, y)
    _xc = _x - np.mean(_x, axis=1, keepdims=True)
    _c = _xc @ np.swapaxes(_xc, 0, 1)
    _s = np.sqrt(np.diagonal(_c))
    _g = np.reshape(unbroadcast(d[r], r), covariance_shape(_x))
    _gr = _g * _c / np.outer(_s, _s)
    _gc = _g / np.outer(_s, _s) - np.diag(
        (np.sum(_gr, axis=1) + np.sum(_gr, axis=0)) / (2.0 * np.diagonal(_c)))
    _xbar = (_gc + np.swapaxes(_gc, 0, 1)) @ _xc
    d[x] += unobserve(_xbar, x, y, rowvar, 0)
    d[y] += unobserve(_xbar, x, y, rowvar, 1)


@tangent(np.corrcoef)
def corrcoef_tangent(r, x, y=None, rowvar=True):
    """dR = dC / (s s^T) - R (h_i + h_j), h = diag(dC) / (2 diag C)"""
    _x = observations(x, y, rowvar, x, y)
    _xc = _x - np.mean(_x, axis=1, keepdims=True)
    _dx = observations(d[x], d[y], rowvar, x, y)
    _cross = (_dx - np.mean(_dx, axis=1, keepdims=True)) @ np.swapaxes(_xc, 0, 1)
    _dc = _cross + np.swapaxes(_cross, 0, 1)
    _c = _xc @ np.swapaxes(_xc, 0, 1)
    _s = np.sqrt(np.diagonal(_c))
    _h = np.diagonal(_dc) / (2.0 * np.diagonal(_c))
    d[r] = np.reshape((_dc - _c * (np.expand_dims(_h, 1) + _h)) / np.outer(_s, _s),
                      np.shape(r))
