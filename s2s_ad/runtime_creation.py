"""Runtime helpers for the derivatives of array constructors with a differentiated fill
value or endpoint (np.full, np.full_like, np.linspace) and of np.r_ / np.c_.

    linspace_fractions(num, endpoint, y, axis, retstep, dtype)  where each sample of
                                     np.linspace sits between start (0) and stop (1)
"""
import numpy as np


def linspace_fractions(num, endpoint, y, axis=0, retstep=False, dtype=None):
    """The weights t of np.linspace's samples, y = start + (stop - start) t, shaped to
    broadcast against y (num entries along `axis`, length 1 elsewhere). numpy divides by
    num - 1 (num with endpoint=False) and sets the last sample to stop exactly; one sample
    (num = 1) is start."""
    if retstep:
        raise NotImplementedError("s2s_ad differentiates np.linspace without retstep=True "
                                  "(compute the step as (stop - start) / (num - 1))")
    if dtype is not None and not np.issubdtype(np.dtype(dtype), np.inexact):
        raise NotImplementedError(f"np.linspace with dtype={np.dtype(dtype)} rounds its "
                                  f"samples: it has no derivative in start or stop")
    div = num - 1 if endpoint else num
    t = np.arange(num) / div if div > 0 else np.zeros(num)
    if endpoint and num > 1:
        t[-1] = 1.0
    shape = [1] * np.ndim(y)
    shape[axis] = num
    return np.reshape(t, shape)


def column_item(v):
    """One item of np.c_[...] laid out as np.c_ does before concatenating along the last
    axis: a 1-D array as a column, a number as a 1x1 array, anything else unchanged."""
    if np.ndim(v) >= 2:
        return v
    return np.reshape(v, (-1, 1)) if np.ndim(v) == 1 else np.reshape(v, (1, 1))
