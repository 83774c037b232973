"""An adjoint held as a view (a reduction's adjoint with the reduced axes put back as
length 1) passed on through elementwise statements (ad/view_adjoints.py): the gradient
against central differences on both paths wherever a view may or may not go on (an
operand of the value's shape, one broadcasting with full length on the reduced axis,
one of length 1 there or missing it, keepdims, leading axes), and the specialised
source spreading no array for the diagonal Gaussian mixture's inner sum."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, grads_against_differences
from gradcheck import numeric_grad


def mixture_nll(means, log_vars, X):
    diff = X[:, None, :] - means[None, :, :]
    log_comp = -0.5 * np.sum(diff ** 2 / np.exp(log_vars) + log_vars + np.log(2.0 * np.pi),
                             axis=2)
    m = np.max(log_comp, axis=1, keepdims=True)
    return -np.mean(m[:, 0] + np.log(np.sum(np.exp(log_comp - m), axis=1)))


def inner_sum(u, w):
    """w broadcasts against u * u: of full length on the reduced axis 1, of length 1
    there, or missing it, by the shapes given."""
    return np.sum(np.sin(np.sum(u * u * w + w, axis=1)))


def leading_sum(u, w):
    return np.sum(np.cos(np.sum(np.exp(u) * w - w, axis=0)))


def kept_sum(u, w):
    s = np.sum(u / w + 2.0 * w, axis=-1, keepdims=True)
    return np.sum(np.tanh(s) * s)


def two_axes(u, w):
    return np.sum(np.sum(u * w + u, axis=(0, 2)) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_mixture(path):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    grads_against_differences(path, mixture_nll, (rng.standard_normal((4, 3)), 0.3 * rng.standard_normal((4, 3)),
                              X), (0, 1))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("w_shape", [(5,), (1, 5), (4, 5), (4, 1), (1, 1), (), (1,)])
def test_inner_sum(path, w_shape):
    rng = np.random.default_rng(1)
    u = rng.standard_normal((4, 5))
    w = rng.standard_normal(w_shape) if w_shape else 0.7
    grads_against_differences(path, inner_sum, (u, w), (0, 1))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("w_shape", [(5,), (1, 5), (4, 5), (4, 1), (1, 1)])
def test_leading_sum(path, w_shape):
    rng = np.random.default_rng(2)
    grads_against_differences(path, leading_sum, (0.3 * rng.standard_normal((4, 5)), rng.standard_normal(w_shape)),
          (0, 1))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("w_shape", [(5,), (4, 5), (4, 1), (3, 4, 5), (3, 1, 5)])
def test_kept_sum(path, w_shape):
    rng = np.random.default_rng(3)
    grads_against_differences(path, kept_sum, (rng.standard_normal((3, 4, 5)), 1.5 + rng.random(w_shape)), (0, 1))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("w_shape", [(4, 1), (3, 4, 5), (4, 5), (5,), (3, 1, 1), (1, 4, 1)])
def test_two_axes(path, w_shape):
    rng = np.random.default_rng(4)
    grads_against_differences(path, two_axes, (rng.standard_normal((3, 4, 5)), rng.standard_normal(w_shape)), (0, 1))


def test_float32_kept():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((20, 3)).astype(np.float32)
    means = rng.standard_normal((4, 3)).astype(np.float32)
    log_vars = (0.3 * rng.standard_normal((4, 3))).astype(np.float32)
    g = s2s_ad.grad(mixture_nll, wrt=(0, 1))(means, log_vars, X)
    assert all(a.dtype == np.float32 for a in g)
    want = [numeric_grad(mixture_nll, (means.astype(float), log_vars.astype(float),
                                       X.astype(float)), k) for k in (0, 1)]
    for a, b in zip(g, want):
        np.testing.assert_allclose(a, b, rtol=2e-3, atol=1e-4)


def test_the_view_goes_on():
    """The inner sum's adjoint reaches the squared differences as the view: no array of
    (N, K, D) spread from it (`unreduce(np.expand_dims(...), diff, ...)` before), and
    log_vars' share summed from the view itself."""
    rng = np.random.default_rng(6)
    args = (rng.standard_normal((4, 3)), rng.standard_normal((4, 3)), rng.standard_normal((30, 3)))
    df = s2s_ad.grad(mixture_nll, wrt=(0, 1))
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "unreduce(" not in source
    assert "unbroadcast(np.expand_dims(" in source and ", log_vars)" in source
