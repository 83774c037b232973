"""Runtime helpers for the derivatives of np.interp, np.trapezoid, np.gradient and the
polynomial functions (np.polyder, np.polyint).

    interp_place(x, xp)              i with xp[i] <= x < xp[i+1] (clipped to 0 .. n-2)
    interp_outside(x, xp, side)      x < xp[0] (side -1), x > xp[-1] (side 1)
    trapezoid_steps(y, x, axis)      w with np.trapezoid(y, x, axis=axis) = sum(w * y, axis)
    unit_trapezoid_steps(y, axis)    w for unit spacing (x None)
    untrapezoid_steps(h, x, axis)    the adjoint of trapezoid_steps in x
    ungradient(g, h, axis, edge_order)    the adjoint of np.gradient(f, h, axis=axis)
    gradient_axis(f, axis)           np.gradient's single axis (a list result is refused)
    polynomial_map(p, operation, m, k)    the matrices (L, K) with operation(p, m, k) =
                                     L @ p + K @ k (np.polyder, np.polyint: linear)

np.interp is piecewise linear: between the knots xp[i] <= x < xp[i+1] (the interval on
the right at a knot, the last one at xp[-1]) it is (1 - t) fp[i] + t fp[i+1], t = (x -
xp[i]) / (xp[i+1] - xp[i]); left and right of the knots the constants left / right
(fp[0] and fp[-1] when None), whose derivative in x is 0.
"""
import numpy as np

from .runtime import _float_dtype


def interp_place(x, xp):
    """The interval of each x: i with xp[i] <= x < xp[i+1], clipped to 0 .. len(xp) - 2."""
    return np.clip(np.searchsorted(xp, x, side="right") - 1, 0, max(np.size(xp) - 2, 0))


def interp_outside(x, xp, side):
    """Where x lies left of xp[0] (side -1) or right of xp[-1] (side 1)."""
    return np.asarray(x) < xp[0] if side < 0 else np.asarray(x) > xp[-1]


def _along(v, axis, ndim):
    """A 1-D v laid along `axis` of an ndim array (length 1 elsewhere)."""
    shape = [1] * ndim
    shape[axis] = -1
    return np.reshape(v, shape)


def trapezoid_steps(y, x, axis=-1):
    """The weights w of np.trapezoid(y, x, axis=axis) = sum(w * y, axis): half the width
    of the intervals beside each sample, (x[i+1] - x[i-1]) / 2 inside and (x[1] - x[0]) /
    2, (x[-1] - x[-2]) / 2 at the ends. Laid out to broadcast against y; linear in x."""
    x = np.asarray(x, dtype=_float_dtype(x))           # float32 kept
    steps = np.moveaxis(x if x.ndim != 1 else _along(x, axis, np.ndim(y)), axis, -1)
    w = np.zeros(steps.shape, dtype=steps.dtype)
    w[..., 1:] += np.diff(steps, axis=-1) / 2.0
    w[..., :-1] += np.diff(steps, axis=-1) / 2.0
    return np.moveaxis(w, -1, axis)


def unit_trapezoid_steps(y, axis=-1):
    """trapezoid_steps for unit spacing (x None: np.trapezoid's dx multiplies them):
    1 inside, 1/2 at the ends, laid along axis."""
    n = np.shape(y)[axis]
    w = np.ones(n, dtype=_float_dtype(y))              # float32 kept
    w[[0, -1]] = 0.5 if n > 1 else 0.0
    return _along(w, axis, np.ndim(y))


def untrapezoid_steps(h, x, axis=-1):
    """The adjoint of trapezoid_steps in x: h (y's shape) back to x's shape."""
    moved = np.moveaxis(np.asarray(h, dtype=_float_dtype(h)), axis, -1)     # float32 kept
    out = np.zeros(moved.shape, dtype=moved.dtype)
    out[..., 1:] += moved[..., :-1] / 2.0
    out[..., :-1] -= moved[..., 1:] / 2.0
    out[..., 0] -= moved[..., 0] / 2.0
    out[..., -1] += moved[..., -1] / 2.0
    out = np.moveaxis(out, -1, axis)
    if np.ndim(x) == 1 and out.ndim != 1:
        return np.reshape(np.sum(out, axis=tuple(
            a for a in range(out.ndim) if a != axis % out.ndim)), np.shape(x))
    return out


def gradient_axis(f, axis=None):
    """The axis np.gradient differentiates along; refuses the list it returns for several
    axes (s2s_ad differentiates its single-array forms)."""
    if axis is None and np.ndim(f) == 1:
        return 0
    if isinstance(axis, (int, np.integer)):
        return int(axis)
    raise NotImplementedError("s2s_ad differentiates np.gradient of a 1-D array or along "
                              "one axis (axis=k): its list of arrays for several axes is "
                              "not supported")


def ungradient(g, h=1.0, axis=-1, edge_order=1):
    """The adjoint of y = np.gradient(f, h, axis=axis, edge_order=edge_order) for a
    number h: G^T g, G the difference matrix (central inside, one-sided of first or second
    order at the ends) along axis."""
    if np.ndim(h) != 0:
        raise NotImplementedError("s2s_ad differentiates np.gradient with one number as "
                                  "the spacing, not coordinates")
    m = np.moveaxis(np.asarray(g, dtype=_float_dtype(g)), axis, -1)         # float32 kept
    out = np.zeros(m.shape, dtype=m.dtype)
    out[..., 2:] += m[..., 1:-1] / 2.0
    out[..., :-2] -= m[..., 1:-1] / 2.0
    first = (-1.0, 1.0) if edge_order == 1 else (-1.5, 2.0, -0.5)    # row 0 of G
    last = (-1.0, 1.0) if edge_order == 1 else (0.5, -2.0, 1.5)      # row n - 1
    for j, c in enumerate(first):
        out[..., j] += c * m[..., 0]
    for j, c in enumerate(last):
        out[..., j - len(last)] += c * m[..., -1]
    return np.moveaxis(out, -1, axis) / h


def polynomial_map(p, operation, m=1, k=None):
    """(L, K) with operation(p, m, k) = L @ p + K @ k, for np.polyder (K = 0, k unused)
    or np.polyint (k the integration constants: None, a number or m of them): both are
    linear, so their columns are operation applied to unit vectors."""
    n = np.size(p)
    if operation is np.polyder:
        columns = [np.polyder(np.eye(n)[j], m) for j in range(n)]
        return np.stack(columns, axis=1), np.zeros((len(columns[0]), 1))
    columns = [np.polyint(np.eye(n)[j], m, np.zeros(m)) for j in range(n)]
    constants = [np.polyint(np.zeros(n), m, np.eye(m)[j]) for j in range(m)]
    return np.stack(columns, axis=1), np.stack(constants, axis=1)


def polynomial_exponents(deg, like=None):
    """deg, deg - 1, ..., 0 as floats: the powers of x in np.polyval's and np.polyfit's
    columns (in the float dtype of `like`, when given: float32 x, float32 powers)."""
    return np.arange(deg, -1, -1.0, dtype=float if like is None else _float_dtype(like))


def as_columns_of(v):
    """v as a matrix of its rows: (len(v), 1) for a vector (np.polyfit's y and p)."""
    return np.reshape(v, (np.shape(v)[0], -1))
