"""Spec rows for np.linalg.norm in the forms tests/specs_arrays.py and
tests/specs_zero_spread.py leave out: the vector -inf norm, the count ord=0 (piecewise
constant: derivative 0), 'fro' over an axis pair with keepdims, and the matrix 1, -1, inf,
-inf norms (largest / smallest absolute column or row sum) over matrices and axis pairs of
stacks; and unreduce_norm for them (second order). Random inputs have no ties between
column or row sums and no zero entries, so the norms are smooth there."""
import numpy as np

from primitive_specs import Spec
from s2s_ad.runtime_spread import unreduce_norm


def norm_minus_inf(x):
    return np.linalg.norm(x, -np.inf, axis=-1)


def norm_count(x):
    return np.linalg.norm(x, 0, axis=-1, keepdims=True) * x


def norm_fro_pair(x):
    return np.linalg.norm(x, "fro", axis=(0, 2), keepdims=True)


def norm_matrix_1(x):
    return np.linalg.norm(x, 1)


def norm_matrix_minus_1(x):
    return np.linalg.norm(x, -1, axis=(2, 1))


def norm_matrix_inf(x):
    return np.linalg.norm(x, np.inf, axis=(0, 2), keepdims=True)


def norm_matrix_minus_inf(x):
    return np.linalg.norm(x, -np.inf)


def use_unreduce_norm_matrix_1(g, x):
    return unreduce_norm(g, x, np.linalg.norm(x, 1, (1, 2)), 1, (1, 2))


def use_unreduce_norm_matrix_inf(g, x):
    return unreduce_norm(g, x, np.linalg.norm(x, np.inf))


SPECS = [
    Spec(np.linalg.norm, norm_minus_inf, [((4,),), ((3, 4),)]),
    Spec(np.linalg.norm, norm_count, [((4,),), ((3, 4),)]),
    Spec(np.linalg.norm, norm_fro_pair, [((3, 2, 4),)]),
    Spec(np.linalg.norm, norm_matrix_1, [((3, 4),), ((4, 3),)]),
    Spec(np.linalg.norm, norm_matrix_minus_1, [((2, 3, 4),)]),
    Spec(np.linalg.norm, norm_matrix_inf, [((3, 2, 4),)]),
    Spec(np.linalg.norm, norm_matrix_minus_inf, [((3, 4),), ((4, 4),)]),
    Spec(unreduce_norm, use_unreduce_norm_matrix_1, [((2,), (2, 3, 4))]),
    Spec(unreduce_norm, use_unreduce_norm_matrix_inf, [((), (3, 4))]),
]
