"""A lambda written inside a statement that spans lines (an item of a list or dict of
functions, a call's argument) is read within its whole statement: inspect gives only the
lines from the lambda's on, which alone do not parse. Of several lambdas on one line
with the same parameters, the one called is told apart by its code's positions (Python
3.11 and later); both derivative paths."""
import sys

import numpy as np
import pytest

import s2s_ad
from paths import fresh

ACTIVATIONS = [
    lambda v: v * 3.0,
    lambda v: v ** 3]
BY_NAME = {"square": lambda v: v ** 2, "sine": lambda v: np.sin(
    v)}
SCALED_TANH = lambda v: np.tanh(  # noqa: E731 (a lambda over two lines)
    v) * 2.0


def from_a_list(x):
    h = ACTIVATIONS[1]
    return np.sum(h(x))


def from_a_dict_beside_another(x):
    return np.sum(BY_NAME["sine"](x))


def over_two_lines(x):
    return np.sum(SCALED_TANH(x))


X = np.array([0.0, 0.4, 0.8])
CASES = [(from_a_list, 3.0 * X ** 2), (over_two_lines, 2.0 * (1.0 - np.tanh(X) ** 2))]
if sys.version_info >= (3, 11):
    CASES.append((from_a_dict_beside_another, np.cos(X)))


@pytest.mark.parametrize("f, expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_a_lambda_inside_a_statement_over_several_lines(both_paths, f, expected):
    np.testing.assert_allclose(s2s_ad.grad(fresh(f))(X), expected)
    np.testing.assert_allclose(s2s_ad.hvp(fresh(f))(X, np.ones(3)),
                               s2s_ad.jvp(s2s_ad.grad(fresh(f)))(X, np.ones(3))[1])


def test_a_lambda_differentiated_where_it_is_written_over_two_lines():
    gradient = s2s_ad.grad(lambda x: np.sum(
        x ** 2))
    np.testing.assert_allclose(gradient(X), 2.0 * X)
