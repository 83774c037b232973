"""A read-only adjoint that is a forward array (`Z_bar = Z` of `0.5 * np.sum(Z * Z)`) is
read as that array, never copied as `Z * 1.0`: the closed form reads Z where the sweep
read Z_bar (optimize/closed_forms.py; session 23 deleted optimize/unit_copies.py, which
dropped such copies afterwards and no longer fired on any program). Gradients against
central differences on both derivative paths, no gradient sharing memory with an
argument, float32 kept."""
import numpy as np
import pytest

import s2s_ad

from derivative_paths import PATHS
from gradcheck import assert_grad_matches

RNG = np.random.default_rng(1718)


def whitened_norm(A, X):
    """0.5 * sum(Z * Z): Z's adjoint is Z itself, read only (the cholesky's adjoint)."""
    S = A @ A.T + np.eye(A.shape[0])
    L = np.linalg.cholesky(S)
    Z = np.linalg.solve(L, X.T)
    return X.shape[0] * np.sum(np.log(np.diag(L))) + 0.5 * np.sum(Z * Z)


@pytest.mark.parametrize("path", PATHS)
def test_gradient_against_differences(path):
    args = [0.3 * RNG.standard_normal(s) for s in ((4, 4), (6, 4))]
    assert_grad_matches(whitened_norm, args, wrt=(0, 1), path=path)


def test_the_read_only_adjoint_is_the_forward_array():
    args = [0.3 * RNG.standard_normal(s) for s in ((4, 4), (6, 4))]
    df = s2s_ad.grad(whitened_norm, wrt=(0,))
    df(*args)
    src = s2s_ad.derivative_source(df, *args)
    # Z's adjoint is Z itself (`Z_bar = Z`), or the closed form reads Z where it would
    # read Z_bar (`Z @ Z.T`): never a copy `Z * 1.0`
    assert ("Z_bar = Z\n" in src or "Z @ Z.T" in src) and "* 1.0" not in src
    g = df(*args)
    assert not np.shares_memory(g, args[0]) and not np.shares_memory(g, args[1])


def scaled_copy32(x):
    z = np.tanh(x)
    return 0.5 * np.sum(z * z)


def test_float32_stays_float32():
    x = RNG.standard_normal(5).astype(np.float32)
    g = s2s_ad.grad(scaled_copy32)(x)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, np.tanh(x) * (1 - np.tanh(x) ** 2), rtol=1e-5)
