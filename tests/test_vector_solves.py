"""np.linalg.solve's adjoint where the facts say A is one float matrix (ad/context.py
solve_columns): a vector right-hand side stays a vector and A's adjoint is an outer
product, `np.outer(-s, x)`, not an (n, 1) @ (1, n) product of as_columns' columns and its
negation; a matrix right-hand side needs no as_columns either. Gradients against central
differences on both derivative paths (vector, matrix, batched and broadcast right-hand
sides, float32, a Hessian through the adjoint), and what the specialised source holds."""
import numpy as np
import pytest

import s2s_ad

from derivative_paths import PATHS, hvp_on
from gradcheck import assert_grad_matches, numeric_grad

RNG = np.random.default_rng(2129)
N = 5


def quadratic_form(A, y):
    """y^T (A + 3I)^-1 y: b a vector."""
    K = A @ A.T + 3.0 * np.eye(len(y))
    return y @ np.linalg.solve(K, y)


def several_targets(A, Y):
    """A matrix of right-hand sides."""
    x = np.linalg.solve(A + 4.0 * np.eye(A.shape[0]), Y)
    return np.sum(np.sin(x))


def batched(A, b):
    """A stack of matrices against one vector: the helpers' general code stays."""
    x = np.linalg.solve(A + 4.0 * np.eye(A.shape[-1]), b)
    return np.sum(x * x)


PROGRAMS = [(quadratic_form, [(N, N), (N,)]), (several_targets, [(N, N), (N, 3)]),
            (batched, [(2, N, N), (N,)])]


def _args(shapes):
    return [0.4 * RNG.standard_normal(s) for s in shapes]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, shapes", PROGRAMS, ids=[p[0].__name__ for p in PROGRAMS])
def test_gradient_against_differences(f, shapes, path):
    assert_grad_matches(f, _args(shapes), wrt=(0, 1), path=path)


def _source(f, args, wrt=(0, 1)):
    df = s2s_ad.grad(f, wrt=wrt)
    df(*args)
    return s2s_ad.derivative_source(df, *args)


def test_a_vector_right_hand_side_gives_an_outer_product():
    src = _source(quadratic_form, _args([(N, N), (N,)]))
    assert "np.outer(-" in src
    assert "as_columns(" not in src and "np.swapaxes(as_columns" not in src


def test_a_matrix_right_hand_side_needs_no_columns():
    src = _source(several_targets, _args([(N, N), (N, 3)]))
    assert "as_columns(" not in src and "matmul_adjoint_a(" not in src
    assert ".T" in src


def test_a_stack_of_matrices_keeps_the_general_helpers():
    assert "as_columns(" in _source(batched, _args([(2, N, N), (N,)]))


def test_float32_stays_float32():
    A, y = (a.astype(np.float32) for a in _args([(N, N), (N,)]))
    gA, gy = s2s_ad.grad(quadratic_form, wrt=(0, 1))(A, y)
    assert gA.dtype == np.float32 and gy.dtype == np.float32
    np.testing.assert_allclose(gA, numeric_grad(quadratic_form, (A.astype(float),
                                                                 y.astype(float)), 0),
                               rtol=2e-2, atol=2e-3)


@pytest.mark.parametrize("path", PATHS)
def test_hessian_vector_product_through_the_outer_product(path):
    A, y = _args([(N, N), (N,)])
    v = RNG.standard_normal(N)

    def in_y(y):
        return quadratic_form(A, y)

    got = hvp_on(path, in_y, (y,), v)
    grad = s2s_ad.grad(in_y)
    h = 1e-5
    expected = (grad(y + h * v) - grad(y - h * v)) / (2 * h)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def whitened_energy(A, B):
    """Z's adjoint is Z itself (closed form), read by the solve's adjoint and the product."""
    Z = np.linalg.solve(A @ A.T + 3.0 * np.eye(A.shape[0]), B)
    return 0.5 * np.sum(Z * Z)


@pytest.mark.parametrize("path", PATHS)
def test_whitened_energy_against_differences(path):
    assert_grad_matches(whitened_energy, _args([(N, N), (N, 3)]), wrt=0, path=path)


def test_an_adjoint_that_is_a_forward_value_is_read_as_it_is():
    """A kept product or solve returns a new array and writes into none of its operands:
    the closed form hands it Z, not a copy `Z * 1.0` (optimize/closed_forms.py)."""
    src = _source(whitened_energy, _args([(N, N), (N, 3)]), wrt=0)
    assert "closed form" in src and "* 1.0" not in src
