"""Spec rows for templates/numpy_parts.py (np.copysign, np.ldexp, np.modf, np.frexp,
np.unwrap, np.real_if_close) and numpy 2's np.astype (templates/numpy2_arrays.py). Inputs
stay away from the kinks (copysign at x1 = 0, modf's integer steps, frexp's powers of two,
unwrap's jumps of the period)."""
import numpy as np

from primitive_specs import BINARY, NONZERO, UNARY, Spec

BOTH = ("reverse", "forward")
EXPONENTS = np.array([-2, 0, 1, 3])


def copysign_of(a, b):
    return np.copysign(a, b) * a


def ldexp_of(x):
    return np.ldexp(x, EXPONENTS[:np.shape(x)[-1]] if np.ndim(x) else 2)


def modf_of(x):
    frac, whole = np.modf(3.0 * x)
    return frac * frac + whole * x


def frexp_of(x):
    """mantissas of values across several binades (the exponent steps at powers of two)"""
    mantissa, exponent = np.frexp(x * 5.0)
    return mantissa * mantissa + exponent * x


def unwrap_of(x):
    return np.unwrap(np.cumsum(x * 4.0, axis=-1)) ** 2


def real_if_close_of(x):
    return np.real_if_close(x) * x


def astype_of(x):
    return np.astype(x * 2.0, np.float64) * x + np.astype(x, np.int64) * x


SPECS = [
    Spec(np.copysign, copysign_of, BINARY, (NONZERO,), modes=BOTH),
    Spec(np.ldexp, ldexp_of, [((),), ((4,),), ((3, 4),)], modes=BOTH),
    Spec(np.modf, modf_of, UNARY, modes=BOTH),
    Spec(np.frexp, frexp_of, UNARY, (NONZERO,), modes=BOTH),
    Spec(np.unwrap, unwrap_of, [((5,),), ((3, 5),)], modes=BOTH),
    Spec(np.real_if_close, real_if_close_of, UNARY, modes=BOTH),
]
if hasattr(np, "astype"):
    SPECS.append(Spec(np.astype, astype_of, [((4,),), ((3, 4),)], modes=BOTH))
