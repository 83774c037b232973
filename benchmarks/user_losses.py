"""Losses whose reduction's adjoint reaches the arguments directly (user_workloads.py).

Written the way users write them: a Poisson log-likelihood over a matrix of log-rates (the
elementwise term of Poisson matrix factorisation), and a categorical negative
log-likelihood with the row maximum shifted out by hand and the label's logit picked by
integer indexing (no keepdims: `m[:, None]`). Each with the gradient an expert writes.
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
