"""A model written the way PyTorch code is (user_workloads.py): a Module base class whose
`__call__` runs `self.forward(*args)`, Linear and ReLU layers, a Sequential holding them
in a list; the loss takes the model and the gradient is a model of the same classes.

The hand-written gradient is what an expert writes for this network: the forward pass
keeping each layer's input, the backward pass layer by layer (ReLU's mask from the
pre-activation), the weight gradients as X.T @ delta.
"""
import numpy as np


class Module:
    def __call__(self, *args):
        return self.forward(*args)


class Linear(Module):
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def forward(self, x):
        return x @ self.W + self.b


class ReLU(Module):
    def forward(self, x):
        return np.maximum(x, 0.0)


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def module_mse(model, x, y):
    return np.mean((model(x) - y) ** 2)


def module_mse_grad(model, x, y):
    first, _, last = model.layers
    a = x @ first.W + first.b
    h = np.maximum(a, 0.0)
    e = h @ last.W + last.b
    e -= y
    e *= 2.0 / e.size
    last_grad = Linear(h.T @ e, e.sum(axis=0))
    dh = e @ last.W.T
    dh *= a > 0
    first_grad = Linear(x.T @ dh, dh.sum(axis=0))
    return Sequential(first_grad, ReLU(), last_grad)


def make_module_mlp(small=False):
    rng = np.random.default_rng(61)
    n, d, h, k = (4, 3, 5, 2) if small else (256, 64, 128, 10)
    model = Sequential(Linear(rng.standard_normal((d, h)) / np.sqrt(d), 0.1 * rng.standard_normal(h)),
                       ReLU(),
                       Linear(rng.standard_normal((h, k)) / np.sqrt(h), 0.1 * rng.standard_normal(k)))
    return model, rng.standard_normal((n, d)), rng.standard_normal((n, k))
