"""An adjoint assigned a matrix product (`h_bar = np.outer(g, w)`, `g @ W.T`) has its
variable's class in the in-place schedule (optimize/array_classes.py product_class), so
the arithmetic after it writes into its array: ReLU's share `kink_share(h_bar, ...,
into=h_bar)`, a normalisation's `np.multiply(t_bar, gamma, out=t_bar)`. Gradients
against central differences on both paths, float32 kept, no gradient sharing memory with
an argument; a product of mixed dtypes keeps a new array."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad


def relu_regression(W1, b1, w2, X, y):
    h = np.maximum(0, X @ W1 + b1)
    return np.mean((h @ w2 - y) ** 2)


def relu_layers(W1, W2, X, Y):
    h = np.maximum(X @ W1, 0.0)
    return np.sum((h @ W2 - Y) ** 2)


def _args(dtype=np.float64):
    rng = np.random.default_rng(261)
    return tuple(a.astype(dtype) for a in (
        rng.standard_normal((3, 5)), rng.standard_normal(5), rng.standard_normal(5),
        rng.standard_normal((7, 3)), rng.standard_normal(7)))


def _layer_args(dtype=np.float64):
    rng = np.random.default_rng(262)
    return tuple(a.astype(dtype) for a in (
        rng.standard_normal((3, 6)), rng.standard_normal((6, 2)),
        rng.standard_normal((8, 3)), rng.standard_normal((8, 2))))


CASES = [(relu_regression, _args, (0, 1, 2), "kink_share(h_bar, 0, t2_0, False, into=h_bar)"),
         (relu_layers, _layer_args, (0, 1), "into=h_bar)")]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, make, wrt, text", CASES)
def test_gradients_match_differences(path, f, make, wrt, text):
    args = make()
    grads = grad_on(path, f, wrt)(*args)
    for k, g in zip(wrt, grads):
        assert np.allclose(g, numeric_grad(f, args, k), rtol=1e-6, atol=1e-8)
        assert not any(np.shares_memory(g, a) for a in args)


@pytest.mark.parametrize("f, make, wrt, text", CASES)
def test_the_share_is_written_into_the_products_array(f, make, wrt, text):
    args = make()
    df = s2s_ad.grad(f, wrt)
    df(*args)
    assert text in s2s_ad.derivative_source(df, *args)


@pytest.mark.parametrize("f, make, wrt, text", CASES)
def test_float32_is_kept(f, make, wrt, text):
    args = make(np.float32)
    grads = s2s_ad.grad(f, wrt)(*args)
    assert all(g.dtype == np.float32 for g in grads)
    wide = tuple(a.astype(np.float64) for a in args)
    for k, g in zip(wrt, grads):
        assert np.allclose(g, numeric_grad(f, wide, k), rtol=1e-3, atol=1e-3)


def test_a_product_of_mixed_dtypes_takes_a_new_array():
    """h float32 (X, W1 float32), w2 float64: h @ w2 is float64, and so is h's adjoint
    np.outer(g, w2); h's float32 class is not its own, so no share is written into it."""
    W1, b1, w2, X, y = _args()
    args = (W1.astype(np.float32), b1.astype(np.float32), w2, X.astype(np.float32), y)
    df = s2s_ad.grad(relu_regression, (0, 1, 2))
    grads = df(*args)
    assert "into=h_bar" not in s2s_ad.derivative_source(df, *args)
    wide = tuple(np.asarray(a, dtype=np.float64) for a in args)
    for k, g in zip((0, 1, 2), grads):
        assert np.allclose(g, numeric_grad(relu_regression, wide, k), rtol=1e-3, atol=1e-3)
