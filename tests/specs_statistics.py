"""Spec rows for the order statistics (templates/numpy_statistics.py): np.quantile,
np.percentile, np.median and their nan- versions over every axis form, with keepdims, q a
number, a list and an array, q differentiated too (mapped into (0, 1) from the sampled
values), the methods other than 'linear'; np.partition along an axis and flattened;
np.cov and np.corrcoef (one and two operands, rowvar, bias, ddof); and the helpers they
call (runtime_statistics.py) for second order. Random inputs have no ties, so central
differences see a smooth function there."""
import numpy as np

from primitive_specs import UNIT, Spec
from s2s_ad.runtime_statistics import observations, quantile_weights, unobserve

QS = np.array([0.1, 0.45, 0.8])


def _with_nan(x):
    """x with its second entry nan"""
    return np.where(np.arange(np.size(x)).reshape(np.shape(x)) == 1, np.nan, x)


def quantile_all(x):
    return np.quantile(x, 0.3)


def quantile_axis_array(x):
    return np.quantile(x, QS, axis=0)


def quantile_axes_keepdims(x):
    return np.quantile(x, np.array([[0.2, 0.6], [0.9, 0.35]]), axis=(0, 2), keepdims=True)


def quantile_in_q(x, q):
    return np.quantile(x, 0.5 + 0.4 * q, axis=-1)


def quantile_lower(x):
    return np.quantile(x, QS, axis=-1, method="lower")


def quantile_higher(x):
    return np.quantile(x, 0.3, method="higher")


def quantile_nearest(x):
    return np.quantile(x, QS, method="nearest")


def quantile_midpoint(x):
    return np.quantile(x, 0.3, axis=0, method="midpoint", keepdims=True)


def percentile_all(x):
    return np.percentile(x, 30.0)


def percentile_axis_array(x):
    return np.percentile(x, np.array([5.0, 50.0, 95.0]), axis=1)


def percentile_list(x):
    return np.percentile(x, [25, 75], axis=0)


def nanpercentile_list(x):
    return np.nanpercentile(_with_nan(x), [10.0, 60.0], axis=-1, keepdims=True)


def percentile_in_q(x, q):
    return np.percentile(x, 50.0 + 40.0 * q)


def median_all(x):
    return np.median(x)


def median_axis(x):
    return np.median(x, axis=0)


def median_axes_keepdims(x):
    return np.median(x, axis=(0, 2), keepdims=True)


def nanmedian_all(x):
    return np.nanmedian(_with_nan(x))


def nanmedian_axis(x):
    return np.nanmedian(_with_nan(x), axis=-1, keepdims=True)


def nanquantile_axis(x):
    return np.nanquantile(_with_nan(x), QS, axis=1)


def nanquantile_in_q(x, q):
    return np.nanquantile(_with_nan(x), 0.5 + 0.4 * q, axis=0)


def nanpercentile_all(x):
    return np.nanpercentile(_with_nan(x), np.array([20.0, 70.0]))


def nanpercentile_in_q(x, q):
    return np.nanpercentile(_with_nan(x), 50.0 + 40.0 * q)


def partition_vector(x):
    return np.partition(x, 2)


def partition_axis0(x):
    return np.partition(x, 1, axis=0)


def partition_flat(x):
    return np.partition(x, (1, 4), axis=None)


def use_quantile_weights(x, q):
    return quantile_weights(x, 0.5 + 0.4 * q, -1)


def use_quantile_weights_nan(x, q):
    return quantile_weights(_with_nan(x), 0.5 + 0.4 * q, None, "linear", True)


VECTORS = [((5,),), ((3, 4),)]
AXIS0 = [((4, 3),), ((5, 2, 3),)]
BOXES = [((3, 2, 4),)]

