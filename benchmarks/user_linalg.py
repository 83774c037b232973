"""Linear-algebra workloads written the way users write them (issue 13), each with a
hand-written numpy gradient: a ridge fit's validation loss through np.linalg.solve of the
normal equations (the gradient for the ridge strength), a Gaussian log-likelihood through
slogdet and inv, a Mahalanobis log-likelihood through cholesky and a solve, and a GP with
several outputs whose targets are whitened by the cholesky factor (one solve of a matrix),
a Bayesian linear regression's evidence through slogdet and solve, a kernel ridge
regression's validation error (one solve of a vector against the regularised kernel),
an Ornstein-Uhlenbeck process's likelihood through cholesky and two triangular solves, and
a linear mixed model's marginal likelihood through cholesky and one solve of the residual."""
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


# ---- a GP with several outputs sharing one kernel: cholesky, one solve of a matrix --------
def multi_output_gp_nll(log_params, X, Y):
    """Independent outputs (the columns of Y) under one squared-exponential kernel, the
    textbook way: whiten the targets with the cholesky factor."""
    ell, sf2, sn2 = np.exp(log_params[0]), np.exp(2.0 * log_params[1]), np.exp(2.0 * log_params[2])
    sq = np.sum(X ** 2, axis=1)
    sqdist = sq[:, None] + sq[None, :] - 2.0 * X @ X.T
    K = sf2 * np.exp(-0.5 * sqdist / ell ** 2) + sn2 * np.eye(len(X))
    L = np.linalg.cholesky(K)
    V = np.linalg.solve(L, Y)
    return 0.5 * np.sum(V ** 2) + Y.shape[1] * np.sum(np.log(np.diag(L)))


def multi_output_gp_grad(log_params, X, Y):
    """K_bar = 0.5 (k K^-1 - K^-1 Y Y^T K^-1), one inverse; then the kernel's parameters."""
    ell = float(np.exp(log_params[0]))
    sf2, sn2 = float(np.exp(2.0 * log_params[1])), float(np.exp(2.0 * log_params[2]))
    sq = np.sum(X * X, axis=1)
    sqdist = sq[:, None] + sq[None, :] - 2.0 * (X @ X.T)
    Kse = sf2 * np.exp((-0.5 / ell ** 2) * sqdist)
    P = np.linalg.inv(Kse + sn2 * np.eye(len(X)))
    A = P @ Y
    W = Y.shape[1] * P - A @ A.T
    WK = W * Kse
    return np.array([0.5 * np.sum(WK * sqdist) / ell ** 2, np.sum(WK), sn2 * np.trace(W)])


def make_multi_output_gp(small=False):
    n, d, k = (6, 2, 3) if small else (300, 3, 20)
    rng = _rng(33)
    X = rng.uniform(-2.0, 2.0, (n, d))
    Y = np.sin(X @ rng.standard_normal((d, k))) + 0.1 * rng.standard_normal((n, k))
    return (np.array([0.1, -0.2, np.log(0.2)]), X, Y)


# ---- Bayesian linear regression: the negative log evidence of (prior scale, noise) --------
def blr_evidence_nll(log_params, X, y):
    """y ~ N(0, C), C = noise I + prior X X^T: the evidence a type-II fit maximises,
    written with slogdet and solve as a textbook does."""
    prior = np.exp(log_params[0])
    noise = np.exp(log_params[1])
    C = noise * np.eye(len(y)) + prior * (X @ X.T)
    sign, logdet = np.linalg.slogdet(C)
    return 0.5 * logdet + 0.5 * y @ np.linalg.solve(C, y) + 0.5 * len(y) * np.log(2 * np.pi)


def blr_evidence_nll_grad(log_params, X, y):
    """0.5 tr((C^-1 - a a^T) dC), a = C^-1 y; dC/dlog prior = prior X X^T, dC/dlog noise =
    noise I."""
    prior, noise = math.exp(log_params[0]), math.exp(log_params[1])
    G = X @ X.T
    W = np.linalg.inv(noise * np.eye(len(y)) + prior * G)
    a = W @ y
    W -= np.outer(a, a)
    return np.array([0.5 * prior * np.sum(W * G), 0.5 * noise * np.trace(W)])


def make_blr_evidence(small=False):
    n, d = (8, 3) if small else (300, 20)
    rng = _rng(57)
    X = rng.standard_normal((n, d))
    y = X @ (0.5 * rng.standard_normal(d)) + 0.3 * rng.standard_normal(n)
    return np.array([-0.5, np.log(0.1)]), X, y


# ---- kernel ridge regression: validation error as a function of (log length, log lambda) --
def kernel_ridge_validation(log_params, X, y, Xv, yv):
    """Fit on (X, y) with an RBF kernel, score on (Xv, yv): the loss a hyper-parameter
    search descends, one solve of a vector against the regularised kernel matrix."""
    ell = np.exp(log_params[0])
    lam = np.exp(log_params[1])
    K = np.exp(-0.5 * _sq_dists(X, X) / ell ** 2)
    Kv = np.exp(-0.5 * _sq_dists(Xv, X) / ell ** 2)
    alpha = np.linalg.solve(K + lam * np.eye(len(y)), y)
    return np.mean((Kv @ alpha - yv) ** 2)


def _sq_dists(A, B):
    return np.sum(A ** 2, axis=1)[:, None] + np.sum(B ** 2, axis=1)[None, :] - 2.0 * A @ B.T


