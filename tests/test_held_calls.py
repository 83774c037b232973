"""A template reads a number the user's code already computed (the adjoint of
`c = math.cos(E)` reads `s = math.sin(E)` from just above) instead of calling the function
again, only where that name still holds the value (ad/held_calls.py)."""
import math

import numpy as np
import pytest

import s2s_ad
from tests.derivative_paths import PATHS, grad_on


def newton_sum(e, anomalies):
    total = 0.0
    for M in anomalies:
        E = M
        for _ in range(4):
            s = math.sin(E)
            c = math.cos(E)
            E = E - (E - e * s - M) / (1.0 - e * c)
        total = total + math.cos(E)
    return total


def rebound_between(x):
    s = math.sin(x)
    x = x * 0.5 + s
    c = math.cos(x)              # the adjoint needs sin of the new x, not s
    return c * s


def arrays_not_held(x):
    s = np.sin(x)
    c = np.cos(x)
    return np.sum(c * s)


ANOMALIES = [0.3, 1.1, 2.0, 4.5]


def central(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


def test_the_cosine_adjoint_reads_the_sine_already_computed(monkeypatch):
    # number code of one input is differentiated in forward mode; the reverse templates
    # this checks run when reverse mode is asked for (and for arrays)
    monkeypatch.setenv("S2S_AD_REVERSE", "1")
    df = s2s_ad.grad(newton_sum)
    df(0.3, ANOMALIES)
    text = s2s_ad.derivative_source(df, 0.3, ANOMALIES)
    # one sine forward, one for the final cos(E) of each anomaly; none per Newton step
    code = [line for line in text.splitlines() if not line.strip().startswith("#")]
    assert sum(line.count("math.sin(E)") for line in code) == 2, text
    assert any("c_bar * s" in line for line in code), text


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [
    (lambda e: newton_sum(e, ANOMALIES), 0.3),
    (rebound_between, 0.7),
])
def test_gradients_where_values_are_held_or_not(path, f, x):
    g = grad_on(path, f)(x)
    np.testing.assert_allclose(g, central(f, x), rtol=1e-7)


@pytest.mark.parametrize("path", PATHS)
def test_arrays_are_never_held(path):
    x = np.linspace(0.1, 2.0, 5)
    g = grad_on(path, arrays_not_held)(x)
    np.testing.assert_allclose(g, np.cos(2 * x), rtol=1e-12)


def test_second_derivative_through_held_values():
    first = s2s_ad.grad(newton_sum)
    second = s2s_ad.grad(first)
    expected = central(lambda e: first(e, ANOMALIES), 0.3)
    np.testing.assert_allclose(second(0.3, ANOMALIES), expected, rtol=1e-6)
    expected = central(s2s_ad.grad(rebound_between), 0.7)
    np.testing.assert_allclose(s2s_ad.grad(s2s_ad.grad(rebound_between))(0.7), expected,
                               rtol=1e-6)


def held_again(x):
    total = 0.0
    for _ in range(3):           # (in a loop the names are not renamed apart)
        s = math.sin(x)
        x = x * 0.5 + s
        t = math.sin(x)          # sin of the new x, held by t
        s = s * 2.0              # s held sin of the old x: t still holds sin(x)
        c = math.cos(x)          # the adjoint reads t
        total = total + c * t * s
    return total


def ended_by_an_argument(x, y):
    s = math.sin(x)
    c = math.cos(y)
    y = y + s                    # ends what c holds (it reads y), not what s holds
    d = math.cos(x)              # the adjoint reads s
    return c * d + y * math.cos(y)


@pytest.mark.parametrize("path", PATHS)
def test_a_value_held_again_after_its_argument_was_rebound(path, monkeypatch):
    # a table of the calls held, kept by the names each reads or is held by: a call
    # ended by one name and held again by another is ended only by what it reads now
    monkeypatch.setenv("S2S_AD_REVERSE", "1")
    np.testing.assert_allclose(grad_on(path, held_again)(0.7), central(held_again, 0.7),
                               rtol=1e-7)
    g = grad_on(path, ended_by_an_argument, wrt=(0, 1))(0.7, 0.4)
    np.testing.assert_allclose(g, [central(lambda x: ended_by_an_argument(x, 0.4), 0.7),
                                   central(lambda y: ended_by_an_argument(0.7, y), 0.4)],
                               rtol=1e-7)
    if path == "specialised":
        text = s2s_ad.derivative_source(s2s_ad.grad(held_again), 0.7)
        code = [line for line in text.splitlines() if not line.strip().startswith("#")]
        assert sum(line.count("math.sin(x)") for line in code) == 2, text
        text = s2s_ad.derivative_source(s2s_ad.grad(ended_by_an_argument, wrt=(0, 1)),
                                        0.7, 0.4)
        code = [line for line in text.splitlines() if not line.strip().startswith("#")]
        assert sum(line.count("math.sin(x)") for line in code) == 1, text
