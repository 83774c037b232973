"""Runtime helpers for the derivatives of np.interp, np.trapezoid, np.gradient and the
polynomial functions (np.polyder, np.polyint).

    interp_place(x, xp)              i with xp[i] <= x < xp[i+1] (clipped to 0 .. n-2)
    interp_outside(x, xp, side)      x < xp[0] (side -1), x > xp[-1] (side 1)
    trapezoid_steps(y, x, axis)      w with np.trapezoid(y, x, axis=axis) = sum(w * y, axis)
    unit_trapezoid_steps(y, axis)    w for unit spacing (x None)
    untrapezoid_steps(h, x, axis)    the adjoint of trapezoid_steps in x
    ungradient(g, h, axis, edge_order)    the adjoint of np.gradient(f, h, axis=axis)
    gradient_layout(f, spacings, axis)    np.gradient's axes, spacings and result form
    ungradients(gs, f, spacings, axis, edge_order)    its adjoint in f, over every axis
    gradient_spacing_adjoints(gs, ys, spacings, f, axis)   the spacings' adjoints
    gradient_tangents(ys, df, spacings, dspacings, f, axis, edge_order)   its tangent
    spacing_tangents(ys, spacings, dspacings, f, axis)     its tangent's spacing part
    polynomial_map(p, operation, m, k)    the matrices (L, K) with operation(p, m, k) =
                                     L @ p + K @ k (np.polyder, np.polyint: linear)

np.interp is piecewise linear: between the knots xp[i] <= x < xp[i+1] (the interval on
the right at a knot, the last one at xp[-1]) it is (1 - t) fp[i] + t fp[i+1], t = (x -
xp[i]) / (xp[i+1] - xp[i]); left and right of the knots the constants left / right
(fp[0] and fp[-1] when None), whose derivative in x is 0.
"""
import numpy as np

from .runtime import _float_dtype

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import MissingDerivativeError
except ImportError:  # pragma: no cover - only in standalone generated files
    class MissingDerivativeError(ValueError):
        pass


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


def gradient_layout(f, spacings, axis=None):
    """(axes, spacings, slots, single) of np.gradient(f, *spacings, axis=axis): the axes
    it differentiates along, the number each divides by, which spacing argument gave it,
    and whether np.gradient returns one array (one axis) rather than one per axis.
    `spacings` holds the template's four spacing arguments (None for those not given)."""
    ndim = np.ndim(f)
    axes = tuple(range(ndim)) if axis is None else (axis,) \
        if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = tuple(int(a) % max(ndim, 1) for a in axes)
    given = [h for h in spacings if h is not None] or [1.0]
    for h in given:
        if np.ndim(h) != 0:
            raise MissingDerivativeError(
                "s2s_ad differentiates np.gradient with numbers as spacings, not coordinate "
                "arrays", None, "pass the (uniform) spacing as a number, e.g. "
                "np.gradient(f, x[1] - x[0])")
    if len(given) == 1:
        return axes, given * len(axes), [0] * len(axes), len(axes) == 1
    if len(given) != len(axes):
        raise TypeError("np.gradient takes one spacing or one per axis")
    return axes, given, list(range(len(axes))), len(axes) == 1


def _parts(values, single):
    """np.gradient's result (or an adjoint or tangent of it) as a list of its arrays."""
    return [values] if single else list(values)


def _whole(parts, single):
    return parts[0] if single else tuple(parts)


def ungradients(gs, f, spacings, axis=None, edge_order=1):
    """The adjoint in f of np.gradient(f, *spacings, axis=axis, edge_order=edge_order) for
    the adjoints gs of its arrays: sum_k G_k^T g_k / h_k (a 0.0 item adds nothing)."""
    axes, hs, _, single = gradient_layout(f, spacings, axis)
    out = np.zeros(np.shape(f), dtype=_float_dtype(f))
    if type(gs) is float and not gs:
        return out
    for g, a, h in zip(_parts(gs, single), axes, hs):
        if not (type(g) is float and not g):
            out = out + ungradient(np.broadcast_to(g, np.shape(f)), h, a, edge_order)
    return out


def gradient_spacing_adjoints(gs, ys, spacings, f, axis=None):
    """The adjoints of np.gradient's four spacing arguments: y_k = G_k f / h_k, so h_k's
    is -sum(y_k g_k) / h_k, added into the argument that gave h_k (0.0 for the rest)."""
    axes, hs, slots, single = gradient_layout(f, spacings, axis)
    out = [0.0] * len(spacings)
    if type(gs) is float and not gs:
        return out
    for g, y, h, slot in zip(_parts(gs, single), _parts(ys, single), hs, slots):
        if not (type(g) is float and not g) and not (type(y) is float and not y):
            out[slot] = out[slot] - np.sum(y * g) / h
    return out


def spacing_tangents(ys, spacings, dspacings, f, axis=None):
    """-y_k dh_k / h_k for each array y_k of np.gradient's result (dh_k the tangent of
    the spacing argument that gave h_k; None or 0.0 for a constant one)."""
    axes, hs, slots, single = gradient_layout(f, spacings, axis)
    dhs = [0.0 if d is None else d for d in dspacings]
    parts = [np.zeros(np.shape(f), dtype=_float_dtype(f)) if type(y) is float else
             -y * dhs[slot] / h for y, h, slot in zip(_parts(ys, single), hs, slots)]
    return _whole(parts, single)


def gradient_tangents(ys, df, spacings, dspacings, f, axis=None, edge_order=1):
    """The tangent of ys = np.gradient(f, *spacings, ...): G_k df / h_k - y_k dh_k / h_k
    (ys None: the first term alone)."""
    axes, hs, slots, single = gradient_layout(f, spacings, axis)
    if type(df) is float and not df:
        df = np.zeros(np.shape(f), dtype=_float_dtype(f))
    parts = [np.gradient(df, h, axis=a, edge_order=edge_order) for a, h in zip(axes, hs)]
    if ys is not None:
        parts = [p + t for p, t in zip(parts, _parts(
            spacing_tangents(ys, spacings, dspacings, f, axis), single))]
    return _whole(parts, single)


def ungradient(g, h=1.0, axis=-1, edge_order=1):
    """The adjoint of y = np.gradient(f, h, axis=axis, edge_order=edge_order) for a
    number h: G^T g, G the difference matrix (central inside, one-sided of first or second
    order at the ends) along axis."""
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
