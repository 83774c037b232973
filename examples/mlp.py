"""A two-layer MLP (tanh hidden layer, softmax cross-entropy) and its gradient with
respect to all four parameter arrays.

    python examples/mlp.py
"""
import numpy as np

import s2s_ad


def mlp_loss(W1, b1, W2, b2, X, Y):
    """Mean softmax cross-entropy; Y is one-hot, shape (batch, classes)."""
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return -np.sum(Y * log_probs) / X.shape[0]


def hand_written_gradient(W1, b1, W2, b2, X, Y):
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    e = np.exp(shifted)
    probs = e / np.sum(e, axis=1, keepdims=True)
    d_logits = (probs - Y) / X.shape[0]
    dW2 = h.T @ d_logits
    db2 = np.sum(d_logits, axis=0)
    dh = d_logits @ W2.T
    dz = dh * (1.0 - h * h)
    dW1 = X.T @ dz
    db1 = np.sum(dz, axis=0)
    return dW1, db1, dW2, db2


def make_problem(batch=64, features=20, hidden=32, classes=10, seed=0):
    rng = np.random.default_rng(seed)
    W1 = rng.standard_normal((features, hidden)) / np.sqrt(features)
    b1 = np.zeros(hidden)
    W2 = rng.standard_normal((hidden, classes)) / np.sqrt(hidden)
    b2 = np.zeros(classes)
    X = rng.standard_normal((batch, features))
    Y = np.eye(classes)[rng.integers(0, classes, batch)]
    return W1, b1, W2, b2, X, Y


if __name__ == "__main__":
    grad_mlp = s2s_ad.grad(mlp_loss, wrt=(0, 1, 2, 3))
    print(s2s_ad.derivative_source(grad_mlp))
    params = make_problem()
    for step in range(101):
        grads = grad_mlp(*params)
        if step % 25 == 0:
            print(f"step {step:3d}  loss {mlp_loss(*params):.4f}")
        params = tuple(p - 0.5 * g for p, g in zip(params[:4], grads)) + params[4:]
