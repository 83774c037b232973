"""Gradients of number code in forward mode (analyses/number_code.py chooses the mode,
ad/forward_gradient.py builds it): the same results, types and structure as reverse
mode gives, on floats, np.float64 and np.float32; reverse mode kept where the code is
not number code; grad of grad, hvp and value_and_grad of such functions."""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on, jvp_on
from golden_files import assert_matches_golden


def black_scholes(S, K, T, r, sigma):
    d1 = (math.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    N1 = 0.5 * (1.0 + math.erf(d1 / math.sqrt(2.0)))
    N2 = 0.5 * (1.0 + math.erf(d2 / math.sqrt(2.0)))
    return S * N1 - K * math.exp(-r * T) * N2


def horner(x, a, coeffs):
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    return p


def pendulum(length, theta0, steps):
    """Explicit Euler steps of a pendulum; the angle at the end."""
    theta, omega = theta0, 0.0
    for _ in range(steps):
        omega = omega - 0.01 * 9.81 / length * math.sin(theta)
        theta = theta + 0.01 * omega
    return theta


def branchy(x, y):
    total = 0.0
    for k in range(4):
        if x * k > y:
            total = total + math.exp(-x * k) * y
        else:
            total = total + np.tanh(y - x) * k
    return total / 4


def newton_root(c, x0):
    """The root of x**3 - c by Newton's method (a while loop)."""
    x = x0
    step = 1.0
    while abs(step) > 1e-6 * abs(x):
        step = (x * x * x - c) / (3.0 * x * x)
        x = x - step
    return x


def mean_of_states(a, b, n):
    """Divided by an int argument at the end (its kind: a float, though the stand-in
    for an unknown int is 0 in one world)."""
    x = 0.1
    total = 0.0
    for _ in range(n):
        x = a * x + b * math.sin(x) + 1.0
        total = total + x * x
    return total / n


def with_array(w, xs):
    return np.sum(np.tanh(w * xs))


def five_inputs(a, b, c, d, e):
    return a * b + c * d * e


COEFFS = (0.5, -1.0, 2.0, 0.25, -3.0, 1.5)
CASES = {     # function, arguments, wrt, the arguments' dtype may be any number type
    "black_scholes": (black_scholes, (100.0, 95.0, 0.5, 0.02, 0.25), 4),
    "horner": (horner, (0.7, 1.5, COEFFS), (0, 1)),
    "pendulum": (pendulum, (1.2, 0.4, 50), (0, 1)),
    "branchy": (branchy, (0.35, 0.9), (0, 1)),
    "newton_root": (newton_root, (2.0, 1.5), 0),
    "mean_of_states": (mean_of_states, (0.5, 0.3, 20), (0, 1)),
}


def differences(f, args, k, eps=1e-6):
    up, down = list(args), list(args)
    up[k] = float(up[k]) + eps
    down[k] = float(down[k]) - eps
    return (f(*up) - f(*down)) / (2 * eps)


def _as(number, args, wrt):
    wrt = wrt if isinstance(wrt, tuple) else (wrt,)
    return tuple(number(a) if k in wrt else a for k, a in enumerate(args))


def test_number_code_gets_a_forward_mode_gradient():
    for name, (f, args, wrt) in CASES.items():
        source = s2s_ad.derivative_source(s2s_ad.grad(f, wrt), *args)
        assert "Forward mode" in source and "_tape" not in source and "_bar" not in source, \
            (name, source)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("path", PATHS)
def test_gradients_against_differences(name, path):
    f, args, wrt = CASES[name]
    got = grad_on(path, f, wrt)(*args)
    got = got if isinstance(wrt, tuple) else (got,)
    for g, k in zip(got, wrt if isinstance(wrt, tuple) else (wrt,)):
        assert g == pytest.approx(differences(f, args, k), rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("number", [float, np.float64, np.float32])
def test_same_values_and_types_as_reverse_mode(name, number, monkeypatch):
    """Forward mode returns what reverse mode returns: structure, types (a Python float
    for float inputs, float32 kept), values to rounding."""
    f, args, wrt = CASES[name]
    args = _as(number, args, wrt)
    forward = s2s_ad.grad(f, wrt)(*args)
    value, with_value = s2s_ad.value_and_grad(f, wrt)(*args)
    monkeypatch.setenv("S2S_AD_REVERSE", "1")
    reverse = s2s_ad.grad(f, wrt)(*args)
    assert "_bar" in s2s_ad.derivative_source(s2s_ad.grad(f, wrt), *args)
    monkeypatch.delenv("S2S_AD_REVERSE")
    assert type(forward) is type(reverse)
    pairs = zip(forward, reverse) if isinstance(wrt, tuple) else [(forward, reverse)]
    rtol = 1e-4 if number is np.float32 else 1e-10
    for a, b in pairs:
        assert type(a) is type(b), (a, b)
        assert a == pytest.approx(b, rel=rtol, abs=rtol)
    assert value == f(*args) and type(value) is type(f(*args))
    assert type(with_value) is type(forward)
    for a, b in (zip(with_value, forward) if isinstance(wrt, tuple) else [(with_value, forward)]):
        assert a == b and type(a) is type(b)


def test_float32_inputs_keep_float32():
    g = s2s_ad.grad(lambda x, y: x * y + np.exp(x), (0, 1))(np.float32(0.5), np.float32(2.0))
    assert all(type(v) is np.float32 for v in g)


def test_straight_line_code_of_several_inputs_keeps_reverse_mode():
    """No loop: one reverse sweep (no tape) costs less than a forward pass per input."""
    args = CASES["black_scholes"][1]
    df = s2s_ad.grad(black_scholes, (0, 4))
    assert "Forward mode" not in s2s_ad.derivative_source(df, *args)
    for g, k in zip(df(*args), (0, 4)):
        assert g == pytest.approx(differences(black_scholes, args, k), rel=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_reverse_mode_is_kept_for_arrays_and_many_inputs(path):
    w, xs = 0.3, np.linspace(0.1, 1.0, 5)
    dw = s2s_ad.grad(with_array, wrt=(0, 1))
    got = grad_on(path, with_array, wrt=(0, 1))(w, xs)
    assert got[0] == pytest.approx(differences(with_array, (w, xs), 0), rel=1e-6)
    assert "Forward mode" not in s2s_ad.derivative_source(dw, w, xs)
    df = s2s_ad.grad(five_inputs, wrt=(0, 1, 2, 3, 4))
    assert df(1.0, 2.0, 3.0, 4.0, 5.0) == (2.0, 1.0, 20.0, 15.0, 12.0)
    assert "Forward mode" not in s2s_ad.derivative_source(df, 1.0, 2.0, 3.0, 4.0, 5.0)


def first_of_pendulum(length, theta0, steps):
    return s2s_ad.grad(pendulum, wrt=0)(length, theta0, steps)


@pytest.mark.parametrize("path", PATHS)
def test_second_derivatives(path):
    """grad of a forward-mode gradient, and hvp, against differences of the gradient."""
    args = (1.2, 0.4, 30)
    d2 = grad_on(path, first_of_pendulum, wrt=0)(*args)
    assert d2 == pytest.approx(differences(first_of_pendulum, args, 0, eps=1e-5), rel=1e-5)
    grad = s2s_ad.grad(horner, (0, 1))
    h = hvp_on(path, horner, (0.7, 1.5, COEFFS), (1.0, 0.5), wrt=(0, 1))
    expected = [sum(d * differences(lambda x, a, c: grad(x, a, c)[i], (0.7, 1.5, COEFFS), k)
                    for k, d in enumerate((1.0, 0.5))) for i in range(2)]
    assert tuple(h) == pytest.approx(tuple(expected), rel=1e-6)


def test_golden_closed_form_and_loop():
    f, args, wrt = CASES["black_scholes"]
    assert_matches_golden("forward_black_scholes",
                          s2s_ad.derivative_source(s2s_ad.grad(f, wrt), *args))
    f, args, wrt = CASES["pendulum"]
    assert_matches_golden("forward_pendulum_loop",
                          s2s_ad.derivative_source(s2s_ad.grad(f, wrt), *args))


def damped(sigma, T):
    v = sigma * math.sqrt(T)
    w = 1.0 - sigma
    return v * w


def test_literal_tangents_are_generated_as_literals():
    """ad/forward_gradient.py knows the tangents that are literals while it writes them:
    `dw_dsigma = -1.0` is never assigned (its use reads -1.0), and `1.0 * t1_0` of a
    float is t1_0."""
    df = s2s_ad.grad(damped)
    source = s2s_ad.derivative_source(df, 0.3, 2.0)
    assert "Forward mode" in source and "dw_dsigma" not in source, source
    assert "dv_dsigma = t1_0\n" in source and "v * -1.0" in source, source
    assert "1.0 *" not in source and "* 1.0" not in source, source
    g = df(0.3, 2.0)
    assert type(g) is float and g == pytest.approx(math.sqrt(2.0) * (1.0 - 2 * 0.3))


def shifted_products(u):
    left = np.zeros(3)
    right = np.zeros(3)
    left[1:] = u[:-1]
    right[:-1] = u[1:]
    return np.sum(left * right * u)


@pytest.mark.parametrize("path", PATHS)
def test_two_equal_array_constructors_are_two_arrays(path):
    """np.zeros(3) twice makes two arrays: the pass that reads a repeated call's first
    value again (number code) must not make `right` the array `left` is (a wrong jvp)."""
    u, v = np.array([0.3, -1.2, 0.8]), np.array([1.0, 0.5, -2.0])
    _, tangent = jvp_on(path, shifted_products, (u,), v)
    eps = 1e-6
    expected = (shifted_products(u + eps * v) - shifted_products(u - eps * v)) / (2 * eps)
    assert tangent == pytest.approx(expected, rel=1e-6)
