"""Workloads that work on windows of arrays: slices whose bounds are known only at run time
(`img[i:i + h, j:j + v]`, `c[w:] - c[:-w]`) and shifts by np.roll in a time loop. Each
with the gradient an expert writes by hand (see user_workloads.py for the conventions).
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
