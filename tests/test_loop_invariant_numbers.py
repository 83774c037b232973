"""A number a top-level loop computes alike in every iteration (`math.sqrt(dt)` in a
time-stepping loop) is not saved on the tape nor restored (ad/loop_invariants.py); one
that changes with an outer loop, or is read after the loop, still is."""
import math

import numpy as np
import pytest

import s2s_ad
from tests.derivative_paths import PATHS, grad_on


def gbm_mean(S0, sigma, dt, normals):
    S = S0
    total = 0.0
    for z in normals:
        S = S * math.exp(-0.5 * sigma * sigma * dt + sigma * math.sqrt(dt) * z)
        total = total + S
    return total / len(normals)


def nested(x, rows):
    total = 0.0
    for row in rows:
        scale = math.sqrt(row[0] * x)       # changes with the outer loop
        for v in row:
            w = math.sqrt(scale)           # alike in each inner iteration, not across rows
            total = total + w * v * x
    return total


def read_after(x, n):
    total = 0.0
    for k in range(n):
        r = math.sin(x)
        total = total + r * total + x
    return total + r


NORMALS = (0.3, -1.2, 0.8, 0.1, -0.4)


def central(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


def test_the_invariant_square_root_is_not_taped(reverse_mode):
    df = s2s_ad.grad(gbm_mean, wrt=(0, 1))
    df(1.0, 0.2, 0.01, NORMALS)
    text = s2s_ad.derivative_source(df, 1.0, 0.2, 0.01, NORMALS)
    lines = text.splitlines()
    root = next(line.split("=")[0].strip() for line in lines if "math.sqrt(dt)" in line
                and not line.strip().startswith("#"))
    taped = [line for line in lines if "_tape" in line]
    assert taped and not any(root in line.replace("(", " ").replace(",", " ").replace(
        ")", " ").split() for line in taped), text


@pytest.mark.parametrize("path", PATHS)
def test_gradients_with_invariant_numbers(path):
    got = grad_on(path, gbm_mean, (0, 1))(1.0, 0.2, 0.01, NORMALS)
    expected = (central(lambda s: gbm_mean(s, 0.2, 0.01, NORMALS), 1.0),
                central(lambda s: gbm_mean(1.0, s, 0.01, NORMALS), 0.2))
    np.testing.assert_allclose(got, expected, rtol=1e-7)
    rows = [(1.0, 2.0, 3.0), (4.0, 0.5), (2.5, 1.5, 0.5)]
    np.testing.assert_allclose(grad_on(path, nested)(0.7, rows),
                               central(lambda x: nested(x, rows), 0.7), rtol=1e-7)
    np.testing.assert_allclose(grad_on(path, read_after)(0.4, 4),
                               central(lambda x: read_after(x, 4), 0.4), rtol=1e-7)


def gbm_last(S0, sigma, dt, normals):
    S = S0
    for z in normals:
        S = S * math.exp(-0.5 * sigma * sigma * dt + sigma * math.sqrt(dt) * z)
    return S


@pytest.mark.parametrize("path", PATHS)
def test_a_loop_that_never_runs(path):
    df = grad_on(path, gbm_last, (0, 1))
    assert tuple(df(1.5, 0.2, 0.01, ())) == (1.0, 0.0)
    got = df(1.5, 0.2, 0.01, NORMALS)
    expected = (central(lambda s: gbm_last(s, 0.2, 0.01, NORMALS), 1.5),
                central(lambda s: gbm_last(1.5, s, 0.01, NORMALS), 0.2))
    np.testing.assert_allclose(got, expected, rtol=1e-7)


def test_second_derivative_with_invariant_numbers():
    first = s2s_ad.grad(gbm_mean, wrt=1)
    second = s2s_ad.grad(first, wrt=1)
    expected = central(lambda s: first(1.0, s, 0.01, NORMALS), 0.2)
    np.testing.assert_allclose(second(1.0, 0.2, 0.01, NORMALS), expected, rtol=1e-6)
