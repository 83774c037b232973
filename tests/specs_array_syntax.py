"""Spec rows for the numpy spellings rewritten to calls (transforms/array_syntax.py):
np.einsum in sublist form and with `...` (batch axes, broadcasting of axes of length 1,
implicit output), its operand adjoint with `...` (second order), np.r_ and np.c_ with
arrays, numbers and slices of constants, and column_item (np.c_'s layout of an item)."""
import numpy as np

from primitive_specs import Spec
from s2s_ad.runtime_creation import column_item
from s2s_ad.runtime_linalg import einsum_operand_adjoint


def einsum_sublist_transpose(x):
    return np.einsum(x, [0, 1], [1, 0])


def einsum_sublist_matmul(a, b):
    return np.einsum(a, [0, 1], b, [1, 2], [0, 2])


def einsum_sublist_implicit(a, b):
    return np.einsum(a, [0, 1], b, [1, 2])


def einsum_sublist_ellipsis(x):
    return np.einsum(x, [Ellipsis, 0, 1], [Ellipsis, 1, 0])


def einsum_ellipsis_batch(a, b):
    return np.einsum("...ij,...jk->...ik", a, b)


def einsum_ellipsis_implicit(a, b):
    return np.einsum("...i,...i", a, b)


def einsum_ellipsis_sum(x):
    return np.einsum("i...->...", x)


def use_einsum_ellipsis_a(g, a, b):
    return einsum_operand_adjoint(g, "...ij,...jk->...ik", (a, b, None), 0)


def use_einsum_ellipsis_b(g, a, b):
    return einsum_operand_adjoint(g, "...ij,...jk->...ik", (a, b, None), 1)


def r_items(a, b):
    return np.r_[a, 2.0 * b, 0:2]


def r_rows(a, b):
    return np.r_[a, b]


def c_columns(a, b):
    return np.c_[a, b]


def use_column_item(v):
    return column_item(v)


BATCH = [((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
         ((1, 3, 4), (2, 4, 5))]

SPECS = [
    Spec(np.einsum, einsum_sublist_transpose, [((3, 4),)]),
    Spec(np.einsum, einsum_sublist_matmul, [((3, 4), (4, 2))]),
    Spec(np.einsum, einsum_sublist_implicit, [((3, 4), (4, 2))]),
    Spec(np.einsum, einsum_sublist_ellipsis, [((2, 3, 4),), ((3, 4),)]),
    Spec(np.einsum, einsum_ellipsis_batch, BATCH),
    Spec(np.einsum, einsum_ellipsis_implicit, [((3, 4), (3, 4)), ((2, 3, 4), (4,))]),
    Spec(np.einsum, einsum_ellipsis_sum, [((3,),), ((3, 4),), ((3, 2, 4),)]),
    Spec(einsum_operand_adjoint, use_einsum_ellipsis_a, [((2, 3, 5), (2, 3, 4), (2, 4, 5)),
                                                         ((2, 3, 5), (2, 3, 4), (4, 5))]),
    Spec(einsum_operand_adjoint, use_einsum_ellipsis_b, [((2, 3, 5), (3, 4), (2, 4, 5)),
                                                         ((2, 3, 5), (1, 3, 4), (2, 4, 5))]),
    Spec(np.concatenate, r_items, [((), ()), ((3,), (4,)), ((), (2,))]),
    Spec(np.concatenate, r_rows, [((2, 3), (1, 3)), ((3,), ())]),
    Spec(np.concatenate, c_columns, [((3,), (3,)), ((3, 2), (3,)), ((3, 2), (3, 4)),
                                     ((), ())]),
    Spec(column_item, use_column_item, [((),), ((3,),), ((2, 3),)]),
]
