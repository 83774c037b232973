"""Workloads 1-3 of user_workloads.py: scalar loops, time stepping on arrays, losses.

Each workload is a plain function, its hand-written gradient and `make(small=False)`; the
table of workloads (names, wrt, kinds) is `user_workloads.WORKLOADS`.
"""
import math

import numpy as np


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
