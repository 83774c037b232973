"""Elementwise numpy functions: exponentials, powers, trigonometric and hyperbolic ufuncs
(arithmetic as functions and the piecewise ones are in numpy_arithmetic.py).

Unary functions need no unbroadcast (the result has the operand's shape). Every
contribution to an operand of a binary or ternary function is wrapped in
`unbroadcast(expr, p)`; the expander drops it when the shapes are provably equal.
Binary ufuncs name their operands x1, x2 as numpy does.
"""
import math

import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import logistic, unbroadcast

# Python floats, like python_math's constants and the number literals of templates
LN2 = math.log(2.0)
LN10 = math.log(10.0)


# ---- exponentials and logarithms ------------------------------------------------------
@adjoint(np.exp)
def exp_adjoint(y, x):
    """d exp(x) = exp(x) dx"""
    d[x] += d[y] * y


@tangent(np.exp)
def exp_tangent(y, x):
    d[y] = d[x] * y


@adjoint(np.exp2)
def exp2_adjoint(y, x):
    """d 2**x = 2**x log 2 dx"""
    d[x] += d[y] * y * LN2


@tangent(np.exp2)
def exp2_tangent(y, x):
    d[y] = d[x] * y * LN2


@adjoint(np.expm1)
def expm1_adjoint(y, x):
    """d (exp(x) - 1) = exp(x) dx"""
    d[x] += d[y] * (y + 1.0)


@tangent(np.expm1)
def expm1_tangent(y, x):
    d[y] = d[x] * (y + 1.0)


@adjoint(np.log)
def log_adjoint(y, x):
    """d log(x) = dx / x"""
    d[x] += d[y] / x


@tangent(np.log)
def log_tangent(y, x):
    d[y] = d[x] / x


@adjoint(np.log1p)
def log1p_adjoint(y, x):
    """d log(1 + x) = dx / (1 + x)"""
    d[x] += d[y] / (1.0 + x)


@tangent(np.log1p)
def log1p_tangent(y, x):
    d[y] = d[x] / (1.0 + x)


@adjoint(np.log2)
def log2_adjoint(y, x):
    """d log2(x) = dx / (x log 2)"""
    d[x] += d[y] / (x * LN2)


@tangent(np.log2)
def log2_tangent(y, x):
    d[y] = d[x] / (x * LN2)


@adjoint(np.log10)
def log10_adjoint(y, x):
    """d log10(x) = dx / (x log 10)"""
    d[x] += d[y] / (x * LN10)


@tangent(np.log10)
def log10_tangent(y, x):
    d[y] = d[x] / (x * LN10)


@adjoint(np.logaddexp)
def logaddexp_adjoint(y, x1, x2):
    """d log(exp(x1) + exp(x2)) = exp(x1 - y) dx1 + exp(x2 - y) dx2, and exp(x1 - y) =
    1 / (1 + exp(x2 - x1)): the logistic function of x1 - x2, so the derivative does not
    read y (a gradient need not compute np.logaddexp, ~20x the cost of np.exp)"""
    d[x1] += unbroadcast(d[y] * logistic(x1, x2), x1)
    d[x2] += unbroadcast(d[y] * logistic(x2, x1), x2)


@tangent(np.logaddexp)
def logaddexp_tangent(y, x1, x2):
    d[y] = d[x1] * np.exp(x1 - y) + d[x2] * np.exp(x2 - y)      # y is computed anyway


@adjoint(np.logaddexp2)
def logaddexp2_adjoint(y, x1, x2):
    """d log2(2**x1 + 2**x2) = 2**(x1 - y) dx1 + 2**(x2 - y) dx2"""
    d[x1] += unbroadcast(d[y] * np.exp2(x1 - y), x1)
    d[x2] += unbroadcast(d[y] * np.exp2(x2 - y), x2)


@tangent(np.logaddexp2)
def logaddexp2_tangent(y, x1, x2):
    d[y] = d[x1] * np.exp2(x1 - y) + d[x2] * np.exp2(x2 - y)


# ---- powers and roots -----------------------------------------------------------------
@adjoint(np.sqrt)
def sqrt_adjoint(y, x):
    """d sqrt(x) = dx / (2 sqrt(x))"""
    d[x] += d[y] * 0.5 / y


