"""Workloads written the way users write numpy code, each with an expert's hand-written gradient.

Used by benchmarks/run_user.py. Unlike workloads.py, nothing here was written with s2s_ad in
mind: Python-float and np.float64 scalar loops, loops over tuples and lists of floats,
parameters unpacked from an array, `zip` over time steps, `x.mean()` / `.T` / `.sum()`
methods, integer-label fancy indexing, `sum(generator)`, np.linalg, float32 inputs.

Every workload is a `UserWorkload`:

    name    row label
    f       the plain Python function differentiated
    make    make(small=False) -> the argument tuple (small=True: sizes for finite differences)
    wrt     s2s_ad.grad(f, wrt=wrt)
    hand    the hand-written gradient, same arguments, same return layout as grad(f, wrt)
            (a single gradient for an int wrt, a tuple otherwise)

The hand-written gradients are what an expert writes for speed: closed forms where the
math gives them (`p - y`, softmax minus one-hot, Black-Scholes delta and vega), reverse
loops that keep only what they need, Python floats (`.tolist()`) in scalar loops, in-place
updates where they save memory. They are dtype-generic: given float32 arrays they compute
in float32.

    python benchmarks/user_workloads.py      # check_all(): s2s_ad vs hand vs finite differences

All data comes from seeded numpy Generators (deterministic).
"""
import math
import sys
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass
class UserWorkload:
    name: str
    f: Callable
    make: Callable            # make(small=False) -> args tuple
    wrt: object
    hand: Callable
    kind: str = "array"       # "scalar": Python-number workload
    dtype: str = "float64"
    tags: tuple = ()          # "memory": peak-memory workload; "guard": guard overhead measured
    note: str = ""
    extra: dict = field(default_factory=dict)


def _rng(seed):
    return np.random.default_rng(seed)


# =========================================================================================
# 1. Scalar loops
# =========================================================================================
def forced_recurrence(a, b, n_steps):
    """A 10^4-step nonlinear recurrence on scalars; mean of squares of the states."""
    x = 0.1
    total = 0.0
    for i in range(n_steps):
        x = a * x + b * math.sin(x) + 1.0
        total = total + x * x
    return total / n_steps


def forced_recurrence_grad(a, b, n_steps):
    xs = [0.0] * (n_steps + 1)
    x = 0.1
    xs[0] = x
    sin, cos = math.sin, math.cos
    for i in range(n_steps):
        x = a * x + b * sin(x) + 1.0
        xs[i + 1] = x
    scale = 2.0 / n_steps
    x_bar = a_bar = b_bar = 0.0
    for i in range(n_steps - 1, -1, -1):
        x_bar += scale * xs[i + 1]
        x_old = xs[i]
        a_bar += x_bar * x_old
        b_bar += x_bar * sin(x_old)
        x_bar *= a + b * cos(x_old)
    return a_bar, b_bar


def make_recurrence_floats(small=False):
    return (0.5, 0.3, 40 if small else 10000)


def make_recurrence_np64(small=False):
    return (np.float64(0.5), np.float64(0.3), 40 if small else 10000)


def horner(x, a, coeffs):
    """a * polynomial(x) by Horner's rule over a sequence of Python floats."""
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    return p


def horner_grad(x, a, coeffs):
    # p = a * P(x): d/dx = a * P'(x) by the derivative Horner recurrence, d/da = P(x)
    p = dp = 0.0
    for c in coeffs:
        dp = dp * x + p
        p = p * x + c
    return a * dp, p


def _coeffs(small):
    return _rng(3).uniform(-1.0, 1.0, 8 if small else 30).tolist()


def make_horner_tuple(small=False):
    return (0.7, 1.5, tuple(_coeffs(small)))


def make_horner_list(small=False):
    return (0.7, 1.5, _coeffs(small))


def lotka_volterra_loss(theta, x0, y0, obs_x, obs_y, dt):
    """Explicit-Euler Lotka-Volterra fitted to observed populations; parameters by index."""
    a, b, c, d = theta[0], theta[1], theta[2], theta[3]
    x = x0
    y = y0
    loss = 0.0
    for t in range(len(obs_x)):
        dx = a * x - b * x * y
        dy = c * x * y - d * y
        x = x + dt * dx
        y = y + dt * dy
        loss = loss + (x - obs_x[t]) ** 2 + (y - obs_y[t]) ** 2
    return loss


