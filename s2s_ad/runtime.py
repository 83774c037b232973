"""Runtime helpers that generated derivative code calls.

Self-contained (numpy only) so a standalone generated file can carry their source.
Each helper is small and named for what it does to an adjoint:

    unbroadcast(g, x)        sum g down to x's shape (undo broadcasting)
    unreduce(g, x, axis, keepdims)  spread a reduction's adjoint back over x's shape
    add_at(a, index, g)      a[index] += g, correct for repeated integer indices
    scalar_seed(y)           1.0 when y is a scalar, else a clear error pointing to vjp
    zero_adjoint(x)          the zero derivative shaped like x (0.0 for a scalar)
"""
import numpy as np

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import NonScalarOutputError
except ImportError:  # pragma: no cover - only in standalone generated files
    class NonScalarOutputError(ValueError):
        pass


def unbroadcast(g, x):
    """Sum `g` over the axes broadcasting added to `x`'s shape."""
    shape = np.shape(x)
    g_shape = np.shape(g)
    if g_shape == shape:
        return g
    extra = len(g_shape) - len(shape)
    if extra < 0:
        return np.broadcast_to(g, shape) * 1.0
    if extra:
        g = np.sum(g, axis=tuple(range(extra)))
    kept = tuple(i for i, n in enumerate(shape) if n == 1 and np.shape(g)[i] != 1)
    if kept:
        g = np.sum(g, axis=kept, keepdims=True)
    return g


def unreduce(g, x, axis=None, keepdims=False):
    """Broadcast the adjoint `g` of a reduction over `axis` back to `x`'s shape."""
    shape = np.shape(x)
    if axis is not None and not keepdims:
        g = np.expand_dims(g, _normalize_axes(axis, len(shape)))
    out = np.empty(shape)
    out[...] = g
    return out


def _normalize_axes(axis, ndim):
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(sorted(a % ndim for a in axes))


def extremum_share(x, y, axis=None, keepdims=False):
    """Where x attains the reduction result y (ties share equally), shaped like x."""
    shape = np.shape(x)
    if axis is not None and not keepdims:
        y = np.expand_dims(y, _normalize_axes(axis, len(shape)))
    hit = (np.asarray(x) == y).astype(float)
    return hit / np.sum(hit, axis=axis, keepdims=True)


def add_at(a, index, g):
    """a[index] += g, accumulating repeated integer indices; returns a."""
    if _has_integer_array(index):
        np.add.at(a, index, g)
    else:
        a[index] += g
    return a


def _has_integer_array(index):
    parts = index if isinstance(index, tuple) else (index,)
    for part in parts:
        if isinstance(part, (list, np.ndarray)) and np.asarray(part).dtype != bool:
            return True
    return False


def scalar_seed(y):
    """The seed 1.0 of a scalar output; grad of an array output is an error."""
    if type(y) is float or np.ndim(y) == 0:
        return 1.0
    raise NonScalarOutputError(
        f"grad needs a function with a scalar output, but it returned an array of shape "
        f"{np.shape(y)}; use s2s_ad.vjp(f) (or jacobian) for array outputs, or reduce the "
        f"output to a scalar (e.g. np.sum)")


def zero_adjoint(x):
    """The zero derivative for x: 0.0 for a Python scalar, float zeros otherwise."""
    if isinstance(x, np.ndarray) or np.ndim(x) > 0:
        return np.zeros(np.shape(x))
    return 0.0


def matmul_adjoint_a(g, a, b):
    """Adjoint of `a` in y = a @ b, for 1-D, 2-D and batched operands."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if b_nd == 1:
        return np.multiply.outer(g, b) if a_nd > 1 else g * b
    if a_nd == 1:
        return np.matmul(b, g) if np.ndim(g) == 1 else unbroadcast(np.matmul(b, g[..., None])[..., 0], a)
    return unbroadcast(np.matmul(g, np.swapaxes(b, -1, -2)), a)


def matmul_adjoint_b(g, a, b):
    """Adjoint of `b` in y = a @ b, for 1-D, 2-D and batched operands."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 1:
        return np.multiply.outer(a, g) if b_nd > 1 else g * a
    if b_nd == 1:
        return np.matmul(np.swapaxes(a, -1, -2), g[..., None])[..., 0] if np.ndim(g) > 1 \
            else np.matmul(g, a)
    return unbroadcast(np.matmul(np.swapaxes(a, -1, -2), g), b)
