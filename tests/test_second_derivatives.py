"""Second derivatives through templates that call other primitives (logaddexp2's calls
np.exp2, ptp's np.max and np.min, mod's np.floor_divide): hessian, hvp and grad of grad
against central differences of the gradient; and np.ptp's ties, which share like max's."""
import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad

RNG = np.random.default_rng(5)


def logaddexp2_sum(x):
    return np.sum(np.logaddexp2(x, 0.5) * x)


def exp2_sum(x):
    return np.sum(np.exp2(x) * np.sin(x))


def exp2_only(x):
    return np.sum(np.exp2(x))


def mod_sum(x):
    """x * x / 1.3 stays between integers for the points below: mod is smooth there"""
    return np.sum(np.mod(x * x, 1.3) * x + np.fmod(-x * x, 1.3) * x)


def ptp_of_square(x):
    return np.sum(np.ptp(x * x, axis=0) * x[0])


def _numeric_hessian(f, x, eps=1e-5):
    grad = s2s_ad.grad(f)
    columns = []
    for k in range(x.size):
        e = np.zeros_like(x)
        e.flat[k] = eps
        columns.append(((grad(x + e) - grad(x - e)) / (2 * eps)).ravel())
    return np.stack(columns, axis=-1)


@pytest.mark.parametrize("fn, x", [
    (logaddexp2_sum, np.array([1.3, 2.0, -0.7])),
    (exp2_sum, np.array([0.4, -1.1, 2.2])),
    (mod_sum, np.array([0.7, 1.5, 2.1])),
    (ptp_of_square, np.array([[0.5, -1.2], [1.4, 0.3], [-0.9, 0.8]])),
])
def test_hessian_and_hvp_match_differences_of_the_gradient(fn, x):
    H = s2s_ad.hessian(fn)(x)
    np.testing.assert_allclose(H.reshape(x.size, x.size), _numeric_hessian(fn, x),
                               rtol=1e-5, atol=1e-6)
    v = RNG.standard_normal(x.shape)
    np.testing.assert_allclose(s2s_ad.hvp(fn)(x, v).ravel(),
                               H.reshape(x.size, x.size) @ v.ravel(), rtol=1e-9, atol=1e-9)


def test_hessian_of_exp2_is_diagonal():
    x = np.array([0.4, -1.1, 2.2])
    H = s2s_ad.hessian(exp2_only)(x)
    np.testing.assert_allclose(H, np.diag(np.log(2.0) ** 2 * np.exp2(x)), rtol=1e-12)


@pytest.mark.parametrize("fn, x", [
    (exp2_only, 0.8), (logaddexp2_sum, -0.4), (mod_sum, 1.5)])
def test_grad_of_grad_of_scalars(fn, x):
    d2 = s2s_ad.grad(s2s_ad.grad(fn))
    assert d2(x) == pytest.approx(numeric_grad(s2s_ad.grad(fn), [x], 0), rel=1e-5, abs=1e-7)


def ptp_all(x):
    return np.ptp(x)


def ptp_rows(x):
    return np.sum(np.ptp(x, axis=1) * np.array([1.0, 2.0]))


def test_ptp_ties_share_the_gradient_like_max_and_min():
    x = np.array([1.0, 3.0, 3.0, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(s2s_ad.grad(ptp_all)(x), [0, 0.5, 0.5, -1 / 3, -1 / 3, -1 / 3])
    value, tangent = s2s_ad.jvp(ptp_all)(x, np.array([0.0, 2.0, 4.0, 3.0, 0.0, 0.0]))
    assert value == 3.0 and tangent == pytest.approx(3.0 - 1.0)
    rows = np.array([[2.0, 5.0, 5.0], [1.0, 1.0, 1.0]])      # a constant row: ptp is 0
    np.testing.assert_allclose(s2s_ad.grad(ptp_rows)(rows), [[-1, 0.5, 0.5], [0, 0, 0]])


def sine_of_spread_number(W, x):
    return np.sum(np.sin(np.ones_like(W) * x) * W)


def test_grad_of_grad_keeps_the_start_of_an_adjoint_added_to_in_a_branch(both_paths):
    # the general derivative's closed-form branch adds `t_bar_bar += ...` into an adjoint
    # nothing reads afterwards; dead-cycle removal dropped its `= 0.0` start and kept the
    # addition (UnboundLocalError when the second derivative ran)
    W = np.array([[1.0, 2.0], [-0.5, 0.3]])
    second = s2s_ad.grad(s2s_ad.grad(sine_of_spread_number, argnums=1), argnums=1)
    assert second(W, 0.3) == pytest.approx(-np.sum(W) * np.sin(0.3))
