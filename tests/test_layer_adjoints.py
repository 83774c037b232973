"""The adjoints of the pieces of neural-network layers, as users write them: ReLU as
np.maximum(0, z) (one mask times the adjoint, ties at 0 keep half), on both derivative
paths, float32 kept, and the gradients of those gradients."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad


def relu_mlp(W, X, v):
    h = np.maximum(0, X @ W)
    return np.sum((h @ v) ** 2)


def relu_after(z):
    return np.sum(np.maximum(z, 0.0) * np.arange(1.0, z.size + 1.0))


def capped(z):
    return np.sum(np.minimum(1.0, z) * np.arange(1.0, z.size + 1.0))


def _mlp_args(dtype=np.float64):
    rng = np.random.default_rng(3)
    return (rng.standard_normal((4, 5)).astype(dtype), rng.standard_normal((6, 4)).astype(dtype),
            rng.standard_normal(5).astype(dtype))


@pytest.mark.parametrize("path", PATHS)
def test_relu_mlp_gradient_matches_differences(path):
    W, X, v = _mlp_args()
    g = grad_on(path, relu_mlp, 0)(W, X, v)
    assert np.allclose(g, numeric_grad(relu_mlp, (W, X, v), 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, z, expected", [
    # z == 0 is a tie of np.maximum(z, 0.0): half the adjoint; NaN passes nothing to z
    (relu_after, [-1.0, 0.0, 2.0, np.nan], [0.0, 1.0, 3.0, 0.0]),
    # np.minimum(1.0, z): z takes the adjoint where z < 1, half at 1, all of it at NaN
    (capped, [-1.0, 1.0, 2.0, np.nan], [1.0, 1.0, 0.0, 4.0]),
])
def test_kink_adjoints_keep_the_tie_and_nan_conventions(path, f, z, expected):
    g = grad_on(path, f)(np.array(z))
    assert np.array_equal(g, expected)


@pytest.mark.parametrize("path", PATHS)
def test_relu_float32_stays_float32(path):
    W, X, v = _mlp_args(np.float32)
    g = grad_on(path, relu_mlp, 0)(W, X, v)
    assert g.dtype == np.float32
    g64 = grad_on(path, relu_mlp, 0)(*(a.astype(np.float64) for a in (W, X, v)))
    assert np.allclose(g, g64, rtol=1e-4, atol=1e-5)


def test_relu_adjoint_is_one_mask_times_the_adjoint():
    """np.maximum(0, z)'s adjoint is one kink_share call: no np.where, nothing for the
    constant operand."""
    df = s2s_ad.grad(relu_mlp, 0)
    args = _mlp_args()
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert source.count("kink_share(") == 1 and "np.where" not in source


@pytest.mark.parametrize("path", PATHS)
def test_hvp_through_relu(path):
    W, X, v = _mlp_args()
    u = np.random.default_rng(4).standard_normal(W.shape)
    hv = hvp_on(path, relu_mlp, (W, X, v), u)
    dg = grad_on(path, relu_mlp, 0)
    step = 1e-6
    fd = (dg(W + step * u, X, v) - dg(W - step * u, X, v)) / (2 * step)
    assert np.allclose(hv, fd, rtol=1e-5, atol=1e-6)
