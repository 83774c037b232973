"""float32 in, float32 out through the selecting functions: np.maximum / np.minimum /
np.fmax / np.fmin (their adjoints select from the incoming adjoint with np.where) and a
full reduction's seed through np.where of two numbers (which numpy would make float64);
hessian and jacobian of float32 arguments."""
import numpy as np
import pytest

from derivative_paths import PATHS, grad_on, jvp_on
from gradcheck import numeric_grad


def relu_energy(x):
    return np.sum(np.maximum(x, 0.0) * 2.0)


def capped_square(x):
    return np.sum(np.minimum(x, 0.5) ** 2)


def nan_safe_max(x):
    return np.sum(np.fmax(x, 0.1 * x) + np.fmin(x, -0.25))


def leaky(x):
    return np.sum(np.where(x > 0, x, 0.1 * x))


X32 = np.array([0.3, -0.2, 0.5, 0.5], dtype=np.float32)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [relu_energy, capped_square, nan_safe_max, leaky])
def test_float32_gradients_through_selections(path, f):
    g = grad_on(path, f)(X32)
    assert g.dtype == np.float32
    x64 = X32.astype(np.float64)
    assert np.allclose(g, numeric_grad(f, (x64,), 0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_ties_split_the_adjoint_in_half_both_ways(path):
    def both(x, y):
        return np.sum(np.maximum(x, y) * np.array([1.0, 2.0]))
    x, y = np.array([0.5, 1.0]), np.array([0.5, 0.0])
    gx = grad_on(path, both, 0)(x, y)
    gy = grad_on(path, both, 1)(x, y)
    assert np.allclose(gx, [0.5, 2.0]) and np.allclose(gy, [0.5, 0.0])
    _, tangent = jvp_on(path, both, (x, y), np.array([1.0, 1.0]))
    assert tangent == pytest.approx(0.5 + 2.0)


def tanh_energy(x):
    return np.sum(np.tanh(x) ** 2)


def doubled_tanh(x):
    return np.tanh(x) * 2.0


def test_hessian_and_jacobian_keep_float32():
    import s2s_ad
    assert s2s_ad.hessian(tanh_energy)(X32).dtype == np.float32
    assert s2s_ad.jacobian(doubled_tanh)(X32).dtype == np.float32
    assert s2s_ad.jacobian(doubled_tanh, mode="reverse")(X32).dtype == np.float32
    h64 = s2s_ad.hessian(tanh_energy)(X32.astype(np.float64))
    assert h64.dtype == np.float64
    assert np.allclose(s2s_ad.hessian(tanh_energy)(X32), h64, rtol=1e-4, atol=1e-6)
