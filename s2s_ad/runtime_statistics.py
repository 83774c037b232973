"""Runtime helpers for the derivatives of the order statistics: np.quantile, np.percentile,
np.median (and their nan- versions), np.partition, np.pad's modes that pick entries
(maximum, minimum, median), and of np.cov / np.corrcoef.

    quantile_weights(x, q, axis, method, ignore_nan)   W, shaped q.shape + x.shape: the
                       quantiles are np.sum(W * x, axis=quantile_axes(x, q, axis))
    quantile_slopes(x, q, axis, method, ignore_nan)    dW/dq (piecewise constant)
    quantile_axes(x, q, axis)                          the axes of W that x's `axis` names
    leading_axes(q)                                    the axes of W that are q's
    partition_order(a, y, axis)                        the indices with
                       np.take_along_axis(a, order, axis) == y = np.partition(a, kth, axis)
    pad_selected(g, array, widths, mode, stat_length)  np.pad's derivative in the modes
    unpad_selected(g, array, widths, mode, stat_length)    picking entries, and its adjoint
    observations(m, y, rowvar, m0, y0)                 np.cov's variables-by-observations X
    unobserve(g, m0, y0, rowvar, part)                 its adjoint for m (part 0) or y (1)

A quantile picks sorted entries of x: with numpy's default method 'linear' at the virtual
place p = q (n - 1) of the sorted slice it is (1 - f) x_(i) + f x_(i+1), i = floor(p),
f = p - i; 'lower', 'higher', 'nearest' and 'midpoint' pick one entry or halve two. Its
derivative in x is W (the sort order is piecewise constant in x), in q the slope
(n - 1) (x_(i+1) - x_(i)) (0 at the last place; the right derivative where p is a whole
number). Ties are ordered as a stable sort orders them (first in x first), so the
derivative of a quantile landing on a tie goes to one of the tied entries, the one that
sort puts at that place. The nan- versions sort nan last and take n as the count of
entries that are not nan (an all-nan slice has W = 0: its value is nan, its derivative 0).
"""
import numpy as np

from .runtime import _float_dtype

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import MissingDerivativeError
except ImportError:  # pragma: no cover - only in standalone generated files
    class MissingDerivativeError(ValueError):
        pass


