"""Workloads that work on windows of arrays: slices whose bounds are known only at run time
(`img[i:i + h, j:j + v]`, `c[w:] - c[:-w]`), shifts by np.roll in a time loop, second
differences along the rows of a batch, and GRU gates sliced from one product. Each with
the gradient an expert writes by hand (see user_workloads.py for the conventions).
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def _rng(seed):
    return np.random.default_rng(seed)


# ---- 2-D convolution ("valid" correlation) written with slices --------------------------
def conv2d_slices_loss(k, img, y):
    """A 3x3 filter over an image as a sum of shifted slices; squared error after tanh."""
    h = img.shape[0] - k.shape[0] + 1
    v = img.shape[1] - k.shape[1] + 1
    out = np.zeros((h, v))
    for i in range(k.shape[0]):
        for j in range(k.shape[1]):
            out = out + k[i, j] * img[i:i + h, j:j + v]
    return np.mean((np.tanh(out) - y) ** 2)


def conv2d_slices_grad(k, img, y):
    """Forward and filter gradient over a window view (one einsum each); the image's
    gradient by adding the scaled residual into each shifted window in place."""
    windows = sliding_window_view(img, k.shape)            # (h, v, kh, kw), no copy
    r = np.tanh(np.einsum("hvij,ij->hv", windows, k))
    g = (2.0 / r.size) * (r - y) * (1.0 - r * r)
    dk = np.einsum("hvij,hv->ij", windows, g)
    dimg = np.zeros_like(img)
    h, v = g.shape
    for i in range(k.shape[0]):
        for j in range(k.shape[1]):
            dimg[i:i + h, j:j + v] += k[i, j] * g
    return dk, dimg


def make_conv2d(small=False):
    n = 12 if small else 256
    rng = _rng(41)
    img = rng.standard_normal((n, n))
    k = rng.standard_normal((3, 3)) / 3.0
    return k, img, 0.5 * np.tanh(img[1:-1, 1:-1])


# ---- explicit heat equation on a ring: np.roll stencil in a time loop --------------------
def heat_ring_loss(u0, r, target):
    """Explicit Euler steps of u_t = r u_xx on a periodic grid; squared error at the end."""
    u = u0
    for _ in range(50):
        u = u + r * (np.roll(u, 1) - 2.0 * u + np.roll(u, -1))
    return np.sum((u - target) ** 2)


def heat_ring_grad(u0, r, target):
    """The step is symmetric in u, so its adjoint is the same stencil on g; r's gradient
    pairs g with each step's second difference (kept from the forward sweep)."""
    u = u0
    laps = []
    for _ in range(50):
        lap = np.roll(u, 1) - 2.0 * u + np.roll(u, -1)
        laps.append(lap)
        u = u + r * lap
    g = 2.0 * (u - target)
    dr = 0.0
    for lap in reversed(laps):
        dr += float(np.dot(g, lap))
        g = g + r * (np.roll(g, 1) - 2.0 * g + np.roll(g, -1))
    return g, dr


def make_heat_ring(small=False):
    n = 16 if small else 20000
    rng = _rng(43)
    x = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.sin(x) + 0.1 * rng.standard_normal(n), 0.2, np.sin(x) * 0.9


# ---- moving average by cumsum and slices ------------------------------------------------
def moving_average_fit(x, y, w):
    """A trailing moving average of window w from a cumulative sum, fitted to y, plus a
    first-difference penalty on x."""
    c = np.cumsum(x)
    ma = (c[w:] - c[:-w]) / w
    d = x[1:] - x[:-1]
    return np.sum((ma - y) ** 2) + 0.1 * np.sum(d * d)


def moving_average_fit_grad(x, y, w):
    c = np.cumsum(x)
    g_ma = (2.0 / w) * ((c[w:] - c[:-w]) / w - y)
    g_c = np.zeros_like(x)
    g_c[w:] += g_ma
    g_c[:-w] -= g_ma
    g = np.cumsum(g_c[::-1])[::-1]
    d = 0.2 * (x[1:] - x[:-1])
    g[1:] += d
    g[:-1] -= d
    return g


def make_moving_average(small=False):
    n, w = (20, 3) if small else (100000, 25)
    rng = _rng(47)
    x = np.cumsum(rng.standard_normal(n)) * 0.05
    return x, np.convolve(x, np.ones(w) / w, mode="valid")[1:], w


