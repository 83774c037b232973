"""Spec rows for np.compress, np.extract, np.diagflat, np.ediff1d, np.resize and
np.trim_zeros (templates/numpy_rearrange.py), np.bincount's weights
(templates/numpy_select.py), and np.float64(x) called on a value
(templates/numpy_arithmetic.py)."""
import numpy as np

from primitive_specs import Spec

BOTH = ("reverse", "forward")
KEEP = np.array([True, False, True, True])


def compress_flat_of(a):
    return np.compress(KEEP[:3], a) ** 2


def compress_axis_of(a):
    return np.compress(KEEP, a, axis=-1) * np.compress(KEEP[1:], a, axis=0)[:1, :3]


def extract_of(a):
    return np.extract(np.arange(np.size(a)).reshape(np.shape(a)) % 3 != 1, a) ** 2


def diagflat_of(v):
    return np.diagflat(v) * 2.0 + np.diagflat(v * v, -1)[1:, :-1]


def ediff1d_of(a):
    return np.ediff1d(a * a) * 3.0


def ediff1d_ends_of(a, b, c):
    return np.ediff1d(a, to_end=b, to_begin=c) ** 2


def resize_of(a):
    return np.resize(a, (3, 5)) * np.arange(15.0).reshape(3, 5)


FRAME = np.array([0.0, 1.0, 1.0, 0.0, 1.0, 0.0])


def trim_zeros_of(a):
    return np.trim_zeros(a * FRAME[:np.shape(a)[-1]]) ** 2


def trim_zeros_front_of(a):
    return np.trim_zeros(a * FRAME, "f") * 2.0 + np.trim_zeros(a * FRAME, trim="b")[-1]


def trim_zeros_matrix_of(a):
    return np.trim_zeros(a * FRAME[:4] * FRAME[:3, None]) * 3.0


GROUPS = np.array([0, 2, 2, 1, 0, 4])


def bincount_of(w):
    """weights in bins, some repeated, bin 3 empty; squared so each bin's adjoint differs"""
    return np.bincount(GROUPS[:np.size(w)], weights=w, minlength=6) ** 2


def bincount_weighted_of(w, v):
    return np.bincount(GROUPS[:np.size(w)], w * v, 5) * 2.0 + np.bincount([1, 1], [v[0], 1.0], 5)


def float64_of(x):
    return np.float64(x) * np.float64(x * 2.0) + np.float64(np.sum(x))


SPECS = [
    Spec(np.float64, float64_of, [((),), ((4,),), ((3, 4),)], modes=BOTH),
    Spec(np.bincount, bincount_of, [((6,),), ((3,),)], modes=BOTH),
    Spec(np.bincount, bincount_weighted_of, [((6,), (6,)), ((4,), (4,))], modes=BOTH),
    Spec(np.trim_zeros, trim_zeros_of, [((6,),), ((5,),)], modes=BOTH),
    Spec(np.trim_zeros, trim_zeros_front_of, [((6,),)], modes=BOTH),
    Spec(np.trim_zeros, trim_zeros_matrix_of, [((3, 4),)], modes=BOTH),
    Spec(np.compress, compress_flat_of, [((4,),), ((2, 3),)], modes=BOTH),
    Spec(np.compress, compress_axis_of, [((3, 4),)], modes=BOTH),
    Spec(np.extract, extract_of, [((5,),), ((3, 4),)], modes=BOTH),
    Spec(np.diagflat, diagflat_of, [((4,),), ((2, 2),)], modes=BOTH),
    Spec(np.ediff1d, ediff1d_of, [((5,),), ((2, 3),)], modes=BOTH),
    Spec(np.ediff1d, ediff1d_ends_of, [((4,), (2,), ()), ((2, 3), (), (3,))], modes=BOTH),
    Spec(np.resize, resize_of, [((4,),), ((2, 3),), ((20,),)], modes=BOTH),
]
