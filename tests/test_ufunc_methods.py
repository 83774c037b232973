"""A numpy ufunc's methods as users call them: `np.subtract.outer(x, c)` (any binary ufunc's
outer: F of x with c's axes appended, and c), `np.add.reduce` / `np.multiply.reduce` /
`np.maximum.reduce` / `np.minimum.reduce` (np.sum / prod / max / min over axis 0 unless
given) and `np.add.accumulate` / `np.multiply.accumulate` (np.cumsum / cumprod), on both
derivative paths, to second order; other methods are a located error."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on, jvp_on
from gradcheck import numeric_grad


def rbf_features(x, c):
    return np.sum(np.exp(-np.subtract.outer(x, c) ** 2) @ np.arange(1.0, 4.0))


def outer_of_a_matrix(x, c):
    return np.sum(np.sin(np.multiply.outer(x.reshape(2, 2), c)))


def reductions(x, c):
    return np.add.reduce(x * x) + np.multiply.reduce(c) + np.maximum.reduce(x * c[0]) \
        - np.minimum.reduce(x)


def accumulations(x, c):
    return np.sum(np.add.accumulate(x) ** 2) + np.sum(np.multiply.accumulate(c[:, None] * x, 1))


CASES = [rbf_features, outer_of_a_matrix, reductions, accumulations]
X = np.array([0.3, -0.7, 1.1, 0.2])
C = np.array([0.5, -0.4, 0.9])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_gradients_agree_with_differences(f, path):
    got = grad_on(path, f, (0, 1))(X, C)
    for k, g in enumerate(got):
        np.testing.assert_allclose(g, numeric_grad(f, (X, C), k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_forward_mode_and_second_order(f, path):
    v = np.array([0.4, 0.1, -0.5, 0.8])
    value, tangent = jvp_on(path, f, (X, C), v)
    assert value == pytest.approx(f(X, C))
    assert tangent == pytest.approx(float(numeric_grad(f, (X, C), 0) @ v), rel=1e-6)
    grad = s2s_ad.grad(f)
    eps = 1e-5
    expected = (grad(X + eps * v, C) - grad(X - eps * v, C)) / (2 * eps)
    np.testing.assert_allclose(hvp_on(path, f, (X, C), v), expected, rtol=1e-5, atol=1e-7)


def test_the_specialised_outer_reduces_only_over_the_broadcast_axes():
    """outer_operand's result kind is a fact: x's adjoint is a sum over c's axis, no
    unbroadcast of unknown shapes."""
    df = s2s_ad.grad(rbf_features, (0, 1))
    df(X, C)
    source = s2s_ad.derivative_source(df, X, C)
    assert "outer_operand(x, c)" in source and "unbroadcast" not in source


def hypot_reduced(x):
    return np.hypot.reduce(x)


def test_a_method_without_a_rule_is_a_located_error():
    # (np.logaddexp.reduce has its rule: tests/test_log_scans.py)
    with pytest.raises(s2s_ad.MissingDerivativeError) as caught:
        s2s_ad.grad(hypot_reduced)(X)
    assert "np.hypot.reduce(x)" in str(caught.value) and "^" in str(caught.value)
