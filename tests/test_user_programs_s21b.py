"""Programs written the way PyTorch/JAX users write them (session 21 review) that found
something, each checked against central differences on both derivative paths.

A model argument whose layers run through `Module.__call__` (`return
self.forward(*args)`), one of them an in-place activation (`np.maximum(x, 0.0, out=x)`;
`return x`): its Hessian-vector product differentiates the gradient's generated helper
again, where the alias analysis read `self.forward(*args)` as returning `args` for
every layer, also a Linear whose forward returns a new array, and refused the ReLU's
write (a located error pointing into generated code). A starred argument is now
returned only when a parameter it may fill is (analyses/argument_calls.py).

A function or layer chosen when the code runs (a model argument called through
`call_function`, `fns[0](y)`) may return the array it is given (an identity layer):
`z = model(y); z *= 2.0` then doubles y too. The derivative took z for a new array and
gave a wrong gradient without an error (also before session 21); the alias analysis
now counts z as possibly any array given (analyses/aliases.py), so the write is checked
when the derivative runs: a located error when they share memory, the gradient when
they do not."""
import numpy as np
import pytest

import s2s_ad

from derivative_paths import PATHS, grad_on, hvp_on, jvp_on
from gradcheck import numeric_grad
from test_module_classes import Linear, Module, Sequential, Tanh


class InplaceReLU(Module):
    def forward(self, x):
        np.maximum(x, 0.0, out=x)
        return x


def model_loss(x, model):
    return np.sum(model(x) ** 2)


RNG = np.random.default_rng(0)
MODEL = Sequential(Linear(3, 4), InplaceReLU(), Linear(4, 2))
X = RNG.standard_normal((5, 3))
X_GIVEN = X.copy()


@pytest.mark.parametrize("path", PATHS)
def test_model_argument_with_in_place_relu_hvp(path):
    # was: "`x_2` holds the same numpy array as `x`" at a line of the generated
    # vjp_Sequential_forward_1_x (main before session 21 gave a wrong Hessian product)
    expected = numeric_grad(model_loss, (X, MODEL), 0)
    np.testing.assert_allclose(grad_on(path, model_loss)(X, MODEL), expected, rtol=1e-6,
                               atol=1e-8)
    v = np.linspace(-1.0, 1.0, X.size).reshape(X.shape)
    value, tangent = jvp_on(path, model_loss, (X, MODEL), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6)
    eps = 1e-5

    def gradient(x):
        return grad_on("specialised", model_loss)(x, MODEL)
    numeric = (gradient(X + eps * v) - gradient(X - eps * v)) / (2 * eps)
    np.testing.assert_allclose(hvp_on(path, model_loss, (X, MODEL), v), numeric, rtol=1e-5,
                               atol=1e-7)
    assert np.linalg.norm(numeric) > 1e-2       # the product is not a zero passing by chance
    np.testing.assert_array_equal(X, X_GIVEN)   # no derivative wrote into the argument


class Identity(Module):
    def forward(self, x):
        return x


def ident(a):
    return a


def write_into_result(x, model):
    y = x * 1.0
    z = model(y)
    z *= 2.0
    return np.sum(y * z)


def write_into_given(x, fn):
    y = x * 1.0
    z = fn(y)
    y *= 3.0
    return np.sum(np.sin(z) * y)


def chosen_from_list(x, k):
    fns = [ident, np.tanh]
    y = x * 1.0
    z = fns[k](y)
    z *= 2.0
    return np.sum(y * z)


V = np.array([0.3, -0.7, 1.1])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, other", [(write_into_result, Identity()),
                                      (write_into_result, ident),
                                      (write_into_given, ident),
                                      (write_into_given, Identity()),
                                      (chosen_from_list, 0)])
def test_write_through_what_a_function_chosen_at_run_time_returns(path, f, other):
    # was a gradient half the right one (write_into_result), on both paths
    with pytest.raises(s2s_ad.UnsupportedSyntaxError,
                       match=r"holds the same numpy array(?s:.*)test_user_programs_s21b\.py"):
        grad_on(path, f)(V, other)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, other", [(write_into_result, Tanh()), (write_into_result, np.sin),
                                      (write_into_given, np.tanh), (chosen_from_list, 1)])
def test_write_into_a_new_array_a_function_chosen_at_run_time_returns(path, f, other):
    expected = numeric_grad(f, (V, other), 0)
    np.testing.assert_allclose(grad_on(path, f)(V, other), expected, rtol=1e-6, atol=1e-8)
    _, tangent = jvp_on(path, f, (V, other), np.ones(3))
    np.testing.assert_allclose(tangent, np.sum(expected), rtol=1e-6)
