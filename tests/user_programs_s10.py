"""Programs written the way people write scientific and ML numpy code (not copies of the
other tests or of benchmarks/): tried as a new user would, each against central
differences in tests/test_user_programs_s10.py. PROGRAMS: (name, f, args, wrt)."""
import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit, logsumexp


def rosenbrock(p):
    x, y = p[0], p[1]
    return (1.0 - x) ** 2 + 100.0 * (y - x ** 2) ** 2


def adam_step(w, g, m, v):
    b1, b2, eps, lr = 0.9, 0.999, 1e-8, 1e-3
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    w_new = w - lr * (m / (1 - b1)) / (np.sqrt(v / (1 - b2)) + eps)
    return np.sum(w_new ** 2)


def kalman_step(x, P, z, F, H, Q, R):
    xp = F @ x
    Pp = F @ P @ F.T + Q
    S = H @ Pp @ H.T + R
    K = Pp @ H.T @ np.linalg.inv(S)
    xn = xp + K @ (z - H @ xp)
    Pn = (np.eye(len(x)) - K @ H) @ Pp
    return np.sum(xn ** 2) + np.trace(Pn)


def two_layer(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    z = h @ params["W2"] + params["b2"]
    z = z - np.max(z, axis=1, keepdims=True)
    p = np.exp(z) / np.sum(np.exp(z), axis=1, keepdims=True)
    l2 = 0.0
    for k in ["W1", "W2"]:
        l2 = l2 + np.sum(params[k] ** 2)
    return -np.mean(np.log(p[np.arange(len(y)), y])) + 1e-3 * l2


def ridge(lam, X, y):
    w = np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ y)
    r = X @ w - y
    return r @ r


def verlet(pos, vel):
    dt = 0.1
    ps = [pos[i] for i in range(pos.shape[0])]
    vs = [vel[i] for i in range(vel.shape[0])]
    for _ in range(3):
        new_p, new_v = [], []
        for p, v in zip(ps, vs):
            p2 = p + v * dt - 0.5 * p * dt * dt
            new_v.append(v - 0.5 * (p + p2) * dt)
            new_p.append(p2)
        ps, vs = new_p, new_v
    e = 0.0
    for p, v in zip(ps, vs):
        e = e + 0.5 * np.sum(v ** 2) + 0.5 * np.sum(p ** 2)
    return e


def logreg(w, X, y):
    p = expit(X @ w)
    return -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))


def causal_attention(q, k, v):
    n, d = q.shape
    s = q @ k.T / np.sqrt(d)
    s = np.where(np.triu(np.ones((n, n)), k=1).astype(bool), -1e9, s)
    a = np.exp(s - np.max(s, axis=-1, keepdims=True))
    return np.sum((a / a.sum(axis=-1, keepdims=True) @ v) ** 2)


def stencil(u):
    out = np.zeros_like(u)
    out[1:-1] = u[:-2] - 2 * u[1:-1] + u[2:]
    out[0] = u[1] - u[0]
    return np.sum(out ** 2)


@dataclass
class Params:
    w: np.ndarray
    b: float


def dataclass_loss(p, X, y):
    return np.sum((X @ p.w + p.b - y) ** 2)


class Linear:
    def __init__(self, W, b):
        self.W, self.b = W, b

    def loss(self, x, y):
        return np.mean((x @ self.W + self.b - y) ** 2)


def base_loss(w, X, y, reg):
    return np.sum((X @ w - y) ** 2) + reg * np.sum(w ** 2)


def line_search(x, d):
    t, f0 = 1.0, np.sum(x ** 2)
    while np.sum((x + t * d) ** 2) > f0:
        t = t * 0.5
    return np.sum((x + t * d) ** 2)


def early_return(x):
    if np.sum(x) > 10.0:
        return np.sum(x)
    y = x * 2.0
    if y[0] > 0:
        return np.sum(y ** 2)
    return np.sum(np.sin(y))


def numpy_scalars_mixed(x):
    return np.sum(np.float64(2.0) * x ** 2 + np.int64(3) * x) / len(x)


def quad_form(x, A):
    return x.T @ A @ x + np.sum(np.einsum('ij,jk->ik', A, A) * x[:, None])


def gather_and_mask(x, w):
    idx = np.argsort(w)
    m = x > 0.3
    return np.sum(x[idx] * np.linspace(0, 1, len(x))) + np.sum(x[m] ** 2) \
        + np.sum(np.clip(x, -0.5, 0.5) + np.abs(x)) + np.sum(np.linalg.norm(
            np.stack([x, w], axis=1), axis=1))


def broadcast_outer(a, b):
    return np.sum(np.tanh(a[:, None] * b[None, :] + a.reshape(-1, 1) - b.reshape(1, -1)))


def gp_nll(log_ell, X, y):
    ell = np.exp(log_ell)
    K = np.exp(-0.5 * (X[:, None] - X[None, :]) ** 2 / ell ** 2) + 0.1 * np.eye(len(X))
    L = np.linalg.cholesky(K)
    return 0.5 * y @ np.linalg.solve(K, y) + np.sum(np.log(np.diag(L)))


