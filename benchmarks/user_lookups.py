"""Array workloads the set lacked (session 26), written as users write them
(user_workloads.py), each with the gradient an expert writes:

- an embedding lookup with a dot-product score: skip-gram with negative samples, the rows
  of two embedding tables gathered by integer indices (`E[centers]`, `C[contexts]`), the
  score `np.sum(u * v, axis=1)`, a logistic loss written with np.logaddexp, and an L2
  penalty on the rows used;
- a soft k-means distortion: squared distances by broadcasting `X[:, None, :] - mu`, soft
  assignments by a softmax of `-beta * d2` with the row max shifted out, the distortion
  `np.sum(r * d2) / len(X)` differentiated by the centres (also through r);
- a two-layer tanh MLP classifier: softmax cross-entropy over integer labels plus weight
  decay on both weight matrices.
"""
import numpy as np


# ---- skip-gram with negative samples: rows gathered by index, a dot-product score ----------
def skipgram_loss(E, C, centers, contexts, labels, lam):
    u = E[centers]
    v = C[contexts]
    s = np.sum(u * v, axis=1)
    data = np.mean(np.logaddexp(0.0, s) - labels * s)
    return data + lam * (np.sum(u * u) + np.sum(v * v)) / len(s)


def skipgram_grad(E, C, centers, contexts, labels, lam):
    u = E[centers]
    v = C[contexts]
    s = np.einsum("ij,ij->i", u, v)
    n = len(s)
    g = 1.0 / (1.0 + np.exp(-s))
    g -= labels
    g /= n
    gu = g[:, None] * v
    gu += (2.0 * lam / n) * u
    gv = g[:, None] * u
    gv += (2.0 * lam / n) * v
    dE = np.zeros_like(E)
    np.add.at(dE, centers, gu)
    dC = np.zeros_like(C)
    np.add.at(dC, contexts, gv)
    return dE, dC


def make_skipgram(small=False):
    vocab, d, n = (12, 3, 10) if small else (5000, 64, 4096)
    rng = np.random.default_rng(71)
    return (0.1 * rng.standard_normal((vocab, d)), 0.1 * rng.standard_normal((vocab, d)),
            rng.integers(0, vocab, n), rng.integers(0, vocab, n),
            (rng.random(n) < 0.3).astype(float), 1e-3)


# ---- soft k-means: distances by broadcasting, softmax assignments --------------------------
def soft_kmeans_distortion(mu, X, beta):
    d2 = np.sum((X[:, None, :] - mu[None, :, :]) ** 2, axis=2)
    a = -beta * d2
    a = a - a.max(axis=1, keepdims=True)
    r = np.exp(a)
    r = r / np.sum(r, axis=1, keepdims=True)
    return np.sum(r * d2) / len(X)


def soft_kmeans_distortion_grad(mu, X, beta):
    # d2 = |x|^2 + |mu|^2 - 2 x.mu; dL/dd2 = r (1 - beta (d2 - sum_j r d2)) / N
    d2 = (X * X).sum(axis=1)[:, None] + (mu * mu).sum(axis=1)[None, :] - 2.0 * (X @ mu.T)
    r = d2 * -beta
    r -= r.max(axis=1, keepdims=True)
    np.exp(r, out=r)
    r /= r.sum(axis=1, keepdims=True)
    mean_d = np.sum(r * d2, axis=1, keepdims=True)
    d2 -= mean_d
    d2 *= -beta
    d2 += 1.0
    d2 *= r
    d2 *= 2.0 / len(X)                      # G: dL/d(mu_k - x_n) is 2 G (mu_k - x_n)
    return mu * d2.sum(axis=0)[:, None] - d2.T @ X


def make_soft_kmeans(small=False):
    n, k, d = (9, 3, 2) if small else (2000, 16, 8)
    rng = np.random.default_rng(72)
    centres = 2.0 * rng.standard_normal((k, d))
    X = centres[rng.integers(0, k, n)] + 0.7 * rng.standard_normal((n, d))
    return centres + 0.3 * rng.standard_normal((k, d)), X, 0.5


# ---- two-layer tanh MLP: softmax cross-entropy with integer labels, weight decay -----------
def mlp_softmax_ce(W1, b1, W2, b2, X, labels, wd):
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    logits = logits - logits.max(axis=1, keepdims=True)
    log_p = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
    nll = -np.mean(log_p[np.arange(len(labels)), labels])
    return nll + 0.5 * wd * (np.sum(W1 ** 2) + np.sum(W2 ** 2))


def mlp_softmax_ce_grad(W1, b1, W2, b2, X, labels, wd):
    n = len(labels)
    h = X @ W1
    h += b1
    np.tanh(h, out=h)
    p = h @ W2
    p += b2
    p -= p.max(axis=1, keepdims=True)
    np.exp(p, out=p)
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(n), labels] -= 1.0
    p /= n
    dW2 = h.T @ p
    dW2 += wd * W2
    dh = p @ W2.T
    dh *= 1.0 - h * h
    dW1 = X.T @ dh
    dW1 += wd * W1
    return dW1, dh.sum(axis=0), dW2, p.sum(axis=0)


def make_mlp_softmax(small=False):
    n, d, h, k = (7, 4, 5, 3) if small else (512, 64, 128, 10)
    rng = np.random.default_rng(73)
    return (rng.standard_normal((d, h)) / np.sqrt(d), 0.1 * rng.standard_normal(h),
            rng.standard_normal((h, k)) / np.sqrt(h), 0.1 * rng.standard_normal(k),
            rng.standard_normal((n, d)), rng.integers(0, k, n), 1e-4)
