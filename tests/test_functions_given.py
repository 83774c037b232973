"""Nested functions and lambdas given to a def of the user's (issue 15, points 1-2): the def
is inlined into f, the function inlined where the def calls it, reading f's variables
(a closure over an array computed from x has a derivative through it). Both derivative
paths; grad, value_and_grad, vjp, jvp, hvp and grad of grad against central differences."""
import inspect

import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import UnsupportedSyntaxError
from derivative_paths import PATHS, check_against_differences, grad_on, on_path


def apply(g, v):
    return np.sum(g(v))


def twice(g, v):
    return g(g(v))


def repeated(g, v, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(g(v * (i + 1)))
    return s


def both(g, v):
    # passes the function it was given on to other defs
    return apply(g, v) + np.sum(twice(g, v))


def closure_over_active(x):
    b = 2.0 * x
    def act(z):
        return np.tanh(z) * b
    return apply(act, x) + apply(g=act, v=x ** 2)


def lambda_over_active(x):
    c = np.cos(x)
    return repeated(lambda z: np.sin(z) * c, x, 3)


def lambda_passed_on(x):
    w = x[0]
    return both(lambda z: z * w + np.sin(z), x)


def nested_def_given_lambda(x):
    def run(g, v):
        return g(v) * v
    s = np.sum(x)
    return np.sum(run(lambda z: z * s, x))


def lambda_shadowing_a_local(x):
    def act(z):
        return z ** 3
    return np.sum(twice(act, x)) + apply(lambda z: z * x[1], np.exp(x))


def nested_with_loop(x):
    def act(z):
        s = 0.0
        for i in range(3):
            s = s + np.sum(np.sin(z) * (i + 1))
        return s
    return act(x) + apply(np.exp, x)


CASES = [closure_over_active, lambda_over_active, lambda_passed_on, nested_def_given_lambda,
         lambda_shadowing_a_local, nested_with_loop]
X = np.array([0.3, -0.5, 0.7])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_function_given_to_a_def_against_differences(f, path):
    check_against_differences(path, f, X)


@pytest.mark.parametrize("f", CASES[:3], ids=lambda f: f.__name__)
def test_value_and_grad_vjp_and_grad_of_grad(f):
    value, gradient = s2s_ad.value_and_grad(f)(X)
    assert value == pytest.approx(f(X))
    np.testing.assert_allclose(gradient, s2s_ad.grad(f)(X))
    np.testing.assert_allclose(s2s_ad.vjp(f)(X, 2.0), 2.0 * gradient)
    s2s_ad.check_grads(f, X, order=2)
    df = s2s_ad.grad(f)

    def gradient_sum(x):
        return np.sum(df(x) * np.arange(1.0, 4.0))
    s2s_ad.check_grads(gradient_sum, X)


def make_loss(X_data, y):
    def loss(w):
        return np.sum((X_data @ w - y) ** 2)
    return loss


@pytest.mark.parametrize("path", PATHS)
def test_a_closure_a_helper_returns(path):
    # its free variables are constants of the derivative
    X_data = np.arange(6.0).reshape(3, 2) / 5
    y = np.array([1.0, 2.0, 3.0])
    w = np.array([0.3, -0.2])
    loss = make_loss(X_data, y)
    np.testing.assert_allclose(grad_on(path, loss)(w), 2 * X_data.T @ (X_data @ w - y))


def reads_scale(g, v):
    return np.sum(g(v)) * scale


scale = 3.0


def shadows_the_helpers_global(x):
    scale = 2.0 * x
    return reads_scale(lambda z: z * scale, x)


def given_to_numpy(x):
    def act(v):
        return np.sum(v ** 2)
    return np.sum(np.apply_along_axis(act, 0, x))


def returns_the_closure(x):
    def act(z):
        return z * x
    return act


def writes_a_cell(x):
    total = 0.0
    def add(z):
        nonlocal total
        total = total + z
        return total
    return np.sum(add(x))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, says", [
    (shadows_the_helpers_global, "the `scale` it reads means something else in f"),
    (given_to_numpy, "not a def of yours"),
    (returns_the_closure, "is used as a value"),
    (writes_a_cell, "`nonlocal`"),
], ids=["shadowed-global", "numpy-callee", "returned", "nonlocal"])
def test_what_cannot_work_is_a_located_error(f, says, path):
    with pytest.raises(UnsupportedSyntaxError, match=says) as caught:
        on_path(s2s_ad.grad(f), path)(X)
    where = caught.value.location
    assert where.filename == __file__
    assert where.source_line.strip() in inspect.getsource(f)
    assert "^" in str(caught.value)


def gradient_of_a_nested_def(x):
    def product(y):
        return y[0] * y[1]
    return np.sum(np.sin(np.array(s2s_ad.grad(product)((x, x)))))


def product_of_items(y):
    return y[0] * y[1]


def gradient_of_a_module_def(x):
    return np.sum(np.sin(np.array(s2s_ad.grad(product_of_items)((x, x)))))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [gradient_of_a_nested_def, gradient_of_a_module_def],
                         ids=["nested", "module-level"])
def test_a_gradient_taken_inside_f_and_differentiated_twice(f, path):
    """s2s_ad.grad of a nested def that reads none of f's variables (made from its code
    object); f is 2 sin(x). Its second derivative went through take_adjoint's adjoint of
    a tuple, which returned the scalar it was given (twice the right value)."""
    assert grad_on(path, f)(5.0) == pytest.approx(2.0 * np.cos(5.0))
    second = on_path(s2s_ad.grad(s2s_ad.grad(f)), path)(10.0)
    assert second == pytest.approx(-2.0 * np.sin(10.0))
    s2s_ad.check_grads(f, 5.0, order=2)


def gradient_of_a_closure(x):
    c = 2.0 * x
    def inner(y):
        return y * c
    return s2s_ad.grad(inner)(x)


@pytest.mark.parametrize("path", PATHS)
def test_a_gradient_of_a_closure_inside_f(path):
    """Was "not a def of yours": inner reads f's c, so it is lifted to take c (f is 2x
    through c; tests/test_function_values_s12.py checks it every way)."""
    assert grad_on(path, gradient_of_a_closure)(1.0) == pytest.approx(2.0)
