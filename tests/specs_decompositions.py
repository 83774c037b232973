"""Spec rows for the decompositions and least squares (templates/numpy_decompositions.py,
templates/numpy_least_squares.py): svd (thin, full on square matrices, values only),
svdvals, eigh and eigvalsh (both triangles), eig (real eigenvalues), qr (tall, wide, square,
'r', 'complete' on square), pinv, lstsq (tall and wide, vector and matrix b), cond, kron,
cross, and the runtime helpers they call. Each function uses every output, so every
cotangent of a decomposition is exercised; second order is checked in
tests/test_decompositions.py.
"""
import numpy as np

from primitive_specs import NONZERO, REAL, Spec
from s2s_ad.runtime_linalg import leading_columns, quotient_or_nan, real_eigenvalues

WEIGHT = np.linspace(0.5, 1.5, 7)


def _weights(shape):
    return np.resize(WEIGHT, shape)


def svd_thin(x):
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    return np.sum(u * _weights(u.shape)) * np.sum(u[..., :1, :] ** 2) + np.sum(s ** 2) \
        + np.sum(vh * _weights(vh.shape) * vh[..., :, :1])


def svd_full_square(x):
    u, s, vh = np.linalg.svd(x)
    return u @ (s[..., :, None] * vh) + u * u + vh ** 3


def svd_values(x):
    return np.linalg.svd(x, compute_uv=False)


def svd_sign_invariant(x):
    """u_i v_i^T does not change when the signs of u_i and v_i flip together"""
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    return u[..., :, :2] @ vh[..., :2, :] * s[..., :1, None]


def eigh_lower(x):
    w, v = np.linalg.eigh(x)
    return np.sum(w * WEIGHT[:w.shape[-1]]) + np.sum(v ** 4) + np.sum(v[..., 0, :] * v[..., -1, :])


def eigh_upper(x):
    w, v = np.linalg.eigh(x, UPLO="U")
    return v * np.abs(v[..., :1, :]) * w[..., None, :]


def eigvalsh_lower(x):
    return np.linalg.eigvalsh(x)


def eigvalsh_upper(x):
    return np.linalg.eigvalsh(x, "U")


def eig_real(x):
    """eigenvalues of a product of two symmetric positive definite matrices are real"""
    s = x @ np.swapaxes(x, -1, -2) + np.eye(x.shape[-1])
    w, v = np.linalg.eig(s @ np.diag(np.arange(1.0, x.shape[-1] + 1.0)))
    return w[..., None, :] * v * v[..., :1, :]


def qr_reduced(x):
    q, r = np.linalg.qr(x)
    return np.sum(q * _weights(q.shape)) + np.sum(r * r[..., :1, :]) + np.sum(q[..., :1, :] ** 3)


def qr_r(x):
    return np.linalg.qr(x, mode="r")


def qr_complete(x):
    q, r = np.linalg.qr(x, mode="complete")
    return q * 2.0 + r ** 2


def pinv_of(x):
    return np.linalg.pinv(x)


def lstsq_all(a, b):
    x, residuals, rank, s = np.linalg.lstsq(a, b)
    return np.sum(x * x) + np.sum(residuals) + np.sum(s * s[:1])


def lstsq_solution(a, b):
    return np.linalg.lstsq(a, b, rcond=None)[0]


def cond_default(x):
    return np.linalg.cond(x)


def cond_smallest(x):
    return np.linalg.cond(x, -2)


def cond_frobenius(x):
    return np.linalg.cond(x, "fro")


def cond_nuclear(x):
    return np.linalg.cond(x, "nuc")


def kron_of(a, b):
    return np.kron(a, b)


def cross_of(a, b):
    return np.cross(a, b)


def cross_first_axes(a, b):
    return np.cross(a, b, axisa=0, axisb=0, axisc=0)


def use_quotient_or_nan(x, y):
    return quotient_or_nan(x, y)


def use_leading_columns(g):
    return leading_columns(g, 2)


def use_real_eigenvalues(w):
    return real_eigenvalues(w)


SQUARES = [((4, 4),), ((2, 3, 3),), ((1, 1),)]
RECTANGLES = [((4, 4),), ((5, 3),), ((3, 5),), ((2, 4, 3),), ((2, 3, 4),)]

