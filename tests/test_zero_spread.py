"""Where the spread, the norm or a power's base or exponent is zero (issue 14): one
convention, in reverse and forward mode, on both derivative paths. Where the function is
locally constant (np.std(a * ones) is 0 for every a) the derivative is 0; where it is not
differentiable (a spread or norm of zero) it is taken as 0, the subgradient of least norm;
0.0 ** y has derivative 0 in y (log 0 is not used: JAX's and autograd's value), x ** 0.0
has derivative 0 in x (x ** -1 is not evaluated). Never nan, never an exception."""
import math
import warnings

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on, jvp_on


def std_of_one_row(x):
    return np.sum(np.std(x, axis=0))


def std_of_scalar(x):
    return np.std(x) + x


def std_of_constant(a):
    return np.std(a * np.ones((3, 2)))


def std_of_constant_rows(a):
    return np.sum(np.std(a * np.ones((3, 2)), axis=0, ddof=1))


def var_of_constant(a):
    return np.var(a * np.ones((3, 2)))


def var_of_one_row(x):
    return np.sum(np.var(x, axis=0))


def norm_of(x):
    return np.linalg.norm(x)


def norm3_of_rows(x):
    return np.sum(np.linalg.norm(x, 3, axis=1))


def norm_inf_of(x):
    return np.linalg.norm(x, np.inf)


def frobenius_of(x):
    return np.linalg.norm(x, "fro")


def power_of_zero(y):
    return np.power(0.0, y)


def power_zero(x):
    return np.power(x, 0.0) + x ** 0.0 + math.pow(x, 0.0)


def pow_operator(x, y):
    return x ** y


def power_arrays(x, y):
    return np.sum(np.power(x, y))


ROW = np.array([[0.3, -1.2, 2.0]])
ZEROS = np.zeros((2, 3))
# (f, args, wrt, expected gradient)
CASES = [
    (std_of_one_row, (ROW,), 0, np.zeros((1, 3))),
    (std_of_scalar, (0.8,), 0, 1.0),
    (std_of_constant, (0.7,), 0, 0.0),
    (std_of_constant_rows, (0.7,), 0, 0.0),
    (var_of_constant, (0.7,), 0, 0.0),
    (var_of_one_row, (ROW,), 0, np.zeros((1, 3))),
    (norm_of, (ZEROS,), 0, ZEROS),
    (norm_of, (0.0,), 0, 0.0),
    (norm3_of_rows, (np.array([[0.0, 0.0], [3.0, 4.0]]),), 0,
     np.array([[0.0, 0.0], [9.0, 16.0]]) / 91.0 ** (2.0 / 3.0)),
    (norm_inf_of, (np.zeros(3),), 0, np.zeros(3)),
    (frobenius_of, (ZEROS,), 0, ZEROS),
    (power_of_zero, (0.5,), 0, 0.0),
    (power_zero, (0.0,), 0, 0.0),
    (pow_operator, (0.0, 2.0), 1, 0.0),
    (pow_operator, (0.0, 0.0), 0, 0.0),
    (power_arrays, (np.array([0.0, 2.0, 0.0]), np.array([0.0, 0.0, 1.5])), 1,
     np.array([0.0, math.log(2.0), 0.0])),
    (power_arrays, (np.array([0.0, 2.0, 0.0]), np.array([0.0, 0.0, 1.5])), 0,
     np.array([0.0, 0.0, 0.0])),
]


def _ids(case):
    return case.__name__ if callable(case) else ""


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args, wrt, expected", CASES, ids=_ids)
def test_gradient_and_tangent_follow_the_convention(f, args, wrt, expected, path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no 0/0, no log(0) on the way
        got = grad_on(path, f, wrt)(*args)
        np.testing.assert_allclose(got, expected, atol=1e-12)
        assert np.shape(got) == np.shape(args[wrt])
        v = np.linspace(0.5, 1.5, np.size(args[wrt])).reshape(np.shape(args[wrt]))
        v = v if np.ndim(args[wrt]) else 1.0
        _, tangent = jvp_on(path, f, args, v, wrt)
        np.testing.assert_allclose(tangent, np.sum(np.asarray(expected) * v), atol=1e-12)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [std_of_constant, std_of_constant_rows, var_of_constant])
def test_second_derivative_of_a_locally_constant_spread_is_zero(f, path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert abs(hvp_on(path, f, (0.7,), 1.0)) < 1e-12
        assert abs(s2s_ad.grad(s2s_ad.grad(f))(0.7)) < 1e-12


def norm_of_vanishing(a):
    return np.linalg.norm((a - a) * np.ones(3)) + a


def norm3_of_vanishing_rows(a):
    return np.sum(np.linalg.norm((a - a) * np.ones((2, 3)), 3, axis=1)) + a


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [norm_of_vanishing, norm3_of_vanishing_rows])
def test_second_derivative_of_a_norm_of_zeros_is_zero(f, path):
    """The norm of a vector that is zero near the point is locally constant: its first and
    second derivatives are 0 (fuzzer seed 3000119: hvp gave nan from 0 / 0)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert hvp_on(path, f, (0.7,), 1.0) == 0.0
        assert s2s_ad.grad(s2s_ad.grad(f))(0.7) == 0.0
        assert s2s_ad.grad(f)(0.7) == 1.0


def test_a_small_genuine_spread_keeps_its_derivative():
    """The rounding guard is a few ulps of the mean: a spread of 1e-9 is differentiated."""
    x = np.array([1.0, 1.0 + 1e-9, 1.0 - 1e-9])
    g = s2s_ad.grad(std_of_one_row)(x[:, None])
    np.testing.assert_allclose(g[:, 0], (x - x.mean()) / (3 * np.std(x)), rtol=1e-6)
