"""The `math` module and the builtins abs, pow, max/min of two scalars and float.

These act on Python floats, so the derivatives use `math` and plain arithmetic and give
floats (numpy's float64, a float, where numpy is used): np.sign for abs (0 at 0, and the
builtin abs also takes arrays), and np.log in pow's exponent derivative, which like
operator.pow's gives -inf/nan instead of raising at a zero base.
"""
import builtins
import math

import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_flow import spread_adjoint

LN2 = math.log(2.0)
LN10 = math.log(10.0)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


# ---- exponentials and logarithms ------------------------------------------------------
@adjoint(math.exp)
def exp_adjoint(y, x):
    """d exp(x) = exp(x) dx"""
    d[x] += d[y] * y


@tangent(math.exp)
def exp_tangent(y, x):
    d[y] = d[x] * y


@adjoint(math.expm1)
def expm1_adjoint(y, x):
    """d (exp(x) - 1) = exp(x) dx"""
    d[x] += d[y] * (y + 1.0)


@tangent(math.expm1)
def expm1_tangent(y, x):
    d[y] = d[x] * (y + 1.0)


@adjoint(math.log)
def log_adjoint(y, x, base=math.e):
    """d log_b(x) = dx / (x log b) - log_b(x) / (b log b) db"""
    d[x] += d[y] / (x * math.log(base))
    d[base] += -d[y] * y / (base * math.log(base))


@tangent(math.log)
def log_tangent(y, x, base=math.e):
    d[y] = d[x] / (x * math.log(base)) - d[base] * y / (base * math.log(base))


@adjoint(math.log1p)
def log1p_adjoint(y, x):
    """d log(1 + x) = dx / (1 + x)"""
    d[x] += d[y] / (1.0 + x)


@tangent(math.log1p)
def log1p_tangent(y, x):
    d[y] = d[x] / (1.0 + x)


@adjoint(math.log2)
def log2_adjoint(y, x):
    """d log2(x) = dx / (x log 2)"""
    d[x] += d[y] / (x * LN2)


@tangent(math.log2)
def log2_tangent(y, x):
    d[y] = d[x] / (x * LN2)


@adjoint(math.log10)
def log10_adjoint(y, x):
    """d log10(x) = dx / (x log 10)"""
    d[x] += d[y] / (x * LN10)


@tangent(math.log10)
def log10_tangent(y, x):
    d[y] = d[x] / (x * LN10)


# ---- powers and roots -----------------------------------------------------------------
@adjoint(math.sqrt)
def sqrt_adjoint(y, x):
    """d sqrt(x) = dx / (2 sqrt(x))"""
    d[x] += d[y] * 0.5 / y


@tangent(math.sqrt)
def sqrt_tangent(y, x):
    d[y] = d[x] * 0.5 / y


@adjoint(math.pow)
def pow_adjoint(z, x, y):
    """d x**y = y x**(y - 1) dx + log(x) x**y dy"""
    d[x] += d[z] * y * math.pow(x, y - (y != 0))
    d[y] += d[z] * z * np.log(x + (x == 0))


@tangent(math.pow)
def pow_tangent(z, x, y):
    d[z] = d[x] * y * math.pow(x, y - (y != 0)) + d[y] * z * np.log(x + (x == 0))


@adjoint(math.hypot)
def hypot_adjoint(r, x, y):
    """d sqrt(x**2 + y**2) = (x dx + y dy) / r (two coordinates)"""
    d[x] += d[r] * x / r
    d[y] += d[r] * y / r


@tangent(math.hypot)
def hypot_tangent(r, x, y):
    d[r] = (x * d[x] + y * d[y]) / r


@adjoint(math.fabs)
def fabs_adjoint(y, x):
    """d |x| = sign(x) dx (0 at x = 0)"""
    d[x] += d[y] * np.sign(x)


@tangent(math.fabs)
def fabs_tangent(y, x):
    d[y] = d[x] * np.sign(x)


