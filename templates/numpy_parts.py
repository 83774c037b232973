"""Elementwise functions that rescale a number or split it into parts: np.copysign,
np.ldexp, np.modf, np.frexp, np.unwrap and np.real_if_close (numpy 2's np.astype: numpy2_arrays.py).

    copysign(x1, x2) = |x1| s(x2)      dy = s(x1) s(x2) dx1  (s: the sign copysign reads,
                                                            -0.0 negative); none in x2
    ldexp(x1, n)     = x1 2**n         dy = 2**n dx1         (n is an integer)
    modf(x)          = (x - trunc(x), trunc(x))   d frac = dx, d int = 0
    frexp(x)         = (m, e), x = m 2**e         d m = 2**-e dx, d e = 0  (e is an integer)
    unwrap(p)        = p + k period    dy = dp               (k is piecewise constant)
    real_if_close(a) = a (real a)      dy = da
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_shape import reshape_like


@adjoint(np.copysign)
def copysign_adjoint(y, x1, x2):
    """x1_bar = y_bar s(x1) s(x2)"""
    d[x1] += unbroadcast(d[y] * np.copysign(1.0, x1) * np.copysign(1.0, x2), x1)


@tangent(np.copysign)
def copysign_tangent(y, x1, x2):
    d[y] = broadcast_tangent(d[x1] * np.copysign(1.0, x1) * np.copysign(1.0, x2), y)


@adjoint(np.ldexp)
def ldexp_adjoint(y, x1, x2):
    """x1_bar = y_bar 2**x2 (in y's dtype: float32 kept)"""
    d[x1] += unbroadcast(d[y] * np.ldexp(np.ones_like(y), x2), x1)


@tangent(np.ldexp)
def ldexp_tangent(y, x1, x2):
    d[y] = broadcast_tangent(d[x1] * np.ldexp(np.ones_like(y), x2), y)


@adjoint(np.modf)
def modf_adjoint(y, x):
    """x_bar = the fractional part's adjoint (the integer part is piecewise constant)"""
    d[x] += reshape_like(broadcast_tangent(d[y][0], y[0]), x)


@tangent(np.modf)
def modf_tangent(y, x):
    d[y] = (broadcast_tangent(d[x], y[0]), np.zeros_like(y[1]))


@adjoint(np.frexp)
def frexp_adjoint(y, x):
    """x_bar = the mantissa's adjoint times 2**-e (the exponent is piecewise constant)"""
    d[x] += reshape_like(broadcast_tangent(d[y][0], y[0]) * np.ldexp(np.ones_like(y[0]), -y[1]),
                         x)


@tangent(np.frexp)
def frexp_tangent(y, x):
    d[y] = (broadcast_tangent(d[x], y[0]) * np.ldexp(np.ones_like(y[0]), -y[1]),
            np.zeros_like(y[0]))


@adjoint(np.unwrap)
def unwrap_adjoint(y, p, discont=None, axis=-1, period=2 * np.pi):
    """the added multiples of the period are piecewise constant: p_bar = y_bar"""
    d[p] += reshape_like(broadcast_tangent(d[y], y), p)


@tangent(np.unwrap)
def unwrap_tangent(y, p, discont=None, axis=-1, period=2 * np.pi):
    d[y] = broadcast_tangent(d[p], y)


@adjoint(np.real_if_close)
def real_if_close_adjoint(y, a, tol=100):
    """a real a is returned as it is"""
    d[a] += reshape_like(broadcast_tangent(d[y], y), a)


@tangent(np.real_if_close)
def real_if_close_tangent(y, a, tol=100):
    d[y] = broadcast_tangent(d[a], y)

