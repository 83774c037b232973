"""What JAX users look for: has_aux, argnums, one (value, gradient) order."""
import numpy as np
import pytest

import s2s_ad
from paths import fresh


def with_aux(x, w):
    h = np.tanh(x * w)
    loss = np.sum(h ** 2)
    return loss, h


def branch_aux(x):
    if x > 0:
        return x * x, "positive"
    return -x, "negative"


def loop_aux(x, n):
    for _ in range(n):
        x = np.sin(x)
    return x * 2.0, x


def _expected(x, w):
    h = np.tanh(x * w)
    return 2 * h * (1 - h * h) * w


def test_has_aux_returns_the_aux_unchanged(both_paths):
    x, w = np.array([0.3, -0.7]), np.array([1.5, 0.5])
    g, aux = s2s_ad.grad(fresh(with_aux), has_aux=True)(x, w)
    np.testing.assert_allclose(g, _expected(x, w))
    np.testing.assert_allclose(aux, np.tanh(x * w))
    (value, aux), g = s2s_ad.value_and_grad(fresh(with_aux), has_aux=True)(x, w)
    assert value == pytest.approx(np.sum(np.tanh(x * w) ** 2))
    np.testing.assert_allclose(g, _expected(x, w))
    assert s2s_ad.grad(fresh(branch_aux), has_aux=True)(2.0) == (4.0, "positive")
    assert s2s_ad.grad(fresh(branch_aux), has_aux=True)(-2.0) == (-1.0, "negative")
    # the backward sweep restores x to earlier values: the aux is the value f returned
    (value, aux), g = s2s_ad.value_and_grad(fresh(loop_aux), has_aux=True)(0.5, 3)
    assert aux == pytest.approx(np.sin(np.sin(np.sin(0.5))))
    assert value == pytest.approx(2 * aux)
    eps = 1e-6
    assert g == pytest.approx((loop_aux(0.5 + eps, 3)[0] - loop_aux(0.5 - eps, 3)[0])
                              / (2 * eps), rel=1e-6)


def test_has_aux_needs_a_pair():
    def single(x):
        return x * x
    with pytest.raises(s2s_ad.APIUsageError, match="pair") as info:
        s2s_ad.grad(single, has_aux=True)
    assert "^" in str(info.value)


def test_argnums_is_wrt(both_paths):
    x, w = np.array([0.3, -0.7]), np.array([1.5, 0.5])
    by_wrt = s2s_ad.grad(fresh(with_aux), wrt=(0, 1), has_aux=True)(x, w)[0]
    by_argnums = s2s_ad.grad(fresh(with_aux), argnums=(0, 1), has_aux=True)(x, w)[0]
    for a, b in zip(by_wrt, by_argnums):
        np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(s2s_ad.grad(fresh(with_aux), argnums=1, has_aux=True)(x, w)[0],
                               _expected(w, x))         # x * w is symmetric in x and w
    vf = s2s_ad.vjp(lambda_free_layer, argnums=1)
    np.testing.assert_allclose(vf(x, w, np.ones(2)), x)
    with pytest.raises(s2s_ad.APIUsageError, match="argnums"):
        s2s_ad.grad(with_aux, wrt=1, argnums=0)


def lambda_free_layer(x, w):
    return x * w


def test_preserve_result_and_value_and_grad_agree(both_paths):
    x, w = np.array([0.3, -0.7]), np.array([1.5, 0.5])

    def loss(x, w):
        return np.sum(np.tanh(x * w) ** 2)
    kept = s2s_ad.grad(fresh(loss), wrt=1, preserve_result=True)(x, w)
    both = s2s_ad.value_and_grad(fresh(loss), wrt=1)(x, w)
    assert kept[0] == pytest.approx(both[0]) == pytest.approx(loss(x, w))   # value first
    np.testing.assert_allclose(kept[1], both[1])
