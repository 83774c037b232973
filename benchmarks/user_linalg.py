"""Linear-algebra workloads written the way users write them (issue 13), each with a
hand-written numpy gradient: a ridge fit's validation loss through np.linalg.solve of the
normal equations (the gradient for the ridge strength), a Gaussian log-likelihood through
slogdet and inv, and a Mahalanobis log-likelihood through cholesky and a solve."""
import math

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


# ---- ridge regression: the validation loss as a function of log(lambda) -------------------
def ridge_validation_loss(log_lam, X, y, Xv, yv):
    lam = np.exp(log_lam)
    A = X.T @ X + lam * np.eye(X.shape[1])
    w = np.linalg.solve(A, X.T @ y)
    r = Xv @ w - yv
    return np.sum(r ** 2) / len(yv)


def ridge_validation_loss_grad(log_lam, X, y, Xv, yv):
    """dw/dlam = -inv(A) w, so dL/dlog_lam = -lam w . inv(A) (2 Xv^T r / n) (A symmetric)."""
    lam = math.exp(log_lam)
    A = X.T @ X + lam * np.eye(X.shape[1])
    w = np.linalg.solve(A, X.T @ y)
    r = Xv @ w - yv
    g = np.linalg.solve(A, Xv.T @ r) * (2.0 / len(yv))
    return -lam * float(g @ w)


def make_ridge_validation(small=False):
    n, d = (12, 4) if small else (1000, 200)
    rng = _rng(31)
    X, Xv = rng.standard_normal((n, d)), rng.standard_normal((n // 2, d))
    w = rng.standard_normal(d)
    return (0.3, X, X @ w + rng.standard_normal(n), Xv, Xv @ w + rng.standard_normal(n // 2))


# ---- Gaussian log-likelihood with covariance A A^T + I: slogdet and inv --------------------
def gaussian_loglik_inv(A, X):
    S = A @ A.T + np.eye(A.shape[0])
    sign, logdet = np.linalg.slogdet(S)
    P = np.linalg.inv(S)
    return 0.5 * X.shape[0] * logdet + 0.5 * np.sum((X @ P) * X)


def gaussian_loglik_grad(A, X):
    """S_bar = 0.5 (n P - P X^T X P) (symmetric), A_bar = 2 S_bar A."""
    S = A @ A.T + np.eye(A.shape[0])
    P = np.linalg.inv(S)
    XP = X @ P
    S_bar = 0.5 * (X.shape[0] * P - XP.T @ XP)
    return 2.0 * (S_bar @ A)


def make_gaussian_loglik(small=False):
    n, d = (10, 3) if small else (500, 150)
    rng = _rng(32)
    return (rng.standard_normal((d, d)) / np.sqrt(d), rng.standard_normal((n, d)))


# ---- the same log-likelihood through cholesky and a solve (Mahalanobis distances) ----------
def mahalanobis_loglik_cholesky(A, X):
    S = A @ A.T + np.eye(A.shape[0])
    L = np.linalg.cholesky(S)
    Z = np.linalg.solve(L, X.T)
    return X.shape[0] * np.sum(np.log(np.diag(L))) + 0.5 * np.sum(Z * Z)