@tangent(np.sqrt)
def sqrt_tangent(y, x):
    d[y] = d[x] * 0.5 / y


@adjoint(np.cbrt)
def cbrt_adjoint(y, x):
    """d cbrt(x) = dx / (3 cbrt(x)**2)"""
    d[x] += d[y] / (3.0 * y * y)


@tangent(np.cbrt)
def cbrt_tangent(y, x):
    d[y] = d[x] / (3.0 * y * y)


@adjoint(np.square)
def square_adjoint(y, x):
    """d x**2 = 2 x dx"""
    d[x] += d[y] * 2.0 * x


@tangent(np.square)
def square_tangent(y, x):
    d[y] = d[x] * 2.0 * x


@adjoint(np.reciprocal)
def reciprocal_adjoint(y, x):
    """d (1 / x) = -dx / x**2"""
    d[x] += -d[y] * y * y


@tangent(np.reciprocal)
def reciprocal_tangent(y, x):
    d[y] = -d[x] * y * y


@adjoint(np.power)
def power_adjoint(y, x1, x2):
    """d x1**x2 = x2 x1**(x2 - 1) dx1 + log(x1) x1**x2 dx2"""
    d[x1] += unbroadcast(d[y] * x2 * x1 ** (x2 - (x2 != 0)), x1)
    d[x2] += unbroadcast(d[y] * y * np.log(x1 + (x1 == 0)), x2)


@tangent(np.power)
def power_tangent(y, x1, x2):
    d[y] = d[x1] * x2 * x1 ** (x2 - (x2 != 0)) + d[x2] * y * np.log(x1 + (x1 == 0))


@adjoint(np.float_power)
def float_power_adjoint(y, x1, x2):
    """d x1**x2 = x2 x1**(x2 - 1) dx1 + log(x1) x1**x2 dx2 (in float64)"""
    d[x1] += unbroadcast(d[y] * x2 * np.float_power(x1, x2 - (x2 != 0)), x1)
    d[x2] += unbroadcast(d[y] * y * np.log(x1 + (x1 == 0)), x2)


@tangent(np.float_power)
def float_power_tangent(y, x1, x2):
    d[y] = d[x1] * x2 * np.float_power(x1, x2 - (x2 != 0)) + d[x2] * y * np.log(x1 + (x1 == 0))


@adjoint(np.hypot)
def hypot_adjoint(y, x1, x2):
    """d sqrt(x1**2 + x2**2) = (x1 dx1 + x2 dx2) / y"""
    d[x1] += unbroadcast(d[y] * x1 / y, x1)
    d[x2] += unbroadcast(d[y] * x2 / y, x2)


@tangent(np.hypot)
def hypot_tangent(y, x1, x2):
    d[y] = (x1 * d[x1] + x2 * d[x2]) / y


# ---- trigonometric --------------------------------------------------------------------
@adjoint(np.sin)
def sin_adjoint(y, x):
    """d sin(x) = cos(x) dx"""
    d[x] += d[y] * np.cos(x)


@tangent(np.sin)
def sin_tangent(y, x):
    d[y] = d[x] * np.cos(x)


@adjoint(np.cos)
def cos_adjoint(y, x):
    """d cos(x) = -sin(x) dx"""
    d[x] += -d[y] * np.sin(x)


@tangent(np.cos)
def cos_tangent(y, x):
    d[y] = -d[x] * np.sin(x)


@adjoint(np.tan)
def tan_adjoint(y, x):
    """d tan(x) = (1 + tan(x)**2) dx"""
    d[x] += d[y] * (1.0 + y * y)


@tangent(np.tan)
def tan_tangent(y, x):
    d[y] = d[x] * (1.0 + y * y)


@adjoint(np.arcsin)
def arcsin_adjoint(y, x):
    """d arcsin(x) = dx / sqrt(1 - x**2)"""
    d[x] += d[y] / np.sqrt(1.0 - x * x)


@tangent(np.arcsin)
def arcsin_tangent(y, x):
    d[y] = d[x] / np.sqrt(1.0 - x * x)


