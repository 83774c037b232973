"""Runtime helpers for the derivatives of np.cumprod, np.pad, np.convolve / np.correlate
and np.average with weights (see runtime.py).

numpy and runtime.py's helpers only:

    linear_scan(c, b, axis, reverse) h_i = c_i h_{i-1} + b_i: np.cumprod's derivatives
    shifted(v, axis, first, reverse) v moved one place along axis
    pad_widths, pad_linear, unpad, unpad_values, unpad_end_values   np.pad (the modes
                                     linear in the array) and its adjoints
    signal_widths(a, v, mode, correlate)  where convolve's / correlate's result sits in the
                                     full one (np.pad widths)
    signal_widths_nd(in1, in2, mode) the same for scipy.signal.convolve's n-d result
    weights_layout(a, weights, axis) how np.average lays its weights out against a
    weights_total, spread_weights, sum_weighted, unlayout_weights   np.average's sum of
                                     weights, its adjoint for a and the transposes
    logsumexp_weights(a, y, axis, b, keepdims)  b exp(a - y): the softmax weights of
                                     scipy.special.logsumexp's derivatives
"""
import numpy as np

from .runtime_statistics import pad_selected, selecting_pad, unpad_selected

from .runtime import _float_dtype, _normalize_axes, reduced_count, unbroadcast, unreduce

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import MissingDerivativeError
except ImportError:  # pragma: no cover - only in standalone generated files
    class MissingDerivativeError(ValueError):
        pass


# ---- np.cumprod: bidiagonal systems -----------------------------------------------------
def linear_scan(c, b, axis=None, reverse=False):
    """h with h_i = c_i h_{i-1} + b_i along axis (h_i = c_i h_{i+1} + b_i when reverse),
    h = 0 before the first step: a unit bidiagonal system, solved in log2(n) doubling
    steps without dividing (exact where c has zeros). axis=None scans the flattened
    arrays (c and b then have one size)."""
    if axis is None:
        c, b, axis = np.ravel(c), np.ravel(b), 0
    c, b = np.broadcast_arrays(c, b)
    h = np.moveaxis(np.array(b, dtype=np.result_type(c, b, 1.0)), axis, -1)
    p = np.moveaxis(np.array(c, dtype=h.dtype), axis, -1)
    if reverse:
        h, p = h[..., ::-1], p[..., ::-1]
    step, n = 1, h.shape[-1]
    while step < n:   # h_i, p_i: the sum and the product over a window of 2 * step places
        h[..., step:] += p[..., step:] * h[..., :-step]
        if 2 * step < n:
            p[..., step:] = p[..., step:] * p[..., :-step]
        step *= 2
    return np.moveaxis(h[..., ::-1] if reverse else h, -1, axis)


def shifted(v, axis=None, first=0.0, reverse=False):
    """v moved one place along axis, out_i = v_{i-1} (v_{i+1} when reverse), `first`
    filling the place left empty; axis=None shifts the flattened array."""
    if axis is None:
        v, axis = np.ravel(v), 0
    v = np.moveaxis(np.asarray(v), axis, -1)
    out = np.empty(v.shape, dtype=np.result_type(v, first, 1.0))
    if v.shape[-1]:
        inner, edge, outer = (slice(None, -1), -1, slice(1, None)) if reverse \
            else (slice(1, None), 0, slice(None, -1))
        out[..., inner] = v[..., outer]
        out[..., edge] = first
    return np.moveaxis(out, -1, axis)


# ---- np.pad ----------------------------------------------------------------------------
def pad_widths(array, pad_width, mode="constant"):
    """np.pad's pad_width as (before, after) per axis, an (ndim, 2) integer array; s2s_ad
    differentiates the modes that are linear in the array (linear_ramp: also in its end
    values) and those picking entries (maximum, minimum, median: linear in the array for
    the picks its data makes); 'empty' leaves values undefined, a function is opaque."""
    problem = pad_mode_problem(mode)
    if problem:
        raise MissingDerivativeError(problem, None, "pad with one of those modes")
    widths = np.round(np.asarray(pad_width)).astype(np.intp)
    return np.broadcast_to(widths, (np.ndim(array), 2))


def pad_mode_problem(mode):
    """Why np.pad's derivative does not take this `mode` (None when it does)."""
    known = ("constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp", "mean",
             "maximum", "minimum", "median")
    if isinstance(mode, str) and mode in known:
        return None
    return (f"s2s_ad differentiates np.pad with mode= one of {', '.join(map(repr, known))}, "
            f"not mode={mode!r}")


