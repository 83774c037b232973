"""Losses whose reduction's adjoint reaches the arguments directly (user_workloads.py).

Written the way users write them: a Poisson log-likelihood over a matrix of log-rates (the
elementwise term of Poisson matrix factorisation), and a categorical negative
log-likelihood with the row maximum shifted out by hand and the label's logit picked by
integer indexing (no keepdims: `m[:, None]`); a multi-label binary cross-entropy on logits
written with np.logaddexp (a bias broadcast over the batch) and a ridge regression's mean
squared error plus an L2 penalty (a mean's 1 / N beside a second term); a weighted Brier
score of per-pixel probabilities, the sigmoid written out as `1.0 / (1.0 + np.exp(-z))`.
Each with the gradient an expert writes.
"""
import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def poisson_log_rate_nll(eta, counts):
    return np.sum(np.exp(eta) - counts * eta)


def poisson_log_rate_nll_grad(eta, counts):
    g = np.exp(eta)
    g -= counts
    return g


def make_poisson_log_rate(small=False):
    rng = _rng(31)
    shape = (4, 5) if small else (1000, 2000)
    eta = 0.5 * rng.standard_normal(shape)
    return eta, rng.poisson(np.exp(eta)).astype(float)


def categorical_nll(Z, labels):
    m = Z.max(axis=1)
    lse = m + np.log(np.sum(np.exp(Z - m[:, None]), axis=1))
    return np.mean(lse - Z[np.arange(len(labels)), labels])


def categorical_nll_grad(Z, labels):
    p = np.exp(Z - Z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    n = len(labels)
    p[np.arange(n), labels] -= 1.0
    p /= n
    return p


def make_categorical(small=False):
    rng = _rng(32)
    n, k = (6, 4) if small else (2000, 50)
    return rng.standard_normal((n, k)), rng.integers(0, k, size=n)


def multilabel_bce(W, b, X, Y):
    logits = X @ W + b
    return np.mean(np.logaddexp(0.0, logits) - Y * logits)


def multilabel_bce_grad(W, b, X, Y):
    G = 1.0 / (1.0 + np.exp(-(X @ W + b)))
    G -= Y
    G /= G.size
    return X.T @ G, G.sum(axis=0)


def make_multilabel_bce(small=False):
    rng = _rng(33)
    n, d, k = (5, 3, 2) if small else (512, 64, 20)
    X = rng.standard_normal((n, d))
    return (0.3 * rng.standard_normal((d, k)), 0.1 * rng.standard_normal(k), X,
            (rng.random((n, k)) < 0.3).astype(float))


def ridge_mse(w, X, y, lam):
    r = X @ w - y
    return np.mean(r * r) + lam * np.sum(w * w)


def ridge_mse_grad(w, X, y, lam):
    r = X @ w
    r -= y
    g = X.T @ r
    g *= 2.0 / len(y)
    g += (2.0 * lam) * w
    return g


def make_ridge(small=False):
    rng = _rng(34)
    n, d = (6, 3) if small else (2000, 50)
    X = rng.standard_normal((n, d))
    return rng.standard_normal(d), X, X @ rng.standard_normal(d) + rng.standard_normal(n), 0.1


def weighted_brier(z, y, weights):
    p = 1.0 / (1.0 + np.exp(-z))
    return np.mean(weights * (p - y) ** 2)


def weighted_brier_grad(z, y, weights):
    # dp/dz = p (1 - p): two arrays
    p = np.exp(-z)
    p += 1.0
    np.divide(1.0, p, out=p)
    g = p - y
    g *= weights
    g *= p
    np.subtract(1.0, p, out=p)
    g *= p
    g *= 2.0 / z.size
    return g


def make_weighted_brier(small=False):
    rng = _rng(35)
    shape = (4, 5) if small else (1000, 1000)
    return (2.0 * rng.standard_normal(shape), (rng.random(shape) < 0.4).astype(np.float64),
            rng.uniform(0.5, 2.0, shape))
