"""A Hessian-free (truncated Newton) step on logistic regression.

Conjugate gradient solves H dw = -g using only Hessian-vector products, which s2s_ad
computes forward-over-reverse without ever forming H; a few such steps reach the
optimum that plain gradient descent approaches slowly.

    python examples/hessian_free.py
"""
import numpy as np

import s2s_ad
from logistic_regression import make_data, negative_log_likelihood


def conjugate_gradient(hessian_times, b, iterations=20, tolerance=1e-10):
    """Solve H x = b given only v -> H v."""
    x = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rr = r @ r
    for _ in range(iterations):
        hp = hessian_times(p)
        alpha = rr / (p @ hp)
        x = x + alpha * p
        r = r - alpha * hp
        rr_new = r @ r
        if rr_new < tolerance:
            break
        p = r + (rr_new / rr) * p
        rr = rr_new
    return x


def hessian_free(steps=6, verbose=True):
    X, y = make_data()
    w = np.zeros(X.shape[1])
    gradient = s2s_ad.grad(negative_log_likelihood)
    hvp = s2s_ad.hvp(negative_log_likelihood)
    losses = [negative_log_likelihood(w, X, y)]
    for step in range(steps):
        g = gradient(w, X, y)
        w = w + conjugate_gradient(lambda v: hvp(w, X, y, v), -g)
        losses.append(negative_log_likelihood(w, X, y))
        if verbose:
            print(f"step {step + 1}  loss {losses[-1]:.10f}  |g| = {np.linalg.norm(g):.2e}")
    return w, losses


if __name__ == "__main__":
    print(s2s_ad.derivative_source(s2s_ad.hvp(negative_log_likelihood)))
    hessian_free()
