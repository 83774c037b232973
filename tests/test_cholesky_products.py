"""A cholesky adjoint takes a solve's share of L^T L_bar, and np.diag(L)'s, without the
products with L^T and inv(L)^T that cancel (optimize/cholesky_products.py): gradients
against central differences on both derivative paths (matrix and vector right-hand sides,
a solve whose product is read again, a transposed solve that keeps the product with L^T,
two solves, float32), what the specialised source holds, and the programs left alone."""
import numpy as np
import pytest

import ast
import re

import gast

import s2s_ad
from s2s_ad.optimize.cholesky_products import cancel_cholesky_products
from s2s_ad.runtime_triangular import lower_congruence, lower_inverse, lower_of_upper_product

from derivative_paths import PATHS
from gradcheck import assert_grad_matches, numeric_grad

RNG = np.random.default_rng(1717)
N = 5


def mahalanobis(A, X):
    """The Gaussian log-likelihood's shape: every term of L_bar cancels."""
    S = A @ A.T + np.eye(A.shape[0])
    L = np.linalg.cholesky(S)
    Z = np.linalg.solve(L, X.T)
    return X.shape[0] * np.sum(np.log(np.diag(L))) + 0.5 * np.sum(Z * Z)


def whitened_residual(A, b):
    """b is differentiated too: the product W^T Z_bar is b's adjoint, so it stays."""
    L = np.linalg.cholesky(A @ A.T + 5.0 * np.eye(len(b)))
    z = np.linalg.solve(L, b)
    return np.sum(np.tanh(z)) + 2.0 * np.sum(np.log(np.diag(L)))


def both_triangles(A, y):
    """The solve against L.T keeps its product with L^T (an outer product's with a vector
    y); the one against L cancels."""
    L = np.linalg.cholesky(A @ A.T + 5.0 * np.eye(len(y)))
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))


def both_triangles_matrix(A, Y):
    """As both_triangles with several right-hand sides: the product with L^T stays."""
    L = np.linalg.cholesky(A @ A.T + 5.0 * np.eye(len(Y)))
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, Y))
    return 0.5 * np.sum(Y * alpha) + np.sum(np.log(np.diag(L)))


def two_solves(A, B, c):
    """Two solves against one factor, one of them a matrix: two terms of one chain."""
    L = np.linalg.cholesky(A @ A.T + 5.0 * np.eye(len(c)))
    Z = np.linalg.solve(L, B)
    z = np.linalg.solve(L, c)
    return np.sum(Z ** 3) + np.sum(np.sin(z))


def rebound_rhs(A, B):
    """A term of another shape (sum(L * L)'s adjoint) beside one that cancels: both sums
    reach the cholesky adjoint."""
    L = np.linalg.cholesky(A @ A.T + 5.0 * np.eye(len(B)))
    Z = np.linalg.solve(L, B)
    return np.sum(Z * Z) + np.sum(L * L)


def quadratic_and_logdet(A, y):
    """z = L^-1 y, 0.5 z^T z + log det: one rank-one term np.outer(-z, z), its own mirror."""
    L = np.linalg.cholesky(A @ A.T + 5.0 * np.eye(len(y)))
    z = np.linalg.solve(L, y)
    return 0.5 * z @ z + 2.0 * np.sum(np.log(np.diag(L)))


def dot_quadratic(A, y):
    """As quadratic_and_logdet with np.dot: z's adjoint is written `(z + z) * 0.5` (np.dot
    of vectors is their matmul, ad/expand.py), which the rank-one term reads as z."""
    L = np.linalg.cholesky(A @ A.T + 5.0 * np.eye(len(y)))
    z = np.linalg.solve(L, y)
    return 0.5 * np.dot(z, z) + np.sum(np.log(np.diag(L)))


def logdet_only(A):
    """np.diag(L)'s term alone: a diagonal, lower_gram without outer products."""
    L = np.linalg.cholesky(A @ A.T + 5.0 * np.eye(len(A)))
    return np.sum(np.log(np.diag(L)) * np.arange(1.0, len(A) + 1.0))


