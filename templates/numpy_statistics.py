"""Order statistics: np.quantile, np.percentile, np.median, their nan- versions
(np.nanquantile, np.nanpercentile, np.nanmedian) and np.partition.

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
from s2s_ad.runtime import unreduce
from s2s_ad.runtime_statistics import (partition_order, quantile_axes, quantile_q_axes,
                                       quantile_slopes, quantile_weights)


@adjoint(np.quantile)
def quantile_adjoint(y, a, q, axis=None, overwrite_input=False, method="linear",
                     keepdims=False):
    """y = sum(W a) over axis: a_bar = W y_bar, q_bar = sum(dW/dq a y_bar)"""
    _w = quantile_weights(a, q, axis, method)
    _g = unreduce(d[y], _w, quantile_axes(a, q, axis), keepdims)
    d[a] += np.sum(_w * _g, axis=quantile_q_axes(q))
    d[q] += np.sum(quantile_slopes(a, q, axis, method) * a * _g, axis=quantile_axes(a, q))


@tangent(np.quantile)
def quantile_tangent(y, a, q, axis=None, overwrite_input=False, method="linear",
                     keepdims=False):
    """dy = sum(W da + dW/dq dq a) over axis"""
    d[y] = np.sum(quantile_weights(a, q, axis, method) * d[a] + quantile_slopes(
        a, q, axis, method) * a * np.expand_dims(d[q], quantile_axes(a, q)),
        axis=quantile_axes(a, q, axis), keepdims=keepdims)


@adjoint(np.nanquantile)
def nanquantile_adjoint(y, a, q, axis=None, overwrite_input=False, method="linear",
                        keepdims=False):
    """as np.quantile's over the entries that are not nan (W is 0 at nan entries)"""
    _w = quantile_weights(a, q, axis, method, True)
    _g = unreduce(d[y], _w, quantile_axes(a, q, axis), keepdims)
    d[a] += np.sum(_w * _g, axis=quantile_q_axes(q))
    d[q] += np.sum(quantile_slopes(a, q, axis, method, True) * np.where(np.isnan(a), 0.0, a)
                   * _g, axis=quantile_axes(a, q))


@tangent(np.nanquantile)
def nanquantile_tangent(y, a, q, axis=None, overwrite_input=False, method="linear",
                        keepdims=False):
    """as np.quantile's over the entries that are not nan"""
    d[y] = np.sum(np.where(np.isnan(a), 0.0, quantile_weights(a, q, axis, method, True) * d[a]
                           + quantile_slopes(a, q, axis, method, True) * a
                           * np.expand_dims(d[q], quantile_axes(a, q))),
                  axis=quantile_axes(a, q, axis), keepdims=keepdims)


@adjoint(np.percentile)
def percentile_adjoint(y, a, q, axis=None, overwrite_input=False, method="linear",
                       keepdims=False):
    """np.quantile's at q / 100"""
    _w = quantile_weights(a, q / 100.0, axis, method)
    _g = unreduce(d[y], _w, quantile_axes(a, q, axis), keepdims)
    d[a] += np.sum(_w * _g, axis=quantile_q_axes(q))
    d[q] += np.sum(quantile_slopes(a, q / 100.0, axis, method) * a * _g,
                   axis=quantile_axes(a, q)) / 100.0


@tangent(np.percentile)
def percentile_tangent(y, a, q, axis=None, overwrite_input=False, method="linear",
                       keepdims=False):
    """np.quantile's at q / 100"""
    d[y] = np.sum(quantile_weights(a, q / 100.0, axis, method) * d[a] + quantile_slopes(
        a, q / 100.0, axis, method) * a * np.expand_dims(d[q] / 100.0, quantile_axes(a, q)),
        axis=quantile_axes(a, q, axis), keepdims=keepdims)


@adjoint(np.nanpercentile)
def nanpercentile_adjoint(y, a, q, axis=None, overwrite_input=False, method="linear",
                          keepdims=False):
    """np.nanquantile's at q / 100"""
    _w = quantile_weights(a, q / 100.0, axis, method, True)
    _g = unreduce(d[y], _w, quantile_axes(a, q, axis), keepdims)
    d[a] += np.sum(_w * _g, axis=quantile_q_axes(q))
    d[q] += np.sum(quantile_slopes(a, q / 100.0, axis, method, True)
                   * np.where(np.isnan(a), 0.0, a) * _g, axis=quantile_axes(a, q)) / 100.0


@tangent(np.nanpercentile)
def nanpercentile_tangent(y, a, q, axis=None, overwrite_input=False, method="linear",
                          keepdims=False):
    """np.nanquantile's at q / 100"""
    d[y] = np.sum(np.where(np.isnan(a), 0.0, quantile_weights(
        a, q / 100.0, axis, method, True) * d[a] + quantile_slopes(
        a, q / 100.0, axis, method, True) * a * np.expand_dims(d[q] / 100.0,
                                                               quantile_axes(a, q))),
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
