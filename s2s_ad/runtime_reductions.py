"""Runtime helpers for the adjoints of reductions whose adjoint is not a plain spread:
np.max/np.min, np.prod, np.cumsum and np.var (unreduce in runtime.py spreads a sum's or a
mean's; np.std's and np.linalg.norm's are in runtime_spread.py).

    unreduce_extremum(g, x, y, axis, keepdims)   g where x attains y = max/min (ties share)
    unreduce_prod(g, x, y, axis, keepdims)        g times the product of the other factors
    reverse_cumsum(g, x, axis)                    the reversed cumulative sum of g
    unreduce_var(g, x, axis, ddof, keepdims)      2 (x - mean) g / (N - ddof)

    x = [[1., 3.], [3., 0.]], y = np.max(x, axis=1) = [3., 3.], g = [1., 2.]
    unreduce_extremum(g, x, y, 1, False) -> [[0., 1.], [2., 0.]]
    unreduce_prod(1.0, [2., 0., 5.], 0.0)  -> [0., 10., 0.]     (exact with a zero factor)

A scalar x gets a number back (np.float32 stays np.float32), float32 arrays float32.
"""
import numpy as np

from .runtime import _adjoint_dtype, _expand, _float_dtype, _normalize_axes, _scalar_like


def unreduce_extremum(g, x, y, axis=None, keepdims=False):
    """Adjoint of a max/min reduction: g lands where x attains y (ties share equally)."""
    hit = np.asarray(x) == _expand(y, x, axis, keepdims)
    dtype = _adjoint_dtype(g, x)                                             # float32 kept
    values = np.size(y)
    if np.count_nonzero(hit) == values and (values == 1 or np.all(np.equal(y, y))):
        # no nan: every reduced value is attained, so as many hits as values means one
        # each (a nan value has none); counting ties along a short axis is the slowest
        # step, and g / 1 is g
        if values == 1:
            # one value attained once (a whole-array max): g at that one place of zeros,
            # without a pass of np.where over x (np.zeros costs no pass of its own)
            spread = np.zeros(np.shape(x), dtype=dtype)
            spread.flat[np.argmax(hit)] = np.reshape(g, ())
            return _scalar_like(spread, x)
        ties = dtype.type(1)
    else:
        ties = np.sum(hit, axis=axis, keepdims=True, dtype=dtype)
    share = _expand(g, x, axis, keepdims) / ties
    return _scalar_like(np.where(hit, share, 0.0), x)


def unreduce_prod(g, x, y, axis=None, keepdims=False):
    """Adjoint of np.prod: g times the product of the other factors (exact with zeros)."""
    if np.all(x != 0):
        return _scalar_like(_expand(g * y, x, axis, keepdims) / x, x)
    x = np.asarray(x, dtype=_float_dtype(x))          # float32 kept
    axes = tuple(range(x.ndim)) if axis is None else _normalize_axes(axis, x.ndim)
    rest = [a for a in range(x.ndim) if a not in axes]
    moved = np.transpose(x, rest + list(axes))
    flat = moved.reshape(moved.shape[:len(rest)] + (-1,))
    ones = np.ones(flat.shape[:-1] + (1,), dtype=x.dtype)
    before = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
    after = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    others = np.transpose((before * after).reshape(moved.shape), np.argsort(rest + list(axes)))
    return _scalar_like(_expand(g, x, axis, keepdims) * others, x)


def _prod_others_tangent(g, dg, x, dx, axis=None, keepdims=False):
    """Tangent of unreduce_prod(g, x, ...) along (dg, dx), exact when x has zeros: with
    P_i = prod_{j != i} x_j = before_i * after_i (prefix and suffix products),
    dP_i = dbefore_i * after_i + before_i * dafter_i, each scanned without dividing."""
    x = np.asarray(x, dtype=_float_dtype(x))          # float32 kept
    dx = np.broadcast_to(np.asarray(dx, dtype=_float_dtype(dx)), x.shape)
    axes = tuple(range(x.ndim)) if axis is None else _normalize_axes(axis, x.ndim)
    rest = [a for a in range(x.ndim) if a not in axes]
    order = rest + list(axes)

    def flat(a):
        moved = np.transpose(a, order)
        return moved.reshape(moved.shape[:len(rest)] + (-1,)), moved.shape

    fx, moved_shape = flat(x)
    fdx, _ = flat(dx)
    n = fx.shape[-1]
    before, after = np.ones_like(fx), np.ones_like(fx)
    dbefore, dafter = np.zeros_like(fx), np.zeros_like(fx)
    for i in range(1, n):
        before[..., i] = before[..., i - 1] * fx[..., i - 1]
        dbefore[..., i] = dbefore[..., i - 1] * fx[..., i - 1] + before[..., i - 1] * fdx[..., i - 1]
        j = n - 1 - i
        after[..., j] = after[..., j + 1] * fx[..., j + 1]
        dafter[..., j] = dafter[..., j + 1] * fx[..., j + 1] + after[..., j + 1] * fdx[..., j + 1]
    back = np.argsort(order)
    others = np.transpose((before * after).reshape(moved_shape), back)
    d_others = np.transpose((dbefore * after + before * dafter).reshape(moved_shape), back)
    value = _expand(dg, x, axis, keepdims) * others + _expand(g, x, axis, keepdims) * d_others
    return _scalar_like(value, x)


def reverse_cumsum(g, x, axis=None):
    """Adjoint of np.cumsum: the reversed cumulative sum of g (flattened for axis=None)."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    if axis is None:
        return _scalar_like(np.reshape(np.cumsum(np.ravel(g)[::-1])[::-1], np.shape(x)), x)
    return np.flip(np.cumsum(np.flip(g, axis), axis), axis)


def unreduce_var(g, x, axis=None, ddof=0, keepdims=False):
    """Adjoint of np.var: 2 (x - mean) g / (N - ddof)."""
    mean = np.mean(x, axis=axis, keepdims=True)
    count = np.size(x) / np.size(mean)
    return _scalar_like((x - mean) * _expand(g * (2.0 / (count - ddof)), x, axis, keepdims), x)