def _pad_options(mode, constant_values=0.0, end_values=0.0, stat_length=None,
                 reflect_type="even"):
    """The keywords np.pad takes for `mode` (it rejects the others)."""
    return {"constant": {"constant_values": constant_values},
            "linear_ramp": {"end_values": end_values}, "mean": {"stat_length": stat_length},
            "reflect": {"reflect_type": reflect_type},
            "symmetric": {"reflect_type": reflect_type}}.get(mode, {})


def pad_linear(g, widths, mode="constant", constant_values=0.0, end_values=0.0,
               stat_length=None, reflect_type="even", array=None):
    """np.pad(g, widths, mode) with the mode's options: the tangent of np.pad, linear in
    g, constant_values and end_values together; in the modes picking entries, the entries
    np.pad(array, ...) picked (pad_selected)."""
    if selecting_pad(mode):
        return pad_selected(g, array, widths, mode, stat_length)
    return np.pad(g, widths, mode, **_pad_options(mode, constant_values, end_values,
                                                 stat_length, reflect_type))


def unpad(g, widths, mode="constant", stat_length=None, reflect_type="even", array=None):
    """Adjoint of np.pad for the array: g's inner block, plus (other than in constant
    mode) what each padded value copied or averaged from the array (or picked from
    `array`: unpad_selected). np.pad fills axis after axis from the values already there,
    y = P_last ... P_0 a with P_k acting along axis k alone, so the adjoint applies P_k^T
    from the last axis to the first."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    if selecting_pad(mode):
        return unpad_selected(g, array, widths, mode, stat_length)
    if mode == "constant":
        return g[tuple(slice(b, n - a) for (b, a), n in zip(widths, np.shape(g)))].copy()
    options = _pad_options(mode, stat_length=stat_length, reflect_type=reflect_type)
    for k in reversed(range(np.ndim(g))):
        before, after = widths[k]
        n = np.shape(g)[k] - before - after
        rows = np.moveaxis(g, k, 0)         # the padded axis first
        if mode in ("edge", "wrap") or reflect_type == "even" and mode != "linear_ramp" \
                and mode != "mean":
            # every padded value copies one element: np.pad of the indices says which
            source = np.pad(np.arange(n), (before, after), mode, **options)
            out = np.zeros((n,) + rows.shape[1:], dtype=rows.dtype)
            np.add.at(out, source, rows)
        else:   # each padded value combines elements: np.pad's columns for unit vectors
            columns = np.pad(np.eye(n, dtype=_float_dtype(g)), ((before, after), (0, 0)), mode,
                             **options)     # in g's dtype: float32 kept
            out = np.tensordot(columns, rows, axes=(0, 0))
        g = np.moveaxis(out, 0, k)
    return g


def unpad_values(g, widths, constant_values=0):
    """Adjoint of np.pad (constant mode) for constant_values: g summed over the area each
    (before, after) value fills, as numpy fills it (axis by axis, a corner taking the
    later axis's value), then summed to constant_values's shape."""
    inner = [slice(b, n - a) for (b, a), n in zip(widths, np.shape(g))]
    sums = np.zeros((len(inner), 2), dtype=_float_dtype(g))      # float32 kept
    for k, ((b, a), n) in enumerate(zip(widths, np.shape(g))):
        region = g[(slice(None),) * (k + 1) + tuple(inner[k + 1:])]
        sums[k] = (np.sum(region[(slice(None),) * k + (slice(0, b),)]),
                   np.sum(region[(slice(None),) * k + (slice(n - a, n),)]))
    return unbroadcast(sums, constant_values)


def unpad_end_values(g, widths, end_values=0.0):
    """Adjoint of np.pad(mode='linear_ramp') for end_values: <g, the ramps of one unit
    end value> for each (axis, side), summed to end_values's shape."""
    inner = np.subtract(np.shape(g), np.sum(widths, axis=1))
    sums = np.zeros((len(inner), 2), dtype=_float_dtype(g))      # float32 kept
    for k in range(len(inner)):
        for side in (0, 1):
            unit = np.zeros((len(inner), 2))
            unit[k, side] = 1.0
            sums[k, side] = np.sum(g * np.pad(np.zeros(inner), widths, "linear_ramp",
                                              end_values=unit))
    return unbroadcast(sums, end_values)


# ---- np.convolve and np.correlate -------------------------------------------------------
def signal_widths(a, v, mode="full", correlate=False):
    """Where np.convolve(a, v, mode) (np.correlate when `correlate`) sits in the full
    result of length N + M - 1, as np.pad's (before, after). With m = min(N, M): 'valid'
    drops the m - 1 partial overlaps at each end; 'same' keeps max(N, M) values, dropping
    (m - 1) // 2 in front, or m // 2 for np.correlate with N < M (numpy then correlates v
    with a and reverses the result)."""
    n, m = np.size(a), np.size(v)
    short = min(n, m)
    kind = {"v": 0, "s": 1, "f": 2}[mode.lower()[0]] if isinstance(mode, str) else int(mode)
    if kind == 2:
        return 0, 0
    if kind == 0:
        return short - 1, short - 1
    before = short // 2 if correlate and n < m else (short - 1) // 2
    return before, short - 1 - before


def signal_widths_nd(in1, in2, mode="full"):
    """Where scipy.signal.convolve(in1, in2, mode) sits in its full result (shape
    in1 + in2 - 1 along each axis), as np.pad's widths: centred like scipy's own window,
    'same' keeping in1's shape, 'valid' |in1 - in2| + 1 values along each axis.

        signal_widths_nd(np.ones((4, 3)), np.ones((2, 2)), "same")  ->  ((0, 1), (0, 1))
    """
    widths = []
    for n, m in zip(np.shape(in1), np.shape(in2)):
        full = n + m - 1
        kept = {"full": full, "same": n, "valid": abs(n - m) + 1}[mode]
        before = (full - kept) // 2
        widths.append((before, full - kept - before))
    return tuple(widths)


# ---- np.average with weights ------------------------------------------------------------
def weights_layout(a, weights, axis=None):
    """How np.average lays weights out against a, as (order, shape): the laid-out weights
    are np.reshape(np.transpose(weights, order), shape). Weights shaped like a (or None)
    stay as they are; others (1-D, or one length per axis of a tuple `axis`) are put in
    a's axis order with a's length along axis and 1 elsewhere; one weight (axis=()) has
    1 everywhere."""
    w_shape, shape = np.shape(weights), np.shape(a)
    if weights is None or w_shape == shape or not shape:
        return tuple(range(len(w_shape))), w_shape
    if not w_shape:
        return (), (1,) * len(shape)
    axes = tuple(int(k) % len(shape) for k in (
        axis if isinstance(axis, (tuple, list)) else (axis,)))
    return (tuple(int(k) for k in np.argsort(axes)),
            tuple(n if k in axes else 1 for k, n in enumerate(shape)))


def _laid_out(a, weights, axis):
    order, shape = weights_layout(a, weights, axis)
    return np.reshape(np.transpose(weights, order), shape)


def unlayout_weights(g, weights, axis=None):
    """The adjoint of laying weights out (weights_layout) for g shaped like a or like the
    laid-out weights: g summed over the axes where the layout has length 1, then given
    the weights' shape and axis order back."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    order, shape = weights_layout(g, weights, axis)
    kept = tuple(k for k, n in enumerate(shape) if n == 1 and np.shape(g)[k] != 1)
    if kept:
        g = np.sum(g, axis=kept, keepdims=True)
    transposed = tuple(np.shape(weights)[k] for k in order)
    return np.transpose(np.reshape(g, transposed), np.argsort(order))


def weights_total(a, weights=None, axis=None, keepdims=False):
    """What np.average divides by: the laid-out weights summed over axis (their length-1
    axes stay), or the number of elements averaged when weights is None."""
    if weights is None:
        return reduced_count(a, axis)
    return np.sum(_laid_out(a, weights, axis), axis=axis, keepdims=keepdims)


def spread_weights(g, a, weights=None, axis=None, keepdims=False):
    """unreduce(g, a, axis, keepdims) times the laid-out weights: np.average's adjoint for
    a when g = y_bar / weights_total (no product for weights=None)."""
    out = unreduce(g, a, axis, keepdims)
    return out if weights is None else out * _laid_out(a, weights, axis)


def sum_weighted(g, a, weights=None, axis=None, keepdims=False):
    """np.sum(g * laid-out weights, axis, keepdims) for g shaped like a: the transpose of
    spread_weights."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    if weights is not None:
        g = g * _laid_out(a, weights, axis)
    return np.sum(g, axis=axis, keepdims=keepdims)


def logsumexp_weights(a, y, axis=None, b=None, keepdims=False):
    """b * exp(a - y) for y = logsumexp(a, axis, b, keepdims), in the shape a and b
    broadcast to (y's reduced axes restored): the weights its derivatives spread with,
    summing to 1 along axis. b=None is b = 1 (no product)."""
    ndim = np.ndim(a) if b is None else max(np.ndim(a), np.ndim(b))
    if axis is not None and not keepdims:
        y = np.expand_dims(y, _normalize_axes(axis, ndim))
    w = np.exp(a - y)
    return w if b is None else w * b
