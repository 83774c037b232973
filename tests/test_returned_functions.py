"""Helpers returning a function they make (issue 15, functions as values): a flatten
helper returning `(flat_vector, unflatten)`, a lambda whose closure reads an active value
of the helper, the function unused (`flat, _ = flatten(params)`). Each on both
derivative paths (`both_paths`) against central differences: grad, jvp and hvp."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import check_against_differences
from paths import fresh


def pack(w, b):
    flat = np.concatenate([np.ravel(w), b])
    n = w.size

    def unpack(v):
        return np.reshape(v[:n], w.shape), v[n:]
    return flat, unpack


def through_unpack(x):
    w = np.reshape(np.cos(x[:4]), (2, 2))
    b = np.sin(x[4:])
    flat, unpack = pack(w, b)
    w2, b2 = unpack(flat * flat)
    return np.sum(np.tanh(w2 @ b2)) + np.dot(flat, flat) * w[0, 1]


def scaled(x):
    s = np.sum(x ** 2)
    return np.sin(x), lambda v: v * s


def closure_reads_active_value(x):
    # the lambda's s depends on x: a closure taken as a constant would lose s's share
    y, scale = scaled(x)
    return np.sum(scale(y) ** 2)


def make_square(c):
    def square(v):
        return (v - c) ** 2
    return square


def returned_alone(x):
    sq = make_square(np.mean(x))
    return np.sum(sq(x) * x)


@pytest.mark.parametrize("f", [through_unpack, closure_reads_active_value, returned_alone])
def test_returned_function_called(both_paths, f):
    x = np.linspace(-0.8, 1.1, 6)
    check_against_differences(both_paths, fresh(f), x)


def flatten(params):
    flat = np.concatenate([np.ravel(a) for layer in params for a in layer])
    return flat, lambda v: v


def l2(params):
    flattened, _ = flatten(params)
    return np.dot(flattened, flattened) + np.sum(np.sin(params[0][1]))


def test_unused_unflatten_of_list_of_tuples(both_paths):
    """autograd's neural_net pattern: `flattened, _ = flatten(params)` in the loss."""
    rs = np.random.RandomState(3)
    params = [(rs.randn(3, 2), rs.randn(2)), (rs.randn(2, 1), rs.randn(1))]
    g = s2s_ad.grad(fresh(l2))(params)
    expected = [tuple(2.0 * a for a in layer) for layer in params]
    expected[0] = (expected[0][0], expected[0][1] + np.cos(params[0][1]))
    assert isinstance(g, list) and all(isinstance(layer, tuple) for layer in g)
    for got, want in zip(g, expected):
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-12)


def kept_whole(x):
    pair = scaled(x)
    return np.sum(pair[0])


def test_returned_function_kept_in_a_value_is_a_located_error(both_paths):
    with pytest.raises(s2s_ad.errors.UnsupportedSyntaxError) as info:
        s2s_ad.grad(fresh(kept_whole))(np.ones(3))
    text = str(info.value)
    assert "pair = scaled(x)" in text and "returns a function" in text


# ---- numpy's own functions held in a variable ----------------------------------------------
# np.sum, np.prod, np.max ... are no FunctionType in numpy 2 (callable dispatcher objects):
# held in a parameter they went unclassified, and the general derivative's call of the held
# function came back to itself ("cannot differentiate a call of <function sum> held in a
# variable")

BASE = np.array([0.6, 1.2, 0.9])


def reduced_by(reduction):
    def reduce_scaled(x, r=reduction):
        return r(np.exp(x) * BASE)
    return reduce_scaled


def reduce_given(x, r):
    return r(np.exp(x) * BASE) * x[0]


@pytest.mark.parametrize("reduction", [np.sum, np.prod, np.max, np.min])
def test_numpy_function_held_in_a_parameter(both_paths, reduction):
    # through the public API, which the fixture sends down either path (the general
    # derivative itself takes every parameter, the defaulted r too)
    x = np.array([0.3, -0.2, 0.5])
    v = np.array([0.5, 1.0, -0.7])
    g = fresh(reduced_by(reduction))
    first = [(g(x + 1e-6 * e) - g(x - 1e-6 * e)) / 2e-6 for e in np.eye(3)]
    np.testing.assert_allclose(s2s_ad.grad(g)(x), first, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.jvp(g)(x, v), (g(x), np.dot(first, v)), rtol=1e-6)
    gradient = s2s_ad.grad(fresh(reduced_by(reduction)))
    second = (gradient(x + 1e-6 * v) - gradient(x - 1e-6 * v)) / 2e-6
    np.testing.assert_allclose(s2s_ad.hvp(g)(x, v), second, rtol=1e-5)
    f = fresh(reduce_given)
    expected = [(f(x + 1e-6 * e, reduction) - f(x - 1e-6 * e, reduction)) / 2e-6
                for e in np.eye(3)]
    np.testing.assert_allclose(s2s_ad.grad(f)(x, reduction), expected, rtol=1e-6)
