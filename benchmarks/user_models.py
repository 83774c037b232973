"""Workloads 4-8 of user_workloads.py: normalisation, attention and MLP, a Gaussian process, recurrent networks, convolution by slicing, 10^7 elements.

Each workload is a plain function, its hand-written gradient and `make(small=False)`; the
table of workloads (names, wrt, kinds) is `user_workloads.WORKLOADS`.
"""
import math

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)



# =========================================================================================
# 4. Normalisation, attention, MLP
# =========================================================================================
def layer_norm_mse(x, gamma, beta, target):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    y = (x - mu) / np.sqrt(var + 1e-5) * gamma + beta
    return np.mean((y - target) ** 2)


def layer_norm_mse_grad(x, gamma, beta, target):
    mu = x.mean(axis=-1, keepdims=True)
    xc = x - mu
    var = np.mean(xc * xc, axis=-1, keepdims=True)
    inv_std = 1.0 / np.sqrt(var + 1e-5)
    xhat = xc * inv_std
    dy = (2.0 / x.size) * (xhat * gamma + beta - target)
    dgamma = np.sum(dy * xhat, axis=0)
    dbeta = np.sum(dy, axis=0)
    dxhat = dy * gamma
    dx = inv_std * (dxhat - dxhat.mean(axis=-1, keepdims=True)
                    - xhat * np.mean(dxhat * xhat, axis=-1, keepdims=True))
    return dx, dgamma, dbeta


def _layer_norm_data(small, dtype):
    n, d = (4, 5) if small else (256, 512)
    rng = _rng(14)
    return tuple(a.astype(dtype) for a in (
        2.0 * rng.standard_normal((n, d)) + 1.0, 1.0 + 0.1 * rng.standard_normal(d),
        0.1 * rng.standard_normal(d), rng.standard_normal((n, d))))


def make_layer_norm(small=False):
    return _layer_norm_data(small, np.float64)


def make_layer_norm_f32(small=False):
    return _layer_norm_data(small, np.float32)


def batch_norm_regression(x, gamma, beta, w, y):
    mu = np.mean(x, axis=0)
    var = np.var(x, axis=0)
    x_hat = (x - mu) / np.sqrt(var + 1e-5)
    h = np.maximum(gamma * x_hat + beta, 0.0)
    return np.mean((h @ w - y) ** 2)


def batch_norm_regression_grad(x, gamma, beta, w, y):
    mu = x.mean(axis=0)
    xc = x - mu
    var = np.mean(xc * xc, axis=0)
    inv_std = 1.0 / np.sqrt(var + 1e-5)
    xhat = xc * inv_std
    a = gamma * xhat + beta
    h = np.maximum(a, 0.0)
    dpred = (2.0 / len(y)) * (h @ w - y)
    dw = h.T @ dpred
    da = np.outer(dpred, w)
    da *= a > 0
    dgamma = np.sum(da * xhat, axis=0)
    dbeta = np.sum(da, axis=0)
    dxhat = da * gamma
    dx = inv_std * (dxhat - dxhat.mean(axis=0) - xhat * np.mean(dxhat * xhat, axis=0))
    return dx, dgamma, dbeta, dw


def make_batch_norm(small=False):
    n, d = (6, 4) if small else (256, 128)
    rng = _rng(15)
    return (3.0 * rng.standard_normal((n, d)) - 1.0, 1.0 + 0.1 * rng.standard_normal(d),
            0.1 * rng.standard_normal(d), rng.standard_normal(d) / np.sqrt(d),
            rng.standard_normal(n))


def attention_loss(X, Wq, Wk, Wv, target):
    Q = X @ Wq
    K = X @ Wk
    V = X @ Wv
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    A = np.exp(scores)
    A = A / A.sum(axis=-1, keepdims=True)
    out = A @ V
    return 0.5 * np.sum((out - target) ** 2)


def attention_grad(X, Wq, Wk, Wv, target):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scale = 1.0 / np.sqrt(Q.shape[-1])
    S = (Q @ K.T) * scale
    S -= S.max(axis=-1, keepdims=True)
    A = np.exp(S)
    A /= A.sum(axis=-1, keepdims=True)
    dout = A @ V - target
    dV = A.T @ dout
    dA = dout @ V.T
    dS = A * (dA - np.sum(dA * A, axis=-1, keepdims=True))
    dS *= scale
    return X.T @ (dS @ K), X.T @ (dS.T @ Q), X.T @ dV


