"""Runtime helpers for the derivatives of np.cumprod and np.pad (see runtime.py).

numpy and runtime.unbroadcast only:

    linear_scan(c, b, axis, reverse) h_i = c_i h_{i-1} + b_i: np.cumprod's derivatives
    shifted(v, axis, first, reverse) v moved one place along axis
    pad_widths, unpad, unpad_values  np.pad (constant mode) and its adjoints
"""
import numpy as np

from .runtime import unbroadcast


# ---- np.cumprod: bidiagonal systems ------------------------------------------------------
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


# ---- np.pad (constant mode) -----------------------------------------------------------------
def pad_widths(array, pad_width, mode="constant"):
    """np.pad's pad_width as (before, after) per axis, an (ndim, 2) integer array; s2s_ad
    differentiates constant padding only."""
    if not (isinstance(mode, str) and mode == "constant"):
        raise NotImplementedError(f"s2s_ad differentiates np.pad with mode='constant' "
                                  f"only, not mode={mode!r}")
    widths = np.round(np.asarray(pad_width)).astype(np.intp)
    return np.broadcast_to(widths, (np.ndim(array), 2))


def unpad(g, widths):
    """Adjoint of np.pad (constant mode) for the array: the block of g it fills."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    return g[tuple(slice(b, n - a) for (b, a), n in zip(widths, np.shape(g)))].copy()


def unpad_values(g, widths, constant_values=0):
    """Adjoint of np.pad (constant mode) for constant_values: g summed over the area each
    (before, after) value fills, as numpy fills it (axis by axis, a corner taking the
    later axis's value), then summed to constant_values's shape."""
    inner = [slice(b, n - a) for (b, a), n in zip(widths, np.shape(g))]
    sums = np.zeros((len(inner), 2))
    for k, ((b, a), n) in enumerate(zip(widths, np.shape(g))):
        region = g[(slice(None),) * (k + 1) + tuple(inner[k + 1:])]
        sums[k] = (np.sum(region[(slice(None),) * k + (slice(0, b),)]),
                   np.sum(region[(slice(None),) * k + (slice(n - a, n),)]))
    return unbroadcast(sums, constant_values)