PROGRAMS = [(mahalanobis, [(N, N), (7, N)]), (whitened_residual, [(N, N), (N,)]),
            (both_triangles, [(N, N), (N,)]), (both_triangles_matrix, [(N, N), (N, 3)]),
            (two_solves, [(N, N), (N, 3), (N,)]),
            (rebound_rhs, [(N, N), (N, 2)]), (quadratic_and_logdet, [(N, N), (N,)]),
            (logdet_only, [(N, N)]), (dot_quadratic, [(N, N), (N,)]),
            (mahalanobis, [(N, N), (1, N)])]     # one column: lower_gram_update's low rank


def _args(shapes):
    return [0.3 * RNG.standard_normal(s) for s in shapes]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, shapes", PROGRAMS, ids=[p[0].__name__ for p in PROGRAMS])
def test_gradient_against_differences(f, shapes, path):
    assert_grad_matches(f, _args(shapes), wrt=tuple(range(len(shapes))), path=path)


def _source(f, shapes, wrt=None):
    wrt = tuple(range(len(shapes))) if wrt is None else wrt
    df = s2s_ad.grad(f, wrt=wrt)
    args = _args(shapes)
    df(*args)
    return "\n".join(line for line in s2s_ad.derivative_source(df, *args).splitlines()
                     if not line.strip().startswith("#"))


def test_every_term_cancels_no_product_with_the_factors_transpose():
    src = _source(mahalanobis, [(N, N), (7, N)], wrt=(0,))     # X a constant
    assert "lower_of_upper_product(" not in src
    assert "np.swapaxes(inv, -1, -2) @" not in src          # no W^T Z_bar
    assert "np.diagonal(L) *" in src and "lower_congruence(" not in src
    # np.diag(L)'s term and -Z Z^T: one helper, low rank for few columns of Z
    assert "lower_gram_update(inv, np.diagonal(L) * " in src and ", Z, -1.0)" in src


def test_a_product_read_again_stays_and_its_term_cancels():
    src = _source(whitened_residual, [(N, N), (N,)])
    assert "lower_of_upper_product(" not in src
    assert src.count("np.swapaxes(inv, -1, -2) @") == 1       # b's adjoint reads it


def test_a_transposed_solve_of_a_matrix_keeps_the_product_for_its_own_term():
    src = _source(both_triangles_matrix, [(N, N), (N, 3)], wrt=(0,))
    assert src.count("lower_of_upper_product(") == 1
    assert "_lt" in src                                      # the cancelled terms' sum


def test_a_transposed_solve_of_a_vector_is_an_outer_product_with_l_transposed_times_it():
    """L^T outer(x, s) = outer(L^T x, s): n^2 work, no product with L^T of n^3 / 2; and
    L^T alpha is the solve's right-hand side (alpha = W^T c). With np.diag(L)'s term the
    terms are a diagonal and a mirrored pair (optimize/cholesky_low_rank.py): a
    lower_gram and two outer products of vectors, alpha itself one of their factors."""
    src = _source(both_triangles, [(N, N), (N,)])
    assert "lower_of_upper_product(" not in src and "lower_congruence(" not in src
    assert "np.swapaxes(L, -1, -2) @" not in src
    assert "lower_gram(inv, np.diagonal(L) * " in src
    assert "np.tril(np.outer(inv_t, alpha) + np.outer(alpha, inv_t))" in src
    # y a constant: the reshape of the solve's adjoint nothing reads any more is gone too
    src = _source(both_triangles, [(N, N), (N,)], wrt=(0,))
    assert "reshape_like(" not in src and "lower_gram(" in src


def test_a_diagonal_and_rank_one_terms_take_no_congruence():
    src = _source(quadratic_and_logdet, [(N, N), (N,)], wrt=(0,))
    assert "lower_congruence(" not in src and "lower_gram(inv, " in src
    assert re.search(r"- np\.tril\(np\.outer\((\w+), \1\)\)", src), src   # W^T z, held
    src = _source(dot_quadratic, [(N, N), (N,)], wrt=(0,))
    assert "lower_congruence(" not in src and "dot_adjoint" not in src
    assert re.search(r"- np\.tril\(np\.outer\((\w+), \1\)\)", src), src
    src = _source(logdet_only, [(N, N)], wrt=(0,))
    assert "lower_congruence(" not in src and "np.outer" not in src
    assert "m = lower_gram(inv, np.diagonal(L) * " in src


