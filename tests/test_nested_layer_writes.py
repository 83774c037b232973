"""Layers that write into what they are given (an in-place ReLU: `x[x < 0] = 0.0`,
`np.maximum(x, 0.0, out=x)`) called inside a block that holds them (`h = self.fc(x);
h = self.act(h); h += x`), alone, in a Sequential, or from a list argument mixing layer
classes. Session 21 refused these (a located error) although the array written is fresh:
the block's inlined method did not know what its `self` holds, and a list argument's loop
over several classes was not unrolled. Now the specialised derivative inlines each call
with its class known and computes the right values; the general derivative (no classes
known) computes them or gives the located error, never a wrong value."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import UnsupportedSyntaxError
from derivative_paths import grad_on, jvp_on
from gradcheck import numeric_grad
from test_module_classes import Module, Sequential   # (PyTorch-style: __call__ runs forward)

RS = np.random.RandomState(11)
X = RS.randn(4, 3)
W1, W2 = RS.randn(3, 3), RS.randn(3, 3)


class Affine(Module):
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def forward(self, x):
        return x @ self.W + self.b


class ClipNegative(Module):
    def forward(self, x):
        x[x < 0] = 0.0
        return x


class InplaceRelu(Module):
    def forward(self, x):
        np.maximum(x, 0.0, out=x)
        return x


class ResidualBlock(Module):
    def __init__(self, W, act):
        self.fc = Affine(W, 0.1)
        self.act = act

    def forward(self, x):
        h = self.fc(x)
        h = self.act(h)
        h += x
        return h


def block_loss(x, block):
    return np.sum(block(x) ** 2)


def layers_loss(x, layers):
    for layer in layers:
        x = layer(x)
    return np.sum(x ** 2)


CASES = {
    "block, mask write": (block_loss, lambda: ResidualBlock(W1, ClipNegative())),
    "block, out= write": (block_loss, lambda: ResidualBlock(W1, InplaceRelu())),
    "two blocks in a Sequential": (block_loss, lambda: Sequential(
        ResidualBlock(W1, ClipNegative()), ResidualBlock(W2, InplaceRelu()))),
    "list of mixed layers": (layers_loss, lambda: [
        Affine(W1, 0.1), InplaceRelu(), Affine(W2, 0.0)]),
    "list of mixed layers, mask write": (layers_loss, lambda: [
        Affine(W1, 0.1), ClipNegative(), Affine(W2, -0.2), InplaceRelu()]),
    "list holding a block": (layers_loss, lambda: [
        Affine(W2, 0.0), ResidualBlock(W1, ClipNegative())]),
    # the Sequential's own forward writes into its argument (its first layer clips x in
    # place): inlined into f, with its loop over the layers unrolled there
    "Sequential starting with a clip": (block_loss, lambda: Sequential(
        ClipNegative(), Affine(W1, 0.1), InplaceRelu(), Affine(W2, 0.0))),
}


def _expected(f, make):
    return numeric_grad(lambda x: f(x, make()), (X.copy(),), 0)


@pytest.mark.parametrize("case", sorted(CASES))
def test_specialised_derivatives_follow_the_writes(case):
    f, make = CASES[case]
    expected = _expected(f, make)
    np.testing.assert_allclose(grad_on("specialised", f)(X.copy(), make()), expected,
                               rtol=1e-6, atol=1e-8)
    v = np.linspace(0.5, 1.5, X.size).reshape(X.shape)
    value, tangent = jvp_on("specialised", f, (X.copy(), make()), v)
    np.testing.assert_allclose(value, f(X.copy(), make()), rtol=1e-12)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("case", sorted(CASES))
def test_general_derivative_is_right_or_refuses(case):
    f, make = CASES[case]
    try:
        got = grad_on("general", f)(X.copy(), make())
    except UnsupportedSyntaxError as error:
        assert "writes here into the array its caller passes in" in str(error)
        assert "test_nested_layer_writes.py" in str(error)
        return
    np.testing.assert_allclose(got, _expected(f, make), rtol=1e-6, atol=1e-8)


def test_the_block_is_inlined_with_its_layers_classes_known():
    """Nothing is left to a function chosen when the code runs: fc and act are inlined."""
    df = s2s_ad.grad(block_loss)
    block = ResidualBlock(W1, ClipNegative())
    df(X.copy(), block)
    source = s2s_ad.derivative_source(df, X.copy(), block)
    assert "function_vjp" not in source and "call_function" not in source


def test_a_block_writing_into_the_callers_array_read_later_is_refused():
    """The write is real here: the block's act writes into f's own array, read after."""
    class ScaleInPlace(Module):
        def forward(self, x):
            x *= 2.0
            return x

    class Holder(Module):
        def __init__(self):
            self.act = ScaleInPlace()

        def forward(self, x):
            return self.act(x)

    def f(x, blk):
        y = np.sin(x)
        z = blk(y)
        return np.sum(z) + np.sum(y)

    with pytest.raises(UnsupportedSyntaxError, match="holds the same numpy array"):
        s2s_ad.grad(f)(X.copy(), Holder())


def test_a_model_clipping_the_callers_array_is_refused_before_it_runs():
    """The Sequential's first layer clips f's own x, which f reads again: refused (s2s_ad
    does not follow a write through memory two names share), and before the derivative
    runs anything: the loop over the layers in the inlined forward is unrolled with each
    layer's class known, so the write is found while building, not by the forward sweep
    having clipped the caller's array already."""
    def f(x, m):
        return np.sum(m(x) ** 2) + np.sum(x)

    x = X.copy()
    model = Sequential(ClipNegative(), Affine(W1, 0.1))
    with pytest.raises(s2s_ad.SharedMemoryWriteError):
        s2s_ad.grad(f)(x, model)
    np.testing.assert_array_equal(x, X)
    df = s2s_ad.grad(block_loss)
    model = Sequential(ClipNegative(), Affine(W1, 0.1), InplaceRelu())
    df(X.copy(), model)
    source = s2s_ad.derivative_source(df, X.copy(), model)
    assert "call_function" not in source and "function_vjp" not in source, source


@pytest.mark.parametrize("raised, falls_back", [
    (s2s_ad.SharedMemoryWriteError, False), (UnsupportedSyntaxError, True)])
def test_a_shared_memory_refusal_is_not_answered_by_the_general_derivative(
        monkeypatch, raised, falls_back):
    """A specialisation whose build fails falls back to the general derivative, except
    when it found a write through shared memory: that is a fact of the program at these
    arguments, which the general derivative would get wrong or refuse later."""
    from s2s_ad import derivative_registry
    real = derivative_registry.derive

    def derive(function, request, registry, cache):
        if request.signature is not None:
            raise raised("refused while specialising")
        return real(function, request, registry, cache)
    monkeypatch.delenv("S2S_AD_STRICT_PASSES", raising=False)
    monkeypatch.setattr(derivative_registry, "derive", derive)

    def f(x):
        return np.sum(np.sin(x) * x)
    df = s2s_ad.grad(f)
    if falls_back:
        np.testing.assert_allclose(df(X), np.cos(X) * X + np.sin(X), rtol=1e-12)
    else:
        with pytest.raises(s2s_ad.SharedMemoryWriteError, match="refused while"):
            df(X)
