"""Spec rows for linear algebra: dot, matmul, outer, inner, tensordot, trace, diag, einsum,
and np.linalg's inv, det, slogdet, solve, matrix_power and cholesky.

Part of specs_arrays.SPECS; each fn bakes one combination of options into a call.
"""
import numpy as np

from primitive_specs import Spec


def dot_of(a, b):
    return np.dot(a, b)


def matmul_of(a, b):
    return np.matmul(a, b)


def outer_of(a, b):
    return np.outer(a, b)


def inner_of(a, b):
    return np.inner(a, b)


def tensordot_two(a, b):
    return np.tensordot(a, b)


def tensordot_one(a, b):
    return np.tensordot(a, b, axes=1)


def tensordot_zero(a, b):
    return np.tensordot(a, b, 0)


def tensordot_pairs(a, b):
    return np.tensordot(a, b, axes=((1, 0), (0, -2)))


def trace_main(x):
    return np.trace(x)


def trace_offset(x):
    return np.trace(x, 1)


def trace_below_last_axes(x):
    return np.trace(x, offset=-1, axis1=1, axis2=2)


def diag_of(x):
    return np.diag(x)


def diag_above(x):
    return np.diag(x, 1)


def diag_below(x):
    return np.diag(x, k=-2)


def einsum_matmul(a, b):
    return np.einsum("ij,jk->ik", a, b)


def einsum_batched(a, b):
    return np.einsum("bij,bjk->bik", a, b)


def einsum_dot(a, b):
    return np.einsum("i,i->", a, b)


def einsum_matvec(a, b):
    return np.einsum("ij,j->i", a, b)


def einsum_outer(a, b):
    return np.einsum("i,j->ij", a, b)


def einsum_implicit(a, b):
    return np.einsum("ij,jk", a, b)


def einsum_three(a, b, c):
    return np.einsum("ij,jk,kl->il", a, b, c)


def einsum_transpose(x):
    return np.einsum("ij->ji", x)


def einsum_trace(x):
    return np.einsum("ii->", x)


def einsum_diagonal(x):
    return np.einsum("ii->i", x)


def einsum_column_sums(x):
    return np.einsum("ij->j", x)


def einsum_diag_scale(a, b):
    return np.einsum("ii,ij->ij", a, b)


def einsum_implicit_trace(x):
    return np.einsum("ii", x)


def einsum_optimized(a, b, c):
    return np.einsum("ij,jk,kl->il", a, b, c, optimize=True)


def einsum_greedy_sublists(a, b):
    return np.einsum(a, [0, 1], b, [1, 2], [2, 0], optimize="greedy")


def einsum_broadcast_ellipsis(a, b):
    return np.einsum("...j,...j->...", a, b)


DOT = [((), ()), ((), (4,)), ((3, 4), ()), ((4,), (4,)), ((3, 4), (4, 5)), ((4,), (4, 5)),
       ((3, 4), (4,)), ((2, 3, 4), (4,)), ((4,), (2, 4, 5)), ((2, 3, 4), (3, 4, 5))]
MATMUL = [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
          ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((3, 4), (2, 4, 5)),
          ((2, 3, 4), (4,)), ((3,), (2, 3, 4)), ((2, 2, 3, 4), (4,)), ((4,), (2, 2, 4, 3)),
          ((2, 1, 3, 4), (5, 4, 2)), ((5, 4, 2), (2, 1, 2, 3)), ((1, 3, 4), (2, 4, 5))]
SQUARE = [((4, 4),), ((3, 5),), ((2, 3, 4),)]

def inverse_of(x):
    return np.linalg.inv(x + 3.0 * np.eye(x.shape[-1]))     # well away from singular


def determinant_of(x):
    return np.linalg.det(x + 3.0 * np.eye(x.shape[-1]))


def slogdet_of(x):
    return np.linalg.slogdet(x + 3.0 * np.eye(x.shape[-1]))[1]


def slogdet_negative(x):
    return np.linalg.slogdet(x - 3.0 * np.eye(x.shape[-1]))[1]     # det < 0 for odd sizes


def slogdet_unpacked(x):
    sign, logabsdet = np.linalg.slogdet(x + 3.0 * np.eye(x.shape[-1]))
    return sign * np.exp(logabsdet)


def solve_of(a, b):
    return np.linalg.solve(a + 3.0 * np.eye(a.shape[-1]), b)


def matrix_power_cube(x):
    return np.linalg.matrix_power(x, 3)


def matrix_power_zero_one(x):
    return np.linalg.matrix_power(x, 0) + np.linalg.matrix_power(x, 1)


def matrix_power_inverse_square(x):
    return np.linalg.matrix_power(x + 3.0 * np.eye(x.shape[-1]), -2)


def cholesky_gram(x):
    return np.linalg.cholesky(x @ np.swapaxes(x, -1, -2) + 3.0 * np.eye(x.shape[-1]))