def make_attention(small=False):
    t, dm, d = (5, 4, 3) if small else (128, 64, 32)
    rng = _rng(16)
    return (rng.standard_normal((t, dm)), rng.standard_normal((dm, d)) / np.sqrt(dm),
            rng.standard_normal((dm, d)) / np.sqrt(dm), rng.standard_normal((dm, d)) / np.sqrt(dm),
            rng.standard_normal((t, d)))


def mlp_regression(W1, b1, W2, b2, X, y):
    h = np.maximum(0, X @ W1 + b1)
    pred = h @ W2 + b2
    return np.mean((pred - y) ** 2)


def mlp_regression_grad(W1, b1, W2, b2, X, y):
    a = X @ W1 + b1
    h = np.maximum(a, 0.0)
    dpred = (2.0 / len(y)) * (h @ W2 + b2 - y)
    da = np.outer(dpred, W2)
    da *= a > 0
    return X.T @ da, da.sum(axis=0), h.T @ dpred, float(dpred.sum())


def make_mlp_regression(small=False):
    n, d, h = (8, 3, 5) if small else (256, 32, 128)
    rng = _rng(17)
    X = rng.standard_normal((n, d))
    return (rng.standard_normal((d, h)) / np.sqrt(d), 0.1 * rng.standard_normal(h),
            rng.standard_normal(h) / np.sqrt(h), 0.3, X, np.sin(X[:, 0]) + 0.1 * X[:, 1])


# =========================================================================================
# 5. Gaussian process marginal likelihood (np.linalg)
# =========================================================================================
def gp_nll_cholesky(log_params, X, y):
    ell = np.exp(log_params[0])
    sf2 = np.exp(2.0 * log_params[1])
    sn2 = np.exp(2.0 * log_params[2])
    sq = np.sum(X ** 2, axis=1)
    sqdist = sq[:, None] + sq[None, :] - 2.0 * X @ X.T
    K = sf2 * np.exp(-0.5 * sqdist / ell ** 2) + sn2 * np.eye(len(y))
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L))) + 0.5 * len(y) * np.log(2.0 * np.pi)


def gp_nll_slogdet(log_params, X, y):
    ell = np.exp(log_params[0])
    sf2 = np.exp(2.0 * log_params[1])
    sn2 = np.exp(2.0 * log_params[2])
    sq = np.sum(X ** 2, axis=1)
    sqdist = sq[:, None] + sq[None, :] - 2.0 * X @ X.T
    K = sf2 * np.exp(-0.5 * sqdist / ell ** 2) + sn2 * np.eye(len(y))
    sign, logdet = np.linalg.slogdet(K)
    alpha = np.linalg.solve(K, y)
    return 0.5 * y @ alpha + 0.5 * logdet + 0.5 * len(y) * np.log(2.0 * np.pi)


def gp_nll_grad(log_params, X, y):
    """0.5 tr((K^-1 - a a^T) dK/dtheta), a = K^-1 y."""
    ell = math.exp(log_params[0])
    sf2 = math.exp(2.0 * log_params[1])
    sn2 = math.exp(2.0 * log_params[2])
    sq = np.sum(X * X, axis=1)
    sqdist = sq[:, None] + sq[None, :] - 2.0 * (X @ X.T)
    Kse = sf2 * np.exp((-0.5 / ell ** 2) * sqdist)
    K = Kse + sn2 * np.eye(len(y))
    W = np.linalg.inv(K)
    alpha = W @ y
    W -= np.outer(alpha, alpha)
    WK = W * Kse
    return np.array([0.5 * np.sum(WK * sqdist) / ell ** 2, np.sum(WK), sn2 * np.trace(W)])


def make_gp(small=False):
    n, d = (6, 2) if small else (200, 3)
    rng = _rng(18)
    X = rng.uniform(-2.0, 2.0, (n, d))
    y = np.sin(X.sum(axis=1)) + 0.1 * rng.standard_normal(n)
    return (np.array([0.1, -0.2, np.log(0.2)]), X, y)


