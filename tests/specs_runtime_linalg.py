"""Spec rows for the runtime helpers of runtime_linalg.py and runtime_arrays.py (appended to
specs_runtime): g shaped like the product, diagonal or scan whose adjoint it is."""
import numpy as np

from primitive_specs import Spec
from s2s_ad.runtime_arrays import linear_scan, shifted, unpad, unpad_values
from s2s_ad.runtime_linalg import (as_columns, dot_adjoint_a, dot_adjoint_b,
                                   einsum_operand_adjoint, inner_adjoint_a, inner_adjoint_b,
                                   matmul_adjoint_a, matmul_adjoint_b, place_diagonal,
                                   spread_trace, tensordot_adjoint_a, tensordot_adjoint_b,
                                   inverse_and_solve, undiag)
from s2s_ad.runtime_triangular import (halved_diagonal, lower_congruence, lower_gram,
                                       lower_gram_update,
                                       lower_inverse, lower_of_upper_product)


# ---- products ----------------------------------------------------------------------------
def use_matmul_adjoint_a(g, a, b):
    return matmul_adjoint_a(g, a, b)


def use_matmul_adjoint_b(g, a, b):
    return matmul_adjoint_b(g, a, b)


def use_dot_adjoint_a(g, a, b):
    return dot_adjoint_a(g, a, b)


def use_dot_adjoint_b(g, a, b):
    return dot_adjoint_b(g, a, b)


def use_inner_adjoint_a(g, a, b):
    return inner_adjoint_a(g, a, b)


def use_inner_adjoint_b(g, a, b):
    return inner_adjoint_b(g, a, b)


def use_tensordot_adjoint_a(g, a, b):
    return tensordot_adjoint_a(g, a, b)


def use_tensordot_adjoint_b(g, a, b):
    return tensordot_adjoint_b(g, a, b)


def use_tensordot_adjoint_a_pairs(g, a, b):
    return tensordot_adjoint_a(g, a, b, ([1, 0], [0, 1]))


def use_tensordot_adjoint_b_pairs(g, a, b):
    return tensordot_adjoint_b(g, a, b, ([1, 0], [0, 1]))


def use_tensordot_adjoint_a_outer(g, a, b):
    return tensordot_adjoint_a(g, a, b, 0)


def use_tensordot_adjoint_b_outer(g, a, b):
    return tensordot_adjoint_b(g, a, b, 0)


def use_einsum_a(g, a, b):
    return einsum_operand_adjoint(g, "ij,jk->ik", (a, b, None), 0)


def use_einsum_b(g, a, b):
    return einsum_operand_adjoint(g, "ij,jk->ik", (a, b, None), 1)


def use_einsum_middle_of_three(g, a, b, c):
    return einsum_operand_adjoint(g, "ij,jk,kl", (a, b, c), 1)


def use_einsum_summed_alone(g, a, b):
    return einsum_operand_adjoint(g, "ij,j->", (a, b, None), 0)


def use_einsum_diagonal(g, a, b):
    return einsum_operand_adjoint(g, "ii,i->i", (a, b, None), 0)


def use_einsum_one_operand(g, a):
    return einsum_operand_adjoint(g, "ij->ji", (a, None, None), 0)


# ---- diagonals, solve's layout -----------------------------------------------------------
def use_place_diagonal(g):
    return place_diagonal(g, np.zeros((3, 4)), 1)


def use_place_diagonal_below(g):
    return place_diagonal(g, np.zeros((3, 4)), -1)


def use_place_diagonal_batched(g):
    return place_diagonal(g, np.zeros((2, 3, 3)), 0, 1, 2)


def use_spread_trace(g):
    return spread_trace(g, np.zeros((3, 4)))


def use_spread_trace_batched(g):
    return spread_trace(g, np.zeros((3, 3, 2)), 1, 0, 1)


def use_undiag_vector(g):
    return undiag(g, np.zeros(3), 1)


def use_undiag_matrix(g):
    return undiag(g, np.zeros((3, 4)), -1)


def use_as_columns_vector(v):
    return as_columns(v, np.zeros((3, 3)), np.zeros(3))


def use_as_columns_matrix(v):
    return as_columns(v, np.zeros((3, 3)), np.zeros((3, 2)))


# ---- runtime_arrays: scans and padding -----------------------------------------------------
def use_linear_scan(c, b):
    return linear_scan(c, b, 1)


def use_linear_scan_reverse(c, b):
    return linear_scan(c, b, 0, True)


def use_linear_scan_flat(c, b):
    return linear_scan(c, b)


def use_shifted(v, first):
    return shifted(v, 1, first)


def use_shifted_reverse(v, first):
    return shifted(v, 0, first, True)


def use_shifted_flat(v, first):
    return shifted(v, None, first, True)


def use_unpad(g):
    return unpad(g, np.array([[1, 2], [0, 1]]))


