"""Elementwise losses written the way users write them (user_workloads.py), each with the
gradient an expert writes for speed and memory: a Student-t negative log-likelihood with a
per-element scale (robust regression's loss), a quantile (pinball) loss of a linear model
written with np.maximum, and a smooth-L1 loss written with np.abs and np.minimum.
"""
import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def student_t_nll(mu, log_s, y, nu):
    z = (y - mu) * np.exp(-log_s)
    return np.sum(0.5 * (nu + 1.0) * np.log1p(z * z / nu) + log_s)


def student_t_nll_grad(mu, log_s, y, nu):
    # psi = (nu + 1) z / (nu + z^2): d/dmu = -psi e^{-s}, d/ds = 1 - psi z; three arrays
    e = np.negative(log_s)
    np.exp(e, out=e)
    z = y - mu
    z *= e
    psi = z * z
    psi += nu
    np.divide(z, psi, out=psi)
    psi *= nu + 1.0
    z *= psi
    np.subtract(1.0, z, out=z)
    psi *= e
    np.negative(psi, out=psi)
    return psi, z


def make_student_t(small=False):
    rng = _rng(41)
    shape = (4, 5) if small else (1000, 2000)
    mu = rng.standard_normal(shape)
    return mu, 0.3 * rng.standard_normal(shape), mu + rng.standard_t(4.0, shape), 4.0


def pinball_loss(w, X, y, q):
    r = y - X @ w
    return np.mean(np.maximum(q * r, (q - 1.0) * r))


def pinball_loss_grad(w, X, y, q):
    s = np.where(y - X @ w > 0.0, -q, 1.0 - q)
    return s @ X / len(y)


def make_pinball(small=False):
    rng = _rng(42)
    n, d = (7, 3) if small else (5000, 20)
    X = rng.standard_normal((n, d))
    return 0.1 * rng.standard_normal(d), X, X @ rng.standard_normal(d) + rng.standard_normal(n), 0.8


def smooth_l1(pred, target):
    d = np.abs(pred - target)
    m = np.minimum(d, 1.0)
    return np.mean(m * (d - 0.5 * m))


def smooth_l1_grad(pred, target):
    g = pred - target
    np.clip(g, -1.0, 1.0, out=g)
    g /= g.size
    return g


def make_smooth_l1(small=False):
    rng = _rng(43)
    shape = (5, 4) if small else (1000, 1000)
    return 2.0 * rng.standard_normal(shape), 2.0 * rng.standard_normal(shape)
