"""A matrix times a vector: the vector's adjoint is written `g @ X` (`W @ g` for `v @ W`)
where the facts prove a float matrix and a float vector (ad/context.py matmul_adjoint), on
both derivative paths and differentiated again."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS
from gradcheck import assert_grad_matches


def matrix_vector(w, X, y):
    return np.sum(np.tanh(X @ w) * y)


def vector_matrix(v, W):
    return np.sum((v @ W) ** 2)


RNG = np.random.default_rng(0)
W_ARGS = (RNG.standard_normal(4), RNG.standard_normal((6, 4)), RNG.standard_normal(6))
V_ARGS = (RNG.standard_normal(3), RNG.standard_normal((3, 5)))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [(matrix_vector, W_ARGS), (vector_matrix, V_ARGS)],
                         ids=["X @ w", "v @ W"])
def test_against_differences(path, f, args):
    assert_grad_matches(f, args, (0, 1), path=path)


def test_written_out_without_the_helper():
    source = s2s_ad.derivative_source(s2s_ad.grad(matrix_vector), *W_ARGS)
    assert "@ X" in source and "matmul_adjoint" not in source
    source = s2s_ad.derivative_source(s2s_ad.grad(vector_matrix), *V_ARGS)
    assert "W @ " in source and "matmul_adjoint_a" not in source


def test_second_order():
    w, X, y = W_ARGS
    u = np.linspace(0.5, 1.5, 4)
    got = s2s_ad.hvp(matrix_vector)(w, X, y, u)
    t = np.tanh(X @ w)
    expected = X.T @ (-2.0 * t * (1 - t * t) * y * (X @ u))
    np.testing.assert_allclose(got, expected, rtol=1e-10)