def quantile_axes(x, q, axis=None):
    """The axes of W (q's axes first, then x's) that a quantile over `axis` of x reduces;
    axis=None: all of x's."""
    ndim, lead = np.ndim(x), np.ndim(q)
    if axis is None:
        return tuple(range(lead, lead + ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    return tuple(lead + a % ndim for a in axes) if ndim else ()


def leading_axes(v):
    """All axes of v: those of a product laid out as v.shape + ... that are v's (W's
    leading axes are q's)."""
    return tuple(range(np.ndim(v)))


def quantile_weights(x, q, axis=None, method="linear", ignore_nan=False):
    """W, shaped q.shape + x.shape, with np.quantile(x, q, axis, method=method) (or
    np.nanquantile) = np.sum(W * x, axis=quantile_axes(x, q, axis)) (nan entries of x
    have weight 0)."""
    return _weights(x, q, axis, method, ignore_nan)[0]


def quantile_slopes(x, q, axis=None, method="linear", ignore_nan=False):
    """dW/dq, shaped like W: (n - 1) (e_(i+1) - e_(i)) for 'linear', 0 for the methods that
    pick entries (their value is piecewise constant in q)."""
    return _weights(x, q, axis, method, ignore_nan)[1]


def quantile_method_problem(method):
    """Why the quantiles' derivatives do not take this `method` (None when they do)."""
    methods = ("linear", "lower", "higher", "nearest", "midpoint")
    if isinstance(method, str) and method in methods:
        return None
    return (f"s2s_ad differentiates np.quantile, np.percentile and their nan forms with "
            f"method= one of {', '.join(map(repr, methods))}, not method={method!r}")


def _weights(x, q, axis, method, ignore_nan):
    problem = quantile_method_problem(method)
    if problem:
        raise MissingDerivativeError(problem, None, "use one of those methods")
    dtype = _float_dtype(x)             # the weights multiply x: float32 stays float32
    x, q = np.asarray(x, dtype=float), np.asarray(q, dtype=float)
    reduced = [a - q.ndim for a in quantile_axes(x, q, axis)]
    rest = [a for a in range(x.ndim) if a not in reduced]
    moved = np.transpose(x, rest + reduced)
    flat = moved.reshape(moved.shape[:len(rest)] + (-1,))             # B + (n,)
    n = flat.shape[-1]
    order = np.argsort(flat, axis=-1, kind="stable")                  # nan last
    valid = np.sum(~np.isnan(flat), axis=-1) if ignore_nan else np.full(flat.shape[:-1], n)
    place = q.reshape(q.shape + (1,) * valid.ndim) * (valid - 1)      # Q + B
    low, frac, slope = _neighbours(place, method, valid - 1)
    high = np.minimum(low + 1, valid - 1)
    frac = np.where(high > low, frac, 0.0)
    slots = np.arange(n)
    weights = (slots == low[..., None]) * (1.0 - frac)[..., None] \
        + (slots == high[..., None]) * frac[..., None]
    steps = ((slots == high[..., None]) * 1.0 - (slots == low[..., None])) \
        * (slope * (high > low))[..., None]
    back = np.broadcast_to(np.argsort(order, axis=-1), weights.shape)
    lead = list(range(q.ndim))
    perm = lead + [q.ndim + p for p in np.argsort(rest + reduced)]

    def unsorted(w):       # sorted places -> x's entries, in x's layout
        w = np.take_along_axis(w * (valid > 0)[..., None], back, axis=-1)
        return np.transpose(w.reshape(q.shape + moved.shape), perm).astype(dtype, copy=False)
    return unsorted(weights), unsorted(steps)


def _neighbours(place, method, last):
    """(i, f, df/dq per unit q) of each virtual place p: the quantile is (1 - f) x_(i) +
    f x_(i+1)."""
    low = np.clip(np.floor(place), 0, np.maximum(last, 0)).astype(np.intp)
    zero = np.zeros(place.shape)
    if method == "linear":
        return low, place - low, np.broadcast_to(last * 1.0, place.shape)
    if method == "lower":
        return low, zero, zero
    if method == "higher":
        return np.clip(np.ceil(place), 0, np.maximum(last, 0)).astype(np.intp), zero, zero
    if method == "nearest":
        return np.clip(np.around(place), 0, np.maximum(last, 0)).astype(np.intp), zero, zero
    return low, np.where(place % 1 == 0, 0.0, 0.5), zero         # midpoint


def partition_order(a, y, axis=-1):
    """The indices `order` with np.take_along_axis(a, order, axis) == y for y =
    np.partition(a, kth, axis) (flat indices for axis=None): the r-th smallest entry of
    y came from the r-th smallest of a (ties matched in a stable sort's order), so it
    holds whatever arrangement numpy's selection left."""
    a = np.asarray(a)
    if axis is None:
        a, axis = np.ravel(a), -1
    from_a = np.argsort(a, axis=axis, kind="stable")
    in_y = np.argsort(y, axis=axis, kind="stable")
    order = np.empty_like(from_a)
    np.put_along_axis(order, in_y, from_a, axis=axis)
    return order


# ---- np.cov and np.corrcoef --------------------------------------------------------------
# X, the variables-by-observations matrix numpy builds from m (and y): each laid out as 2-D
# rows, transposed when rowvar=False (m unless it is 1-D, y unless it has one row), y's
# rows after m's. m0 and y0 are the operands that fix the layout; m and y the values laid
# out: the operands themselves, or their derivatives (a scalar 0.0, the zero derivative
# of an operand that is not differentiated, stands for zeros of its operand's shape).
def observations(m, y=None, rowvar=True, m0=None, y0=None):
    """np.cov's X for the values m, y laid out as the operands m0, y0 are."""
    # the arrays' float dtype (float32 kept); a number (the scalar zero) does not widen it
    dtype = _float_dtype(*[v for v in (m, y) if isinstance(v, (np.ndarray, np.generic))])
    rows = _rows(m, m0, rowvar, np.ndim(m0) != 1, dtype)
    if y0 is None:
        return rows
    return np.concatenate((rows, _rows(y, y0, rowvar, np.shape(np.atleast_2d(y0))[0] != 1,
                                       dtype)))


def _rows(v, v0, rowvar, turn, dtype):
    if np.shape(v) != np.shape(v0):
        v = np.zeros(np.shape(v0), dtype=dtype)
    v = np.atleast_2d(np.asarray(v, dtype=dtype))
    return v if rowvar or not turn else v.T


def unobserve(g, m0, y0=None, rowvar=True, part=0):
    """The adjoint of observations for m (part 0) or y (part 1): g's rows for that operand
    in its own layout (a float for a scalar operand)."""
    k = np.shape(np.atleast_2d(m0))[0 if rowvar or np.ndim(m0) == 1 else 1]
    v0 = m0 if part == 0 else y0
    rows = g[:k] if part == 0 else g[k:]
    turn = np.ndim(m0) != 1 if part == 0 else np.shape(np.atleast_2d(y0))[0] != 1
    rows = rows if rowvar or not turn else rows.T
    out = np.reshape(rows, np.shape(v0))
    return float(out) if np.ndim(v0) == 0 else out


def observation_count(x, bias=False, ddof=None):
    """N - ddof, np.cov's divisor for X = x (ddof None: 1, or 0 with bias=True)."""
    return np.shape(x)[1] - (ddof if ddof is not None else 0 if bias else 1)


def covariance_shape(x):
    """(k, k) for X = x of k variables: the unsqueezed shape of np.cov's result."""
    return (np.shape(x)[0], np.shape(x)[0])


# ---- np.pad in the modes 'maximum', 'minimum', 'median' ----------------------------------
# numpy fills axis after axis, each padded value the statistic of the first (before) or
# last (after) stat_length values of its line along that axis, read from the array padded
# along the earlier axes. Each value is a weighted pick of that window's entries (an
# extremum, ties sharing equally as np.max's derivative does; the median's one or two
# middle entries), fixed by the data: a linear map of the array, P_last ... P_0.
def selecting_pad(mode):
    """Is this one of np.pad's modes that pick entries?"""
    return mode in ("maximum", "minimum", "median")


def _window_weights(window, mode):
    if mode == "median":
        return quantile_weights(window, 0.5, -1)
    best = np.max(window, axis=-1, keepdims=True) if mode == "maximum" else \
        np.min(window, axis=-1, keepdims=True)
    hit = (window == best).astype(window.dtype)
    return hit / np.sum(hit, axis=-1, keepdims=True)


def _selections(array, widths, mode, stat_length):
    """Per axis (before, after, weights of the window before, of the window after, its
    length), from the data padded along the earlier axes."""
    lengths = np.broadcast_to(np.zeros((np.ndim(array), 2)) if stat_length is None
                              else np.asarray(stat_length), (np.ndim(array), 2))
    data, steps = np.asarray(array, dtype=_float_dtype(array)), []     # float32 kept
    for k, (before, after) in enumerate(widths):
        rows = np.moveaxis(data, k, -1)
        n = rows.shape[-1]
        keep = n if stat_length is None else int(min(max(round(lengths[k][0]), 1), n))
        keep_after = n if stat_length is None else int(min(max(round(lengths[k][1]), 1), n))
        first = _window_weights(rows[..., :keep], mode)
        last = _window_weights(rows[..., n - keep_after:], mode)
        steps.append((before, after, first, last, keep, keep_after))
        data = np.moveaxis(_pad_step(rows, steps[-1]), -1, k)
    return steps


def _pad_step(rows, step):
    before, after, first, last, keep, keep_after = step
    n = rows.shape[-1]
    # the weights in the dtype of what they pick from: linear in rows, they do not widen it
    low = np.sum(first.astype(rows.dtype, copy=False) * rows[..., :keep], axis=-1,
                 keepdims=True)
    high = np.sum(last.astype(rows.dtype, copy=False) * rows[..., n - keep_after:], axis=-1,
                  keepdims=True)
    return np.concatenate([np.repeat(low, before, -1), rows, np.repeat(high, after, -1)], -1)


def pad_selected(g, array, widths, mode, stat_length=None):
    """np.pad's derivative in 'maximum', 'minimum' and 'median' modes: g padded with the
    entries (weights) the statistics of `array` picked; linear in g."""
    for k, step in enumerate(_selections(array, widths, mode, stat_length)):
        g = np.moveaxis(_pad_step(np.moveaxis(np.asarray(g, dtype=_float_dtype(g)), k, -1),
                                  step), -1, k)
    return g


def unpad_selected(g, array, widths, mode, stat_length=None):
    """The adjoint of pad_selected in g: from the last axis to the first, the inner block
    plus each padded value's adjoint spread over the window entries it picked."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    steps = _selections(array, widths, mode, stat_length)
    for k in reversed(range(len(steps))):
        before, after, first, last, keep, keep_after = steps[k]
        rows = np.moveaxis(np.asarray(g, dtype=_float_dtype(g)), k, -1)
        n = rows.shape[-1] - before - after
        out = rows[..., before:before + n].copy()
        out[..., :keep] += first * np.sum(rows[..., :before], axis=-1, keepdims=True)
        out[..., n - keep_after:] += last * np.sum(rows[..., before + n:], axis=-1,
                                                   keepdims=True)
        g = np.moveaxis(out, -1, k)
    return g
