"""A model written as a class, trained by gradient descent on its parameters.

`s2s_ad.grad(model.loss, wrt="self")` differentiates the bound method with respect to
the object itself: the gradient is a `TwoLayerNet` whose attributes are the gradients of
the model's attributes (its `W1`, `b1`, `W2`, `b2`; `activation_scale`, a float it reads,
gets its own gradient; the `name` string, which has no derivative, is None). The script
checks that gradient against central differences and exits with status 1 if it is wrong.

Run: python examples/model_class.py
"""
import sys

import numpy as np

import s2s_ad


class TwoLayerNet:
    def __init__(self, n_in, n_hidden, seed=0):
        rng = np.random.default_rng(seed)
        self.W1 = rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)
        self.b1 = np.zeros(n_hidden)
        self.W2 = rng.standard_normal(n_hidden) / np.sqrt(n_hidden)
        self.b2 = 0.0
        self.activation_scale = 1.0
        self.name = "two-layer net"

    def hidden(self, X):
        return np.tanh(self.activation_scale * (X @ self.W1 + self.b1))

    def predict(self, X):
        return self.hidden(X) @ self.W2 + self.b2

    @staticmethod
    def squared_error(prediction, y):
        return np.mean((prediction - y) ** 2)

    def loss(self, X, y):
        return self.squared_error(self.predict(X), y)


PARAMETERS = ("W1", "b1", "W2", "b2")


def make_data(n=64, n_in=3, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, n_in))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2]
    return X, y


def central_differences(model, name, X, y, eps=1e-6):
    """d loss / d model.<name> by central differences, one element at a time."""
    value = getattr(model, name)
    if np.ndim(value) == 0:
        plus, minus = _with(model, name, value + eps), _with(model, name, value - eps)
        return (plus.loss(X, y) - minus.loss(X, y)) / (2 * eps)
    g = np.zeros_like(value)
    for i in np.ndindex(value.shape):
        e = np.zeros_like(value)
        e[i] = eps
        g[i] = (_with(model, name, value + e).loss(X, y)
                - _with(model, name, value - e).loss(X, y)) / (2 * eps)
    return g


def _with(model, name, value):
    other = TwoLayerNet.__new__(TwoLayerNet)
    other.__dict__.update(model.__dict__)
    setattr(other, name, value)
    return other


def train(steps=100, learning_rate=0.2, verbose=True):
    X, y = make_data()
    model = TwoLayerNet(X.shape[1], 8)
    gradient_of_loss = s2s_ad.value_and_grad(model.loss, wrt="self")
    losses = []
    for step in range(steps):
        loss, gradient = gradient_of_loss(X, y)
        losses.append(loss)
        for name in PARAMETERS:
            setattr(model, name, getattr(model, name) - learning_rate * getattr(gradient, name))
        if verbose and step % 25 == 0:
            print(f"step {step:3d}  loss {loss:.5f}")
    return model, losses


def main():
    X, y = make_data()
    model = TwoLayerNet(X.shape[1], 8)
    gradient = s2s_ad.grad(model.loss, wrt="self")(X, y)
    assert isinstance(gradient, TwoLayerNet) and gradient.name is None
    worst = 0.0
    for name in PARAMETERS + ("activation_scale",):
        expected = central_differences(model, name, X, y)
        got = getattr(gradient, name)
        if np.shape(got) != np.shape(expected) or not np.allclose(got, expected, rtol=1e-5,
                                                                  atol=1e-8):
            print(f"wrong gradient for {name}: {got} instead of {expected}")
            return 1
        worst = max(worst, float(np.max(np.abs(got - expected))))
    print(f"gradient matches central differences (max |difference| {worst:.2e})")
    model, losses = train()
    if not losses[-1] < 0.5 * losses[0]:
        print(f"training did not reduce the loss: {losses[0]:.5f} -> {losses[-1]:.5f}")
        return 1
    print(f"trained: loss {losses[0]:.5f} -> {losses[-1]:.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