def cholesky_lower(x):
    return np.linalg.cholesky(0.3 * x + 3.0 * np.eye(x.shape[-1]))   # reads the lower triangle


SPECS = [
    Spec(np.dot, dot_of, DOT),
    Spec(np.matmul, matmul_of, MATMUL),
    Spec(np.outer, outer_of, [((3,), (4,)), ((2, 3), (4,)), ((), (4,)), ((3,), ())]),
    Spec(np.inner, inner_of, [((4,), (4,)), ((3, 4), (4,)), ((3, 4), (2, 4)),
                              ((2, 3, 4), (5, 4)), ((), (3, 4)), ((4,), ())]),
    Spec(np.tensordot, tensordot_two, [((2, 3, 4), (3, 4, 5)), ((3, 4), (3, 4))]),
    Spec(np.tensordot, tensordot_one, [((3, 4), (4, 5)), ((4,), (4,)), ((2, 3, 4), (4, 2))]),
    Spec(np.tensordot, tensordot_zero, [((3,), (4,)), ((2, 3), (4,))]),
    Spec(np.tensordot, tensordot_pairs, [((3, 4, 5), (4, 3, 2)), ((3, 4), (4, 3, 5))]),
    Spec(np.trace, trace_main, SQUARE),
    Spec(np.trace, trace_offset, SQUARE),
    Spec(np.trace, trace_below_last_axes, [((2, 3, 4),), ((2, 4, 4),)]),
    Spec(np.diag, diag_of, [((4,),), ((4, 4),), ((3, 5),)]),
    Spec(np.diag, diag_above, [((4,),), ((4, 4),), ((3, 5),)]),
    Spec(np.diag, diag_below, [((4,),), ((4, 4),), ((5, 3),)]),
    Spec(np.einsum, einsum_matmul, [((3, 4), (4, 5))]),
    Spec(np.einsum, einsum_batched, [((2, 3, 4), (2, 4, 5))]),
    Spec(np.einsum, einsum_dot, [((4,), (4,))]),
    Spec(np.einsum, einsum_matvec, [((3, 4), (4,))]),
    Spec(np.einsum, einsum_outer, [((3,), (4,))]),
    Spec(np.einsum, einsum_implicit, [((3, 4), (4, 5))]),
    Spec(np.einsum, einsum_three, [((2, 3), (3, 4), (4, 5))]),
    Spec(np.einsum, einsum_transpose, [((3, 4),)]),
    Spec(np.einsum, einsum_trace, [((4, 4),)]),
    Spec(np.einsum, einsum_diagonal, [((4, 4),)]),
    Spec(np.einsum, einsum_column_sums, [((3, 4),)]),
    Spec(np.einsum, einsum_diag_scale, [((3, 3), (3, 4))]),
    Spec(np.einsum, einsum_implicit_trace, [((4, 4),)]),
    Spec(np.einsum, einsum_optimized, [((2, 3), (3, 4), (4, 5))]),
    Spec(np.einsum, einsum_greedy_sublists, [((3, 4), (4, 2))]),
    Spec(np.einsum, einsum_broadcast_ellipsis, [((3, 4), (3, 4)), ((2, 1, 4), (3, 4))]),
    Spec(np.linalg.inv, inverse_of, [((3, 3),), ((2, 4, 4),)]),
    Spec(np.linalg.det, determinant_of, [((3, 3),), ((2, 4, 4),), ((1, 1),)]),
    Spec(np.linalg.slogdet, slogdet_of, [((3, 3),), ((2, 4, 4),), ((1, 1),)]),
    Spec(np.linalg.slogdet, slogdet_negative, [((3, 3),), ((2, 3, 3),)]),
    Spec(np.linalg.slogdet, slogdet_unpacked, [((3, 3),), ((2, 4, 4),)]),
    # b: a vector, a matrix, a batch of matrices; a batched against a shared b and back
    Spec(np.linalg.solve, solve_of, [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 4)),
                                     ((2, 3, 3), (3,)), ((2, 3, 3), (3, 2)),
                                     ((3, 3), (2, 3, 2)), ((2, 1, 3, 3), (4, 3, 1)),
                                     ((1, 1), (1,))]),
    Spec(np.linalg.matrix_power, matrix_power_cube, [((3, 3),), ((2, 3, 3),), ((1, 1),)]),
    Spec(np.linalg.matrix_power, matrix_power_zero_one, [((3, 3),)]),
    Spec(np.linalg.matrix_power, matrix_power_inverse_square, [((3, 3),), ((2, 4, 4),)]),
    Spec(np.linalg.cholesky, cholesky_gram, [((3, 3),), ((2, 4, 4),), ((1, 1),)]),
    Spec(np.linalg.cholesky, cholesky_lower, [((3, 3),), ((2, 4, 4),)]),
]
