"""Twelve small programs written the way users of JAX, autograd or PyTorch write models
(issue 15, session 13): classes with forward / loss, layers in a list, dataclass and
namedtuple parameters updated by an optimiser loop calling grad, bound methods, static and
class methods, a closure, functools.partial, an activation chosen by name, a property,
inheritance and a callable model. tests/test_user_programs_s13.py runs each as its user
would and checks it against central differences on both derivative paths."""
import collections
import dataclasses
import functools

import numpy as np

import s2s_ad


# 1. a model class: __init__ stores arrays, forward and loss are methods
class MLP:
    def __init__(self, rng, n_in, n_hidden):
        self.W1 = rng.standard_normal((n_in, n_hidden)) * 0.5
        self.b1 = np.zeros(n_hidden)
        self.w2 = rng.standard_normal(n_hidden) * 0.5

    def forward(self, X):
        return np.tanh(X @ self.W1 + self.b1) @ self.w2

    def loss(self, X, y):
        return np.mean((self.forward(X) - y) ** 2)


# 2. a model holding a list of layers
class Dense:
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def forward(self, h):
        return np.tanh(h @ self.W + self.b)


class Stack:
    def __init__(self, layers):
        self.layers = layers

    def loss(self, X, y):
        h = X
        for layer in self.layers:
            h = Dense.forward(layer, h)
        return np.sum((h[:, 0] - y) ** 2)


# 3. a dataclass of parameters, trained by an optimiser loop calling grad each step
@dataclasses.dataclass
class Linear:
    w: np.ndarray
    b: float


def linear_loss(p, X, y):
    return np.mean((X @ p.w + p.b - y) ** 2)


def sgd(loss, params, args, lr=0.1, steps=30):
    grad = s2s_ad.grad(loss)
    for _ in range(steps):
        g = grad(params, *args)
        params = Linear(params.w - lr * g.w, params.b - lr * g.b)
    return params


# 4. namedtuple parameters
Gaussian = collections.namedtuple("Gaussian", ["mu", "log_sigma"])


def gaussian_nll(p, x):
    sigma = np.exp(p.log_sigma)
    return np.sum(0.5 * ((x - p.mu) / sigma) ** 2 + p.log_sigma)


# 5. grad(model.loss): a bound method, differentiated in its data and in self
class Ridge:
    def __init__(self, w, lam):
        self.w = w
        self.lam = lam

    def loss(self, X, y):
        r = X @ self.w - y
        return np.dot(r, r) + self.lam * np.dot(self.w, self.w)


# 6. static and class method helpers
class Softplus:
    beta = 2.0

    def __init__(self, w):
        self.w = w

    @staticmethod
    def softplus(z):
        return np.log1p(np.exp(z))

    @classmethod
    def scaled(cls, z):
        return cls.softplus(cls.beta * z) / cls.beta

    def loss(self, X):
        return np.sum(self.scaled(X @ self.w))


# 7. a closure over a hyper-parameter
def make_huber(delta):
    def huber(r):
        a = np.abs(r)
        return np.sum(np.where(a < delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))
    return huber


# 8. functools.partial fixing the data
def logistic_loss(w, X, y):
    z = X @ w
    return np.sum(np.logaddexp(0.0, z) - y * z)


def partial_loss(X, y):
    return functools.partial(logistic_loss, X=X, y=y)


# 9. an activation chosen from a dict by name
ACTIVATIONS = {"tanh": np.tanh, "relu": lambda z: np.maximum(z, 0.0),
               "softplus": lambda z: np.logaddexp(0.0, z)}


def net_with(name, W, X):
    act = ACTIVATIONS[name]
    return np.sum(act(X @ W) ** 2)


# 10. a property computed from a stored parameter
class LogScale:
    def __init__(self, log_s, w):
        self.log_s = log_s
        self.w = w

    @property
    def scale(self):
        return np.exp(self.log_s)

    def loss(self, x):
        return np.sum((self.scale * x - self.w) ** 2)


# 11. inheritance: a subclass overriding one method
class Base:
    def __init__(self, w):
        self.w = w

    def activation(self, z):
        return np.tanh(z)

    def loss(self, x):
        return np.sum(self.activation(self.w * x) ** 2)


class Swish(Base):
    def activation(self, z):
        return z / (1.0 + np.exp(-z))


# 12. a callable model (def __call__) of sub-models, called inside the loss
class Affine:
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def __call__(self, x):
        return x @ self.W + self.b


class TwoLayer:
    def __init__(self, first, second):
        self.first = first
        self.second = second

    def __call__(self, x):
        return self.second(np.tanh(self.first(x)))


def mse(model, X, y):
    return np.mean((model(X)[:, 0] - y) ** 2)