SPECS = [
    Spec(np.linalg.svd, svd_thin, RECTANGLES),
    Spec(np.linalg.svd, svd_full_square, [((4, 4),), ((2, 3, 3),)]),
    Spec(np.linalg.svd, svd_values, RECTANGLES + [((1, 1),), ((1, 4),)]),
    Spec(np.linalg.svd, svd_sign_invariant, [((4, 4),), ((5, 3),), ((3, 5),), ((2, 4, 3),)]),
    Spec(np.linalg.eigh, eigh_lower, SQUARES),
    Spec(np.linalg.eigh, eigh_upper, SQUARES),
    Spec(np.linalg.eigvalsh, eigvalsh_lower, SQUARES),
    Spec(np.linalg.eigvalsh, eigvalsh_upper, SQUARES),
    Spec(np.linalg.eig, eig_real, [((3, 3),), ((2, 3, 3),)]),
    Spec(np.linalg.qr, qr_reduced, RECTANGLES),
    Spec(np.linalg.qr, qr_r, RECTANGLES),
    Spec(np.linalg.qr, qr_complete, [((4, 4),), ((2, 3, 3),)]),
    Spec(np.linalg.pinv, pinv_of, RECTANGLES),
    Spec(np.linalg.lstsq, lstsq_all, [((5, 3), (5,)), ((5, 3), (5, 2))]),
    Spec(np.linalg.lstsq, lstsq_solution, [((5, 3), (5,)), ((3, 5), (3,)), ((3, 5), (3, 2)),
                                           ((4, 4), (4, 2))]),
    Spec(np.linalg.cond, cond_default, [((4, 4),), ((2, 3, 3),), ((5, 3),)]),
    Spec(np.linalg.cond, cond_smallest, [((4, 4),), ((3, 5),)]),
    Spec(np.linalg.cond, cond_frobenius, [((4, 4),), ((2, 3, 3),)]),
    Spec(np.linalg.cond, cond_nuclear, [((3, 3),)]),
    Spec(np.kron, kron_of, [((3,), (2,)), ((2, 3), (3, 2)), ((1, 2), (2, 2))]),
    # operands of different ranks (numpy pads the lower one with leading 1s), and scalars
    Spec(np.kron, kron_of, [((3,), (2, 2)), ((2, 2), (3,)), ((5, 1), (3,)), ((), (2, 3)),
                            ((2, 3), ()), ((2, 1, 2), (2, 3)), ((), ())]),
    Spec(np.cross, cross_of, [((3,), (3,)), ((4, 3), (3,)), ((2, 1, 3), (4, 3))]),
    Spec(np.cross, cross_first_axes, [((3, 4), (3, 4)), ((3,), (3, 2)), ((3, 4), (3, 2, 4))]),
    Spec(quotient_or_nan, use_quotient_or_nan, [((4,), (4,)), ((3, 4), (4,)), ((), (3,))],
         (REAL, NONZERO)),
    Spec(leading_columns, use_leading_columns, [((3, 2),), ((2, 4, 2),)]),
    Spec(real_eigenvalues, use_real_eigenvalues, [((4,),), ((2, 3),)]),
]


# ---- numpy 2's names (templates/numpy2_linalg.py, loaded where numpy has them) ----------------
def svdvals_of(x):
    return np.linalg.svdvals(x)


def vecdot_of(a, b):
    return np.vecdot(a, b)


def vecdot_first_axis(a, b):
    return np.vecdot(a, b, axis=0)


def linalg_vecdot_of(a, b):
    return np.linalg.vecdot(a, b, axis=-1)


def matvec_of(a, b):
    return np.matvec(a, b)


def vecmat_of(a, b):
    return np.vecmat(a, b)


def linalg_matmul_of(a, b):
    return np.linalg.matmul(a, b)


def linalg_outer_of(a, b):
    return np.linalg.outer(a, b)


def linalg_tensordot_of(a, b):
    return np.linalg.tensordot(a, b, axes=1)


def linalg_diagonal_of(x):
    return np.linalg.diagonal(x, offset=1)


def linalg_trace_of(x):
    return np.linalg.trace(x, offset=-1)


def matrix_transpose_of(x):
    return np.matrix_transpose(x)


def linalg_matrix_transpose_of(x):
    return np.linalg.matrix_transpose(x) * 2.0


if hasattr(np.linalg, "svdvals") and hasattr(np, "matvec"):
    SPECS += [
        Spec(np.linalg.svdvals, svdvals_of, RECTANGLES),
        Spec(np.vecdot, vecdot_of, [((4,), (4,)), ((3, 4), (4,)), ((2, 1, 4), (3, 4))]),
        Spec(np.vecdot, vecdot_first_axis, [((3, 4), (3, 4)), ((3, 4), (3, 1))]),
        Spec(np.linalg.vecdot, linalg_vecdot_of, [((4,), (4,)), ((3, 4), (2, 3, 4))]),
        Spec(np.matvec, matvec_of, [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (2, 4))]),
        Spec(np.vecmat, vecmat_of, [((3,), (3, 4)), ((2, 3), (3, 4)), ((3,), (2, 3, 4))]),
        Spec(np.linalg.matmul, linalg_matmul_of, [((3, 4), (4, 5)), ((2, 3, 4), (4,))]),
        Spec(np.linalg.outer, linalg_outer_of, [((3,), (4,))]),
        Spec(np.linalg.tensordot, linalg_tensordot_of, [((3, 4), (4, 5)), ((2, 3), (3,))]),
        Spec(np.linalg.diagonal, linalg_diagonal_of, [((4, 4),), ((2, 3, 4),)]),
        Spec(np.linalg.trace, linalg_trace_of, [((4, 4),), ((2, 3, 4),)]),
        Spec(np.matrix_transpose, matrix_transpose_of, [((3, 4),), ((2, 3, 4),)]),
        Spec(np.linalg.matrix_transpose, linalg_matrix_transpose_of, [((3, 4),), ((2, 3, 4),)]),
    ]