# ---- 1-D Laplacian smoothness penalty on a 2-D batch -------------------------------------
def laplacian_smoothing_loss(X, Y, lam):
    """Each row of X fitted to Y's row, its second differences penalised."""
    d2 = X[:, 2:] - 2 * X[:, 1:-1] + X[:, :-2]
    return 0.5 * np.sum((X - Y) ** 2) + lam * np.sum(d2 ** 2)


def laplacian_smoothing_grad(X, Y, lam):
    """The residual, plus the second-difference stencil applied to 2 lam d2 by slices."""
    r = (2.0 * lam) * (X[:, 2:] - 2.0 * X[:, 1:-1] + X[:, :-2])
    g = X - Y
    g[:, 2:] += r
    g[:, 1:-1] -= 2.0 * r
    g[:, :-2] += r
    return g


def make_laplacian_smoothing(small=False):
    rows, n = (3, 12) if small else (128, 2000)
    rng = _rng(53)
    Y = np.cumsum(rng.standard_normal((rows, n)), axis=1) * 0.1
    return Y + 0.1 * rng.standard_normal((rows, n)), Y, 3.0


# ---- GRU with its gates sliced from one product per input ----------------------------------
def _sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def gru_loss(W, U, b, Wy, xs, y):
    """A GRU over a sequence: update, reset and candidate gates sliced from x_t @ W + b and
    h @ U; squared error of a read-out of the last state."""
    H = U.shape[0]
    h = np.zeros((xs.shape[1], H))
    for x_t in xs:
        a = x_t @ W + b
        hu = h @ U
        z = _sigmoid(a[:, :H] + hu[:, :H])
        r = _sigmoid(a[:, H:2 * H] + hu[:, H:2 * H])
        n = np.tanh(a[:, 2 * H:] + r * hu[:, 2 * H:])
        h = (1.0 - z) * n + z * h
    return np.mean((h @ Wy - y) ** 2)


def gru_grad(W, U, b, Wy, xs, y):
    """BPTT with the three gates' adjoints written into one (B, 3H) buffer for the input
    product and one for the recurrent product."""
    H = U.shape[0]
    batch = xs.shape[1]
    h = np.zeros((batch, H))
    cache = []
    for x_t in xs:
        a = x_t @ W + b
        hu = h @ U
        s = 1.0 / (1.0 + np.exp(-(a[:, :2 * H] + hu[:, :2 * H])))
        n = np.tanh(a[:, 2 * H:] + s[:, H:] * hu[:, 2 * H:])
        cache.append((x_t, h, hu, s, n))
        h = (1.0 - s[:, :H]) * n + s[:, :H] * h
    dpred = (2.0 / y.size) * (h @ Wy - y)
    dWy = h.T @ dpred
    dh = dpred @ Wy.T
    dW, dU, db = np.zeros_like(W), np.zeros_like(U), np.zeros_like(b)
    da = np.empty((batch, 3 * H))
    dhu = np.empty((batch, 3 * H))
    for x_t, h_prev, hu, s, n in reversed(cache):
        z, r = s[:, :H], s[:, H:]
        dn = dh * (1.0 - z) * (1.0 - n * n)
        da[:, 2 * H:] = dn
        dhu[:, 2 * H:] = dn * r
        da[:, :H] = dh * (h_prev - n)
        da[:, H:2 * H] = dn * hu[:, 2 * H:]
        da[:, :2 * H] *= s * (1.0 - s)
        dhu[:, :2 * H] = da[:, :2 * H]
        dW += x_t.T @ da
        db += da.sum(axis=0)
        dU += h_prev.T @ dhu
        dh = dh * z + dhu @ U.T
    return dW, dU, db, dWy


def make_gru(small=False):
    steps, batch, inputs, hidden, outputs = (3, 2, 3, 4, 2) if small else (20, 16, 16, 32, 4)
    rng = _rng(59)
    return (rng.standard_normal((inputs, 3 * hidden)) / np.sqrt(inputs),
            rng.standard_normal((hidden, 3 * hidden)) / np.sqrt(hidden),
            0.1 * rng.standard_normal(3 * hidden),
            rng.standard_normal((hidden, outputs)) / np.sqrt(hidden),
            rng.standard_normal((steps, batch, inputs)),
            rng.standard_normal((batch, outputs)))
