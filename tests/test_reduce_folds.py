"""functools.reduce(f, xs[, initial]) as a running fold: total = xs[0] (or initial), then
total = f(total, v) for each further item, f a lambda, a def of yours, a numpy function
or one of operator's; grad, jvp and hvp on both derivative paths (session 16: "no
derivative is known for `reduce(...)`")."""
import functools
import operator
from functools import reduce

import numpy as np
import pytest

from derivative_paths import PATHS, hvp_on, jvp_on
from gradcheck import assert_grad_matches, numeric_grad
from paths import fresh


def product_with_initial(x):
    return reduce(lambda a, b: a * b, [x[0], x[1], x[2]], 1.0)


def matrix_chain(A):
    return np.sum(reduce(np.dot, [A, np.tanh(A), A.T]))


def operator_product(x):
    return functools.reduce(operator.mul, x)


def fold_over_a_generator(x):
    # the fold's step reads the total it is given: its adjoint needs the old total
    return reduce(lambda acc, v: acc + np.sin(v) * acc, (v * 2.0 for v in x))


def elementwise_maximum(x):
    return np.sum(reduce(np.maximum, [x, x ** 2, np.cos(x)]))


def combine(a, b):
    return 0.5 * a + np.exp(-b)


def fold_in_a_loop(x):
    s = 0.0
    for k in range(3):
        s = s + reduce(combine, x[k:], x[0])
    return s


def matrix_power_by_lambda(x):
    return reduce(lambda a, b: a @ b, [x.reshape(2, 2)] * 3).sum()


CASES = [(product_with_initial, (3,)), (matrix_chain, (3, 3)), (operator_product, (4,)),
         (fold_over_a_generator, (4,)), (elementwise_maximum, (5,)), (fold_in_a_loop, (5,)),
         (matrix_power_by_lambda, (4,))]
IDS = [f.__name__ for f, _ in CASES]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, shape", CASES, ids=IDS)
def test_gradient(f, shape, path):
    x = np.random.default_rng(3).normal(size=shape)
    assert_grad_matches(fresh(f), (x,), path=path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, shape", CASES, ids=IDS)
def test_jvp_and_hvp(f, shape, path):
    rng = np.random.default_rng(4)
    x, v = rng.normal(size=shape), rng.normal(size=shape)
    g = fresh(f)
    _, t = jvp_on(path, g, (x,), v)
    np.testing.assert_allclose(t, np.sum(numeric_grad(f, (x,), 0) * v), rtol=1e-5, atol=1e-7)
    expected = (numeric_grad(f, (x + 1e-4 * v,), 0, 1e-5)
                - numeric_grad(f, (x - 1e-4 * v,), 0, 1e-5)) / 2e-4
    np.testing.assert_allclose(hvp_on(path, g, (x,), v), expected, rtol=1e-4, atol=1e-5)
