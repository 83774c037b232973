"""Calls that fill an existing array are index writes: `np.F(..., out=y)`, `np.copyto(y, v)`,
`y.fill(v)` and `np.fill_diagonal(y, v)` differentiate like `y[...] = ...` (and like
`y[diagonal] = v`), on both derivative paths, in grad, jvp and hvp; writes through a name
that shares y's array are refused as for any index write."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.api import general_derivative
from derivative_paths import PATHS, hvp_on, jvp_on
from gradcheck import assert_grad_matches, numeric_grad


def ufunc_out(x):
    y = np.empty_like(x)
    np.multiply(x, x, out=y)
    np.exp(y, out=y)
    return np.sum(y * x)


def clip_out_tuple(x):
    y = 2.0 * x
    np.clip(y, -1.0, 1.0, out=(y,))
    return np.sum(y ** 2 + y)


def out_result_named(x):
    y = np.zeros_like(x)
    z = np.sin(x, out=y)
    return np.sum(z * y) + np.sum(y)


def copy_into(x):
    y = np.zeros((3, len(x)))
    np.copyto(y, np.tanh(x))          # broadcast over the rows
    return np.sum(y * np.arange(3.0)[:, None]) + np.sum(y ** 2)


def filled(x):
    y = np.empty(len(x))
    y.fill(x[0] * x[1])
    y[2] = x[2]
    return np.sum(y * x)


def fill_in_a_loop(x):
    total = 0.0
    y = np.empty(3)
    for k in range(3):
        y.fill(x[k])
        total = total + np.sum(y * x[:3]) ** 2
    return total


def kernel_with_zero_diagonal(x):
    K = np.exp(-np.subtract(x[:, None], x[None, :]) ** 2)
    np.fill_diagonal(K, 0.0)
    return np.sum(K @ x)


def tall_diagonal(x):
    A = np.ones((4, 2)) * x[0]
    np.fill_diagonal(A, x[1:3])
    return np.sum(np.sin(A))


def write_into_argument(x, y):
    np.multiply(x, 3.0, out=y)
    return np.sum(y * x)


CASES = [ufunc_out, clip_out_tuple, out_result_named, copy_into, filled, fill_in_a_loop,
         kernel_with_zero_diagonal, tall_diagonal]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_fill_calls_differentiate_like_index_writes(f, path):
    x = np.random.default_rng(3).normal(size=5) * 0.8
    assert_grad_matches(f, (x,), path=path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [ufunc_out, copy_into, kernel_with_zero_diagonal],
                         ids=lambda f: f.__name__)
def test_fill_calls_in_forward_mode_and_second_order(f, path):
    rng = np.random.default_rng(4)
    x, v = rng.normal(size=5) * 0.8, rng.normal(size=5)
    value, tangent = jvp_on(path, f, (x,), v)
    assert value == pytest.approx(f(x))
    assert tangent == pytest.approx(float(numeric_grad(f, (x,), 0) @ v), rel=1e-5)
    grad = s2s_ad.grad(f)
    eps = 1e-5
    expected = (grad(x + eps * v) - grad(x - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hvp_on(path, f, (x,), v), expected, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_an_out_argument_is_not_written_in_the_caller(path):
    rng = np.random.default_rng(5)
    x, y = rng.normal(size=4), rng.normal(size=4)
    before = y.copy()
    df = s2s_ad.grad(write_into_argument, wrt=(0, 1))
    x_bar, y_bar = (df if path == "specialised" else general_derivative(df))(x, y)
    np.testing.assert_array_equal(y, before)          # f itself would write into y
    np.testing.assert_allclose(x_bar, 6.0 * x)        # sum(3 x * x)
    np.testing.assert_array_equal(y_bar, np.zeros(4))  # y's old values are overwritten


def out_into_a_view(x):
    y = x * 1.0
    v = y[:2]
    np.exp(x[:2], out=v)
    return np.sum(y)


def out_inside_an_expression(x):
    y = np.zeros_like(x)
    return np.sum(np.exp(x, out=y))


def test_out_into_a_view_is_refused_where_it_is_written():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as caught:
        s2s_ad.grad(out_into_a_view)(np.ones(3))
    assert "np.exp(x[:2], out=v)" in str(caught.value)
    assert "shares" in str(caught.value) or "same numpy array" in str(caught.value)


def test_out_inside_an_expression_is_still_refused_with_its_location():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as caught:
        s2s_ad.grad(out_inside_an_expression)(np.ones(3))
    assert "out=" in str(caught.value) and "^" in str(caught.value)
