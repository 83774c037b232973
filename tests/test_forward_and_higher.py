"""Forward mode, Jacobians, Hessian-vector products, Hessians and grad of grad, against
finite differences of values and of gradients, including through loops and branches."""
import math

import numpy as np
import pytest

import s2s_ad
from gradcheck import forward_check, numeric_grad
from programs import branches as br
from programs import loops as lp

RNG = np.random.default_rng(11)


def seed_example(x1, x2):
    return np.exp(2 * x1) + x1 * x2 ** 2 + np.cos(x2)


def vector_function(x, w):
    return np.tanh(x * w) + x ** 2


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def looped(x, n=4):
    h = x
    for _ in range(n):
        h = np.sin(h) * 1.1 + 0.1 * h
    return np.sum(h * h)


def branched(x):
    if np.sum(x) > 0.0:
        return np.sum(x ** 3)
    return np.sum(np.exp(x))


def test_jvp_matches_grad_and_finite_differences():
    value, derivative = s2s_ad.jvp(seed_example, wrt=(0, 1))(1.0, 2.0, (1.0, 0.0))
    assert value == pytest.approx(seed_example(1.0, 2.0))
    assert derivative == pytest.approx(2 * np.e ** 2 + 4)
    forward_check(vector_function, [RNG.standard_normal(4), RNG.standard_normal(4)], (0, 1))


@pytest.mark.parametrize("fn, make", [
    (lp.running_product, lambda: [RNG.uniform(0.5, 1.5, 5)]),
    (looped, lambda: [RNG.standard_normal(3)]),
    (branched, lambda: [RNG.uniform(0.2, 1.0, 3)]),
    (branched, lambda: [RNG.uniform(-1.0, -0.2, 3)]),
])
def test_jvp_through_loops_and_branches(fn, make):
    forward_check(fn, make(), (0,))


@pytest.mark.parametrize("mode", ["forward", "reverse"])
def test_jacobian_shapes_and_values(mode):
    x, w = RNG.standard_normal(3), RNG.standard_normal(3)
    J = s2s_ad.jacobian(vector_function, wrt=0, mode=mode)(x, w)
    assert J.shape == (3, 3)
    expected = np.diag(w * (1 - np.tanh(x * w) ** 2) + 2 * x)
    np.testing.assert_allclose(J, expected, rtol=1e-10, atol=1e-12)
    Jx, Jw = s2s_ad.jacobian(vector_function, wrt=(0, 1), mode=mode)(x, w)
    np.testing.assert_allclose(Jw, np.diag(x * (1 - np.tanh(x * w) ** 2)), atol=1e-12)


def _numeric_hessian(f, x, eps=1e-5):
    grad = s2s_ad.grad(f)
    columns = []
    for k in range(x.size):
        e = np.zeros_like(x)
        e[k] = eps
        columns.append((grad(x + e) - grad(x - e)) / (2 * eps))
    return np.stack(columns, axis=-1)


@pytest.mark.parametrize("fn, x", [
    (rosenbrock, np.array([0.3, -0.4, 1.2, 0.8])),
    (looped, np.array([0.2, -0.5, 0.9])),
    (branched, np.array([0.4, 0.3, 0.9])),
    (branched, np.array([-0.4, -0.3, -0.9])),
])
def test_hessian_and_hvp_match_differences_of_the_gradient(fn, x):
    H = s2s_ad.hessian(fn)(x)
    np.testing.assert_allclose(H, _numeric_hessian(fn, x), rtol=1e-5, atol=1e-6)
    v = RNG.standard_normal(x.shape)
    np.testing.assert_allclose(s2s_ad.hvp(fn)(x, v), H @ v, rtol=1e-9, atol=1e-9)


def test_hessian_of_a_scalar_function_is_a_float():
    H = s2s_ad.hessian(seed_example, wrt=0)(1.0, 2.0)
    assert H == pytest.approx(4 * np.e ** 2)


@pytest.mark.parametrize("x", [0.3, 1.2])
def test_grad_of_grad(x):
    def f(x):
        return np.sin(x) * x ** 3

    d2 = s2s_ad.grad(s2s_ad.grad(f))
    expected = numeric_grad(s2s_ad.grad(f), [x], 0)
    assert d2(x) == pytest.approx(expected, rel=1e-6)
    assert d2(x) == pytest.approx(-np.sin(x) * x ** 3 + 6 * x ** 2 * np.cos(x) + 6 * x * np.sin(x))


def scalar_loop(x, n=5):
    y = x
    for _ in range(n):
        y = y * 0.8 + np.sin(y)
    return y


def shapes_on_the_tape(x, a=1.3):
    """Its gradient restores values it reads only for their shape (`placeholder(pop)`):
    reversing that gradient must put those items back on the tape."""
    s = 0.0
    for _ in range(4):
        s += x * a
        x *= 0.9
        s -= math.exp(-x)
    return s


@pytest.mark.parametrize("fn, x", [(scalar_loop, 0.7), (shapes_on_the_tape, 0.6),
                                   (br.piecewise_two, -0.6),
                                   (br.piecewise_two, 0.9), (br.piecewise_three, 0.3)])
def test_grad_of_grad_through_loops_and_branches(fn, x):
    d2 = s2s_ad.grad(s2s_ad.grad(fn))
    assert d2(x) == pytest.approx(numeric_grad(s2s_ad.grad(fn), [x], 0), rel=1e-5, abs=1e-7)


def test_newton_example_converges_quadratically():
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "examples"))
    import newton
    x, history = newton.newton([-0.5, 1.0], verbose=False)
    assert np.linalg.norm(s2s_ad.grad(newton.objective)(x)) < 1e-10
    assert len(history) <= 13


