"""Spec rows for np.vdot, np.linalg.tensorinv and np.linalg.tensorsolve
(templates/numpy_linalg.py), np.linalg.matrix_norm, np.linalg.vector_norm and
np.linalg.cross (templates/numpy2_linalg.py), and np.linalg.multi_dot (as normalize writes
it: a chain of @). Square operators get a dominant diagonal added, so they are
well conditioned."""
import numpy as np

from primitive_specs import Spec

BOTH = ("reverse", "forward")


def vdot_of(a, b):
    return np.vdot(a, b) * np.vdot(a, a)


def tensorinv_of(a):
    return np.linalg.tensorinv(a + 4.0 * np.eye(6).reshape(6, 2, 3), ind=1)


def tensorinv_square_of(a):
    return np.linalg.tensorinv(a + 4.0 * np.eye(6).reshape(2, 3, 2, 3))


def tensorsolve_of(a, b):
    return np.linalg.tensorsolve(a + 4.0 * np.eye(6).reshape(2, 3, 6), b)


def tensorsolve_axes_of(a, b):
    return np.linalg.tensorsolve(a + 4.0 * np.eye(6).reshape(6, 2, 3).transpose(1, 0, 2), b,
                                 axes=(0,))


def matrix_norm_of(x):
    return np.linalg.matrix_norm(x) * np.linalg.matrix_norm(x, keepdims=True)


def matrix_norm_nuclear_of(x):
    return np.linalg.matrix_norm(x, ord="nuc", keepdims=True) * x


def matrix_norm_spectral_of(x):
    return np.linalg.matrix_norm(x, ord=2) * np.linalg.matrix_norm(x, ord=1)


def linalg_cross_of(a, b):
    return np.linalg.cross(a, b) * a


SPECS = []
if hasattr(np.linalg, "matrix_norm"):
    SPECS += [
        Spec(np.vdot, vdot_of, [((4,), (4,)), ((3, 4), (12,)), ((2, 3), (3, 2))], modes=BOTH),
        Spec(np.linalg.tensorinv, tensorinv_of, [((6, 2, 3),)], modes=BOTH),
        Spec(np.linalg.tensorinv, tensorinv_square_of, [((2, 3, 2, 3),)], modes=BOTH),
        Spec(np.linalg.tensorsolve, tensorsolve_of, [((2, 3, 6), (2, 3))], modes=BOTH),
        Spec(np.linalg.tensorsolve, tensorsolve_axes_of, [((2, 6, 3), (6,))], modes=BOTH),
        Spec(np.linalg.matrix_norm, matrix_norm_of, [((3, 4),), ((2, 3, 3),)], modes=BOTH),
        Spec(np.linalg.matrix_norm, matrix_norm_nuclear_of, [((3, 4),), ((2, 3, 3),)],
             modes=BOTH),
        Spec(np.linalg.matrix_norm, matrix_norm_spectral_of, [((3, 4),)], modes=BOTH),
        Spec(np.linalg.cross, linalg_cross_of, [((3,), (3,)), ((4, 3), (3,)),
                                                ((2, 4, 3), (4, 3))], modes=BOTH),
    ]


def vector_norm_of(x):
    return np.linalg.vector_norm(x) * x + np.linalg.vector_norm(x, ord=3)


def vector_norm_axes_of(x):
    return np.linalg.vector_norm(x, axis=(0, -1), keepdims=True) * x \
        + np.linalg.vector_norm(x, axis=1, ord=1)[:, None, :]


def vector_norm_inf_of(x):
    return np.linalg.vector_norm(x, axis=-1, ord=np.inf)


if hasattr(np.linalg, "vector_norm"):
    SPECS += [
        Spec(np.linalg.vector_norm, vector_norm_of, [((4,),), ((3, 4),)], modes=BOTH),
        Spec(np.linalg.vector_norm, vector_norm_axes_of, [((2, 3, 4),)], modes=BOTH),
        Spec(np.linalg.vector_norm, vector_norm_inf_of, [((3, 4),)], modes=BOTH),
    ]


# normalize writes np.linalg.multi_dot([a, b, c]) as a @ b @ c: rows of matmul, listed
# under multi_dot's name in the coverage table
MULTI_DOT = {"listed_as": "numpy.linalg.multi_dot"}


def multi_dot_of(a, b, c):
    return np.linalg.multi_dot([a, b, c])


def multi_dot_vectors_of(a, b):
    return np.linalg.multi_dot((a, b, a))


SPECS += [
    Spec(np.matmul, multi_dot_of, [((2, 3), (3, 4), (4, 2)), ((3,), (3, 4), (4,))],
         modes=BOTH, extra=MULTI_DOT),
    Spec(np.matmul, multi_dot_vectors_of, [((3,), (3, 3))], modes=BOTH, extra=MULTI_DOT),
]
