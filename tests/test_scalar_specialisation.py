"""Gradients of loops over Python numbers get a branch without shape bookkeeping.

The branch is taken only when every argument is a Python number; each case checks the
gradient on numbers (the branch) and on arrays (the general body) against central
differences, and the branch's source for what it must and must not contain.
"""
import math

import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad

GLOBAL_WEIGHTS = np.array([0.5, -0.25, 1.5])
BRANCH = "all arguments are Python numbers"


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


def scalar_source(df):
    source = s2s_ad.derivative_source(df)
    return source.split(BRANCH)[1].split("\n\n    ")[0] if BRANCH in source else None


def check(fn, args, wrt):
    df = s2s_ad.grad(fn, wrt=wrt)
    grads = df(*args)
    grads = grads if isinstance(grads, tuple) else (grads,)
    for k, g in zip(wrt, grads):
        assert g == pytest.approx(numeric_grad(fn, list(args), k), rel=1e-5, abs=1e-7)
    return df, grads


def test_recurrence_on_numbers_takes_a_branch_without_bookkeeping():
    df, grads = check(recurrence, (0.7, 0.4, 25), (0, 1))
    branch = scalar_source(df)
    assert branch is not None
    for helper in ("unbroadcast", "shape_of", "placeholder", "check_scalar_output"):
        assert helper not in branch
    assert all(type(g) in (float, np.float64) for g in grads)


def test_integer_arguments_take_the_branch_too():
    check(recurrence, (1, 0.4, 10), (0, 1))
    check(recurrence, (0.6, 2, 10), (0, 1))


def test_arrays_take_the_general_body():
    a = np.array([0.7, 0.2, -0.4])
    x0 = np.array([0.4, -1.0, 0.3])
    df = s2s_ad.grad(recurrence_np, wrt=(0, 1))
    assert scalar_source(df) is not None
    check(recurrence_np, (0.7, 0.4, 8), (0, 1))
    da, dx0 = df(a, x0, 8)
    assert da.shape == a.shape and dx0.shape == x0.shape
    assert da == pytest.approx(numeric_grad(recurrence_np, [a, x0, 8], 0), rel=1e-5)
    # a number broadcast against an array: the general body sums its adjoint back
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
    df, _ = check(uses_a_global_array, (0.3, 1.2), (0, 1))
    branch = scalar_source(df)
    assert branch is None or "unbroadcast" in branch


def test_straight_line_code_gets_no_branch():
    def f(x, y):
        return math.exp(x) * y + x ** 2

    assert BRANCH not in s2s_ad.derivative_source(s2s_ad.grad(f, wrt=(0, 1)))


def test_the_specialised_source_is_deterministic():
    import types
    copy = types.FunctionType(recurrence.__code__, recurrence.__globals__, "recurrence")
    general = s2s_ad.api.general_derivative
    assert s2s_ad.derivative_source(general(s2s_ad.grad(copy, wrt=(0, 1)))) == \
        s2s_ad.derivative_source(general(s2s_ad.grad(recurrence, wrt=(0, 1))))
    args = (0.7, 0.2, 5)
    assert s2s_ad.derivative_source(s2s_ad.grad(copy, wrt=(0, 1)), *args) == \
        s2s_ad.derivative_source(s2s_ad.grad(recurrence, wrt=(0, 1)), *args)