def test_an_unpaired_outer_product_keeps_the_congruence():
    src = _source(two_solves, [(N, N), (N, 3), (N,)])
    assert "lower_congruence(" in src and "lower_gram(" not in src


def test_two_solves_cancel_in_one_sum():
    src = _source(two_solves, [(N, N), (N, 3), (N,)])
    assert "lower_of_upper_product(" not in src


def cholesky_density32(A, X):
    L = np.linalg.cholesky(A @ A.T + np.eye(len(A), dtype=np.float32))
    Z = np.linalg.solve(L, X.T)
    return X.shape[0] * np.sum(np.log(np.diag(L))) + 0.5 * np.sum(Z * Z)


def test_float32_stays_float32():
    A, X = (a.astype(np.float32) for a in _args([(N, N), (7, N)]))
    g = s2s_ad.grad(cholesky_density32)(A, X)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, numeric_grad(cholesky_density32,
                                               (A.astype(float), X.astype(float)), 0),
                               rtol=2e-2, atol=2e-3)


_OBJECTS = {"np.linalg.cholesky": np.linalg.cholesky, "np.swapaxes": np.swapaxes,
            "np.outer": np.outer,
            "lower_inverse": lower_inverse, "lower_congruence": lower_congruence,
            "lower_of_upper_product": lower_of_upper_product}


def _rewritten(source):
    """The pass on hand-written final statements; None when it changes nothing."""
    def callee(call):
        return _OBJECTS.get(ast.unparse(gast.gast_to_ast(call.func)))
    statements = gast.parse(source).body
    return cancel_cholesky_products(statements, callee, "np", lambda hint: hint)[1]


SITE = """L = np.linalg.cholesky(S)
inv = lower_inverse(L)
solved = np.swapaxes(inv, -1, -2) @ C
{between}
L_bar = -(solved @ H)
m = lower_congruence(inv, lower_of_upper_product(np.swapaxes(L, -1, -2), L_bar))
"""


def test_the_rule_on_statements():
    assert _rewritten(SITE.format(between="t = 1.0"))


def test_the_rule_on_a_vectors_outer_product():
    """A vector's solve adds np.outer(-(W^T c), z) (ad/context.py solve_columns): its share
    is np.outer(-c, z), the sign kept on the vector."""
    source = SITE.format(between="t = 1.0").replace("L_bar = -(solved @ H)",
                                                    "L_bar = np.outer(-solved, z)")
    assert _rewritten(source)
    statements = gast.parse(source).body
    out = cancel_cholesky_products(statements, lambda call: _OBJECTS.get(
        ast.unparse(gast.gast_to_ast(call.func))), "np", lambda hint: hint)[0]
    text = ast.unparse(ast.fix_missing_locations(gast.gast_to_ast(gast.Module(
        body=out, type_ignores=[]))))
    assert "L_bar_lt = np.outer(-C, z)" in text and "solved" not in text


@pytest.mark.parametrize("between", ["C = C * 2.0", "C += 1.0", "C[0] = 1.0",
                                     "np.multiply(C, 2.0, out=C)"])
def test_a_right_hand_side_bound_again_keeps_the_product(between):
    """The term would read C's new value where the product read the old one."""
    assert not _rewritten(SITE.format(between=between))


@pytest.mark.parametrize("source", [
    SITE.format(between="t = 1.0").replace("inv = lower_inverse(L)", "inv = np.linalg.inv(L)"),
    SITE.format(between="t = L_bar_0 + 1.0").replace("L_bar = -(", "L_bar_0 = L_bar = -("),
    SITE.format(between="t = 1.0") + "u = L_bar * 2.0\n",      # L_bar read after the adjoint
])
def test_other_shapes_are_left_alone(source):
    assert not _rewritten(source)
