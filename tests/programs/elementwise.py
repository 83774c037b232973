"""Elementwise losses whose backward sweeps have closed forms (tests/test_closed_forms.py)."""
import numpy as np

def logreg(w, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))

def bce_sum(z, y):
    p = 1.0 / (1.0 + np.exp(-z))
    return -np.sum(y * np.log(p) + (1 - y) * np.log(1 - p))

def mse(pred, y):
    return np.mean((pred - y) ** 2)

def tanh_loss(x, y):
    t = np.tanh(x)
    return np.sum(t * y + t * t)

def sigmoid_sum(x):
    s = 1.0 / (1.0 + np.exp(-x))
    return np.sum(s * s)

def softplus(x, a):
    return np.sum(np.log(1.0 + np.exp(a * x)))

def rational_mix(x, y):
    u = x / (1.0 + x * x)
    v = (x - y) / (x + y)
    return np.sum(u * v + u / v)

def huberish(x, c):
    return np.sum(c * c * (np.sqrt(1.0 + (x / c) ** 2) - 1.0))

def poly(x):
    return np.sum(3 * x ** 3 - 2 * x ** 2 + x)

def scalar_fn(x, y):
    p = 1.0 / (1.0 + np.exp(-x * y))
    return y * np.log(p) + (1.0 - y) * np.log(1.0 - p)

def cancel(x):
    return np.sum(x * x / x)

def ones_grad(x):
    return np.sum(2.0 * x)


def product_sum(x, y):
    return np.sum(x * y)


def with_noise(x):
    n = np.random.normal(0.0, 1.0, np.shape(x))
    return np.sum((x + n) ** 2)


def in_loop(x, k):
    s = 0.0
    for _ in range(k):
        s = s + np.sum(1.0 / (1.0 + np.exp(-x)))
    return s
