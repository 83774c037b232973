"""A function chosen when the code runs (from a dict of activations by a string argument,
a function an object holds) called with keywords: `act(x, beta=2.0)`. Both derivatives
call it with its keywords put at their parameters' positions when it runs
(runtime_keywords.bound_arguments; the specialised one where it cannot name the function
either), then differentiate it as a call by position: grad, jvp and hvp against central
differences, the gradient in a keyword's value too. A keyword no position can take
(keyword-only, or taken by **kwargs) is an error naming the function and the call."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, every_way, grad_on
from gradcheck import numeric_grad

X = np.linspace(-1.5, 1.2, 12).reshape(3, 4)


def leaky(x, alpha=0.01):
    return np.where(x > 0, x, alpha * x)


def softplus(x, shift=0.0, beta=1.0):
    return np.log1p(np.exp(beta * (x - shift))) / beta


def scaled_only(x, *, scale):
    return x * scale


ACTS = {"leaky": leaky, "softplus": softplus, "scaled": scaled_only}


def by_name(x, name):
    act = ACTS[name]
    return np.sum(act(x, beta=2.0) ** 2)          # (shift keeps its default)


def keyword_value(b, x, name):
    act = ACTS[name]
    return np.sum(act(x, beta=b))


def scale_by_keyword(x, name):
    return np.sum(ACTS[name](x, scale=3.0) ** 2)


class Layer:
    def __init__(self, act):
        self.act = act
        self.W = np.linspace(-1.0, 1.0, 16).reshape(4, 4)

    def __call__(self, x):
        return self.act(x @ self.W, alpha=0.3)


def held_activation(x, layer):
    return np.sum(layer(x) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_keywords_of_a_function_chosen_by_a_string(path):
    check_against_differences(path, lambda x: by_name(x, "softplus"), X.copy())
    np.testing.assert_allclose(grad_on(path, by_name)(X, "softplus"),
                               numeric_grad(lambda x: by_name(x, "softplus"), (X,), 0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_the_gradient_in_a_keywords_value(path):
    got = grad_on(path, keyword_value)(0.7, X, "softplus")
    want = (keyword_value(0.7 + 1e-6, X, "softplus")
            - keyword_value(0.7 - 1e-6, X, "softplus")) / 2e-6
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_a_function_an_object_holds_called_with_keywords(path):
    layer = Layer(leaky)
    np.testing.assert_allclose(grad_on(path, held_activation)(X, layer),
                               numeric_grad(lambda x: held_activation(x, layer), (X,), 0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_a_keyword_only_parameter_is_a_clear_error(path):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        grad_on(path, scale_by_keyword)(X, "scaled")
    text = str(info.value)
    assert "`scale`" in text and "scaled_only" in text
    assert "test_keyword_calls_of_held_functions.py:" in text      # the call and the def


def through_beta(name, b):
    act = ACTS[name]
    return np.sum(act(X, shift=0.2 * b, beta=b) ** 2)


def test_every_derivative_in_the_keywords_value():
    """grad, value_and_grad, jvp, vjp, hvp and grad of grad in b, which reaches the
    function only through two keywords (the adjoint and tangent templates of
    bound_arguments and of its linear helpers, first and second order)."""
    every_way(through_beta, 0.8, before=("softplus",))
