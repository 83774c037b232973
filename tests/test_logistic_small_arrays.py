"""runtime.logistic on small float arrays (the derivative of np.logaddexp, softplus losses
at N=100): exp's argument is capped in one pass instead of entering np.errstate, whose
Python-level cost outweighs a pass below ~3000 elements. The values, dtypes and the absence
of overflow warnings are those of the errstate path, at every size and extreme."""
import math
import warnings

import numpy as np
import pytest

from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad
from s2s_ad import runtime


def exact(values):
    """The logistic of each value, in Python floats (math.exp never overflows here)."""
    out = []
    for v in values:
        out.append(1.0 / (1.0 + math.exp(-v)) if v >= 0 else math.exp(v) / (1.0 + math.exp(v)))
    return np.array(out)


EXTREMES = [-1e5, -800.0, -745.0, -700.0, -100.0, -30.0, -1.0, -1e-9, 0.0, 1e-9, 2.0,
            36.0, 700.0, 800.0, 1e5]


@pytest.mark.parametrize("n", [3, 15, 100, 4095, 4096, 5000])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_values_dtype_and_no_warnings(n, dtype):
    x = np.resize(np.array(EXTREMES), n).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = runtime.logistic(x)
        shifted = runtime.logistic(x, np.float32(0.5) if dtype is np.float32 else 0.5)
    assert got.dtype == dtype and got.shape == x.shape
    tiny = np.finfo(dtype).tiny
    want = exact(x.astype(np.float64))
    # relative precision down to the smallest normal number; below it 0.0 or a subnormal
    normal = want > tiny
    np.testing.assert_allclose(got[normal], want[normal], rtol=8 * np.finfo(dtype).eps)
    assert np.all(got[~normal] <= tiny) and np.all(got[~normal] >= 0.0)
    want_shifted = exact(x.astype(np.float64) - 0.5)
    normal = want_shifted > tiny
    np.testing.assert_allclose(shifted[normal], want_shifted[normal],
                               rtol=8 * np.finfo(dtype).eps)


def test_small_arrays_enter_no_errstate(monkeypatch):
    """The cheap path is taken: a small float array neither enters np.errstate nor calls
    np.logaddexp (fails with either of the earlier forms); a large one enters errstate."""
    entered = []
    monkeypatch.setattr(np, "logaddexp", lambda *a, **k: entered.append("logaddexp"))
    errstate = np.errstate

    class Counting:
        def __init__(self, **kw):
            self.inner = errstate(**kw)

        def __enter__(self):
            entered.append(1)
            return self.inner.__enter__()

        def __exit__(self, *exc):
            return self.inner.__exit__(*exc)

    monkeypatch.setattr(runtime.np, "errstate", Counting)
    for x in (np.linspace(-800.0, 800.0, 100), np.ones((3, 4), dtype=np.float32)):
        runtime.logistic(x)
    assert not entered
    runtime.logistic(np.linspace(-800.0, 800.0, 5000))
    assert entered


def test_numbers_and_other_inputs_unchanged():
    assert runtime.logistic(0.0) == 0.5 and np.ndim(runtime.logistic(0.0)) == 0
    assert type(runtime.logistic(np.float32(-3.0))) is np.float32
    assert np.ndim(runtime.logistic(np.array(2.0))) == 0
    np.testing.assert_allclose(runtime.logistic([1, 2]), exact([1.0, 2.0]), rtol=1e-15)
    assert runtime.logistic(np.array([1, 2])).dtype == np.float64        # ints: float64
    assert runtime.logistic(np.zeros((0, 3))).shape == (0, 3)
    grid = runtime.logistic(np.array([1.0, 2.0]), np.array([[0.0], [1.0]]))
    np.testing.assert_allclose(grid, exact([1.0, 2.0, 0.0, 1.0]).reshape(2, 2), rtol=1e-15)


def softplus_loss(w, X, y):
    z = X @ w
    return np.mean(np.logaddexp(0.0, z) - y * z)


def softplus_of_difference(a, b):
    return np.sum(np.logaddexp(a, b) * np.cos(a))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("n", [7, 100, 6000])
def test_softplus_gradients_against_differences(path, n):
    rng = np.random.default_rng(n)
    X = 3.0 * rng.standard_normal((n, 4))
    y = (rng.random(n) < 0.5).astype(float)
    w = rng.standard_normal(4)
    np.testing.assert_allclose(grad_on(path, softplus_loss)(w, X, y),
                               numeric_grad(softplus_loss, (w, X, y), 0), rtol=1e-6, atol=1e-9)
    m = min(n, 300)         # (central differences of a sum of 3 x 6000 terms lose 1e-6)
    a, b = rng.standard_normal((3, m)), rng.standard_normal(m)
    for wrt in (0, 1):
        np.testing.assert_allclose(grad_on(path, softplus_of_difference, wrt)(a, b),
                                   numeric_grad(softplus_of_difference, (a, b), wrt),
                                   rtol=1e-6, atol=1e-7)


def test_float32_softplus_gradient_stays_float32():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((50, 4)).astype(np.float32)
    y = (rng.random(50) < 0.5).astype(np.float32)
    w = rng.standard_normal(4).astype(np.float32)
    g = grad_on("specialised", softplus_loss)(w, X, y)
    assert g.dtype == np.float32
    want = numeric_grad(softplus_loss, (w.astype(float), X.astype(float), y.astype(float)), 0)
    np.testing.assert_allclose(g, want, rtol=2e-3, atol=1e-5)
