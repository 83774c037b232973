"""Matrix-vector products' adjoints written out where the facts know the ranks, as a person
writes them: `r @ X` (X.T @ r) and `np.outer(g, w)` for `X @ w`, `W @ g` and
`np.outer(v, g)` for `v @ W`, `g * w` for a dot product `v @ w`; no matmul_adjoint helper
in the specialised source, gradients exact and float32 kept."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad


def least_squares(w, X, y):
    r = X @ w - y
    return r @ r + 0.5 * w @ w


def row_vector_times_matrix(v, W):
    return np.sum(np.tanh(v @ W) ** 2)


RNG = np.random.default_rng(12)
CASES = [(least_squares, (RNG.normal(size=3), RNG.normal(size=(5, 3)), RNG.normal(size=5))),
         (row_vector_times_matrix, (RNG.normal(size=4), RNG.normal(size=(4, 3)) * 0.5))]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradients_of_matrix_vector_products(f, args, path):
    wrt = (0, 1)
    got = grad_on(path, f, wrt)(*args)
    for k, g in zip(wrt, got):
        np.testing.assert_allclose(g, numeric_grad(f, args, k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("f, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_the_specialised_source_has_no_matmul_helper(f, args):
    df = s2s_ad.grad(f, (0, 1))
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "matmul_adjoint" not in source
    assert "np.outer(" in source


@pytest.mark.parametrize("f, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_float32_stays_float32(f, args):
    single = tuple(a.astype(np.float32) for a in args)
    got = s2s_ad.grad(f, (0, 1))(*single)
    assert all(g.dtype == np.float32 for g in got)
    expected = s2s_ad.grad(f, (0, 1))(*args)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)
