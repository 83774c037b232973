"""A number parameter scaling a vector inside a loop (a rate, a diffusion constant): its
adjoint is one `np.dot` of two vectors per step, as a person writes it, not a product
array summed afterwards; the gradient is right on both derivative paths, in float32 and
differentiated again."""
import numpy as np
import pytest

import s2s_ad
from tests.derivative_paths import PATHS, grad_on


def logistic_steps(u0, r, dt, n_steps):
    u = u0
    for step in range(n_steps):
        u = u + dt * (r * u * (1.0 - u))
    return np.sum(u * u)


def finite_difference(f, args, k, h=1e-6):
    up, down = list(args), list(args)
    up[k], down[k] = args[k] + h, args[k] - h
    return (f(*up) - f(*down)) / (2 * h)


def test_specialised_source_takes_one_dot_per_step():
    u0 = np.linspace(0.1, 0.9, 7)
    df = s2s_ad.grad(logistic_steps, wrt=(0, 1))
    df(u0, 0.8, 0.1, 5)
    text = s2s_ad.derivative_source(df, u0, 0.8, 0.1, 5)
    assert "r_bar += np.dot(t1_1_bar, u)" in text
    assert "r_bar += np.sum(" not in text


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gradient_of_the_rate(path, dtype):
    u0 = np.linspace(0.1, 0.9, 7).astype(dtype)
    u_bar, r_bar = grad_on(path, logistic_steps, (0, 1))(u0, 0.8, 0.1, 5)
    u0_64 = u0.astype(np.float64)
    expected_r = finite_difference(logistic_steps, (u0_64, 0.8, 0.1, 5), 1)
    expected_u = [finite_difference(lambda v: logistic_steps(
        u0_64 + v * np.eye(7)[k], 0.8, 0.1, 5), (0.0,), 0) for k in range(7)]
    rtol = 1e-6 if dtype is np.float64 else 1e-3
    np.testing.assert_allclose(r_bar, expected_r, rtol=rtol)
    np.testing.assert_allclose(u_bar, expected_u, rtol=rtol)
    if path == "specialised":
        assert u_bar.dtype == dtype


def test_second_derivative_of_the_rate():
    u0 = np.linspace(0.1, 0.9, 7)
    d2 = s2s_ad.grad(s2s_ad.grad(logistic_steps, wrt=1), wrt=1)
    first = s2s_ad.grad(logistic_steps, wrt=1)
    expected = finite_difference(lambda r: first(u0, r, 0.1, 5), (0.8,), 0)
    np.testing.assert_allclose(d2(u0, 0.8, 0.1, 5), expected, rtol=1e-6)


def stencil_steps(u0, D, target, n_steps):
    u = u0
    for step in range(n_steps):
        u = u + D * (np.roll(u, 1) - 2.0 * u + np.roll(u, -1))
    return np.sum((u - target) ** 2)


def test_rolled_arrays_are_not_taped_for_their_shape():
    # the rolled values' adjoint takes its shape from the adjoint rolled back, which is
    # an array at every step (ad/carried_sums.py: u's running sum): one value per step on
    # the tape (the Laplacian, for D's np.dot), neither u nor the rolled values
    u0, target = np.linspace(0.0, 1.0, 6), np.full(6, 0.5)
    df = s2s_ad.grad(stencil_steps, wrt=(0, 1))
    df(u0, 0.2, target, 4)
    lines = s2s_ad.derivative_source(df, u0, 0.2, target, 4).splitlines()
    pushed = [line.strip()[len("_tape.append("):-1] for line in lines
              if "_tape.append(" in line]
    rolled = {line.split("=")[0].strip() for line in lines if "= np.roll(" in line}
    assert "u" not in pushed and len(pushed) == 1 and not rolled & set(pushed), pushed


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gradient_through_rolled_stencil(path, dtype):
    u0 = np.linspace(0.0, 1.0, 6).astype(dtype)
    target = np.full(6, 0.5, dtype=dtype)
    u_bar, D_bar = grad_on(path, stencil_steps, (0, 1))(u0, 0.2, target, 4)
    u64, t64 = u0.astype(np.float64), target.astype(np.float64)
    expected_D = finite_difference(stencil_steps, (u64, 0.2, t64, 4), 1)
    expected_u = [finite_difference(lambda v: stencil_steps(
        u64 + v * np.eye(6)[k], 0.2, t64, 4), (0.0,), 0) for k in range(6)]
    rtol = 1e-6 if dtype is np.float64 else 1e-3
    np.testing.assert_allclose(D_bar, expected_D, rtol=rtol)
    np.testing.assert_allclose(u_bar, expected_u, rtol=rtol, atol=1e-6)
    if path == "specialised":
        assert u_bar.dtype == dtype


def test_second_derivative_through_rolled_stencil():
    u0, target = np.linspace(0.0, 1.0, 6), np.full(6, 0.5)
    first = s2s_ad.grad(stencil_steps, wrt=1)
    second = s2s_ad.grad(first, wrt=1)
    expected = finite_difference(lambda D: first(u0, D, target, 4), (0.2,), 0)
    np.testing.assert_allclose(second(u0, 0.2, target, 4), expected, rtol=1e-6)