def lotka_volterra_unpacked(theta, x0, y0, obs_x, obs_y, dt):
    """The same model with `a, b, c, d = theta` (iterable unpacking of the array)."""
    a, b, c, d = theta
    x, y = x0, y0
    loss = 0.0
    for t in range(len(obs_x)):
        x, y = x + dt * (a * x - b * x * y), y + dt * (c * x * y - d * y)
        loss += (x - obs_x[t]) ** 2 + (y - obs_y[t]) ** 2
    return loss


def lotka_volterra_grad(theta, x0, y0, obs_x, obs_y, dt):
    a, b, c, d = theta.tolist()
    ox, oy = obs_x.tolist(), obs_y.tolist()
    n = len(ox)
    xs = [x0] * (n + 1)
    ys = [y0] * (n + 1)
    x, y = x0, y0
    for t in range(n):
        x, y = x + dt * (a * x - b * x * y), y + dt * (c * x * y - d * y)
        xs[t + 1] = x
        ys[t + 1] = y
    xb = yb = ga = gb = gc = gd = 0.0
    for t in range(n - 1, -1, -1):
        xb += 2.0 * (xs[t + 1] - ox[t])
        yb += 2.0 * (ys[t + 1] - oy[t])
        x, y = xs[t], ys[t]
        xy = x * y
        ga += xb * dt * x
        gb -= xb * dt * xy
        gc += yb * dt * xy
        gd -= yb * dt * y
        xb, yb = (xb * (1.0 + dt * (a - b * y)) + yb * dt * c * y,
                  -xb * dt * b * x + yb * (1.0 + dt * (c * x - d)))
    return np.array([ga, gb, gc, gd])


def make_lotka_volterra(small=False):
    steps = 20 if small else 200
    dt = 0.02
    true = [1.0, 0.1, 0.075, 1.5]
    x, y = 10.0, 5.0
    ox, oy = [], []
    for _ in range(steps):
        x, y = x + dt * (true[0] * x - true[1] * x * y), y + dt * (true[2] * x * y - true[3] * y)
        ox.append(x)
        oy.append(y)
    rng = _rng(4)
    obs_x = np.array(ox) + 0.2 * rng.standard_normal(steps)
    obs_y = np.array(oy) + 0.2 * rng.standard_normal(steps)
    theta = np.array([1.1, 0.09, 0.08, 1.4])
    return (theta, 10.0, 5.0, obs_x, obs_y, dt)