# =========================================================================================
# 6. Recurrent networks
# =========================================================================================
def rnn_loss(Wx, Wh, b, Wy, xs, ys):
    h = np.zeros((xs.shape[1], Wh.shape[0]), dtype=Wh.dtype)
    loss = 0.0
    for x_t, y_t in zip(xs, ys):
        h = np.tanh(x_t @ Wx + h @ Wh + b)
        loss += np.mean((h @ Wy - y_t) ** 2)
    return loss / len(xs)


def rnn_grad(Wx, Wh, b, Wy, xs, ys):
    steps, batch = xs.shape[0], xs.shape[1]
    h = np.zeros((batch, Wh.shape[0]), dtype=Wh.dtype)
    hs = [h]
    for x_t in xs:
        h = np.tanh(x_t @ Wx + h @ Wh + b)
        hs.append(h)
    scale = 2.0 / (steps * batch * Wy.shape[1])
    dWx, dWh, db, dWy = (np.zeros_like(Wx), np.zeros_like(Wh), np.zeros_like(b),
                         np.zeros_like(Wy))
    dh = np.zeros_like(h)
    for t in range(steps - 1, -1, -1):
        h = hs[t + 1]
        dy = (h @ Wy - ys[t]) * scale
        dWy += h.T @ dy
        dz = (dh + dy @ Wy.T) * (1.0 - h * h)
        dWx += xs[t].T @ dz
        dWh += hs[t].T @ dz
        db += dz.sum(axis=0)
        dh = dz @ Wh.T
    return dWx, dWh, db, dWy


def _rnn_data(steps, batch, inputs, hidden, outputs, seed, dtype=np.float64):
    rng = _rng(seed)
    return tuple(a.astype(dtype) for a in (
        rng.standard_normal((inputs, hidden)) / np.sqrt(inputs),
        rng.standard_normal((hidden, hidden)) * (0.9 / np.sqrt(hidden)),
        0.1 * rng.standard_normal(hidden),
        rng.standard_normal((hidden, outputs)) / np.sqrt(hidden),
        rng.standard_normal((steps, batch, inputs)),
        rng.standard_normal((steps, batch, outputs))))


def make_rnn_small(small=False):
    return _rnn_data(3, 2, 3, 4, 2, 19) if small else _rnn_data(20, 32, 32, 64, 16, 19)


def make_rnn_large(small=False):
    return _rnn_data(3, 2, 3, 4, 2, 20) if small else _rnn_data(100, 32, 64, 256, 16, 20)


