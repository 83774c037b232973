"""What a person would not write, gone from derivatives of number code: np.sign of a
Python float (a ufunc call giving np.float64), `len((0.5, -1.5, 2.0))` and an index loop
for a loop over a tuple literal, `zero_tangent(t)` for a number whose type differs between
paths, and a constant tangent (`dr_db = 1.0`) assigned inside a loop. Values and types
are checked both ways the derivative is built, and in reverse mode too."""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on


def abs_loop(x, y):
    s = 0.0
    for c in (0.5, -1.5, 2.0):
        s = s * x + c * abs(y)
    return s


def abs_line(x, y):
    return math.tanh(x) * y + abs(x - y)


def x_abs_x(x):
    return x * abs(x)


def mixed_number(x, y):
    t = 0.0
    for i in range(5):
        t = t + np.exp(x * i) + np.sin(y)
    return t


def huber_fit(a, b, xs, ys, delta):
    loss = 0.0
    for k in range(len(xs)):
        r = a * xs[k] + b - ys[k]
        if abs(r) <= delta:
            loss = loss + 0.5 * r * r
        else:
            loss = loss + delta * (abs(r) - 0.5 * delta)
    return loss


def differences(f, args, wrt, h=1e-6):
    out = []
    for k in wrt:
        up, down = list(args), list(args)
        up[k] += h
        down[k] -= h
        out.append((f(*up) - f(*down)) / (2 * h))
    return out


def sign_gradients(y):
    """abs_loop's gradient along y, computed by numpy's sign."""
    return float(np.sign(y)) * (0.5 * 0.3 * 0.3 - 1.5 * 0.3 + 2.0)


@pytest.fixture(params=["forward", "reverse"])
def mode(request, monkeypatch):
    if request.param == "reverse":
        monkeypatch.setenv("S2S_AD_REVERSE", "1")
    return request.param


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("y", [0.7, -0.7, 0.0, -0.0])
def test_abs_of_a_float_gives_numpy_sign_values(path, y, mode):
    dx, dy = grad_on(path, abs_loop, (0, 1))(0.3, y)
    assert dy == sign_gradients(y)
    assert math.copysign(1.0, dy) == math.copysign(1.0, sign_gradients(y))
    if path == "specialised":
        assert type(dx) is float and type(dy) is float


def test_abs_of_nan_gives_nan(mode):
    dx, dy = s2s_ad.grad(abs_loop, (0, 1))(0.3, float("nan"))
    assert math.isnan(dy) and type(dy) is float


@pytest.mark.parametrize("path", PATHS)
def test_abs_gradient_is_a_float_and_right(path, mode):
    args = (0.4, 1.1)
    got = grad_on(path, abs_line, (0, 1))(*args)
    assert np.allclose(got, differences(abs_line, args, (0, 1)), rtol=1e-7)
    if path == "specialised":
        assert all(type(g) is float for g in got)
        assert "np.sign" not in s2s_ad.derivative_source(s2s_ad.grad(abs_line, (0, 1)),
                                                         *args)


@pytest.mark.parametrize("x", [1.3, -1.3])
def test_second_derivative_through_the_written_out_sign(x):
    # d/dx (x |x|) = 2 |x|, d2/dx2 = 2 sign(x)
    d2 = s2s_ad.grad(s2s_ad.grad(x_abs_x))(x)
    assert d2 == pytest.approx(2.0 * math.copysign(1.0, x))


def test_a_loop_over_a_tuple_literal_iterates_it():
    df = s2s_ad.grad(abs_loop, (0, 1))
    source = s2s_ad.derivative_source(df, 0.3, 0.7)
    assert "for c in (0.5, -1.5, 2.0):" in source
    assert "len(" not in source and "range(" not in source
    assert np.allclose(df(0.3, 0.7), differences(abs_loop, (0.3, 0.7), (0, 1)), rtol=1e-7)


@pytest.mark.parametrize("path", PATHS)
def test_a_number_of_two_types_starts_from_a_zero_literal(path):
    df = grad_on(path, mixed_number, (0, 1))
    assert np.allclose(df(0.3, 0.7), differences(mixed_number, (0.3, 0.7), (0, 1)),
                       rtol=1e-7)
    if path == "specialised":
        assert "zero_tangent" not in s2s_ad.derivative_source(df, 0.3, 0.7)


@pytest.mark.parametrize("path", PATHS)
def test_a_constant_tangent_in_a_loop_is_folded(path, mode):
    rng = np.random.default_rng(5)
    xs = rng.uniform(-2, 2, 12).tolist()
    ys = (1.5 * np.array(xs) + rng.standard_normal(12)).tolist()
    args = (1.3, -0.2, xs, ys, 0.5)
    df = grad_on(path, huber_fit, (0, 1))
    assert np.allclose(df(*args), differences(huber_fit, args, (0, 1)), rtol=1e-6)
    if path == "specialised" and mode == "forward":
        source = s2s_ad.derivative_source(df, *args)
        assert "dr_db" not in source


def test_the_written_out_sign_is_made_once_for_every_direction():
    xs, ys = [0.5, -1.0, 2.0, 3.0], [0.2, 4.0, -3.0, 1.0]
    args = (1.3, -0.2, xs, ys, 0.5)
    df = s2s_ad.grad(huber_fit, (0, 1))
    source = s2s_ad.derivative_source(df, *args)
    assert source.count("if r > 0.0") == 1
    assert np.allclose(df(*args), differences(huber_fit, args, (0, 1)), rtol=1e-6)


def numpy_on_floats(x, y):
    return np.tanh(x) * y + np.exp(-x * y)


@pytest.mark.parametrize("function", [numpy_on_floats, mixed_number])
def test_numpy_on_python_floats_gives_float_gradients(function, mode):
    args = (0.3, 0.7)
    got = s2s_ad.grad(function, (0, 1))(*args)
    assert all(type(g) is float for g in got)
    assert np.allclose(got, differences(function, args, (0, 1)), rtol=1e-7)
    value, grads = s2s_ad.value_and_grad(function, (0, 1))(*args)
    assert value == function(*args) and type(value) is type(function(*args))
    assert all(type(g) is float for g in grads)


def test_float32_and_numpy_scalars_keep_their_gradient_types():
    g = s2s_ad.grad(numpy_on_floats, (0, 1))(np.float32(0.3), np.float32(0.7))
    assert all(type(v) is np.float32 for v in g)


def test_second_derivative_through_the_float_cast():
    def tanh_of(x):
        return np.tanh(x) * x
    x = 0.4
    t = math.tanh(x)
    # d/dx (x tanh x) = tanh x + x (1 - tanh^2 x); d2 = 2 (1 - t^2) - 2 x t (1 - t^2)
    assert s2s_ad.grad(s2s_ad.grad(tanh_of))(x) == pytest.approx(
        2 * (1 - t * t) - 2 * x * t * (1 - t * t))