def use_unpad_values(g):
    return unpad_values(g, np.array([[1, 2], [0, 1]]), np.zeros((2, 2)))


def use_unpad_values_pair(g):
    return unpad_values(g, np.array([[1, 2], [2, 1]]), np.zeros(2))


def use_unpad_values_column(g):
    return unpad_values(g, np.array([[1, 2], [0, 1]]), np.zeros((2, 1)))


def use_unpad_values_scalar(g):
    return unpad_values(g, np.array([[2, 1]]), 0.0)


def use_lower_inverse(x):
    return lower_inverse(0.1 * x + 3.0 * np.eye(x.shape[-1]))   # reads the lower triangle


def use_inverse_and_solve(a, b):
    inverse, x = inverse_and_solve(a + 3.0 * np.eye(a.shape[-1]), b)
    return np.sum(inverse * np.cos(inverse)) + np.sum(np.sin(x))


def use_inverse_and_solve_solution(a, b):
    return inverse_and_solve(a + 3.0 * np.eye(a.shape[-1]), b)[1]    # the inverse unread


def use_lower_of_upper_product(u, b):
    return lower_of_upper_product(u, b)


def use_lower_congruence(w, s):
    return lower_congruence(w, s)


def use_halved_diagonal(m):
    return halved_diagonal(m)


def use_lower_gram(w, scale):
    return lower_gram(w, scale)


def use_lower_gram_update(w, scale, z):
    return lower_gram_update(w, scale, z, -1.5)


def use_lower_gram_update_c(w, scale, z, c):
    return lower_gram_update(w, scale, z, c)


# (g, a, b) shapes: g has the shape of a @ b
MATMUL_ADJOINT = [((3, 5), (3, 4), (4, 5)), ((5,), (4,), (4, 5)), ((3,), (3, 4), (4,)),
                  ((), (4,), (4,)), ((2, 3, 5), (2, 3, 4), (4, 5)),
                  ((2, 3, 5), (2, 3, 4), (2, 4, 5)), ((2, 3, 5), (3, 4), (2, 4, 5)),
                  ((2, 3), (2, 3, 4), (4,)), ((2, 4), (3,), (2, 3, 4)),
                  ((2, 5, 3, 2), (2, 1, 3, 4), (5, 4, 2))]
# g has the shape of np.dot(a, b): N-D dot contracts a's last axis with b's second to last
DOT_ADJOINT = [((3, 5), (3, 4), (4, 5)), ((5,), (4,), (4, 5)), ((3,), (3, 4), (4,)),
               ((), (4,), (4,)), ((2, 3, 5, 6), (2, 3, 4), (5, 4, 6)),
               ((2, 3, 5), (2, 3, 4), (4, 5)), ((3, 4), (), (3, 4)), ((3, 4), (3, 4), ())]
# np.inner contracts the last axes
INNER_ADJOINT = [((3, 5), (3, 4), (5, 4)), ((), (4,), (4,)), ((2, 3), (2, 3, 4), (4,)),
                 ((2, 3), (4,), (2, 3, 4)), ((3, 4), (), (3, 4)), ((2, 5, 3), (2, 4), (5, 3, 4))]
TENSORDOT_ADJOINT = [((2, 5), (2, 3, 4), (3, 4, 5)), ((), (3, 4), (3, 4))]

