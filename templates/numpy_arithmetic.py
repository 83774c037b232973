"""numpy's arithmetic as functions (np.add, ..., np.fmod; np.mod shares the template of %
in operators.py), its piecewise elementwise functions (abs, maximum/minimum, fmax/fmin,
clip, where), and np.float64(x) called on a value (the value as a float64, as float(x) is;
np.float32(x) rounds to float32, which central differences cannot check: no template). Reverse and forward templates side by side."""
import numpy as np

from s2s_ad.ad.template_dsl import active, adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_pieces import kink_share

# ---- float types called as functions ------------------------------------------------------
# (np.float64 of an array is an array: the adjoint is the result's, shaped like it)
@adjoint(np.float64)
def float64_adjoint(y, x):
    """d float64(x) = dx"""
    d[x] += d[y]


@tangent(np.float64)
def float64_tangent(y, x):
    d[y] = np.float64(broadcast_tangent(d[x], y))


# ---- arithmetic as functions ----------------------------------------------------------
@adjoint(np.add)
def add_adjoint(y, x1, x2):
    """d (x1 + x2) = dx1 + dx2"""
    d[x1] += unbroadcast(d[y], x1)
    d[x2] += unbroadcast(d[y], x2)


@tangent(np.add)
def add_tangent(y, x1, x2):
    d[y] = broadcast_tangent(d[x1] + d[x2], y)


@adjoint(np.subtract)
def subtract_adjoint(y, x1, x2):
    """d (x1 - x2) = dx1 - dx2"""
    d[x1] += unbroadcast(d[y], x1)
    d[x2] += -unbroadcast(d[y], x2)


@tangent(np.subtract)
def subtract_tangent(y, x1, x2):
    d[y] = broadcast_tangent(d[x1] - d[x2], y)


@adjoint(np.multiply)
def multiply_adjoint(y, x1, x2):
    """d (x1 x2) = x2 dx1 + x1 dx2"""
    d[x1] += unbroadcast(d[y] * x2, x1)
    d[x2] += unbroadcast(d[y] * x1, x2)


@tangent(np.multiply)
def multiply_tangent(y, x1, x2):
    d[y] = d[x1] * x2 + x1 * d[x2]


@adjoint(np.divide)
def divide_adjoint(y, x1, x2):
    """d (x1 / x2) = dx1 / x2 - x1 / x2**2 dx2"""
    d[x1] += unbroadcast(d[y] / x2, x1)
    d[x2] += -unbroadcast(d[y] * y, x2) / x2     # x2 is constant along the summed axes


@tangent(np.divide)
def divide_tangent(y, x1, x2):
    d[y] = (d[x1] - y * d[x2]) / x2


@adjoint(np.negative)
def negative_adjoint(y, x):
    """d (-x) = -dx"""
    d[x] += -d[y]


@tangent(np.negative)
def negative_tangent(y, x):
    d[y] = -d[x]


@adjoint(np.positive)
def positive_adjoint(y, x):
    """d (+x) = dx"""
    d[x] += d[y]


@tangent(np.positive)
def positive_tangent(y, x):
    d[y] = d[x]


# fmod(x1, x2) = x1 - x2 trunc(x1 / x2) keeps x1's sign (np.mod, x2's, is in operators.py).
# trunc(x1 / x2) is read back from the result, (x1 - y) / x2 rounded, so that the quotient
# is the one fmod used even where x1 / x2 rounds to an integer it did not reach
@adjoint(np.fmod)
def fmod_adjoint(y, x1, x2):
    """d fmod(x1, x2) = dx1 - trunc(x1 / x2) dx2"""
    _quotient = np.round((x1 - y) / x2)
    d[x1] += unbroadcast(d[y], x1)
    d[x2] += unbroadcast(-d[y] * _quotient, x2)


@tangent(np.fmod)
def fmod_tangent(y, x1, x2):
    d[y] = broadcast_tangent(d[x1] - d[x2] * np.round((x1 - y) / x2), y)


# ---- kinks: abs, extrema, clip, where -------------------------------------------------
@adjoint(np.absolute, np.fabs)
def absolute_adjoint(y, x):
    """d |x| = sign(x) dx (0 at x = 0)"""
    d[x] += d[y] * np.sign(x)


@tangent(np.absolute, np.fabs)
def absolute_tangent(y, x):
    d[y] = d[x] * np.sign(x)


