"""s2s_ad.check_grads against deliberately broken templates."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad import adjoint, d


def tanh_loss(w, X):
    return np.sum(np.tanh(X @ w))


def vector_valued(x, w):
    return np.sin(x * w)


def wrong_square(x):
    return x * x


@adjoint(wrong_square)
def wrong_square_adjoint(y, x):
    """deliberately wrong: the true derivative is 2x"""
    d[x] += d[y] * 3.0 * x


def uses_wrong(x, w):
    return np.sum(wrong_square(x) * w)


def test_passes_on_correct_gradients():
    rng = np.random.default_rng(0)
    assert s2s_ad.check_grads(tanh_loss, rng.standard_normal(3), rng.standard_normal((4, 3))) \
        is None
    s2s_ad.check_grads(vector_valued, rng.standard_normal(3), rng.standard_normal(3),
                       wrt=(0, 1))


def test_reports_the_largest_discrepancy_and_its_argument():
    x = np.array([0.5, -2.0, 1.0])
    with pytest.raises(s2s_ad.GradientCheckError) as info:
        s2s_ad.check_grads(uses_wrong, x, np.ones(3), wrt=(1, 0))
    message = str(info.value)
    assert "argument 'x'" in message and "index (1,)" in message
    assert isinstance(info.value, AssertionError)


def test_order_two_is_a_clear_error_for_now():
    with pytest.raises(s2s_ad.APIUsageError, match="order"):
        s2s_ad.check_grads(tanh_loss, np.ones(2), np.ones((1, 2)), order=2)
