"""Logistic regression trained by gradient descent with an s2s_ad gradient.

    python examples/logistic_regression.py
"""
import numpy as np

import s2s_ad


def negative_log_likelihood(w, X, y):
    """Mean negative log-likelihood of labels y in {0, 1} under p = sigmoid(X w)."""
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


def hand_written_gradient(w, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return X.T @ (p - y) / X.shape[0]


def make_data(n=200, dim=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, dim))
    true_w = rng.standard_normal(dim)
    y = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-X @ true_w))).astype(float)
    return X, y


def train(steps=200, learning_rate=0.5, verbose=True):
    X, y = make_data()
    w = np.zeros(X.shape[1])
    grad_nll = s2s_ad.grad(negative_log_likelihood)
    losses = []
    for step in range(steps):
        losses.append(negative_log_likelihood(w, X, y))
        if verbose and step % 40 == 0:
            print(f"step {step:3d}  loss {losses[-1]:.4f}")
        w = w - learning_rate * grad_nll(w, X, y)
    losses.append(negative_log_likelihood(w, X, y))
    if verbose:
        print(f"final     loss {losses[-1]:.4f}")
    return w, losses


if __name__ == "__main__":
    print(s2s_ad.derivative_source(s2s_ad.grad(negative_log_likelihood)))
    train()
