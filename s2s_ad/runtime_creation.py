"""Runtime helpers for the derivatives of array constructors with a differentiated fill
value or endpoint (np.full, np.full_like, np.linspace) and of np.r_ / np.c_.

    linspace_fractions(num, endpoint, y, axis, retstep, dtype)  where each sample of
                                     np.linspace sits between start (0) and stop (1)
    through_cast(g, y, dtype)        g, or zero where the conversion to dtype rounded
"""
import numpy as np

from .runtime import _float_dtype

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import MissingDerivativeError
except ImportError:  # pragma: no cover - only in standalone generated files
    class MissingDerivativeError(ValueError):
        pass


def linspace_retstep_problem(retstep):
    """Why np.linspace's derivative does not take this `retstep` (None when it does)."""
    return "s2s_ad differentiates np.linspace without retstep=True" if retstep else None


def linspace_fractions(num, endpoint, y, axis=0, retstep=False, dtype=None):
    """The weights t of np.linspace's samples, y = start + (stop - start) t, shaped to
    broadcast against y (num entries along `axis`, length 1 elsewhere). numpy divides by
    num - 1 (num with endpoint=False) and sets the last sample to stop exactly; one sample
    (num = 1) is start."""
    problem = linspace_retstep_problem(retstep)
    if problem:
        raise MissingDerivativeError(problem, None,
                                     "compute the step as (stop - start) / (num - 1)")
    div = num - 1 if endpoint else num
    t = np.arange(num) / div if div > 0 else np.zeros(num)
    if endpoint and num > 1:
        t[-1] = 1.0
    shape = [1] * np.ndim(y)
    shape[axis] = num
    return np.reshape(t.astype(_float_dtype(y), copy=False), shape)   # float32 y: float32 t


def through_cast(g, y, dtype):
    """A derivative through a conversion to `dtype` whose result is y (np.asarray,
    np.array, np.full, np.full_like and np.linspace with a dtype the source does not spell
    out): g when y holds floats, zero when it holds integers or bools, whose values are
    piecewise constant. An object array holds the Python numbers it was given, so it
    passes g on too. A dtype written in the source is decided when the derivative is
    built (analyses/activity.py); this is the runtime answer for one held in a variable."""
    y_dtype = np.asarray(y).dtype
    if dtype is not None and y_dtype.kind == "f" and isinstance(g, (np.ndarray, np.floating)) \
            and g.dtype.kind == "f" and g.dtype != y_dtype:
        return g.astype(y_dtype)        # x.astype(np.float32): its derivative is float32 too
    if dtype is None or y_dtype.kind in "fcO":
        return g
    return np.zeros(np.shape(g)) if np.ndim(g) else 0.0


def column_item(v):
    """One item of np.c_[...] laid out as np.c_ does before concatenating along the last
    axis: a 1-D array as a column, a number as a 1x1 array, anything else unchanged."""
    if np.ndim(v) >= 2:
        return v
    return np.reshape(v, (-1, 1)) if np.ndim(v) == 1 else np.reshape(v, (1, 1))
