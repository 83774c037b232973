"""A single-head attention block, softmax(Q K^T / sqrt(d)) V, with its projections as
parameters; the gradient of a loss on its output with respect to each projection is
checked against central differences.

Run: python examples/attention.py
"""
import numpy as np

import s2s_ad


def attention_loss(w_q, w_k, w_v, tokens, target):
    q = tokens @ w_q
    k = tokens @ w_k
    v = tokens @ w_v
    scores = q @ k.T / np.sqrt(q.shape[-1])
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / np.sum(weights, axis=-1, keepdims=True)
    out = weights @ v
    return 0.5 * np.sum((out - target) ** 2)


def central_differences(f, args, k, eps=1e-6):
    x = args[k]
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        for sign in (1.0, -1.0):
            moved = list(args)
            moved[k] = x.copy()
            moved[k][i] += sign * eps
            g[i] += sign * f(*moved) / (2 * eps)
    return g


def main():
    rng = np.random.default_rng(1)
    tokens, target = rng.standard_normal((6, 4)), rng.standard_normal((6, 3))
    params = [rng.standard_normal((4, 3)) * 0.5 for _ in range(3)]
    args = params + [tokens, target]
    grads = s2s_ad.grad(attention_loss, wrt=(0, 1, 2))(*args)
    for k, g in enumerate(grads):
        np.testing.assert_allclose(g, central_differences(attention_loss, args, k),
                                   rtol=1e-5, atol=1e-7)
    print(f"loss {attention_loss(*args):.6f}; gradients of W_q, W_k, W_v match central "
          f"differences")


if __name__ == "__main__":
    main()
