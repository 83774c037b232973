"""np.sinc differentiated again and again: every order is exact, at x = 0 too, where
sinc's derivatives are 0, -pi**2/3, 0, pi**4/5 (a first derivative written with
np.where(x == 0, 0, ...) would give 0 for the second). Both derivative paths."""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on, jvp_on


def damped(x):
    return 2.0 * np.sinc(x) + x


def windowed(x):
    return np.sum(np.sinc(x) * np.cos(x))


@pytest.mark.parametrize("path", PATHS)
def test_second_derivative_of_sinc_at_zero(path):
    second = grad_on(path, s2s_ad.grad(damped))
    assert second(0.0) == pytest.approx(-2.0 * math.pi ** 2 / 3, rel=1e-12)
    assert grad_on(path, damped)(0.0) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("path", PATHS)
def test_forward_over_reverse_and_fourth_order_at_zero(path):
    first = s2s_ad.grad(damped)
    assert jvp_on(path, first, (0.0,), 1.0)[1] == pytest.approx(-2.0 * math.pi ** 2 / 3)
    third = s2s_ad.grad(s2s_ad.grad(first))
    assert third(0.0) == pytest.approx(0.0, abs=1e-9)
    assert grad_on(path, third)(0.0) == pytest.approx(2.0 * math.pi ** 4 / 5, rel=1e-10)


@pytest.mark.parametrize("path", PATHS)
def test_hessian_vector_product_through_zero(path):
    x = np.array([0.0, 0.2, -0.7, 1.5])
    v = np.array([1.0, -2.0, 0.5, 3.0])
    h = 1e-5
    g = s2s_ad.grad(windowed)
    expected = (g(x + h * v) - g(x - h * v)) / (2 * h)
    assert np.allclose(hvp_on(path, windowed, (x,), v), expected, rtol=1e-6, atol=1e-6)
