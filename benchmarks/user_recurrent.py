"""A recurrent workload added in session 24 (see user_workloads.py for the conventions): a
minimal gated unit whose forget gate and candidate are sliced from one input product, the
gate through a user's logistic helper written with np.tanh, and a read-out loss at every
step. The shape the session's two rules serve (a helper evaluating a transcendental, kept
by fwd/bwd; windows of one adjoint assigned), not an existing benchmark's code."""
import numpy as np


def _logistic(a):
    return 0.5 * (1.0 + np.tanh(0.5 * a))


def mgu_loss(W, Uf, Uh, b, V, xs, ys):
    """Minimal gated unit over a sequence: f = logistic(x W_f + h U_f + b_f),
    c = tanh(x W_c + (f h) U_h + b_c), h <- h + f (c - h); mean squared error of h V
    against a target at every step."""
    H = Uf.shape[0]
    h = np.zeros((xs.shape[1], H))
    loss = 0.0
    for x_t, y_t in zip(xs, ys):
        a = x_t @ W + b
        f = _logistic(a[:, :H] + h @ Uf)
        c = np.tanh(a[:, H:] + (f * h) @ Uh)
        h = h + f * (c - h)
        loss = loss + np.mean((h @ V - y_t) ** 2)
    return loss


def mgu_grad(W, Uf, Uh, b, V, xs, ys):
    """BPTT: per step the read-out's residual, the two windows of one (B, 2H) buffer for
    the input product, f (1 - f) for the logistic."""
    H = Uf.shape[0]
    batch = xs.shape[1]
    scale = 2.0 / (batch * V.shape[1])
    h = np.zeros((batch, H))
    cache = []
    for x_t, y_t in zip(xs, ys):
        a = x_t @ W + b
        f = 0.5 * (1.0 + np.tanh(0.5 * (a[:, :H] + h @ Uf)))
        fh = f * h
        c = np.tanh(a[:, H:] + fh @ Uh)
        h_prev, h = h, h + f * (c - h)
        cache.append((x_t, h_prev, f, fh, c, h, (h @ V - y_t) * scale))
    dW, dUf, dUh = np.zeros_like(W), np.zeros_like(Uf), np.zeros_like(Uh)
    db, dV = np.zeros_like(b), np.zeros_like(V)
    da = np.empty((batch, 2 * H))
    dh = np.zeros((batch, H))
    for x_t, h_prev, f, fh, c, h, dr in reversed(cache):
        dV += h.T @ dr
        dh += dr @ V.T
        dac = dh * f
        dac *= 1.0 - c * c
        da[:, H:] = dac
        dUh += fh.T @ dac
        dfh = dac @ Uh.T
        df = dh * (c - h_prev) + dfh * h_prev
        dh_prev = dh * (1.0 - f) + dfh * f
        df *= f * (1.0 - f)
        da[:, :H] = df
        dUf += h_prev.T @ df
        dh_prev += df @ Uf.T
        dW += x_t.T @ da
        db += da.sum(axis=0)
        dh = dh_prev
    return dW, dUf, dUh, db, dV


def make_mgu(small=False):
    steps, batch, inputs, hidden, outputs = (3, 2, 3, 4, 2) if small else (30, 16, 8, 24, 3)
    rng = np.random.default_rng(2424)
    return (rng.standard_normal((inputs, 2 * hidden)) / np.sqrt(inputs),
            rng.standard_normal((hidden, hidden)) / np.sqrt(hidden),
            rng.standard_normal((hidden, hidden)) / np.sqrt(hidden),
            0.1 * rng.standard_normal(2 * hidden),
            rng.standard_normal((hidden, outputs)) / np.sqrt(hidden),
            rng.standard_normal((steps, batch, inputs)),
            rng.standard_normal((steps, batch, outputs)))