def black_scholes_call(S, K, T, r, sigma):
    """European call price (math module on Python floats)."""
    d1 = (math.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    N1 = 0.5 * (1.0 + math.erf(d1 / math.sqrt(2.0)))
    N2 = 0.5 * (1.0 + math.erf(d2 / math.sqrt(2.0)))
    return S * N1 - K * math.exp(-r * T) * N2


def black_scholes_greeks(S, K, T, r, sigma):
    """delta and vega, the closed forms every quant writes."""
    sqrt_t = math.sqrt(T)
    d1 = (math.log(S / K) + (r + 0.5 * sigma * sigma) * T) / (sigma * sqrt_t)
    delta = 0.5 * (1.0 + math.erf(d1 * 0.7071067811865476))
    vega = S * math.exp(-0.5 * d1 * d1) * 0.3989422804014327 * sqrt_t
    return delta, vega


def make_black_scholes(small=False):
    return (105.0, 100.0, 0.75, 0.02, 0.25)


# =========================================================================================
# 2. Time stepping on arrays
# =========================================================================================
def reaction_diffusion_loss(u0, D, r, target, dt, n_steps):
    """Fisher-KPP on a periodic 1-D grid, explicit Euler, fitted to a target profile."""
    u = u0
    for step in range(n_steps):
        lap = np.roll(u, 1) - 2.0 * u + np.roll(u, -1)
        u = u + dt * (D * lap + r * u * (1.0 - u))
    return np.mean((u - target) ** 2)


def reaction_diffusion_grad(u0, D, r, target, dt, n_steps):
    us, laps = [], []
    u = u0
    for _ in range(n_steps):
        lap = np.roll(u, 1) - 2.0 * u + np.roll(u, -1)
        us.append(u)
        laps.append(lap)
        u = u + dt * (D * lap + r * u * (1.0 - u))
    ub = (2.0 / u.size) * (u - target)
    D_bar = r_bar = 0.0
    for k in range(n_steps - 1, -1, -1):
        u = us[k]
        D_bar += dt * np.dot(ub, laps[k])
        r_bar += dt * np.dot(ub, u * (1.0 - u))
        lap_b = np.roll(ub, 1) - 2.0 * ub + np.roll(ub, -1)   # the stencil is symmetric
        ub = ub + dt * (D * lap_b + r * (1.0 - 2.0 * u) * ub)
    return ub, float(D_bar), float(r_bar)


def make_reaction_diffusion(small=False):
    n, steps = (12, 5) if small else (1000, 100)
    grid = np.linspace(0.0, 1.0, n, endpoint=False)
    u0 = 0.5 + 0.4 * np.sin(2 * np.pi * grid) + 0.02 * _rng(5).standard_normal(n)
    target = 0.6 + 0.3 * np.sin(2 * np.pi * grid + 0.3)
    return (u0, 0.4, 1.0, target, 0.1, steps)


# =========================================================================================
# 3. Losses
# =========================================================================================
def logistic_softplus(w, X, y):
    z = X @ w
    return np.mean(np.logaddexp(0.0, z) - y * z)


def logistic_softplus_grad(w, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return X.T @ (p - y) / len(y)


def _logistic_data(n, d, seed, dtype=np.float64):
    rng = _rng(seed)
    X = rng.standard_normal((n, d))
    w_true = rng.standard_normal(d)
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-(X @ w_true)))).astype(np.float64)
    w = 0.1 * rng.standard_normal(d)
    return tuple(a.astype(dtype) for a in (w, X, y))


def make_softplus_100(small=False):
    return _logistic_data(20 if small else 100, 3 if small else 10, 6)


def make_softplus_10000(small=False):
    return _logistic_data(20 if small else 10000, 3 if small else 100, 7)


def make_softplus_10000_f32(small=False):
    return _logistic_data(20 if small else 10000, 3 if small else 100, 7, np.float32)


def log_sum_exp(z):
    """log(sum(exp(z))) with the max shifted out, written by hand."""
    m = np.max(z)
    return m + np.log(np.sum(np.exp(z - m)))


def log_sum_exp_grad(z):
    e = np.exp(z - np.max(z))
    e /= np.sum(e)
    return e


def make_log_sum_exp(small=False):
    return (3.0 * _rng(8).standard_normal(10 if small else 10000),)


def softmax_cross_entropy(W, b, X, labels):
    logits = X @ W + b
    logits = logits - logits.max(axis=1, keepdims=True)
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return -log_probs[np.arange(len(labels)), labels].mean()


def softmax_cross_entropy_grad(W, b, X, labels):
    logits = X @ W + b
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    n = len(labels)
    p[np.arange(n), labels] -= 1.0
    p /= n
    return X.T @ p, p.sum(axis=0)


def make_softmax_xent(small=False):
    n, d, c = (6, 4, 3) if small else (512, 64, 10)
    rng = _rng(9)
    return (0.1 * rng.standard_normal((d, c)), 0.1 * rng.standard_normal(c),
            rng.standard_normal((n, d)), rng.integers(0, c, n))


