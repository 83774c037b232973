"""Writes through a chain of indexes, `A[i][j] = v`, as people write them for an array
(A[i] is a view numpy writes through) and for a list of lists: the row is copied,
written and put back (transforms/mutation.py), which gives the same values and a
derivative s2s_ad follows (session 16: "only writes into a named array are supported")."""
import numpy as np
import pytest

from derivative_paths import PATHS, hvp_on, jvp_on
from gradcheck import assert_grad_matches, numeric_grad
from paths import fresh


def outer_plus_identity(x):
    n = len(x)
    A = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            A[i][j] = x[i] * x[j] + (1.0 if i == j else 0.0)
    return np.sum(A @ np.sin(x))


def list_of_lists(x):
    n = len(x)
    A = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            A[i][j] = x[i] * np.cos(x[j])
    return sum(sum(v * v for v in row) for row in A)


def augmented(x):
    A = np.outer(x, x)
    for i in range(len(x)):
        A[i][i] += np.exp(x[i])
        A[i][0] *= 2.0
    return np.sum(A ** 2)


def three_deep(x):
    T = np.zeros((2, 2, 2))
    for k in range(2):
        T[k][k][0] = x[k] ** 2
        T[0][k][1] = x[k + 1] * x[0]
    return np.sum(T * np.arange(8.0).reshape(2, 2, 2))


def through_a_slice(x):
    A = np.outer(x, np.ones(3))
    A[1:3][0] = np.tanh(x[:3])            # A[1], as numpy does
    A[0][1:] = x[1:3] ** 3
    return np.sum(A ** 2)


def dict_of_arrays(x):
    p = {"w": x * 1.0, "b": np.zeros(2)}
    p["w"][0] = x[1] ** 2
    p["b"][1] = np.sum(x)
    return np.sum(p["w"] ** 2) + p["b"][1] ** 2


CASES = [outer_plus_identity, list_of_lists, augmented, three_deep, through_a_slice,
         dict_of_arrays]


def test_values_are_numpys_and_pythons():
    # the rewrite changes nothing in f: run f itself against the same writes spelled out
    x = np.array([0.3, -0.5, 0.9, 0.2])
    A = np.outer(x, np.ones(3))
    A[1] = np.tanh(x[:3])
    A[0, 1:] = x[1:3] ** 3
    assert through_a_slice(x) == pytest.approx(np.sum(A ** 2))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", CASES, ids=[f.__name__ for f in CASES])
def test_gradient(f, path):
    x = np.random.default_rng(6).normal(size=4)
    assert_grad_matches(fresh(f), (x,), path=path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", CASES, ids=[f.__name__ for f in CASES])
def test_jvp_and_hvp(f, path):
    rng = np.random.default_rng(7)
    x, v = rng.normal(size=4), rng.normal(size=4)
    g = fresh(f)
    _, t = jvp_on(path, g, (x,), v)
    np.testing.assert_allclose(t, numeric_grad(f, (x,), 0) @ v, rtol=1e-5, atol=1e-7)
    expected = (numeric_grad(f, (x + 1e-4 * v,), 0, 1e-5)
                - numeric_grad(f, (x - 1e-4 * v,), 0, 1e-5)) / 2e-4
    np.testing.assert_allclose(hvp_on(path, g, (x,), v), expected, rtol=1e-4, atol=1e-5)
