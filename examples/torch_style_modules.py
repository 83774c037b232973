"""A network written the way PyTorch code is, trained by gradient descent.

A `Module` base class whose `__call__` runs `self.forward(...)`, layers of several
classes (`Linear`, `Tanh`) held in a `Sequential`'s list, and a residual block holding
another `Sequential`. `s2s_ad.grad(loss)(model, X, y)` differentiates with respect to the
model itself: the gradient is a `Sequential` of the same layers, each `Linear` holding the
gradients of its `W` and `b`. The script checks that gradient against central differences
(exit status 1 if it is wrong), then takes a few hundred steps of gradient descent.

Run: python examples/torch_style_modules.py
"""
import sys

import numpy as np

import s2s_ad


class Module:
    def __call__(self, *args):
        return self.forward(*args)

    def parameters(self):
        """(owner, attribute name) of every float array this module holds."""
        found = []
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                found.append((self, name))
            elif isinstance(value, Module):
                found += value.parameters()
            elif isinstance(value, list):
                for item in value:
                    found += item.parameters()
        return found


class Linear(Module):
    def __init__(self, n_in, n_out, rng):
        self.W = rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)
        self.b = np.zeros(n_out)

    def forward(self, x):
        return x @ self.W + self.b


class Tanh(Module):
    def forward(self, x):
        return np.tanh(x)


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Residual(Module):
    def __init__(self, inner):
        self.inner = inner

    def forward(self, x):
        return x + self.inner(x)


def loss(model, X, y):
    return np.mean((model(X)[:, 0] - y) ** 2)


def make_model(seed=0):
    rng = np.random.default_rng(seed)
    return Sequential(Linear(2, 16, rng), Tanh(),
                      Residual(Sequential(Linear(16, 16, rng), Tanh())),
                      Linear(16, 1, rng))


def make_data(n=128, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(n, 2))
    return X, np.sin(X[:, 0]) * np.cos(X[:, 1])


def check_gradient(model, X, y, eps=1e-6):
    """The largest difference between s2s_ad's gradient and central differences."""
    gradient = s2s_ad.grad(loss)(model, X, y)
    worst = 0.0
    for (owner, name), (g_owner, g_name) in zip(model.parameters(), gradient.parameters()):
        value, got = getattr(owner, name), getattr(g_owner, g_name)
        for i in np.ndindex(value.shape):
            saved = value[i]
            value[i] = saved + eps
            up = loss(model, X, y)
            value[i] = saved - eps
            down = loss(model, X, y)
            value[i] = saved
            worst = max(worst, abs(got[i] - (up - down) / (2 * eps)))
    return worst


def train(model, X, y, steps=300, rate=0.1):
    gradient_of = s2s_ad.grad(loss)
    for _ in range(steps):
        gradient = gradient_of(model, X, y)
        for (owner, name), (g_owner, g_name) in zip(model.parameters(),
                                                    gradient.parameters()):
            setattr(owner, name, getattr(owner, name) - rate * getattr(g_owner, g_name))
    return loss(model, X, y)


if __name__ == "__main__":
    X, y = make_data()
    model = make_model()
    error = check_gradient(model, X[:16], y[:16])
    print(f"largest difference from central differences: {error:.2e}")
    if error > 1e-6:
        sys.exit(1)
    before = loss(model, X, y)
    after = train(model, X, y)
    print(f"loss {before:.4f} -> {after:.4f} after 300 steps of gradient descent")
    if not after < before:
        sys.exit(1)
