"""Elementwise losses written the way users write them (user_workloads.py), each with the
gradient an expert writes for speed and memory: a Student-t negative log-likelihood with a
per-element scale (robust regression's loss), a quantile (pinball) loss of a linear model
written with np.maximum, a smooth-L1 loss written with np.abs and np.minimum, a binary
focal loss (np.where picks each label's probability, a square of 1 - p_t) and an L2-
regularised linear SVM with the squared hinge (np.maximum(0.0, ...) ** 2), and a
Laplace negative log-likelihood with per-element location and scale (np.abs of y - mu),
and a robust polynomial fit by a smooth-L1 loss with a threshold (np.minimum of |r|),
and support-vector regression's squared epsilon-insensitive loss (np.maximum of |r| - eps),
and a Huber line fit written with the absolute residual capped by np.minimum.
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


def focal_loss(z, y):
    p = 1.0 / (1.0 + np.exp(-z))
    pt = np.where(y > 0.5, p, 1.0 - p)
    return -np.mean((1.0 - pt) ** 2 * np.log(pt))


def focal_loss_grad(z, y):
    # with s = 2y - 1, p_t = sigmoid(s z) and dp_t/dz = s p_t (1 - p_t):
    # d/dz = s (1 - p_t)^2 (2 p_t log p_t - (1 - p_t)) / n; two arrays
    s = 2.0 * y - 1.0
    pt = s * z
    np.negative(pt, out=pt)
    np.exp(pt, out=pt)
    pt += 1.0
    np.divide(1.0, pt, out=pt)
    g = np.log(pt)
    g *= pt
    g *= 2.0
    np.subtract(1.0, pt, out=pt)
    g -= pt
    g *= pt
    g *= pt
    s /= z.size
    g *= s
    return g


def make_focal(small=False):
    rng = _rng(44)
    shape = (4, 5) if small else (1000, 1000)
    return 2.0 * rng.standard_normal(shape), (rng.random(shape) < 0.3).astype(np.float64)


def squared_hinge_svm(w, X, y, lam):
    margin = np.maximum(0.0, 1.0 - y * (X @ w))
    return np.mean(margin ** 2) + lam * np.sum(w * w)


def squared_hinge_svm_grad(w, X, y, lam):
    m = X @ w
    m *= y
    np.subtract(1.0, m, out=m)
    np.maximum(m, 0.0, out=m)
    m *= y
    m *= -2.0 / len(y)
    g = m @ X
    g += (2.0 * lam) * w
    return g


def make_squared_hinge(small=False):
    rng = _rng(45)
    n, d = (9, 3) if small else (20000, 50)
    X = rng.standard_normal((n, d))
    y = np.sign(X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(n))
    return 0.1 * rng.standard_normal(d), X, y, 0.01



def laplace_nll(mu, log_b, y):
    """Negative log-likelihood of y under Laplace(mu, exp(log_b)), elementwise parameters."""
    return np.sum(np.abs(y - mu) * np.exp(-log_b) + log_b)


def laplace_nll_grad(mu, log_b, y):
    # d/dmu = sign(mu - y) e^{-b}, d/db = 1 - |y - mu| e^{-b}; three arrays
    e = np.negative(log_b)
    np.exp(e, out=e)
    r = mu - y
    g_mu = np.sign(r)               # not np.sign(r, out=r): ~9x slower in place on numpy 2.4
    g_mu *= e
    np.abs(r, out=r)
    r *= e
    np.subtract(1.0, r, out=r)
    return g_mu, r


def make_laplace_nll(small=False):
    rng = _rng(46)
    shape = (5, 4) if small else (1000, 2000)
    return rng.standard_normal(shape), 0.3 * rng.standard_normal(shape), \
        rng.standard_normal(shape)


def smooth_l1_regression(w, X, y, beta):
    """A robust polynomial fit: smooth-L1 (Huber-like) residual loss with a threshold beta,
    written with np.minimum of the absolute residual."""
    r = X @ w - y
    d = np.abs(r)
    m = np.minimum(d, beta)
    return np.mean(m * (d - 0.5 * m)) / beta


def smooth_l1_regression_grad(w, X, y, beta):
    # the residuals clipped to [-beta, beta], over beta n, back through X; one array
    g = X @ w
    g -= y
    np.clip(g, -beta, beta, out=g)
    g *= 1.0 / (beta * len(y))
    return g @ X


def make_smooth_l1_regression(small=False):
    rng = _rng(47)
    n = 7 if small else 200000
    t = np.linspace(-1.0, 1.0, n)
    X = np.stack([np.ones(n), t, t * t], axis=1)
    w_true = np.array([0.5, -1.0, 2.0])
    y = X @ w_true + 0.3 * rng.standard_t(2, n)
    return w_true + 0.1 * rng.standard_normal(3), X, y, 0.5


def svr_eps_insensitive(pred, target):
    """Support-vector regression's squared epsilon-insensitive loss, a tube of half-width
    0.1: residuals inside it cost nothing."""
    excess = np.maximum(np.abs(pred - target) - 0.1, 0.0)
    return np.mean(excess ** 2)


def svr_eps_insensitive_grad(pred, target):
    # 2 (r - clip(r, -eps, eps)) / n: the residual soft-thresholded; two arrays
    g = pred - target
    inside = np.clip(g, -0.1, 0.1)
    g -= inside
    g *= 2.0 / g.size
    return g


def make_svr_eps_insensitive(small=False):
    rng = _rng(48)
    shape = (6, 5) if small else (1000, 1000)
    return 0.3 * rng.standard_normal(shape), 0.3 * rng.standard_normal(shape)


def huber_capped_fit(w, X, y):
    """A linear model fitted by the Huber loss at the usual threshold 1.35, written with
    the absolute residual capped by np.minimum (quadratic inside, linear outside)."""
    a = np.abs(X @ w - y)
    q = np.minimum(a, 1.35)
    return np.mean(0.5 * q * q + 1.35 * (a - q))


def huber_capped_fit_grad(w, X, y):
    # psi(r) = clip(r, -1.35, 1.35), over n, back through X; one array of residuals
    r = X @ w
    r -= y
    np.clip(r, -1.35, 1.35, out=r)
    r *= 1.0 / len(y)
    return r @ X


def make_huber_capped_fit(small=False):
    rng = _rng(49)
    n, d = (9, 3) if small else (100000, 10)
    X = rng.standard_normal((n, d))
    w_true = rng.standard_normal(d)
    y = X @ w_true + rng.standard_t(2, n)
    return w_true + 0.2 * rng.standard_normal(d), X, y


def tweedie_nll(eta, y, power):
    """Tweedie (compound Poisson-gamma) negative log-likelihood with a log link, up to the
    terms without eta, per element of a matrix of log-means, 1 < power < 2."""
    mu = np.exp(eta)
    return np.mean(-y * mu ** (1.0 - power) / (1.0 - power) + mu ** (2.0 - power) / (2.0 - power))


def tweedie_nll_grad(eta, y, power):
    # mu^(1-p) (mu - y) / n, with mu^(1-p) = exp((1-p) eta); two arrays
    g = np.exp(eta)
    g -= y
    e = np.multiply(1.0 - power, eta)
    np.exp(e, out=e)
    g *= e
    g /= g.size
    return g


def make_tweedie(small=False):
    rng = _rng(50)
    shape = (5, 4) if small else (1000, 1000)
    eta = 0.5 * rng.standard_normal(shape)
    counts = rng.poisson(np.exp(eta))
    y = counts * rng.gamma(2.0, 0.5, shape)        # zeros where no event, positive amounts
    return eta, y, 1.5


def triplet_loss(anchor, positive, negative, margin):
    """Triplet margin loss of a batch of embeddings: squared distances to the positive
    and the negative, hinged at the margin by np.maximum."""
    d_pos = np.sum((anchor - positive) ** 2, axis=1)
    d_neg = np.sum((anchor - negative) ** 2, axis=1)
    return np.mean(np.maximum(d_pos - d_neg + margin, 0.0))


def triplet_loss_grad(anchor, positive, negative, margin):
    # rows whose hinge is active: 2 / B times (n - p), (p - a), (a - n); three arrays
    d_pos = anchor - positive
    d_neg = anchor - negative
    hinge = np.einsum("ij,ij->i", d_pos, d_pos) - np.einsum("ij,ij->i", d_neg, d_neg)
    w = (hinge + margin > 0.0) * (2.0 / len(anchor))
    d_pos *= w[:, None]
    d_neg *= w[:, None]
    return d_pos - d_neg, -d_pos, d_neg


def make_triplet(small=False):
    rng = _rng(51)
    b, d = (6, 3) if small else (4096, 64)
    anchor = rng.standard_normal((b, d))
    return (anchor, anchor + 0.8 * rng.standard_normal((b, d)),
            anchor + 1.0 * rng.standard_normal((b, d)), 1.0)
