"""Layer workloads written fresh (user_workloads.py): RMSNorm with a (D,) weight feeding a
linear map, and a two-layer MLP with the tanh form of GELU. Each with the gradient an
expert writes: the closed-form RMSNorm backward (one mean per row), GELU's derivative from
the tanh it already computed.
"""
import numpy as np

SQRT_2_OVER_PI = 0.7978845608028654


def rms_norm_regression(x, weight, W, target):
    ms = np.mean(x * x, axis=-1, keepdims=True)
    h = x / np.sqrt(ms + 1e-6) * weight
    return np.mean((h @ W - target) ** 2)


def rms_norm_regression_grad(x, weight, W, target):
    r = 1.0 / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-6)
    xn = x * r
    h = xn * weight
    e = h @ W
    e -= target
    e *= 2.0 / e.size
    dW = h.T @ e
    dh = e @ W.T
    dweight = np.sum(dh * xn, axis=0)
    dh *= weight                                    # d xn
    dx = dh - xn * np.mean(dh * xn, axis=-1, keepdims=True)
    dx *= r
    return dx, dweight, dW


def make_rms_norm(small=False):
    rng = np.random.default_rng(51)
    n, d, k = (3, 5, 2) if small else (256, 512, 64)
    x = rng.standard_normal((n, d)) * 2.0 + 0.5
    weight = 1.0 + 0.1 * rng.standard_normal(d)
    W = rng.standard_normal((d, k)) / np.sqrt(d)
    return x, weight, W, rng.standard_normal((n, k))


def gelu_mlp(W1, b1, W2, X, y):
    a = X @ W1 + b1
    h = 0.5 * a * (1.0 + np.tanh(SQRT_2_OVER_PI * (a + 0.044715 * a ** 3)))
    pred = h @ W2
    return np.mean((pred - y) ** 2)


def gelu_mlp_grad(W1, b1, W2, X, y):
    a = X @ W1 + b1
    a2 = a * a
    t = np.tanh(SQRT_2_OVER_PI * a * (1.0 + 0.044715 * a2))
    h = 0.5 * a * (1.0 + t)
    e = h @ W2
    e -= y
    e *= 2.0 / e.size
    dW2 = h.T @ e
    da = e @ W2.T
    # d h / d a = (1 + t) / 2 + a (1 - t^2) c (1 + 3 k a^2) / 2
    dh_da = 1.0 - t * t
    dh_da *= a
    dh_da *= SQRT_2_OVER_PI * (1.0 + 3 * 0.044715 * a2)
    dh_da += 1.0 + t
    da *= dh_da
    da *= 0.5
    return X.T @ da, da.sum(axis=0), dW2


def make_gelu_mlp(small=False):
    rng = np.random.default_rng(52)
    n, d, hidden, k = (4, 3, 5, 2) if small else (256, 64, 256, 10)
    X = rng.standard_normal((n, d))
    return (rng.standard_normal((d, hidden)) / np.sqrt(d), 0.1 * rng.standard_normal(hidden),
            rng.standard_normal((hidden, k)) / np.sqrt(hidden), X, rng.standard_normal((n, k)))
