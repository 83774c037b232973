"""`def __call__(self, *args, **kwargs): return self.forward(*args, **kwargs)`, the way
PyTorch-style modules forward a call, in models that nest such modules (residual blocks,
pre-norm blocks holding their activation, Sequentials of Sequentials, dicts and tuples of
blocks). The forwarded `**kwargs` counted as one keyword filling a parameter, so the
starred arguments were spread one short: an AssertionError inside generated code ("the
starred argument holds 0 items") on every path; and a `**kwargs` of a def inlined into f
was not read for its keys (a located error). Both read the keywords first now."""
import copy

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, jvp_on
from gradcheck import numeric_grad


class Module:
    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Linear(Module):
    def __init__(self, n_in, n_out, rs):
        self.W = rs.randn(n_in, n_out) / np.sqrt(n_in)
        self.b = rs.randn(n_out) * 0.1

    def forward(self, x):
        return x @ self.W + self.b


class Relu(Module):
    def forward(self, x):
        return np.maximum(x, 0.0)


class ReluInPlace(Module):
    def forward(self, x):
        np.maximum(x, 0.0, out=x)
        return x


class Tanh(Module):
    def forward(self, x):
        return np.tanh(x)


class LayerNorm(Module):
    def __init__(self, d):
        self.gain, self.bias = np.linspace(0.5, 1.5, d), np.zeros(d)

    def forward(self, x):
        mu = x.mean(axis=-1, keepdims=True)
        var = x.var(axis=-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5) * self.gain + self.bias


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Residual(Module):
    def __init__(self, body):
        self.body = body

    def forward(self, x):
        return x + self.body(x)


class PreNormBlock(Module):
    def __init__(self, d, rs, act):
        self.norm, self.act = LayerNorm(d), act
        self.up, self.down = Linear(d, 2 * d, rs), Linear(2 * d, d, rs)

    def forward(self, x):
        h = self.up(self.norm(x))
        h = self.act(h)
        h = self.down(h)
        h += x
        return h


class Encoder(Module):
    def __init__(self, d, rs):
        self.blocks = {"first": PreNormBlock(d, rs, ReluInPlace()),
                       "second": PreNormBlock(d, rs, Tanh())}

    def forward(self, x):
        return self.blocks["second"](self.blocks["first"](x))


class Stack(Module):
    def __init__(self, blocks):
        self.blocks = blocks

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def loss(x, model):
    return np.mean(model(x) ** 2)


def loss_of_params(model, x):
    return np.mean(model(x) ** 2)


def _models(d=4):
    rs = np.random.RandomState(3)
    return {
        "residual Sequentials": Sequential(
            Residual(Sequential(Linear(d, d, rs), ReluInPlace())), Residual(Linear(d, d, rs)),
            Tanh()),
        "pre-norm blocks, activations differ": Stack(
            [PreNormBlock(d, rs, ReluInPlace()), PreNormBlock(d, rs, Tanh()),
             PreNormBlock(d, rs, Relu())]),
        "pre-norm blocks alike": Stack([PreNormBlock(d, rs, ReluInPlace()) for _ in range(3)]),
        "dict of blocks": Encoder(d, rs),
        "tuple of blocks": Stack(tuple(PreNormBlock(d, rs, Relu()) for _ in range(2))),
        "Sequential of Sequentials": Sequential(Sequential(Linear(d, d, rs), ReluInPlace()),
                                                Sequential(Linear(d, d, rs), Tanh())),
    }


MODELS = _models()
X = np.random.RandomState(4).randn(5, 4)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_gradient_in_the_input(name, path):
    model = MODELS[name]
    expected = numeric_grad(lambda x: loss(x, copy.deepcopy(model)), (X.copy(),), 0)
    np.testing.assert_allclose(grad_on(path, loss)(X.copy(), copy.deepcopy(model)), expected,
                               rtol=1e-6, atol=1e-9)
    v = np.linspace(-1.0, 1.0, X.size).reshape(X.shape)
    _, tangent = jvp_on(path, loss, (X.copy(), copy.deepcopy(model)), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_gradient_in_the_parameters(name):
    s2s_ad.check_grads(loss_of_params, copy.deepcopy(MODELS[name]), X.copy(), wrt=0)


class Attention(Module):
    def __init__(self, d, rs):
        self.q, self.k, self.v = Linear(d, d, rs), Linear(d, d, rs), Linear(d, d, rs)

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        s = q @ k.T / np.sqrt(x.shape[-1])
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        return p @ v


class AttentionNet(Module):
    def __init__(self, d, rs):
        self.attn, self.norm, self.out = Attention(d, rs), LayerNorm(d), Linear(d, 1, rs)

    def forward(self, x):
        h = x + self.attn(x)
        return self.out(self.norm(h))


@pytest.mark.parametrize("path", PATHS)
def test_modules_three_deep_are_read_for_writes(path):
    """Net -> Attention -> Linear is six calls through `__call__` and `forward`: the run-time
    check of the general derivative read the Linear calls as writing into x (a located
    error at `q, k, v = ...`) when it followed three."""
    model = AttentionNet(4, np.random.RandomState(5))
    expected = numeric_grad(lambda x: loss(x, model), (X.copy(),), 0)
    np.testing.assert_allclose(grad_on(path, loss)(X.copy(), model), expected,
                               rtol=1e-6, atol=1e-9)


class ScaledTanh(Module):
    def __init__(self):
        self.w = np.array([0.5, -1.0, 2.0, 0.3])

    def forward(self, x, scale=1.0, shift=0.0):
        return np.tanh(x * self.w) * scale + shift


class Wrapper(Module):
    def __init__(self):
        self.inner = ScaledTanh()

    def forward(self, x, **options):
        return self.inner(x, **options) * 2.0


def called_with_keywords(x, model):
    return np.sum(model(x, shift=1.0, scale=0.5) ** 2)


def keywords_passed_on(x, model):
    return np.sum(model(x, scale=3.0) ** 2)


@pytest.mark.parametrize("f, model", [(called_with_keywords, ScaledTanh()),
                                      (keywords_passed_on, Wrapper())])
def test_an_object_argument_called_with_keywords(f, model):
    """grad() refused f outright (the general derivative passed no keywords to a function
    it knows only when the code runs); the derivative built for the object's class calls
    its __call__ with them."""
    expected = numeric_grad(lambda x: f(x, model), (X.copy(),), 0)
    np.testing.assert_allclose(grad_on("specialised", f)(X.copy(), model), expected,
                               rtol=1e-6, atol=1e-9)
    v = np.linspace(-1.0, 1.0, X.size).reshape(X.shape)
    _, tangent = jvp_on("specialised", f, (X.copy(), model), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-9)
    # the general derivative calls the object by position: its `__call__(self, *args,
    # **kwargs)` has no position for `scale`, an error naming the call
    with pytest.raises(s2s_ad.UnsupportedSyntaxError,
                       match=r"(?s)call at test_forwarded_keywords\.py:\d+ passes the "
                             r"keyword `(scale|shift)`.*chosen when the code runs"):
        grad_on("general", f)(X.copy(), model)