@adjoint(np.arccos)
def arccos_adjoint(y, x):
    """d arccos(x) = -dx / sqrt(1 - x**2)"""
    d[x] += -d[y] / np.sqrt(1.0 - x * x)


@tangent(np.arccos)
def arccos_tangent(y, x):
    d[y] = -d[x] / np.sqrt(1.0 - x * x)


@adjoint(np.arctan)
def arctan_adjoint(y, x):
    """d arctan(x) = dx / (1 + x**2)"""
    d[x] += d[y] / (1.0 + x * x)


@tangent(np.arctan)
def arctan_tangent(y, x):
    d[y] = d[x] / (1.0 + x * x)


@adjoint(np.arctan2)
def arctan2_adjoint(y, x1, x2):
    """d arctan2(x1, x2) = (x2 dx1 - x1 dx2) / (x1**2 + x2**2)"""
    _r2 = x1 * x1 + x2 * x2
    d[x1] += unbroadcast(d[y] * x2 / _r2, x1)
    d[x2] += unbroadcast(-d[y] * x1 / _r2, x2)


@tangent(np.arctan2)
def arctan2_tangent(y, x1, x2):
    _r2 = x1 * x1 + x2 * x2
    d[y] = (x2 * d[x1] - x1 * d[x2]) / _r2


@adjoint(np.deg2rad, np.radians)
def deg2rad_adjoint(y, x):
    """d (x pi / 180) = pi / 180 dx"""
    d[x] += d[y] * (np.pi / 180.0)


@tangent(np.deg2rad, np.radians)
def deg2rad_tangent(y, x):
    d[y] = d[x] * (np.pi / 180.0)


@adjoint(np.rad2deg, np.degrees)
def rad2deg_adjoint(y, x):
    """d (x 180 / pi) = 180 / pi dx"""
    d[x] += d[y] * (180.0 / np.pi)


@tangent(np.rad2deg, np.degrees)
def rad2deg_tangent(y, x):
    d[y] = d[x] * (180.0 / np.pi)


# ---- hyperbolic -----------------------------------------------------------------------
@adjoint(np.sinh)
def sinh_adjoint(y, x):
    """d sinh(x) = cosh(x) dx"""
    d[x] += d[y] * np.cosh(x)


@tangent(np.sinh)
def sinh_tangent(y, x):
    d[y] = d[x] * np.hypot(1.0, y)     # cosh(x) = sqrt(1 + sinh(x)**2)


@adjoint(np.cosh)
def cosh_adjoint(y, x):
    """d cosh(x) = sinh(x) dx"""
    d[x] += d[y] * np.sinh(x)


@tangent(np.cosh)
def cosh_tangent(y, x):
    d[y] = d[x] * np.sinh(x)


@adjoint(np.tanh)
def tanh_adjoint(y, x):
    """d tanh(x) = (1 - tanh(x)**2) dx"""
    d[x] += d[y] * (1.0 - y * y)


@tangent(np.tanh)
def tanh_tangent(y, x):
    d[y] = d[x] * (1.0 - y * y)


@adjoint(np.arcsinh)
def arcsinh_adjoint(y, x):
    """d arcsinh(x) = dx / sqrt(x**2 + 1)"""
    d[x] += d[y] / np.sqrt(x * x + 1.0)


@tangent(np.arcsinh)
def arcsinh_tangent(y, x):
    d[y] = d[x] / np.sqrt(x * x + 1.0)


@adjoint(np.arccosh)
def arccosh_adjoint(y, x):
    """d arccosh(x) = dx / sqrt(x**2 - 1)"""
    d[x] += d[y] / np.sqrt(x * x - 1.0)


@tangent(np.arccosh)
def arccosh_tangent(y, x):
    d[y] = d[x] / np.sqrt(x * x - 1.0)


@adjoint(np.arctanh)
def arctanh_adjoint(y, x):
    """d arctanh(x) = dx / (1 - x**2)"""
    d[x] += d[y] / (1.0 - x * x)


@tangent(np.arctanh)
def arctanh_tangent(y, x):
    d[y] = d[x] / (1.0 - x * x)