# ---- trigonometric --------------------------------------------------------------------
@adjoint(math.sin)
def sin_adjoint(y, x):
    """d sin(x) = cos(x) dx"""
    d[x] += d[y] * math.cos(x)


@tangent(math.sin)
def sin_tangent(y, x):
    d[y] = d[x] * math.cos(x)


@adjoint(math.cos)
def cos_adjoint(y, x):
    """d cos(x) = -sin(x) dx"""
    d[x] += -d[y] * math.sin(x)


@tangent(math.cos)
def cos_tangent(y, x):
    d[y] = -d[x] * math.sin(x)


@adjoint(math.tan)
def tan_adjoint(y, x):
    """d tan(x) = (1 + tan(x)**2) dx"""
    d[x] += d[y] * (1.0 + y * y)


@tangent(math.tan)
def tan_tangent(y, x):
    d[y] = d[x] * (1.0 + y * y)


@adjoint(math.asin)
def asin_adjoint(y, x):
    """d asin(x) = dx / sqrt(1 - x**2)"""
    d[x] += d[y] / math.sqrt(1.0 - x * x)


@tangent(math.asin)
def asin_tangent(y, x):
    d[y] = d[x] / math.sqrt(1.0 - x * x)


@adjoint(math.acos)
def acos_adjoint(y, x):
    """d acos(x) = -dx / sqrt(1 - x**2)"""
    d[x] += -d[y] / math.sqrt(1.0 - x * x)


@tangent(math.acos)
def acos_tangent(y, x):
    d[y] = -d[x] / math.sqrt(1.0 - x * x)


@adjoint(math.atan)
def atan_adjoint(y, x):
    """d atan(x) = dx / (1 + x**2)"""
    d[x] += d[y] / (1.0 + x * x)


@tangent(math.atan)
def atan_tangent(y, x):
    d[y] = d[x] / (1.0 + x * x)


@adjoint(math.atan2)
def atan2_adjoint(angle, y, x):
    """d atan2(y, x) = (x dy - y dx) / (x**2 + y**2)"""
    _r2 = x * x + y * y
    d[y] += d[angle] * x / _r2
    d[x] += -d[angle] * y / _r2


@tangent(math.atan2)
def atan2_tangent(angle, y, x):
    d[angle] = (x * d[y] - y * d[x]) / (x * x + y * y)


# ---- hyperbolic -----------------------------------------------------------------------
@adjoint(math.sinh)
def sinh_adjoint(y, x):
    """d sinh(x) = cosh(x) dx"""
    d[x] += d[y] * math.cosh(x)


@tangent(math.sinh)
def sinh_tangent(y, x):
    d[y] = d[x] * math.hypot(1.0, y)     # cosh(x) = sqrt(1 + sinh(x)**2)


@adjoint(math.cosh)
def cosh_adjoint(y, x):
    """d cosh(x) = sinh(x) dx"""
    d[x] += d[y] * math.sinh(x)


@tangent(math.cosh)
def cosh_tangent(y, x):
    d[y] = d[x] * math.sinh(x)


@adjoint(math.tanh)
def tanh_adjoint(y, x):
    """d tanh(x) = (1 - tanh(x)**2) dx"""
    d[x] += d[y] * (1.0 - y * y)


@tangent(math.tanh)
def tanh_tangent(y, x):
    d[y] = d[x] * (1.0 - y * y)


@adjoint(math.asinh)
def asinh_adjoint(y, x):
    """d asinh(x) = dx / sqrt(x**2 + 1)"""
    d[x] += d[y] / math.sqrt(x * x + 1.0)


@tangent(math.asinh)
def asinh_tangent(y, x):
    d[y] = d[x] / math.sqrt(x * x + 1.0)


@adjoint(math.acosh)
def acosh_adjoint(y, x):
    """d acosh(x) = dx / sqrt(x**2 - 1)"""
    d[x] += d[y] / math.sqrt(x * x - 1.0)


@tangent(math.acosh)
def acosh_tangent(y, x):
    d[y] = d[x] / math.sqrt(x * x - 1.0)


