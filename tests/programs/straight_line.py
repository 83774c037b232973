"""Straight-line numerical programs as users write them (differentiated by the tests)."""
import math

import numpy as np

EPS = 1e-5


def softmax_cross_entropy(logits, labels):
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -(labels * log_p).sum() / logits.shape[0]


def layer_norm(x, gamma, beta):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    xhat = (x - mu) / np.sqrt(var + EPS)
    return np.sum((gamma * xhat + beta) ** 2)


def attention(q, k, v):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    weights = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    weights = weights / np.sum(weights, axis=1, keepdims=True)
    return np.sum(np.tanh(weights @ v))


def gaussian_nll(mu, log_sigma, x):
    sigma = np.exp(log_sigma)
    return np.sum(0.5 * ((x - mu) / sigma) ** 2 + log_sigma + 0.5 * np.log(2 * np.pi))


def polynomial(coeffs, x):
    powers = np.stack([np.ones_like(x), x, x ** 2, x ** 3], axis=1)
    return np.mean((powers @ coeffs - np.sin(x)) ** 2)


def bilinear(A, x, y):
    return x @ A @ y + np.dot(x, y) * np.trace(A)


def huber(r, delta=1.0):
    a = np.abs(r)
    return np.sum(np.where(a <= delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def scalar_physics(theta, v0, g=9.81):
    t_flight = 2.0 * v0 * math.sin(theta) / g
    distance = v0 * math.cos(theta) * t_flight
    return distance - 0.1 * theta ** 2


def einsum_energy(W, x):
    h = np.einsum("ij,bj->bi", W, x)
    return np.einsum("bi,bi->", h, h) / x.shape[0]


def indexing_mix(x):
    first = x[0]
    last = x[-1]
    middle = x[1:-1]
    evens = x[::2]
    picked = x[np.array([0, 0, 2])]
    positive = x[x > 0.0]
    return first * last + np.sum(middle ** 2) + np.sum(evens) + np.sum(picked) + np.sum(positive)


def matrix_rows(X, w):
    r0 = X[0, :]
    c1 = X[:, 1]
    corner = X[-1, -1]
    return np.sum(r0 * w) + np.sum(c1 ** 2) * corner + np.sum(X[..., 0])


def tuple_helper(a, b):
    return a * b, a + b


def uses_tuples(x, y):
    p, s = tuple_helper(x, y)
    pair = (p, s)
    q, r = pair
    return np.sum(q * r)


def kwargs_helper(x, scale=2.0, power=2):
    return scale * x ** power


def uses_kwargs(x, s):
    return np.sum(kwargs_helper(x, power=3, scale=s) + kwargs_helper(x))


def reshape_and_concat(x):
    m = x.reshape(2, 3)
    both = np.concatenate((m, m.T.reshape(2, 3) * 2.0), axis=0)
    return np.sum(np.cumsum(both, axis=1) * np.arange(6).reshape(1, 6)[:, :3])


def nested_lists(a, b, c, d):
    return np.sum(np.array([[a, b], [c, d]]) ** 2)


def scaled_matmul(a, c, b):
    t = a * c
    return np.matmul(t, b)