def huber_regression(w, X, y, delta):
    r = X @ w - y
    a = np.abs(r)
    return np.mean(np.where(a <= delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def huber_regression_grad(w, X, y, delta):
    return X.T @ np.clip(X @ w - y, -delta, delta) / len(y)


def make_huber(small=False):
    n, d = (30, 3) if small else (2000, 20)
    rng = _rng(10)
    X = rng.standard_normal((n, d))
    y = X @ rng.standard_normal(d) + rng.standard_t(2.0, n)
    return (0.5 * rng.standard_normal(d), X, y, 1.0)


def gmm_nll(means, log_stds, logits, x):
    """Negative log-likelihood of a 1-D Gaussian mixture (broadcast (N, 1) against (K,))."""
    log_weights = logits - np.log(np.sum(np.exp(logits)))
    z = (x[:, None] - means) / np.exp(log_stds)
    log_p = log_weights - log_stds - 0.5 * z ** 2 - 0.5 * np.log(2.0 * np.pi)
    m = np.max(log_p, axis=1, keepdims=True)
    return -np.sum(m + np.log(np.sum(np.exp(log_p - m), axis=1, keepdims=True)))


def gmm_nll_grad(means, log_stds, logits, x):
    e = np.exp(logits - np.max(logits))
    weights = e / np.sum(e)
    sig = np.exp(log_stds)
    z = (x[:, None] - means) / sig
    log_p = np.log(weights) - log_stds - 0.5 * z * z
    R = np.exp(log_p - np.max(log_p, axis=1, keepdims=True))
    R /= R.sum(axis=1, keepdims=True)               # responsibilities
    d_means = -np.sum(R * z, axis=0) / sig
    d_log_stds = -np.sum(R * (z * z - 1.0), axis=0)
    d_logits = len(x) * weights - R.sum(axis=0)
    return d_means, d_log_stds, d_logits


def make_gmm(small=False):
    n, k = (15, 3) if small else (2000, 5)
    rng = _rng(11)
    x = np.concatenate([rng.normal(mu, 0.5, n // k + 1) for mu in np.linspace(-3, 3, k)])[:n]
    return (np.linspace(-2.5, 2.5, k) + 0.1 * rng.standard_normal(k),
            np.log(0.6) + 0.1 * rng.standard_normal(k), 0.1 * rng.standard_normal(k), x)


def matrix_factorization_loss(U, V, R, mask, lam):
    E = mask * (U @ V.T - R)
    return np.sum(E ** 2) + lam * (np.sum(U ** 2) + np.sum(V ** 2))


def matrix_factorization_grad(U, V, R, mask, lam):
    E = mask * (U @ V.T - R)        # mask is 0/1: mask * mask == mask
    return 2.0 * (E @ V + lam * U), 2.0 * (E.T @ U + lam * V)


def make_matrix_factorization(small=False):
    m, n, k = (5, 4, 3) if small else (500, 400, 16)
    rng = _rng(12)
    R = rng.standard_normal((m, k)) @ rng.standard_normal((k, n))
    mask = (rng.random((m, n)) < 0.3).astype(np.float64)
    return (0.1 * rng.standard_normal((m, k)), 0.1 * rng.standard_normal((n, k)), R, mask, 0.1)


def tv_denoise_objective(u, f, lam):
    """Smoothed isotropic total variation plus a data term, on a 2-D image, by slicing."""
    dx = u[1:, :] - u[:-1, :]
    dy = u[:, 1:] - u[:, :-1]
    tv = np.sum(np.sqrt(dx[:, :-1] ** 2 + dy[:-1, :] ** 2 + 1e-8))
    return 0.5 * np.sum((u - f) ** 2) + lam * tv


def tv_denoise_grad(u, f, lam):
    dx = u[1:, :-1] - u[:-1, :-1]
    dy = u[:-1, 1:] - u[:-1, :-1]
    scale = lam / np.sqrt(dx * dx + dy * dy + 1e-8)
    px, py = dx * scale, dy * scale
    g = u - f
    g[1:, :-1] += px
    g[:-1, 1:] += py
    g[:-1, :-1] -= px + py
    return g


def make_tv(small=False):
    n, m = (6, 7) if small else (256, 256)
    rng = _rng(13)
    clean = np.zeros((n, m))
    clean[n // 4: 3 * n // 4, m // 4: 3 * m // 4] = 1.0
    f = clean + 0.2 * rng.standard_normal((n, m))
    return (f + 0.05 * rng.standard_normal((n, m)), f, 0.2)


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


# =========================================================================================
WORKLOADS = [
    UserWorkload("scalar recurrence, Python floats, 10^4 steps", forced_recurrence,
                 make_recurrence_floats, (0, 1), forced_recurrence_grad, "scalar"),
    UserWorkload("scalar recurrence, np.float64, 10^4 steps", forced_recurrence,
                 make_recurrence_np64, (0, 1), forced_recurrence_grad, "scalar"),
    UserWorkload("Horner, tuple of 30 floats", horner, make_horner_tuple, (0, 1), horner_grad,
                 "scalar", tags=("guard",)),
    UserWorkload("Horner, list of 30 floats", horner, make_horner_list, (0, 1), horner_grad,
                 "scalar", tags=("guard",)),
    UserWorkload("Lotka-Volterra, theta[0..3], 200 Euler steps", lotka_volterra_loss,
                 make_lotka_volterra, 0, lotka_volterra_grad, "scalar"),
    UserWorkload("Lotka-Volterra, a, b, c, d = theta, 200 steps", lotka_volterra_unpacked,
                 make_lotka_volterra, 0, lotka_volterra_grad, "scalar"),
    UserWorkload("Black-Scholes call (math.erf), delta+vega", black_scholes_call,
                 make_black_scholes, (0, 4), black_scholes_greeks, "scalar", tags=("guard",)),
    UserWorkload("reaction-diffusion, n=1000, 100 steps", reaction_diffusion_loss,
                 make_reaction_diffusion, (0, 1, 2), reaction_diffusion_grad),
    UserWorkload("softplus logistic N=100 D=10", logistic_softplus, make_softplus_100, 0,
                 logistic_softplus_grad, tags=("guard",)),
    UserWorkload("softplus logistic N=10000 D=100", logistic_softplus, make_softplus_10000, 0,
                 logistic_softplus_grad),
    UserWorkload("log-sum-exp by hand, n=10^4", log_sum_exp, make_log_sum_exp, 0,
                 log_sum_exp_grad, tags=("guard",)),
    UserWorkload("softmax cross-entropy, int labels, 512x64x10", softmax_cross_entropy,
                 make_softmax_xent, (0, 1), softmax_cross_entropy_grad),
    UserWorkload("Huber regression (np.where) 2000x20", huber_regression, make_huber, 0,
                 huber_regression_grad, tags=("guard",)),
    UserWorkload("1-D Gaussian mixture NLL, N=2000 K=5", gmm_nll, make_gmm, (0, 1, 2),
                 gmm_nll_grad),
    UserWorkload("masked matrix factorisation 500x400 k=16", matrix_factorization_loss,
                 make_matrix_factorization, (0, 1), matrix_factorization_grad),
    UserWorkload("TV denoising 256x256 (slicing)", tv_denoise_objective, make_tv, 0,
                 tv_denoise_grad),
    UserWorkload("layer norm (D,) scale/shift, 256x512", layer_norm_mse, make_layer_norm,
                 (0, 1, 2), layer_norm_mse_grad),
    UserWorkload("batch norm + ReLU + linear, 256x128", batch_norm_regression, make_batch_norm,
                 (0, 1, 2, 3), batch_norm_regression_grad),
    UserWorkload("single-head attention T=128 d=64->32", attention_loss, make_attention,
                 (1, 2, 3), attention_grad, tags=("guard",)),
    UserWorkload("ReLU MLP regression 256x32x128", mlp_regression, make_mlp_regression,
                 (0, 1, 2, 3), mlp_regression_grad),
    UserWorkload("GP NLL, cholesky + solve, N=200", gp_nll_cholesky, make_gp, 0, gp_nll_grad),
    UserWorkload("GP NLL, slogdet + solve, N=200", gp_nll_slogdet, make_gp, 0, gp_nll_grad),
    UserWorkload("RNN T=20 H=64 B=32 (zip)", rnn_loss, make_rnn_small, (0, 1, 2, 3), rnn_grad),
    UserWorkload("RNN T=100 H=256 B=32 (zip)", rnn_loss, make_rnn_large, (0, 1, 2, 3), rnn_grad),
    UserWorkload("LSTM T=20 H=32 B=16", lstm_loss, make_lstm, (0, 1, 2, 3), lstm_grad),
    UserWorkload("conv1d, sum(generator), n=10^4 K=9", conv1d_sum_loss, make_conv1d, (0, 1),
                 conv1d_grad),
    UserWorkload("conv1d, for-loop of slices, n=10^4 K=9", conv1d_loop_loss, make_conv1d,
                 (0, 1), conv1d_grad),
    UserWorkload("float32 softplus logistic N=10000 D=100", logistic_softplus,
                 make_softplus_10000_f32, 0, logistic_softplus_grad, dtype="float32"),
    UserWorkload("float32 layer norm 256x512", layer_norm_mse, make_layer_norm_f32, (0, 1, 2),
                 layer_norm_mse_grad, dtype="float32"),
    UserWorkload("float32 RNN T=20 H=64 B=32", rnn_loss, make_rnn_small_f32, (0, 1, 2, 3),
                 rnn_grad, dtype="float32"),
    UserWorkload("sum(tanh(x) * x**2), x of 10^7", tanh_weighted_sum, make_big_elementwise, 0,
                 tanh_weighted_sum_grad, tags=("memory",)),
]


def by_name(name):
    return next(w for w in WORKLOADS if w.name == name)


# =========================================================================================
# Rejected: code users write that s2s_ad refused. Each was replaced above by another way
# users write the same thing (the replacement is named). `error` is what s2s_ad said
# (first line), recorded when this file was written; recheck_rejected() tries them again.
# =========================================================================================
def lstm_split_loss(W, U, b, Wy, xs, y):
    H = U.shape[0]
    h = np.zeros((xs.shape[1], H))
    c = np.zeros((xs.shape[1], H))
    for x_t in xs:
        i, f, o, g = np.split(x_t @ W + h @ U + b, 4, axis=1)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
    return np.mean((h @ Wy - y) ** 2)


REJECTED = [
    dict(name="LSTM with gates from np.split", f=lstm_split_loss, make=make_lstm,
         wrt=(0, 1, 2, 3), hand=lstm_grad, replaced_by="LSTM T=20 H=32 B=16",
         error="MissingDerivativeError: no derivative is known for `np.split(...)`"),
]


# =========================================================================================
# Checking
# =========================================================================================
def _as_tuple(g):
    return g if isinstance(g, tuple) else (g,)


def _positions(f, wrt):
    import inspect
    names = [p for p in inspect.signature(f).parameters]
    items = wrt if isinstance(wrt, (tuple, list)) else (wrt,)
    return [names.index(i) if isinstance(i, str) else i for i in items]


def _to64(a):
    if isinstance(a, np.ndarray) and a.dtype == np.float32:
        return a.astype(np.float64)
    return a


def finite_differences(f, args, wrt, eps=1e-6):
    """Central differences of f w.r.t. each wrt argument (float, np.float64 or array)."""
    out = []
    for pos in _positions(f, wrt):
        x = args[pos]

        def at(value):
            return float(f(*args[:pos], value, *args[pos + 1:]))

        if isinstance(x, np.ndarray):
            g = np.zeros(x.shape)
            for idx in np.ndindex(x.shape):
                h = eps * max(1.0, abs(float(x[idx])))
                xp, xm = x.copy(), x.copy()
                xp[idx] += h
                xm[idx] -= h
                g[idx] = (at(xp) - at(xm)) / (2 * h)
        else:
            h = eps * max(1.0, abs(float(x)))
            g = (at(type(x)(x + h)) - at(type(x)(x - h))) / (2 * h)
        out.append(g)
    return tuple(out)


def _max_rel(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    scale = max(np.max(np.abs(b)), 1e-300)
    return float(np.max(np.abs(a - b)) / scale)


def compare(got, want, rtol, atol_rel):
    """None if every gradient agrees (elementwise rtol, plus atol_rel * max|want| of that
    gradient), else a description of the worst disagreement."""
    got, want = _as_tuple(got), _as_tuple(want)
    if len(got) != len(want):
        return f"{len(got)} gradients, expected {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        if np.shape(g) != np.shape(w):
            return f"gradient {k}: shape {np.shape(g)}, expected {np.shape(w)}"
        g64, w64 = np.asarray(g, dtype=np.float64), np.asarray(w, dtype=np.float64)
        if not np.all(np.isfinite(g64)):
            return f"gradient {k}: non-finite values"
        atol = atol_rel * max(float(np.max(np.abs(w64))), 1e-300)
        if not np.allclose(g64, w64, rtol=rtol, atol=atol):
            idx = (np.unravel_index(np.argmax(np.abs(g64 - w64)), np.shape(w64))
                   if np.ndim(w64) else ())
            return (f"gradient {k}: max rel diff {_max_rel(g64, w64):.3g} "
                    f"(at {idx}: {g64[idx]!r} vs {w64[idx]!r})")
    return None


def dtype_of(g):
    return tuple(getattr(x, "dtype", type(x).__name__) for x in _as_tuple(g))


def check_workload(wl, bench=True):
    """Returns a list of problems (empty when all agree) and notes (dtype of the outputs)."""
    import s2s_ad
    problems, notes = [], []
    df = s2s_ad.grad(wl.f, wrt=wl.wrt)
    # small sizes: hand vs finite differences (float64), s2s_ad vs hand
    args = wl.make(small=True)
    args64 = tuple(_to64(a) for a in args)
    fd = finite_differences(wl.f, args64, wl.wrt)
    hand64 = wl.hand(*args64)
    why = compare(hand64, fd, rtol=1e-5, atol_rel=1e-6)
    if why:
        problems.append(f"hand-written vs finite differences (small): {why}")
    why = compare(df(*args64), fd, rtol=1e-5, atol_rel=1e-6)
    if why:
        problems.append(f"s2s_ad vs finite differences (small, float64): {why}")
    tight = (1e-4, 1e-5) if wl.dtype == "float32" else (1e-7, 1e-9)
    got = df(*args)
    why = compare(got, wl.hand(*args), *tight)
    if why:
        problems.append(f"s2s_ad vs hand-written (small): {why}")
    if bench:
        args = wl.make()
        got, want = df(*args), wl.hand(*args)
        why = compare(got, want, *tight)
        if why:
            problems.append(f"s2s_ad vs hand-written (benchmark size): {why}")
        if wl.dtype == "float32":
            want64 = wl.hand(*(_to64(a) for a in args))
            why = compare(got, want64, 1e-3, 1e-4)
            if why:
                problems.append(f"s2s_ad float32 vs hand-written float64: {why}")
    gd, hd = dtype_of(got), dtype_of(wl.hand(*args))
    if [str(x) for x in gd] != [str(x) for x in hd]:
        notes.append(f"dtypes: s2s_ad {gd}, hand-written {hd}")
    return problems, notes


def check_all(bench=True, verbose=True):
    """Check every workload; raise AssertionError listing every mismatch."""
    failures = []
    for wl in WORKLOADS:
        try:
            problems, notes = check_workload(wl, bench=bench)
        except Exception as exc:           # s2s_ad rejected it: a finding
            problems, notes = [f"raised {type(exc).__name__}: {str(exc).splitlines()[0]}"], []
        if verbose:
            print(f"{'ok  ' if not problems else 'FAIL'} {wl.name}"
                  + "".join(f"\n       {p}" for p in problems + notes), file=sys.stderr)
        failures += [f"{wl.name}: {p}" for p in problems]
    if failures:
        raise AssertionError("gradient mismatches:\n  " + "\n  ".join(failures))
    return True


def recheck_rejected():
    """Try the rejected variants again: (name, None or the error now raised)."""
    import s2s_ad
    out = []
    for r in REJECTED:
        try:
            args = r["make"](small=True)
            df = s2s_ad.grad(r["f"], wrt=r["wrt"])
            why = compare(df(*args), finite_differences(r["f"], args, r["wrt"]), 1e-5, 1e-6)
            out.append((r["name"], why and f"wrong: {why}"))
        except Exception as exc:
            out.append((r["name"], f"{type(exc).__name__}: {str(exc).splitlines()[0]}"))
    return out


if __name__ == "__main__":
    check_all(bench="--small-only" not in sys.argv)
    for name, err in recheck_rejected():
        print(f"rejected: {name}: {err or 'now accepted and correct'}", file=sys.stderr)
    print(f"{len(WORKLOADS)} workloads: all gradients agree", file=sys.stderr)
