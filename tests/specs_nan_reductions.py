"""Spec rows for the nan-ignoring reductions and scans (templates/numpy_nan_reductions.py):
each over arrays with a nan entry (the derivative is 0 there, never nan) and without one,
over every axis form; the nan entries are placed by the functions below, so the inputs the
table samples stay real."""
import numpy as np

from primitive_specs import POSITIVE, Spec


def _with_nan(x):
    """x with its second entry nan (a vector or matrix of at least two entries)."""
    return np.where(np.arange(np.size(x)).reshape(np.shape(x)) == 1, np.nan, x)


def nansum_all(x):
    return np.nansum(_with_nan(x))


def nansum_axis(x):
    return np.nansum(_with_nan(x), axis=0)


def nansum_plain(x):
    return np.nansum(x, axis=-1, keepdims=True)


def nanmean_all(x):
    return np.nanmean(_with_nan(x))


def nanmean_axis_keepdims(x):
    return np.nanmean(_with_nan(x), axis=1, keepdims=True)


def nanprod_all(x):
    return np.nanprod(_with_nan(x))


def nanprod_axis(x):
    return np.nanprod(_with_nan(x), axis=(0, 1), keepdims=True)


def nanmax_axis(x):
    return np.nanmax(_with_nan(x), axis=0)


def nanmin_all(x):
    return np.nanmin(_with_nan(x))


def nanmax_plain(x):
    return np.nanmax(x)


def nanvar_all(x):
    return np.nanvar(_with_nan(x))


def nanvar_axis_ddof(x):
    return np.nanvar(_with_nan(x), axis=1, ddof=1, keepdims=True)


def nanstd_all(x):
    return np.nanstd(_with_nan(x))


def nanstd_axis_ddof(x):
    return np.nanstd(_with_nan(x), axis=-1, ddof=1)


def nancumsum_flat(x):
    return np.nancumsum(_with_nan(x))


def nancumsum_axis(x):
    return np.nancumsum(_with_nan(x), axis=1)


def nancumprod_flat(x):
    return np.nancumprod(_with_nan(x))


def nancumprod_axis(x):
    return np.nancumprod(_with_nan(x), axis=0)


VECTORS = [((4,),), ((3, 4),)]
MATRICES = [((3, 4),), ((2, 3, 4),)]

SPECS = [
    Spec(np.nansum, nansum_all, [((4,),), ((3, 4),)]),
    Spec(np.nansum, nansum_axis, MATRICES),
    Spec(np.nansum, nansum_plain, [((),), ((4,),), ((3, 4),)]),
    Spec(np.nanmean, nanmean_all, VECTORS),
    Spec(np.nanmean, nanmean_axis_keepdims, MATRICES),
    Spec(np.nanprod, nanprod_all, VECTORS, (POSITIVE,)),
    Spec(np.nanprod, nanprod_axis, [((3, 4),), ((3, 4, 2),)]),
    Spec(np.nanmax, nanmax_axis, MATRICES),
    Spec(np.nanmax, nanmax_plain, [((),), ((4,),), ((3, 4),)]),
    Spec(np.nanmin, nanmin_all, VECTORS),
    Spec(np.nanvar, nanvar_all, VECTORS),
    Spec(np.nanvar, nanvar_axis_ddof, MATRICES),
    Spec(np.nanstd, nanstd_all, VECTORS),
    Spec(np.nanstd, nanstd_axis_ddof, MATRICES),
    Spec(np.nancumsum, nancumsum_flat, VECTORS),
    Spec(np.nancumsum, nancumsum_axis, MATRICES),
    Spec(np.nancumprod, nancumprod_flat, VECTORS),
    Spec(np.nancumprod, nancumprod_axis, MATRICES),
]