SPECS = [
    Spec(matmul_adjoint_a, use_matmul_adjoint_a, MATMUL_ADJOINT, wrt=(0, 2)),
    Spec(matmul_adjoint_b, use_matmul_adjoint_b, MATMUL_ADJOINT, wrt=(0, 1)),
    Spec(dot_adjoint_a, use_dot_adjoint_a, DOT_ADJOINT, wrt=(0, 2)),
    Spec(dot_adjoint_b, use_dot_adjoint_b, DOT_ADJOINT, wrt=(0, 1)),
    Spec(inner_adjoint_a, use_inner_adjoint_a, INNER_ADJOINT, wrt=(0, 2)),
    Spec(inner_adjoint_b, use_inner_adjoint_b, INNER_ADJOINT, wrt=(0, 1)),
    Spec(tensordot_adjoint_a, use_tensordot_adjoint_a, TENSORDOT_ADJOINT, wrt=(0, 2)),
    Spec(tensordot_adjoint_b, use_tensordot_adjoint_b, TENSORDOT_ADJOINT, wrt=(0, 1)),
    Spec(tensordot_adjoint_a, use_tensordot_adjoint_a_pairs, [((2, 5), (3, 4, 2), (4, 3, 5))],
         wrt=(0, 2)),
    Spec(tensordot_adjoint_b, use_tensordot_adjoint_b_pairs, [((2, 5), (3, 4, 2), (4, 3, 5))],
         wrt=(0, 1)),
    Spec(tensordot_adjoint_a, use_tensordot_adjoint_a_outer, [((3, 2, 2), (3,), (2, 2))],
         wrt=(0, 2)),
    Spec(tensordot_adjoint_b, use_tensordot_adjoint_b_outer, [((3, 2, 2), (3,), (2, 2))],
         wrt=(0, 1)),
    Spec(einsum_operand_adjoint, use_einsum_a, [((3, 5), (3, 4), (4, 5))], wrt=(0, 2)),
    Spec(einsum_operand_adjoint, use_einsum_b, [((3, 5), (3, 4), (4, 5))], wrt=(0, 1)),
    Spec(einsum_operand_adjoint, use_einsum_middle_of_three,
         [((2, 5), (2, 3), (3, 4), (4, 5))], wrt=(0, 1, 3)),
    Spec(einsum_operand_adjoint, use_einsum_summed_alone, [((), (3, 4), (4,))], wrt=(0, 2)),
    Spec(einsum_operand_adjoint, use_einsum_diagonal, [((3,), (3, 3), (3,))], wrt=(0, 2)),
    Spec(einsum_operand_adjoint, use_einsum_one_operand, [((4, 3), (3, 4))]),
    Spec(place_diagonal, use_place_diagonal, [((3,),)]),
    Spec(place_diagonal, use_place_diagonal_below, [((2,),)]),
    Spec(place_diagonal, use_place_diagonal_batched, [((2, 3),)]),
    Spec(spread_trace, use_spread_trace, [((),)]),
    Spec(spread_trace, use_spread_trace_batched, [((2,),)]),
    Spec(undiag, use_undiag_vector, [((4, 4),)]),
    Spec(undiag, use_undiag_matrix, [((2,),)]),
    Spec(as_columns, use_as_columns_vector, [((3,),)]),
    Spec(as_columns, use_as_columns_matrix, [((3, 2),)]),
    # 70: past the order inverted directly, so the halves are differentiated too
    Spec(lower_inverse, use_lower_inverse, [((3, 3),), ((2, 4, 4),), ((1, 1),), ((70, 70),)]),
    Spec(inverse_and_solve, use_inverse_and_solve,
         [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 2))]),
    Spec(inverse_and_solve, use_inverse_and_solve_solution, [((3, 3), (3,))]),
    # 70: in halves, square and stacked
    Spec(lower_of_upper_product, use_lower_of_upper_product,
         [((3, 3), (3, 3)), ((2, 4, 4), (2, 4, 4)), ((70, 70), (70, 70)),
          ((2, 70, 70), (2, 70, 70)), ((3, 3), (2, 3, 3))]),
    Spec(lower_congruence, use_lower_congruence,
         [((3, 3), (3, 3)), ((2, 4, 4), (2, 4, 4)), ((70, 70), (70, 70)),
          ((2, 70, 70), (2, 70, 70)), ((3, 3), (2, 3, 3))]),
    Spec(halved_diagonal, use_halved_diagonal, [((3, 3),), ((2, 4, 4),), ((1, 1),)]),
    # 70: in halves; a scale per matrix of a stack, one scale for a stack, stacked scales
    Spec(lower_gram, use_lower_gram,
         [((3, 3), (3,)), ((2, 4, 4), (2, 4)), ((70, 70), (70,)), ((2, 70, 70), (70,)),
          ((3, 3), (2, 3)), ((1, 1), (1,))]),
    # few columns (low rank) and many (S written out); 70: in halves; stacked
    Spec(lower_gram_update, use_lower_gram_update,
         [((4, 4), (4,), (4, 1)), ((3, 3), (3,), (3, 5)), ((70, 70), (70,), (70, 3)),
          ((2, 4, 4), (2, 4), (2, 4, 2)), ((2, 4, 4), (4,), (4, 6))]),
    Spec(lower_gram_update, use_lower_gram_update_c, [((4, 4), (4,), (4, 2), ())]),
    Spec(linear_scan, use_linear_scan, [((3, 4), (3, 4)), ((3, 1), (3, 4)), ((), (3, 4))]),
    Spec(linear_scan, use_linear_scan_reverse, [((3, 4), (3, 4)), ((1, 4), (3, 4)),
                                                ((3, 4), (4,))]),
    Spec(linear_scan, use_linear_scan_flat, [((5,), (5,)), ((6,), ())]),
    Spec(shifted, use_shifted, [((3, 4), (3,)), ((3, 4), ())]),
    Spec(shifted, use_shifted_reverse, [((3, 4), (4,)), ((3, 4), (1,))]),
    Spec(shifted, use_shifted_flat, [((2, 3), ()), ((5,), ())]),
    Spec(unpad, use_unpad, [((4, 5),)]),
    Spec(unpad_values, use_unpad_values, [((4, 5),)]),
    Spec(unpad_values, use_unpad_values_pair, [((4, 6),)]),
    Spec(unpad_values, use_unpad_values_column, [((4, 5),)]),
    Spec(unpad_values, use_unpad_values_scalar, [((5,),)]),
]