def make_rnn_small_f32(small=False):
    return (_rnn_data(3, 2, 3, 4, 2, 19, np.float32) if small
            else _rnn_data(20, 32, 32, 64, 16, 19, np.float32))


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def lstm_loss(W, U, b, Wy, xs, y):
    """One-layer LSTM over a sequence; squared error of a read-out of the last state."""
    H = U.shape[0]
    h = np.zeros((xs.shape[1], H))
    c = np.zeros((xs.shape[1], H))
    for x_t in xs:
        z = x_t @ W + h @ U + b
        i = sigmoid(z[:, :H])
        f = sigmoid(z[:, H:2 * H])
        o = sigmoid(z[:, 2 * H:3 * H])
        g = np.tanh(z[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(c)
    return np.mean((h @ Wy - y) ** 2)


def lstm_grad(W, U, b, Wy, xs, y):
    H = U.shape[0]
    batch = xs.shape[1]
    h = np.zeros((batch, H))
    c = np.zeros((batch, H))
    cache = []
    for x_t in xs:
        z = x_t @ W + h @ U + b
        s = 1.0 / (1.0 + np.exp(-z[:, :3 * H]))
        g = np.tanh(z[:, 3 * H:])
        c_prev, h_prev = c, h
        c = s[:, H:2 * H] * c + s[:, :H] * g
        tc = np.tanh(c)
        h = s[:, 2 * H:] * tc
        cache.append((x_t, h_prev, c_prev, s, g, tc))
    dpred = (2.0 / y.size) * (h @ Wy - y)
    dWy = h.T @ dpred
    dh = dpred @ Wy.T
    dc = np.zeros_like(c)
    dW, dU, db = np.zeros_like(W), np.zeros_like(U), np.zeros_like(b)
    dz = np.empty((batch, 4 * H))
    for x_t, h_prev, c_prev, s, g, tc in reversed(cache):
        i, f, o = s[:, :H], s[:, H:2 * H], s[:, 2 * H:]
        dc += dh * o * (1.0 - tc * tc)
        dz[:, :H] = dc * g
        dz[:, H:2 * H] = dc * c_prev
        dz[:, 2 * H:3 * H] = dh * tc
        dz[:, :3 * H] *= s * (1.0 - s)
        dz[:, 3 * H:] = dc * i * (1.0 - g * g)
        dc *= f
        dW += x_t.T @ dz
        dU += h_prev.T @ dz
        db += dz.sum(axis=0)
        dh = dz @ U.T
    return dW, dU, db, dWy


def make_lstm(small=False):
    steps, batch, inputs, hidden, outputs = (3, 2, 3, 4, 2) if small else (20, 16, 16, 32, 4)
    rng = _rng(21)
    return (rng.standard_normal((inputs, 4 * hidden)) / np.sqrt(inputs),
            rng.standard_normal((hidden, 4 * hidden)) / np.sqrt(hidden),
            0.1 * rng.standard_normal(4 * hidden),
            rng.standard_normal((hidden, outputs)) / np.sqrt(hidden),
            rng.standard_normal((steps, batch, inputs)),
            rng.standard_normal((batch, outputs)))


# =========================================================================================
# 7. Convolution by slicing
# =========================================================================================
def conv1d_sum_loss(w, x, y):
    K = len(w)
    n = len(x) - K + 1
    out = sum(w[k] * x[k:k + n] for k in range(K))
    return np.mean((np.tanh(out) - y) ** 2)


def conv1d_loop_loss(w, x, y):
    n = len(x) - len(w) + 1
    out = np.zeros(n)
    for k in range(len(w)):
        out = out + w[k] * x[k:k + n]
    return np.mean((np.tanh(out) - y) ** 2)


def conv1d_grad(w, x, y):
    n = len(x) - len(w) + 1
    r = np.tanh(np.correlate(x, w, mode="valid"))
    g = (2.0 / n) * (r - y) * (1.0 - r * r)
    return np.correlate(x, g, mode="valid"), np.convolve(g, w, mode="full")


def make_conv1d(small=False):
    n, k = (20, 3) if small else (10000, 9)
    rng = _rng(22)
    x = np.cumsum(rng.standard_normal(n)) * 0.1
    return (rng.standard_normal(k) / k, x, 0.5 * np.tanh(x[:n - k + 1]))


# =========================================================================================
# 8. 10^7 elements (peak memory)
# =========================================================================================
def tanh_weighted_sum(x):
    return np.sum(np.tanh(x) * x ** 2)


def tanh_weighted_sum_grad(x):
    # 2 x t + x^2 (1 - t^2), with two arrays of x's size alive at most
    t = np.tanh(x)
    g = t * t
    np.subtract(1.0, g, out=g)
    g *= x
    t *= 2.0
    g += t
    g *= x
    return g


def make_big_elementwise(small=False):
    return (_rng(23).standard_normal(50 if small else 10_000_000),)


def gaussian_nll_elementwise(mu, log_sigma, y):
    z = (y - mu) * np.exp(-log_sigma)
    return np.sum(0.5 * z * z + log_sigma)


def gaussian_nll_elementwise_grad(mu, log_sigma, y):
    # d/dmu = -z e^{-s}, d/ds = 1 - z^2; three arrays of the arguments' size alive at most
    inv = np.negative(log_sigma)
    np.exp(inv, out=inv)
    z = y - mu
    z *= inv
    g_s = z * z
    np.subtract(1.0, g_s, out=g_s)
    z *= inv
    np.negative(z, out=z)
    return z, g_s


def make_gaussian_nll_elementwise(small=False):
    rng = _rng(24)
    shape = (4, 5) if small else (1000, 5000)
    return (rng.standard_normal(shape), 0.3 * rng.standard_normal(shape),
            rng.standard_normal(shape))


def log_cosh_loss(pred, target):
    return np.mean(np.log(np.cosh(pred - target)))


def log_cosh_loss_grad(pred, target):
    # tanh(pred - target) / N in one array
    d = pred - target
    np.tanh(d, out=d)
    d /= d.size
    return d


def make_log_cosh(small=False):
    rng = _rng(25)
    shape = (2, 3, 4) if small else (50, 200, 500)
    return rng.standard_normal(shape), rng.standard_normal(shape)