def mixture_ll(means, x):
    return -np.sum(logsumexp(-0.5 * (x[:, None] - means[None, :]) ** 2, axis=1))


def builtins_over_items(x):
    first, *rest = x
    s = 0.0
    for i, xi in enumerate(reversed(list(x)), start=1):
        s += xi ** 2 / i
    return s + max(x[0], x[1]) * min([first, rest[0] + 1.0])


def apply_activation(act, x):
    return np.sum(act(x) ** 2)


def rk4(y0, k):
    def rhs(y):
        return -k * y + np.sin(y)
    y, h = y0, 0.1
    for _ in range(3):
        k1 = rhs(y)
        k2 = rhs(y + 0.5 * h * k1)
        k3 = rhs(y + 0.5 * h * k2)
        y = y + h / 6.0 * (k1 + 4 * k2 + k3)
    return np.sum(y ** 2)


def float_piecewise(x):
    if x < 0:
        return x ** 2
    elif x < 1:
        return math.sqrt(x + 1)
    return math.log(x) + math.sqrt(2.0)


def heat_explicit(u0, alpha):
    u = u0.copy()
    for _ in range(3):
        un = u.copy()
        u[1:-1] = un[1:-1] + alpha * (un[2:] - 2 * un[1:-1] + un[:-2])
    return np.sum(u ** 2)


def nested_containers(p, x):
    return np.sum((x * p["layers"][0]["w"] + p["layers"][1]["b"]) ** 2) * p["scale"]


_rs = np.random.RandomState(10)
_X, _yb = _rs.randn(6, 3), (_rs.rand(6) > 0.5).astype(float)
_spd = np.eye(3) * 3.0 + 0.1
PROGRAMS = [
    ("rosenbrock", rosenbrock, (np.array([-1.2, 1.0]),), 0),
    ("adam_step", adam_step, (_rs.rand(3), _rs.rand(3), _rs.rand(3), _rs.rand(3) + 1), 1),
    ("kalman_step", kalman_step, (_rs.randn(2), np.eye(2), np.array([0.3]),
                                  np.eye(2) + 0.1, np.array([[1.0, 0.5]]), 0.1 * np.eye(2),
                                  np.array([[0.5]])), 0),
    ("two_layer", two_layer, ({"W1": _rs.randn(3, 4) * 0.5, "b1": _rs.randn(4) * 0.1,
                               "W2": _rs.randn(4, 2) * 0.5, "b2": np.zeros(2)}, _X,
                              _rs.randint(0, 2, 6)), 0),
    ("ridge", ridge, (0.3, _X, _yb), 0),
    ("verlet", verlet, (_rs.randn(2, 2), _rs.randn(2, 2)), 0),
    ("logreg", logreg, (_rs.randn(3) * 0.1, _X, _yb), 0),
    ("causal_attention", causal_attention, (_rs.randn(3, 2), _rs.randn(3, 2),
                                            _rs.randn(3, 2)), 0),
    ("stencil", stencil, (_rs.rand(5),), 0),
    ("dataclass_loss", dataclass_loss, (Params(_rs.randn(3), 0.5), _X, _yb), 0),
    ("bound_method", Linear(_rs.randn(3, 2), _rs.randn(2)).loss, (_X, _rs.randn(6, 2)), 0),
    ("partial", functools.partial(base_loss, X=_X, y=_yb, reg=0.1), (_rs.randn(3),), 0),
    ("line_search", line_search, (_rs.randn(3), _rs.randn(3)), 0),
    ("early_return", early_return, (_rs.rand(3),), 0),
    ("numpy_scalars_mixed", numpy_scalars_mixed, (_rs.rand(4),), 0),
    ("quad_form", quad_form, (_rs.randn(3), _spd), 1),
    ("gather_and_mask", gather_and_mask, (_rs.randn(5), _rs.randn(5)), 0),
    ("broadcast_outer", broadcast_outer, (_rs.randn(3), _rs.randn(4)), 1),
    ("gp_nll", gp_nll, (0.1, _rs.randn(4), _rs.randn(4)), 0),
    ("mixture_ll", mixture_ll, (_rs.randn(3), _rs.randn(5)), 0),
    ("builtins_over_items", builtins_over_items, (_rs.rand(4),), 0),
    ("function_argument", apply_activation, (np.tanh, _rs.randn(3)), 1),
    ("rk4", rk4, (_rs.randn(2), 0.5), 1),
    ("float_piecewise", float_piecewise, (0.5,), 0),
    ("heat_explicit", heat_explicit, (_rs.rand(5), 0.2), 1),
    ("nested_containers", nested_containers, ({"layers": [{"w": _rs.randn(3)},
                                                          {"b": _rs.randn(3)}],
                                               "scale": 2.0}, _rs.randn(3)), 0),
]