@adjoint(np.maximum)
def maximum_adjoint(y, x1, x2):
    """d max(x1, x2) = dx1 where x1 > x2, dx2 where x2 > x1, (dx1 + dx2) / 2 at ties
    (each share is d[y] times a mask: a float32 adjoint stays float32; a constant operand,
    ReLU's 0, costs nothing). When both operands are active, x2's share is what x1's
    leaves, d[y] - x1's share: the same numbers (d[y] - d[y] = 0, d[y] - 0 = d[y] and at
    ties d[y] - d[y] / 2 = d[y] / 2, all exact), one mask and one tie test instead of two
    (the shared _share only then: with one operand active its share is written inline)"""
    _share = kink_share(d[y], x1, x2, True)
    d[x1] += unbroadcast(_share if active(x2) else kink_share(d[y], x1, x2, True), x1)
    d[x2] += unbroadcast(d[y] - _share if active(x1) else kink_share(d[y], x1, x2, False), x2)


@tangent(np.maximum)
def maximum_tangent(y, x1, x2):
    d[y] = np.where(x1 > x2, d[x1], np.where(x1 == x2, 0.5 * (d[x1] + d[x2]), d[x2]))


@adjoint(np.minimum)
def minimum_adjoint(y, x1, x2):
    """d min(x1, x2) = dx1 where x1 < x2, dx2 where x2 < x1, (dx1 + dx2) / 2 at ties
    (x1's share is d[y] where x2 > x1: kink_share with the operands swapped; x2's, when
    both are active, what x1's leaves, as for np.maximum)"""
    _share = kink_share(d[y], x2, x1, True)
    d[x1] += unbroadcast(_share if active(x2) else kink_share(d[y], x2, x1, True), x1)
    d[x2] += unbroadcast(d[y] - _share if active(x1) else kink_share(d[y], x2, x1, False), x2)


@tangent(np.minimum)
def minimum_tangent(y, x1, x2):
    d[y] = np.where(x1 < x2, d[x1], np.where(x1 == x2, 0.5 * (d[x1] + d[x2]), d[x2]))


@adjoint(np.fmax)
def fmax_adjoint(y, x1, x2):
    """d fmax(x1, x2): like maximum, but a NaN operand passes its share to the other"""
    _g1 = np.where((x1 > x2) | np.isnan(x2), d[y], np.where(x1 == x2, 0.5 * d[y], 0.0))
    d[x1] += unbroadcast(_g1, x1)
    d[x2] += unbroadcast(d[y] - _g1, x2)


@tangent(np.fmax)
def fmax_tangent(y, x1, x2):
    d[y] = np.where((x1 > x2) | np.isnan(x2), d[x1],
                    np.where(x1 == x2, 0.5 * (d[x1] + d[x2]), d[x2]))


@adjoint(np.fmin)
def fmin_adjoint(y, x1, x2):
    """d fmin(x1, x2): like minimum, but a NaN operand passes its share to the other"""
    _g1 = np.where((x1 < x2) | np.isnan(x2), d[y], np.where(x1 == x2, 0.5 * d[y], 0.0))
    d[x1] += unbroadcast(_g1, x1)
    d[x2] += unbroadcast(d[y] - _g1, x2)


@tangent(np.fmin)
def fmin_tangent(y, x1, x2):
    d[y] = np.where((x1 < x2) | np.isnan(x2), d[x1],
                    np.where(x1 == x2, 0.5 * (d[x1] + d[x2]), d[x2]))


@adjoint(np.clip)
def clip_adjoint(y, a, a_min=None, a_max=None):
    """d clip(a, lo, hi) = da where lo <= a <= hi, dlo where a < lo, dhi where a > hi"""
    # np.where against zeros of y's dtype, not d[y] times the mask: with the seed 1.0 for
    # d[y] the product folds to the mask alone, a boolean adjoint (which a helper's
    # derivative then negates), and 1.0 times it would be float64 for a float32 y
    _zero = np.zeros_like(y)
    d[a] += unbroadcast(np.where(y == a, d[y], _zero), a)
    d[a_min] += unbroadcast(np.where(a < a_min, d[y], _zero), a_min)
    d[a_max] += unbroadcast(np.where(a > a_max, d[y], _zero), a_max)


@tangent(np.clip)
def clip_tangent(y, a, a_min=None, a_max=None):
    d[y] = broadcast_tangent(d[a] * (y == a) + d[a_min] * (a < a_min)
                              + d[a_max] * (a > a_max), y)


@adjoint(np.where)
def where_adjoint(out, condition, x, y):
    """d where(c, x, y) = where(c, dx, dy) (no derivative for the condition)"""
    d[x] += unbroadcast(np.where(condition, d[out], 0.0), x)
    d[y] += unbroadcast(np.where(condition, 0.0, d[out]), y)


@tangent(np.where)
def where_tangent(out, condition, x, y):
    d[out] = np.where(condition, d[x], d[y])
