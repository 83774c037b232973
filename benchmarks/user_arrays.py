"""Array workloads of shapes the specialised gradients were tuned on, written fresh
(user_workloads.py): a distillation loss (soft-label cross-entropy at a temperature, the
row max shifted out with keepdims), a Whittaker smoother (a second-difference penalty
written with three slices of one signal) and a quadratic (Tikhonov) image denoiser, a data
term beside penalties on the differences of neighbouring pixels along both axes; session
25: a 5x5 filter and a bias over a batch of images by slicing (`out += k[i, j] * imgs[:,
i:i + h, j:j + w]`, a ReLU, squared error) and a diagonal-covariance Gaussian mixture's
negative log-likelihood, log-sum-exp over the components written out. Each with the
gradient an expert writes.
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


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


def conv2d_batch_relu_loss(k, b, imgs, target):
    """A learned filter and bias over a batch of images, the filter applied by slicing."""
    kh, kw = k.shape
    h, w = imgs.shape[1] - kh + 1, imgs.shape[2] - kw + 1
    out = np.zeros((len(imgs), h, w))
    for i in range(kh):
        for j in range(kw):
            out += k[i, j] * imgs[:, i:i + h, j:j + w]
    pred = np.maximum(out + b, 0.0)
    return np.mean((pred - target) ** 2)


def conv2d_batch_relu_grad(k, b, imgs, target):
    """The windows as a view (no copy), one einsum forward and one for the filter; the
    residual masked by the ReLU in place."""
    windows = sliding_window_view(imgs, k.shape, axis=(1, 2))     # (B, h, w, kh, kw)
    r = np.einsum("bhwij,ij->bhw", windows, k)
    r += b
    g = np.maximum(r, 0.0) - target
    g *= r > 0.0
    g *= 2.0 / g.size
    return np.einsum("bhwij,bhw->ij", windows, g), float(g.sum())


def make_conv2d_batch(small=False):
    bsz, n, kk = (2, 7, 3) if small else (16, 64, 5)
    rng = np.random.default_rng(44)
    imgs = rng.standard_normal((bsz, n, n))
    k = rng.standard_normal((kk, kk)) / kk
    m = n - kk + 1
    target = np.maximum(imgs[:, 1:1 + m, 1:1 + m] - 0.2 * imgs[:, :m, :m], 0.0)
    return k, 0.1, imgs, target


def diag_gmm_nll(means, log_vars, logits, X):
    """Mean negative log-likelihood of X (N, D) under K Gaussians with diagonal
    covariances; log-sum-exp over components with the max shifted out."""
    log_w = logits - (np.max(logits) + np.log(np.sum(np.exp(logits - np.max(logits)))))
    diff = X[:, None, :] - means[None, :, :]                          # (N, K, D)
    log_comp = -0.5 * np.sum(diff ** 2 / np.exp(log_vars) + log_vars + np.log(2.0 * np.pi),
                             axis=2)
    a = log_comp + log_w
    m = np.max(a, axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.sum(np.exp(a - m), axis=1))
    return -np.mean(lse)


def diag_gmm_nll_grad(means, log_vars, logits, X):
    """Responsibilities R (N, K) once; each parameter's gradient a weighted sum of the
    whitened differences (one (N, K, D) array, updated in place)."""
    n = len(X)
    w = np.exp(logits - np.max(logits))
    w /= w.sum()
    inv_var = np.exp(-log_vars)
    z = X[:, None, :] - means                                          # (N, K, D)
    z *= np.sqrt(inv_var)
    zz = z * z
    a = np.log(w) - 0.5 * (zz.sum(axis=2) + log_vars.sum(axis=1) + X.shape[1] * np.log(2.0 * np.pi))
    R = np.exp(a - a.max(axis=1, keepdims=True))
    R /= R.sum(axis=1, keepdims=True)
    R /= n
    d_means = -np.einsum("nk,nkd->kd", R, z) * np.sqrt(inv_var)
    zz -= 1.0
    d_log_vars = -0.5 * np.einsum("nk,nkd->kd", R, zz)
    return d_means, d_log_vars, w - R.sum(axis=0)


def make_diag_gmm(small=False):
    n, k, d = (12, 3, 2) if small else (2000, 8, 4)
    rng = np.random.default_rng(45)
    centres = 3.0 * rng.standard_normal((k, d))
    X = centres[rng.integers(0, k, n)] + rng.standard_normal((n, d))
    return (centres + 0.3 * rng.standard_normal((k, d)), 0.2 * rng.standard_normal((k, d)),
            0.5 * rng.standard_normal(k), X)