def test_hessian_free_example_reaches_the_optimum():
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "examples"))
    import hessian_free
    import logistic_regression
    w, losses = hessian_free.hessian_free(steps=5, verbose=False)
    X, y = logistic_regression.make_data()
    assert np.linalg.norm(s2s_ad.grad(logistic_regression.negative_log_likelihood)(w, X, y)) \
        < 1e-4
    assert losses[-1] < losses[0]


def mlp_like(W, x):
    return np.sum(np.tanh(x @ W) ** 2)


GRAD_MLP = s2s_ad.grad(mlp_like)


def gradient_norm(W, x):
    return np.sum(GRAD_MLP(W, x) ** 2)


def test_differentiating_through_a_generated_gradient_with_arrays():
    W, x = RNG.standard_normal((3, 2)), RNG.standard_normal((4, 3))
    g = s2s_ad.grad(gradient_norm)(W, x)
    np.testing.assert_allclose(g, numeric_grad(gradient_norm, [W, x], 0), rtol=1e-5, atol=1e-7)
    H = s2s_ad.jacobian(s2s_ad.grad(mlp_like), mode="reverse")(W, x)
    np.testing.assert_allclose(H.reshape(6, 6), s2s_ad.hessian(mlp_like)(W, x).reshape(6, 6),
                               rtol=1e-8, atol=1e-10)


def test_forward_over_forward():
    def f(x):
        return np.sin(x) * x

    first = s2s_ad.jvp(f)

    def derivative(x):
        return first(x, 1.0)[1]

    assert s2s_ad.jvp(derivative)(0.4, 1.0)[1] == pytest.approx(
        2 * np.cos(0.4) - 0.4 * np.sin(0.4))


def product_loss(x):
    return np.prod(x) + np.sum(x ** 2)


def test_hessian_through_a_product_with_an_exact_zero():
    x = np.array([1.5, 0.0, -2.0, 0.7])
    H = s2s_ad.hessian(product_loss)(x)
    assert np.all(np.isfinite(H))
    np.testing.assert_allclose(H, _numeric_hessian(product_loss, x), rtol=1e-5, atol=1e-6)


def _rounded_count(x):
    """Declared nondifferentiable below; its body is not differentiable code."""
    try:
        return float(np.round(np.sum(x)))
    except TypeError:
        return 0.0


s2s_ad.nondifferentiable(_rounded_count)


def _scaled_by_count(x):
    total = 0.0
    for _ in range(2):
        c = _rounded_count(x)      # c is active (below), this definition of it is not
        c = c * x
        total = total + np.sum(c * x)
    return total


def test_a_declared_nondifferentiable_function_is_not_differentiated_in_forward_mode():
    x = np.array([0.4, 1.3, 0.9])
    v = np.array([1.0, -2.0, 0.5])
    count = _rounded_count(x)
    expected = 2 * np.sum(2 * x * v) * count
    assert s2s_ad.jvp(_scaled_by_count)(x, v)[1] == pytest.approx(expected)
    np.testing.assert_allclose(s2s_ad.grad(_scaled_by_count)(x), 4 * x * count)


def _leapfrog(q, p, dt=0.1):
    for _ in range(5):
        p = p - 0.5 * dt * np.sin(q)
        q = q + dt * p
        p = p - 0.5 * dt * np.sin(q)
    return np.sum(q ** 2) + np.sum(p ** 2)


def _while_sum(x):
    s, i = 0.0, 0
    while i < len(x):
        s = s + np.exp(x[i]) * x[i]
        i += 1
    return s


def test_jvp_wrt_one_argument_that_a_loop_mixes_with_another():
    """p is not differentiated, but the loop gives it values that depend on q."""
    q, p = np.array([0.1, 0.2, -0.4]), np.array([0.3, -0.1, 0.5])
    v = np.array([1.0, 0.5, -2.0])
    _, t = s2s_ad.jvp(_leapfrog, wrt=0)(q, p, v)
    eps = 1e-6
    assert t == pytest.approx((_leapfrog(q + eps * v, p) - _leapfrog(q - eps * v, p)) / (2 * eps),
                              rel=1e-6)


@pytest.mark.parametrize("fn, args", [(_leapfrog, (np.array([0.1, 0.2]), np.array([0.3, -0.1]))),
                                      (_while_sum, (np.array([0.2, -0.5, 0.9]),))])
def test_hvp_through_loops_that_tape_counts_and_shapes(fn, args):
    x = args[0]
    grad = s2s_ad.grad(fn)
    eps = 1e-5
    H = np.stack([(grad(x + eps * e, *args[1:]) - grad(x - eps * e, *args[1:])) / (2 * eps)
                  for e in np.eye(x.size)], axis=-1)
    v = RNG.standard_normal(x.shape)
    np.testing.assert_allclose(s2s_ad.hvp(fn)(*args, v), H @ v, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("x, args", [(0.4, (2,)), (0.9, (3,))])
def test_second_derivatives_of_recursive_functions(x, args):
    """The recursive helper's adjoint calls itself through a forward reference: a second
    derivative differentiates the generated function the reference stands for."""
    from programs import functions as fns
    for fn in (fns.tree, fns.power_sum):
        grad = s2s_ad.grad(fn)
        eps = 1e-5
        expected = (grad(x + eps, *args) - grad(x - eps, *args)) / (2 * eps)
        assert s2s_ad.grad(grad)(x, *args) == pytest.approx(expected, rel=1e-5, abs=1e-7)
        assert s2s_ad.hvp(fn)(x, *args, 1.0) == pytest.approx(expected, rel=1e-5, abs=1e-7)
