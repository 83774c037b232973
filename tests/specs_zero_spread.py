"""Spec rows for the helpers behind np.std and np.linalg.norm (runtime_spread.py: their
derivatives with a guard where the spread or the norm is zero) and for the matrix norms
whose derivatives go through the SVD (nuclear, spectral). The zero points themselves are
checked in tests/test_zero_spread.py (central differences are no oracle there)."""
import numpy as np

from primitive_specs import POSITIVE, REAL, Spec
from s2s_ad.runtime_spread import norm_reciprocal, spread_reciprocal, unreduce_std


def use_std_all(g, x):
    return unreduce_std(g, x, np.std(x))


def use_std_axis1_ddof(g, x, y):
    return unreduce_std(g, x, y, 1, 1, False)


def use_std_axes_keepdims(g, x, y):
    return unreduce_std(g, x, y, (0, 2), 0, True)


def use_spread_reciprocal(y, x):
    return spread_reciprocal(y, x, 1)


def use_norm_reciprocal(y):
    return norm_reciprocal(y)


def norm_nuclear(x):
    return np.linalg.norm(x, "nuc")


def norm_nuclear_axes(x):
    return np.linalg.norm(x, "nuc", axis=(2, 0))


def norm_spectral(x):
    return np.linalg.norm(x, 2)


def norm_spectral_smallest(x):
    return np.linalg.norm(x, -2, axis=(1, 2), keepdims=True)


SPECS = [
    Spec(unreduce_std, use_std_all, [((), (3, 4)), ((), (5,))]),
    Spec(unreduce_std, use_std_axis1_ddof, [((3,), (3, 4), (3,)), ((2, 4), (2, 3, 4), (2, 4))],
         (REAL, REAL, POSITIVE)),
    Spec(unreduce_std, use_std_axes_keepdims, [((1, 3, 1), (2, 3, 4), (1, 3, 1))],
         (REAL, REAL, POSITIVE)),
    Spec(spread_reciprocal, use_spread_reciprocal, [((3,), (3, 4))], (POSITIVE, REAL),
         wrt=(0,)),
    Spec(norm_reciprocal, use_norm_reciprocal, [((),), ((3,),), ((2, 3),)], (POSITIVE,),
         modes=("reverse", "forward")),
    Spec(np.linalg.norm, norm_nuclear, [((3, 4),), ((4, 4),), ((4, 2),)]),
    Spec(np.linalg.norm, norm_nuclear_axes, [((3, 2, 4),)]),
    Spec(np.linalg.norm, norm_spectral, [((3, 4),), ((4, 3),)]),
    Spec(np.linalg.norm, norm_spectral_smallest, [((2, 4, 3),)]),
]
