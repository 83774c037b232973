"""A forward-mode gradient's tangents of numbers as short linear forms
(optimize/tangent_forms.py): Newton iterations, whose tangents name the incoming tangent
several times, get the same gradients (to rounding) with each tangent read once or
twice, on both derivative paths."""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on


def cubic_roots(p, targets):
    total = 0.0
    for t in targets:
        x = 1.0
        for _ in range(8):
            x = x - (x * x * x + p * x - t) / (3.0 * x * x + p)
        total = total + x
    return total


def cubic_roots_grad(p, targets):          # implicit function: dx/dp = -x / (3 x^2 + p)
    return sum(-x / (3.0 * x * x + p) for x in _roots(p, targets))


def _roots(p, targets):
    for t in targets:
        x = 1.0
        for _ in range(40):
            x = x - (x * x * x + p * x - t) / (3.0 * x * x + p)
        yield x


def kepler_like(p, targets):
    total = 0.0
    for t in targets:
        x = t
        for _ in range(8):
            x = x - (x - p * math.cos(x) - t) / (1.0 + p * math.sin(x))
        total = total + x * x
    return total


def kepler_like_grad(p, targets):          # x = p cos x + t: dx/dp = cos x / (1 + p sin x)
    g = 0.0
    for t in targets:
        x = t
        for _ in range(40):
            x = x - (x - p * math.cos(x) - t) / (1.0 + p * math.sin(x))
        g += 2.0 * x * math.cos(x) / (1.0 + p * math.sin(x))
    return g


def quartic_roots(p, targets):
    total = 0.0
    for t in targets:
        x = 1.0
        for _ in range(12):
            x = x - (x ** 4 + p * x * x - t) / (4.0 * x ** 3 + 2.0 * p * x)
        total = total + x
    return total


def quartic_roots_grad(p, targets):        # dx/dp = -x^2 / (4 x^3 + 2 p x)
    g = 0.0
    for t in targets:
        x = 1.0
        for _ in range(60):
            x = x - (x ** 4 + p * x * x - t) / (4.0 * x ** 3 + 2.0 * p * x)
        g -= x * x / (4.0 * x ** 3 + 2.0 * p * x)
    return g


CASES = [(cubic_roots, cubic_roots_grad, 2.0), (kepler_like, kepler_like_grad, 0.4),
         (quartic_roots, quartic_roots_grad, 1.5)]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_newton_iterations_get_their_gradient(path, case):
    f, expected, p = CASES[case]
    targets = list(np.random.default_rng(case).uniform(1.0, 4.0, 12))
    got = grad_on(path, f)(p, targets)
    assert path == "general" or type(got) is float   # the general sweep's may be np.float64
    assert got == pytest.approx(expected(p, targets), rel=1e-12)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_each_tangent_is_read_at_most_twice(case):
    f, _, p = CASES[case]
    targets = [1.5, 2.5]
    source = s2s_ad.derivative_source(s2s_ad.grad(f), p, targets)
    step = next(line for line in source.splitlines() if line.strip().startswith("dx_dp = ")
                and "dx_dp" in line.split("=", 1)[1])
    assert step.split("=", 1)[1].count("dx_dp") <= 2, step


def test_a_tangent_is_left_alone_where_no_form_is_shorter():
    def horner(x, a, coeffs):
        p = 0.0
        for c in coeffs:
            p = p * x + a * c
        return p
    source = s2s_ad.derivative_source(s2s_ad.grad(horner, (0, 1)), 0.5, 2.0, (1.0, 2.0))
    assert "dp_dx = dp_dx * x + p" in source and "dp_da = dp_da * x + c" in source
