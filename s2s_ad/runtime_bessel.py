"""The modified Bessel function of the first kind of order 1, I1: the derivative of
np.i0 (I0' = I1), which numpy does not have.

    bessel_i1(x)    sum over k >= 0 of (x / 2) ** (2k + 1) / (k! (k + 1)!)

Every term has the sign of x, so the series adds without cancellation: it is summed
until the last term no longer changes the sum (about |x| terms), in float64, and the
result takes x's float dtype (float32 stays float32). Like np.i0 it overflows past
|x| ~ 713.
"""
import numpy as np

from .runtime import _float_dtype


def bessel_i1(x):
    """I1(x), elementwise; a number for a number, an array of x's shape otherwise."""
    half = np.asarray(x, dtype=np.float64) / 2.0
    square = half * half
    term = half
    total = half
    k = 0
    with np.errstate(over="ignore", invalid="ignore"):
        while True:
            k += 1
            term = term * square / (k * (k + 1))
            new = total + term
            if np.all((new == total) | ~np.isfinite(new)):
                total = new
                break
            total = new
    out = np.asarray(total, dtype=_float_dtype(x))
    return out if np.ndim(x) else out[()]
