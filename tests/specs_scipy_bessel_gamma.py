"""Spec rows for scipy.special's Bessel functions of the first and second kind, rgamma and
the regularized incomplete gamma and beta functions (templates/scipy_special_bessel_gamma.py).
Empty when scipy is not installed. Bessel functions of the second kind, gammainc and
betainc take their argument mapped into their domain inside the row's function (x > 0,
betainc's x in (0, 1)); orders and shape parameters are literals or fixed arrays."""
import numpy as np

from primitive_specs import BINARY, POSITIVE, REAL, UNARY, Spec

try:
    import scipy.special as special
except ImportError:                     # pragma: no cover (CI installs scipy)
    special = None

MODES = ("reverse", "forward")


def j0(x):
    return special.j0(x)


def j1(x):
    return special.j1(x)


def jv_integer(x):
    return special.jv(2, x)


def jv_fraction(x):
    return special.jv(1.5, x)


def jn_broadcast_order(x):
    """jn is jv; orders broadcast against x"""
    return special.jn(np.array([0.0, 1.0, 3.0, 2.0]), x)


def y0(x):
    return special.y0(x)


def y1(x):
    return special.y1(x)


def yv_fraction(x):
    return special.yv(0.5, x)


def yn_integer(x):
    return special.yn(2, x)


def rgamma(x):
    return special.rgamma(x)


def rgamma_negative(x):
    """rgamma is entire: between the poles of gamma too"""
    return special.rgamma(-0.5 + 0.2 * x)


def gammainc(x):
    return special.gammainc(1.7, x)


def gammaincc(x):
    return special.gammaincc(np.array([0.8, 1.5, 2.5, 4.0]), x)


def betainc(x):
    return special.betainc(2.5, 1.5, 1.0 / (1.0 + np.exp(-x)))


def bessel_product(x, y):
    return special.j1(x) * special.y0(y + 3.0)


SPECS = [] if special is None else [
    Spec(special.j0, j0, UNARY, modes=MODES),
    Spec(special.j1, j1, UNARY, modes=MODES),
    Spec(special.jv, jv_integer, UNARY, modes=MODES),
    Spec(special.jv, jv_fraction, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.jv, jn_broadcast_order, [((4,),), ((3, 4),)], modes=MODES),
    Spec(special.y0, y0, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.y1, y1, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.yv, yv_fraction, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.yn, yn_integer, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.y0, bessel_product, BINARY, (REAL, POSITIVE), modes=MODES),
    Spec(special.rgamma, rgamma, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.rgamma, rgamma_negative, UNARY, modes=MODES),
    Spec(special.gammainc, gammainc, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.gammaincc, gammaincc, [((4,),), ((3, 4),)], (POSITIVE,), modes=MODES),
    Spec(special.betainc, betainc, UNARY, modes=MODES),
]