SPECS = [
    Spec(np.quantile, quantile_all, [((),), ((5,),), ((3, 4),)]),
    Spec(np.quantile, quantile_axis_array, AXIS0),
    Spec(np.quantile, quantile_axes_keepdims, BOXES),
    Spec(np.quantile, quantile_in_q, [((5,), ()), ((3, 4), (3,)), ((3, 4), (2, 3))],
         (UNIT,), modes=("reverse", "forward")),
    Spec(np.quantile, quantile_lower, VECTORS),
    Spec(np.quantile, quantile_higher, VECTORS),
    Spec(np.quantile, quantile_nearest, VECTORS),
    Spec(np.quantile, quantile_midpoint, AXIS0),
    Spec(np.percentile, percentile_all, VECTORS),
    Spec(np.percentile, percentile_axis_array, [((3, 5),), ((2, 5, 3),)]),
    Spec(np.percentile, percentile_list, [((5,),), ((5, 3),)]),
    Spec(np.nanpercentile, nanpercentile_list, [((5,),), ((3, 5),)]),
    Spec(np.percentile, percentile_in_q, [((5,), ()), ((3, 4), (2,))], (UNIT,)),
    Spec(np.median, median_all, [((),), ((5,),), ((4,),), ((3, 4),)]),
    Spec(np.median, median_axis, AXIS0),
    Spec(np.median, median_axes_keepdims, BOXES),
    Spec(np.nanmedian, nanmedian_all, VECTORS),
    Spec(np.nanmedian, nanmedian_axis, [((3, 4),), ((2, 3, 5),)]),
    Spec(np.nanquantile, nanquantile_axis, [((3, 5),), ((2, 5, 3),)]),
    Spec(np.nanquantile, nanquantile_in_q, [((5, 3), ()), ((5, 3), (2,))], (UNIT,)),
    Spec(np.nanpercentile, nanpercentile_all, VECTORS),
    Spec(np.nanpercentile, nanpercentile_in_q, [((5,), ()), ((3, 4), (2,))], (UNIT,)),
    Spec(np.partition, partition_vector, VECTORS),
    Spec(np.partition, partition_axis0, AXIS0),
    Spec(np.partition, partition_flat, [((6,),), ((3, 4),)]),
    Spec(quantile_weights, use_quantile_weights, [((3, 4), ()), ((3, 4), (2,))], (UNIT,),
         wrt=(1,)),
    Spec(quantile_weights, use_quantile_weights_nan, [((3, 4), (2,))], (UNIT,), wrt=(1,)),
]


def cov_vector(x):
    return np.cov(x)


def cov_rows(x):
    return np.cov(x)


def cov_columns_biased(x):
    return np.cov(x, rowvar=False, bias=True)


def cov_ddof(x):
    return np.cov(x, ddof=0)


def cov_two(x, y):
    return np.cov(x, y)


def cov_two_columns(x, y):
    return np.cov(x, y, rowvar=False, ddof=2)


def corrcoef_rows(x):
    return np.corrcoef(x)


def corrcoef_columns(x):
    return np.corrcoef(x, rowvar=False)


def corrcoef_two(x, y):
    return np.corrcoef(x, y)


def use_observations(m, y):
    return observations(m, y, False, m, y)


def use_unobserve(g):
    return unobserve(g, np.ones((5, 2)), np.ones(5), False, 0) \
        + unobserve(g, np.ones((5, 2)), np.ones(5), False, 1)[:, None]


SPECS += [
    Spec(np.cov, cov_vector, [((5,),)]),
    Spec(np.cov, cov_rows, [((3, 5),), ((1, 4),)]),
    Spec(np.cov, cov_columns_biased, [((6, 3),)]),
    Spec(np.cov, cov_ddof, [((2, 4),)]),
    Spec(np.cov, cov_two, [((5,), (5,)), ((2, 5), (5,)), ((2, 5), (3, 5))]),
    Spec(np.cov, cov_two_columns, [((6, 2), (6,)), ((6, 2), (6, 3))]),
    Spec(np.corrcoef, corrcoef_rows, [((3, 5),)]),
    Spec(np.corrcoef, corrcoef_columns, [((6, 3),)]),
    Spec(np.corrcoef, corrcoef_two, [((5,), (5,)), ((2, 5), (5,))]),
    Spec(observations, use_observations, [((5, 2), (5,)), ((4,), (4,))]),
    Spec(unobserve, use_unobserve, [((3, 5),)]),
]
