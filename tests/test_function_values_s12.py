"""Functions as values users still hit on issue 15 (session 12): a dict of lambdas made
in f, functools.partial made in f and given on, s2s_ad.grad of a nested def reading f's
variables, generators read as lists. Each checked on both derivative paths
(`both_paths`) through grad, value_and_grad, jvp, vjp, hvp and grad of grad against
central differences (`every_way`)."""
import functools

import numpy as np
import pytest

import s2s_ad
from derivative_paths import every_way
from paths import fresh


# ---- a dict of functions made in f ---------------------------------------------------------

def softsign(z):
    return z / (1.0 + np.abs(z))


def activations_in_a_dict(x):
    c = np.cos(x)
    acts = {"tanh": lambda z: np.tanh(z) * c, "soft": softsign, "sq-scaled": lambda z: z * z * c}
    act = acts["sq-scaled"]
    return acts["tanh"](x) + acts["soft"](x * 2.0) + act(x)


def test_dict_of_lambdas_reading_f(both_paths):
    """`acts = {"tanh": lambda z: np.tanh(z) * c}` then `acts["tanh"](x)` was "a lambda
    is supported when assigned to a name ...": each lambda is a named one, and the
    derivative flows through what it reads of f (c)."""
    every_way(fresh(activations_in_a_dict), 0.4)


def activation_by_name(x, name):
    acts = {"tanh": lambda z: np.tanh(z), "sin": lambda z: np.sin(z)}
    return acts[name](x)


def test_dict_of_lambdas_read_by_a_key_known_when_it_runs_is_a_located_error():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="a lambda is supported") as info:
        s2s_ad.grad(fresh(activation_by_name))(0.3, "tanh")
    assert info.value.lineno == activation_by_name.__code__.co_firstlineno + 1


# ---- functools.partial made in f, given on ----------------------------------------------

def scaled_loss(w, X, power=2.0):
    return np.sum(np.tanh(X * w) ** power)


def apply_to(fn, v):
    return fn(v)


def partial_given_to_a_helper(w):
    g = functools.partial(scaled_loss, X=np.arange(1.0, 4.0) * w)
    return apply_to(g, w) + apply_to(functools.partial(scaled_loss, w), np.ones(3) * w)


def gradient_of_a_partial_in_f(w):
    g = functools.partial(scaled_loss, X=np.arange(1.0, 4.0) * np.cos(w), power=3.0)
    h = functools.partial(scaled_loss, w * 2.0)
    return s2s_ad.grad(g)(w) * w + s2s_ad.value_and_grad(h, wrt="X")(np.ones(3) * w)[1][0]


@pytest.mark.parametrize("f", [partial_given_to_a_helper, gradient_of_a_partial_in_f])
def test_partial_made_in_f(both_paths, f):
    """A partial made in f and passed to a def of yours was "cannot differentiate a call
    of functools.partial(...) held in a variable" (and no grad of grad); s2s_ad.grad of one
    called in f was the same error without a location. The partial is inlined into the
    helper as a def of the parameters it leaves; grad of it is grad of its function, wrt
    counting past the values it holds."""
    every_way(fresh(f), 0.45)


# ---- s2s_ad.grad of a nested def reading f's variables, called in f -------------------------

def gradient_of_a_closure(x):
    c = np.cos(x) * 2.0

    def inner(z):
        return np.sin(z) * c + z * x

    def pair(z, w):
        return z * w * c

    slope = s2s_ad.grad(inner)(x)
    value, dz = s2s_ad.value_and_grad(pair)(x * 3.0, c)
    return slope * x + value + dz


def test_gradient_of_a_nested_def_reading_f(both_paths):
    """`s2s_ad.grad(inner)(x)` with inner reading f's c was "a nested function or lambda
    is passed here to a function that is not a def of yours": inner is lifted to take c
    after its own parameters, and f's derivative flows through c too."""
    every_way(fresh(gradient_of_a_closure), 0.35)


# ---- generators read as lists -----------------------------------------------------------

SHAPES = [(3, 2), (2, 1)]


def unpack_layers(weights):
    """A generator of (W, b) pairs, as autograd's Bayesian neural network example writes."""
    for m, n in SHAPES:
        yield weights[:m * n].reshape((m, n)), weights[m * n:m * n + n]
        weights = weights[(m + 1) * n:]


def network_of_a_generator(s):
    weights = np.linspace(-1.0, 1.0, 11) * s
    x = np.array([0.5, -0.2, 0.9])

    def squares(v):
        for i in range(2):
            yield v[i] ** 2

    for W, b in unpack_layers(weights):
        x = np.tanh(x @ W + b)
    return np.sum(x ** 2) + sum(squares(weights)) + sum(list(squares(weights * s)))


def forever(x):
    while True:
        yield x


def takes_from_a_while_generator(x):
    for v in forever(x):
        return v


def test_generators_read_as_lists(both_paths):
    """`for W, b in unpack_layers(weights)` was "generators (`yield`) cannot be
    differentiated": a generator yielding from statements and looping only with `for` is
    the list of its items (a helper's call `list(helper(...))`, a nested one inlined),
    to second order (grad of grad through a helper returning a list of tuples of arrays
    crashed in add_adjoints until session 13)."""
    every_way(fresh(network_of_a_generator), 0.8)


def test_generator_with_a_while_loop_stays_a_located_error():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="generators") as info:
        s2s_ad.grad(fresh(takes_from_a_while_generator))(0.5)
    assert "yield x" in str(info.value)
