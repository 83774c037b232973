"""list(s) and tuple(s) convert a sequence: the result's derivative is the source's,
converted (issue 14: the jvp of list((x, x)) was [(1.0, 1.0)], a list holding the
tuple's tangent, and a gradient through list(t)[0] crashed)."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, central_difference, grad_on, hvp_on, jvp_on
from gradcheck import numeric_grad


def list_of_pair(x):
    return list((x, x))


def tuple_of_list(x):
    return tuple([x, 2.0 * x])


def product_of_listed(x):
    t = list((x, 2.0 * x))
    return t[0] * t[1]


def listed_variable(x):
    t = (x, 2.0 * x)
    items = list(t)
    return items[0] * items[1] + np.sum(np.array(items))


def tupled_variable(x):
    items = [np.sin(x), x * x]
    t = tuple(items)
    return t[0] * t[1]


def listed_in_loop(x):
    total = 0.0
    for k in range(3):
        t = (x * k, np.cos(x))
        items = list(t)
        total = total + items[0] * items[1]
    return total


def listed_argument(t):
    items = list(t)
    return items[0] * np.sin(items[1])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, expected", [(list_of_pair, [1.0, 1.0]),
                                         (tuple_of_list, (1.0, 2.0))],
                         ids=["list", "tuple"])
def test_tangent_of_a_conversion_is_converted_like_the_value(f, expected, path):
    value, tangent = jvp_on(path, f, (0.5,), 1.0)
    assert type(tangent) is type(value) is type(expected)
    assert tangent == expected


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [product_of_listed, listed_variable, tupled_variable,
                               listed_in_loop])
def test_gradients_through_conversions_match_differences(f, path):
    x = 0.7
    expected = numeric_grad(f, (x,), 0)
    np.testing.assert_allclose(grad_on(path, f)(x), expected, rtol=1e-6)
    np.testing.assert_allclose(jvp_on(path, f, (x,), 1.0)[1], expected, rtol=1e-6)
    np.testing.assert_allclose(hvp_on(path, f, (x,), 1.0),
                               central_difference(s2s_ad.grad(f), x, 1.0), rtol=1e-5)


@pytest.mark.parametrize("path", PATHS)
def test_a_tuple_argument_converted_gets_a_gradient_per_item(path):
    g = grad_on(path, listed_argument)((0.5, 1.2))
    np.testing.assert_allclose(np.asarray(g, dtype=float), [np.sin(1.2), 0.5 * np.cos(1.2)])


# a ufunc converts a list or tuple operand to an array before it computes (issue 14:
# np.maximum([x, 2 * x], 0.5) compared a list with a number in the gradient and crashed)
def maximum_of_list(x):
    return np.sum(np.maximum([x, 2.0 * x], 0.5))


def product_of_tuple_and_list(x):
    return np.sum(np.multiply((x, 2.0 * x), [1.0, 3.0]))


def mean_square_of_list(x):
    return np.mean(np.square([x, 2.0 * x, np.sin(x)]))


@pytest.mark.parametrize("func", [maximum_of_list, product_of_tuple_and_list,
                                  mean_square_of_list])
def test_a_ufunc_of_a_list_display_differentiates_its_array(both_paths, func):
    want = numeric_grad(func, [0.7], 0)
    assert s2s_ad.grad(func)(0.7) == pytest.approx(want, abs=1e-6)
    _, tangent = s2s_ad.jvp(func)(0.7, 1.0)
    assert tangent == pytest.approx(want, abs=1e-6)


def ode_parameters_listed(theta):
    # read as a person writing the gradient by hand reads them: Python floats
    a, b, c = theta.tolist()
    y = 1.0
    for _ in range(4):
        y = y + 0.1 * (a * y - b * y * y + np.sin(c))
    return y


def rows_listed(X):
    rows = X.tolist()
    first, last = rows[0], rows[-1]
    return first[1] * last[0] + sum(last) ** 2 + np.sum(np.array(first) * X[1])


@pytest.mark.parametrize("path", PATHS)
def test_tolist_of_an_array(path):
    # (session 22) `x.tolist()` was refused ("the array method `.tolist()` is not
    # supported"); its adjoint is the lists' adjoint laid out as x (runtime_shape.array_tolist)
    from derivative_paths import check_against_differences
    check_against_differences(path, ode_parameters_listed, np.array([0.8, 0.3, 0.4]))
    check_against_differences(path, rows_listed, np.linspace(-1.0, 1.2, 6).reshape(2, 3))


def test_tolist_keeps_the_arrays_dtype_and_reads_python_floats():
    theta = np.array([0.8, 0.3, 0.4], dtype=np.float32)
    g = s2s_ad.grad(ode_parameters_listed)(theta)
    assert g.dtype == np.float32 and g.shape == (3,)
    np.testing.assert_allclose(g, s2s_ad.grad(ode_parameters_listed)(theta.astype(float)),
                               rtol=1e-5)
    # the specialised derivative knows the items are Python floats: no shape checks
    source = s2s_ad.derivative_source(s2s_ad.grad(ode_parameters_listed), theta)
    assert "array_tolist(theta)" in source and "check_" not in source
