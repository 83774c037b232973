"""Gradients of loops over Python numbers: the derivative specialised on numbers carries
no shape bookkeeping; the general derivative has one body (no second copy for numbers)
and stays right for numbers and arrays alike.

Each case checks the gradient on both paths against central differences, and the
specialised source for what it must not contain.
"""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on
from gradcheck import numeric_grad

GLOBAL_WEIGHTS = np.array([0.5, -0.25, 1.5])
BOOKKEEPING = ("unbroadcast", "shape_of", "placeholder", "check_scalar_output")


def recurrence(a, x0, n):
    x, total = x0, 0.0
    for _ in range(n):
        x = a * x + math.sin(x)
        total += x
    return total


def recurrence_np(a, x0, n):
    x = x0
    total = 0.0
    for _ in range(n):
        x = x * a + np.sin(x)
        total = total + x
    return np.sum(total)


def branchy(x, y):
    s = 0.0
    for i in range(6):
        if x * i > y:
            s = s + x * y
        else:
            s = s - np.tanh(x) * i
        x = x * 0.9
    return s


def grows_into_an_array(x, c):
    for _ in range(3):
        x = np.array([x, c * x]).ravel()   # a parameter's value becomes an array
        x = x * c + np.sin(x)
    return np.sum(x)


def uses_a_global_array(x, c):
    total = 0.0
    for _ in range(3):
        total = total + np.sum(x * GLOBAL_WEIGHTS * c)
        x = x * 0.5
    return total


def check(fn, args, wrt):
    """The gradient on both paths against central differences; the specialised one."""
    for path in reversed(PATHS):
        df = grad_on(path, fn, wrt)
        grads = df(*args)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for k, g in zip(wrt, grads):
            assert g == pytest.approx(numeric_grad(fn, list(args), k), rel=1e-5, abs=1e-7)
    return df, grads


def general_source(fn, wrt):
    return s2s_ad.derivative_source(s2s_ad.api.general_derivative(s2s_ad.grad(fn, wrt=wrt)))


def test_recurrence_on_numbers_has_no_bookkeeping_and_the_general_body_one_copy():
    df, grads = check(recurrence, (0.7, 0.4, 25), (0, 1))
    source = s2s_ad.derivative_source(df, 0.7, 0.4, 25)
    for helper in BOOKKEEPING:
        assert helper not in source
    assert all(type(g) in (float, np.float64) for g in grads)
    general = general_source(recurrence, (0, 1))
    # one forward loop and its reverse, no second body for numbers
    assert general.count("for _ in ") == 2 and "Python numbers" not in general


def test_integer_arguments():
    check(recurrence, (1, 0.4, 10), (0, 1))
    check(recurrence, (0.6, 2, 10), (0, 1))


def test_numbers_and_arrays_through_one_general_body():
    a = np.array([0.7, 0.2, -0.4])
    x0 = np.array([0.4, -1.0, 0.3])
    check(recurrence_np, (0.7, 0.4, 8), (0, 1))
    for path in PATHS:
        df = grad_on(path, recurrence_np, (0, 1))
        da, dx0 = df(a, x0, 8)
        assert da.shape == a.shape and dx0.shape == x0.shape
        assert da == pytest.approx(numeric_grad(recurrence_np, [a, x0, 8], 0), rel=1e-5)
        # a number broadcast against an array: its adjoint is summed back
        da, dx0 = df(0.7, x0, 8)
        assert np.ndim(da) == 0
        assert da == pytest.approx(numeric_grad(recurrence_np, [0.7, x0, 8], 0), rel=1e-5)


@pytest.mark.parametrize("x, y", [(0.8, 1.1), (-0.5, 0.3), (1.7, -2.0)])
def test_branches_inside_the_loop(x, y):
    check(branchy, (x, y), (0, 1))


def test_a_parameter_turned_into_an_array_is_not_treated_as_a_number():
    df, (dx, dc) = check(grows_into_an_array, (0.3, 0.8), (0, 1))
    assert np.ndim(dx) == 0


def test_global_arrays_are_not_numbers():
    check(uses_a_global_array, (0.3, 1.2), (0, 1))
    source = s2s_ad.derivative_source(s2s_ad.grad(uses_a_global_array, wrt=(0, 1)), 0.3, 1.2)
    assert "np.sum(" in source or "unbroadcast" in source     # its adjoint is summed


def test_the_sources_are_deterministic():
    import types
    copy = types.FunctionType(recurrence.__code__, recurrence.__globals__, "recurrence")
    assert general_source(copy, (0, 1)) == general_source(recurrence, (0, 1))
    args = (0.7, 0.2, 5)
    assert s2s_ad.derivative_source(s2s_ad.grad(copy, wrt=(0, 1)), *args) == \
        s2s_ad.derivative_source(s2s_ad.grad(recurrence, wrt=(0, 1)), *args)
