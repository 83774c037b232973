"""Array workloads of shapes the specialised gradients were tuned on, written fresh
(user_workloads.py): a distillation loss (soft-label cross-entropy at a temperature, the
row max shifted out with keepdims), a Whittaker smoother (a second-difference penalty
written with three slices of one signal) and a quadratic (Tikhonov) image denoiser, a data
term beside penalties on the differences of neighbouring pixels along both axes. Each with
the gradient an expert writes.
"""
import numpy as np


def distillation_loss(W, X, teacher, T):
    z = X @ W / T
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -np.sum(teacher * log_p) / len(X)


def distillation_loss_grad(W, X, teacher, T):
    z = X @ W
    z /= T
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    p *= teacher.sum(axis=1, keepdims=True)       # a teacher's rows need not sum to 1
    p -= teacher
    p /= T * len(X)
    return X.T @ p


def make_distillation(small=False):
    rng = np.random.default_rng(41)
    n, d, k = (6, 4, 5) if small else (1024, 64, 100)
    X = rng.standard_normal((n, d))
    logits = 2.0 * rng.standard_normal((n, k))
    teacher = np.exp(logits - logits.max(axis=1, keepdims=True))
    teacher /= teacher.sum(axis=1, keepdims=True)
    return 0.1 * rng.standard_normal((d, k)), X, teacher, 2.0


def whittaker_objective(z, y, lam):
    d2 = z[2:] - 2.0 * z[1:-1] + z[:-2]
    return np.sum((y - z) ** 2) + lam * np.sum(d2 ** 2)


def whittaker_grad(z, y, lam):
    d2 = z[2:] - 2.0 * z[1:-1] + z[:-2]
    d2 *= 2.0 * lam
    g = z - y
    g *= 2.0
    g[2:] += d2
    g[1:-1] -= 2.0 * d2
    g[:-2] += d2
    return g


def make_whittaker(small=False):
    rng = np.random.default_rng(42)
    n = 9 if small else 100_000
    t = np.linspace(0.0, 6.0, n)
    y = np.sin(t) + 0.3 * rng.standard_normal(n)
    return y + 0.1 * rng.standard_normal(n), y, 50.0


def tikhonov_denoise(u, noisy, weight):
    gx = u[:, 1:] - u[:, :-1]
    gy = u[1:, :] - u[:-1, :]
    return 0.5 * np.sum((u - noisy) ** 2) + 0.5 * weight * (np.sum(gx ** 2) + np.sum(gy ** 2))


def tikhonov_denoise_grad(u, noisy, weight):
    g = u - noisy
    gx = u[:, 1:] - u[:, :-1]
    gx *= weight
    g[:, 1:] += gx
    g[:, :-1] -= gx
    gy = u[1:, :] - u[:-1, :]
    gy *= weight
    g[1:, :] += gy
    g[:-1, :] -= gy
    return g


def make_tikhonov(small=False):
    rng = np.random.default_rng(43)
    n = 6 if small else 512
    x = np.linspace(0.0, 3.0, n)
    clean = np.sin(x)[:, None] * np.cos(x)[None, :]
    noisy = clean + 0.2 * rng.standard_normal((n, n))
    return noisy.copy(), noisy, 4.0