def kernel_ridge_validation_grad(log_params, X, y, Xv, yv):
    """With A = K + lam I, r = 2 (Kv alpha - yv) / m and s = A^-1 Kv^T r (A symmetric):
    dL = r . dKv alpha - s . dA alpha; dK/dlog ell = K * D / ell^2 (D the squared
    distances), dA/dlog lam = lam I. No matrix adjoint is formed: s^T (K*D) alpha."""
    ell, lam = math.exp(log_params[0]), math.exp(log_params[1])
    D, Dv = _sq_dists(X, X), _sq_dists(Xv, X)
    K = np.exp((-0.5 / ell ** 2) * D)
    Kv = np.exp((-0.5 / ell ** 2) * Dv)
    A = K + lam * np.eye(len(y))
    alpha = np.linalg.solve(A, y)
    r = (Kv @ alpha - yv) * (2.0 / len(yv))
    s = np.linalg.solve(A, Kv.T @ r)
    K *= D
    Kv *= Dv
    d_ell = (r @ (Kv @ alpha) - s @ (K @ alpha)) / ell ** 2
    return np.array([d_ell, -lam * (s @ alpha)])


def make_kernel_ridge(small=False):
    n, m, d = (9, 5, 2) if small else (400, 200, 3)
    rng = _rng(61)
    X, Xv = rng.uniform(-2.0, 2.0, (n, d)), rng.uniform(-2.0, 2.0, (m, d))
    y = np.sin(X.sum(axis=1)) + 0.1 * rng.standard_normal(n)
    yv = np.sin(Xv.sum(axis=1)) + 0.1 * rng.standard_normal(m)
    return np.array([0.0, np.log(0.1)]), X, y, Xv, yv


# ---- an Ornstein-Uhlenbeck process observed at irregular times: cholesky, two solves ------
def ou_process_nll(log_params, t, y):
    """Negative log-likelihood (up to a constant) of noisy observations of an OU process:
    exponential covariance in |t_i - t_j|, the cholesky factor, alpha by the two
    triangular solves."""
    s2, tau, sn2 = np.exp(log_params[0]), np.exp(log_params[1]), np.exp(log_params[2])
    lags = np.abs(t[:, None] - t[None, :])
    C = s2 * np.exp(-lags / tau) + sn2 * np.eye(len(t))
    L = np.linalg.cholesky(C)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))


def ou_process_nll_grad(log_params, t, y):
    """0.5 tr((C^-1 - a a^T) dC): dC/dlog s2 = K, dC/dlog tau = K * lags / tau, dC/dlog sn2
    = sn2 I (K the process's covariance)."""
    s2, tau, sn2 = (math.exp(v) for v in log_params)
    lags = np.abs(t[:, None] - t[None, :])
    K = s2 * np.exp(lags * (-1.0 / tau))
    W = np.linalg.inv(K + sn2 * np.eye(len(t)))
    a = W @ y
    W -= np.outer(a, a)
    noise_share = 0.5 * sn2 * np.trace(W)
    W *= K
    return np.array([0.5 * np.sum(W), 0.5 * np.sum(W * lags) / tau, noise_share])


def make_ou_process(small=False):
    n = 7 if small else 250
    rng = _rng(67)
    t = np.sort(rng.uniform(0.0, 20.0, n))
    y = np.sin(0.5 * t) + 0.2 * rng.standard_normal(n)
    return np.array([0.0, np.log(2.0), np.log(0.05)]), t, y


# ---- a linear mixed model (random intercepts): cholesky, one solve of the residual --------
def mixed_model_nll(params, X, G, y):
    """Marginal NLL of y = X beta + G b + e, b ~ N(0, sb2 I), e ~ N(0, se2 I), G the
    observations' group indicators: params = (log sb2, log se2, beta...). The covariance's
    cholesky factor whitens the residual; its diagonal gives half the log-determinant."""
    sb2, se2 = np.exp(params[0]), np.exp(params[1])
    beta = params[2:]
    C = sb2 * (G @ G.T) + se2 * np.eye(len(y))
    L = np.linalg.cholesky(C)
    z = np.linalg.solve(L, y - X @ beta)
    return 0.5 * np.dot(z, z) + np.sum(np.log(np.diag(L)))


def mixed_model_nll_grad(params, X, G, y):
    """0.5 tr((C^-1 - a a^T) dC) for the variances (dC = sb2 G G^T, se2 I in the log
    scale), -X^T a for beta; a = C^-1 r, one inverse."""
    sb2, se2 = math.exp(params[0]), math.exp(params[1])
    GG = G @ G.T
    W = np.linalg.inv(sb2 * GG + se2 * np.eye(len(y)))
    a = W @ (y - X @ params[2:])
    W -= np.outer(a, a)
    out = np.empty_like(params)
    out[0] = 0.5 * sb2 * np.sum(W * GG)
    out[1] = 0.5 * se2 * np.trace(W)
    out[2:] = -(X.T @ a)
    return out


def make_mixed_model(small=False):
    n, q, p = (9, 3, 2) if small else (240, 12, 4)
    rng = _rng(71)
    groups = rng.integers(0, q, n)
    G = np.zeros((n, q))
    G[np.arange(n), groups] = 1.0
    X = np.column_stack([np.ones(n), rng.standard_normal((n, p - 1))])
    y = X @ rng.standard_normal(p) + G @ (0.7 * rng.standard_normal(q)) \
        + 0.3 * rng.standard_normal(n)
    return np.concatenate([[np.log(0.4), np.log(0.1)], 0.1 * rng.standard_normal(p)]), X, G, y
