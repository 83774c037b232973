"""Spec rows for np.logaddexp / np.logaddexp2 as reductions and scans
(templates/numpy_log_scans.py): `.reduce` along the default axis 0, a last axis with
keepdims, axis=None and a tuple of axes; `.accumulate` along axis 0 and the last axis;
length-1 axes ((3, 1), (1, 4)) where the reduction or scan runs over one element.
Second order is checked in tests/test_log_scans.py."""
import numpy as np

from primitive_specs import Spec


def logaddexp_reduce_axis0(x):
    return np.logaddexp.reduce(x)


def logaddexp_reduce_last_keepdims(x):
    return np.logaddexp.reduce(x, axis=-1, keepdims=True) * x


def logaddexp_reduce_all(x):
    return np.logaddexp.reduce(x, axis=None)


def logaddexp_reduce_axes(x):
    return np.logaddexp.reduce(x, axis=(0, 2))


def logaddexp2_reduce_axis0(x):
    return np.logaddexp2.reduce(x)


def logaddexp2_reduce_last(x):
    return np.logaddexp2.reduce(x, -1)


def logaddexp_accumulate_axis0(x):
    return np.logaddexp.accumulate(x)


def logaddexp_accumulate_last(x):
    return np.logaddexp.accumulate(x, axis=-1) * x


def logaddexp2_accumulate_axis0(x):
    return np.logaddexp2.accumulate(x)


def logaddexp2_accumulate_last(x):
    return np.logaddexp2.accumulate(x, axis=-1)


ARRAYS = [((4,),), ((3, 4),), ((2, 3, 4),)]
MATRICES = [((3, 4),), ((3, 1),), ((1, 4),), ((2, 3, 4),)]
BOTH = ("reverse", "forward")

SPECS = [
    Spec(np.logaddexp.reduce, logaddexp_reduce_axis0, ARRAYS + [((1, 4),)], modes=BOTH),
    Spec(np.logaddexp.reduce, logaddexp_reduce_last_keepdims, MATRICES, modes=BOTH),
    Spec(np.logaddexp.reduce, logaddexp_reduce_all, ARRAYS, modes=BOTH),
    Spec(np.logaddexp.reduce, logaddexp_reduce_axes, [((2, 3, 4),), ((2, 1, 1),)],
         modes=BOTH),
    Spec(np.logaddexp2.reduce, logaddexp2_reduce_axis0, ARRAYS, modes=BOTH),
    Spec(np.logaddexp2.reduce, logaddexp2_reduce_last, MATRICES, modes=BOTH),
    Spec(np.logaddexp.accumulate, logaddexp_accumulate_axis0, ARRAYS + [((1, 4),)],
         modes=BOTH),
    Spec(np.logaddexp.accumulate, logaddexp_accumulate_last, MATRICES, modes=BOTH),
    Spec(np.logaddexp2.accumulate, logaddexp2_accumulate_axis0, ARRAYS, modes=BOTH),
    Spec(np.logaddexp2.accumulate, logaddexp2_accumulate_last, MATRICES, modes=BOTH),
]