@adjoint(math.atanh)
def atanh_adjoint(y, x):
    """d atanh(x) = dx / (1 - x**2)"""
    d[x] += d[y] / (1.0 - x * x)


@tangent(math.atanh)
def atanh_tangent(y, x):
    d[y] = d[x] / (1.0 - x * x)


# ---- error function -------------------------------------------------------------------
@adjoint(math.erf)
def erf_adjoint(y, x):
    """d erf(x) = 2 / sqrt(pi) exp(-x**2) dx"""
    d[x] += d[y] * TWO_OVER_SQRT_PI * math.exp(-x * x)


@tangent(math.erf)
def erf_tangent(y, x):
    d[y] = d[x] * TWO_OVER_SQRT_PI * math.exp(-x * x)


@adjoint(math.erfc)
def erfc_adjoint(y, x):
    """d erfc(x) = -2 / sqrt(pi) exp(-x**2) dx"""
    d[x] += -d[y] * TWO_OVER_SQRT_PI * math.exp(-x * x)


@tangent(math.erfc)
def erfc_tangent(y, x):
    d[y] = -d[x] * TWO_OVER_SQRT_PI * math.exp(-x * x)


# ---- builtins: abs, pow, max/min of two, float ----------------------------------------
@adjoint(abs)
def abs_adjoint(y, x):
    """d |x| = sign(x) dx (0 at x = 0; also for arrays)"""
    d[x] += d[y] * np.sign(x)


@tangent(abs)
def abs_tangent(y, x):
    d[y] = d[x] * np.sign(x)


@adjoint(pow)
def builtin_pow_adjoint(y, base, exp):
    """d base**exp = exp base**(exp - 1) dbase + log(base) base**exp dexp"""
    d[base] += d[y] * exp * base ** (exp - 1)
    d[exp] += d[y] * y * np.log(base)


@tangent(pow)
def builtin_pow_tangent(y, base, exp):
    d[y] = d[base] * exp * base ** (exp - 1) + d[exp] * y * np.log(base)


@adjoint(max)
def max_adjoint(y, a, b):
    """d max(a, b) = da where a > b, db where b > a, (da + db) / 2 at a tie"""
    d[a] += d[y] * ((a > b) + 0.5 * (a == b))
    d[b] += d[y] * ((b > a) + 0.5 * (a == b))


@tangent(max)
def max_tangent(y, a, b):
    d[y] = d[a] * ((a > b) + 0.5 * (a == b)) + d[b] * ((b > a) + 0.5 * (a == b))


@adjoint(min)
def min_adjoint(y, a, b):
    """d min(a, b) = da where a < b, db where b < a, (da + db) / 2 at a tie"""
    d[a] += d[y] * ((a < b) + 0.5 * (a == b))
    d[b] += d[y] * ((b < a) + 0.5 * (a == b))


@tangent(min)
def min_tangent(y, a, b):
    d[y] = d[a] * ((a < b) + 0.5 * (a == b)) + d[b] * ((b < a) + 0.5 * (a == b))


@adjoint(float)
def float_adjoint(y, x):
    """d float(x) = dx"""
    d[x] += d[y]


@tangent(float)
def float_tangent(y, x):
    d[y] = float(d[x])


@adjoint(builtins.sum)
def builtin_sum_adjoint(y, iterable, start=0):
    """d sum(items, start) = sum(d item) + d start"""
    d[iterable] += spread_adjoint(d[y], iterable)
    d[start] += unbroadcast(d[y], start)


@tangent(builtins.sum)
def builtin_sum_tangent(y, iterable, start=0):
    d[y] = broadcast_tangent(builtins.sum(d[iterable], d[start]), y)


@adjoint(math.fsum)
def fsum_adjoint(y, iterable):
    """d fsum(items) = sum(d item): the exact sum's derivative is the plain one's"""
    d[iterable] += spread_adjoint(d[y], iterable)


@tangent(math.fsum)
def fsum_tangent(y, iterable):
    d[y] = math.fsum(d[iterable])
