"""scipy.special's Bessel functions of the first and second kind and the regularized
incomplete gamma and beta functions (an optional dependency, loaded like scipy_special
once the user's code has imported scipy.special). Derivatives, with y the result:

    j0       -j1(x)                       y0      -y1(x)
    j1       (j0(x) - jv(2, x)) / 2       y1      (y0(x) - yv(2, x)) / 2
    jv(v, x) (jv(v-1, x) - jv(v+1, x)) / 2, the same for yv and yn (jn is jv)
    rgamma   -rgamma(x) digamma(x)        (1 / gamma)
    gammainc(a, x)   exp((a-1) log x - x - gammaln(a)) dx;  gammaincc minus that
    betainc(a, b, x) exp((a-1) log x + (b-1) log(1-x) - betaln(a, b)) dx  (in x's float
                     dtype: betaln of numbers is an np.float64, which would widen float32)

The orders v, n and the shape parameters a, b are not differentiated
(`undifferentiated`): differentiating through them is a located error, never a zero.
Each derivative is made of functions with templates (here, scipy_special.py and numpy's),
so second order works.
"""
import numpy as np
from scipy import special

from s2s_ad.ad.template_dsl import adjoint, d, tangent, undifferentiated
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_flow import float_dtype


# ---- Bessel functions of the first kind --------------------------------------------------
@adjoint(special.j0)
def j0_adjoint(y, x):
    """d j0(x) = -j1(x) dx"""
    d[x] += -d[y] * special.j1(x)


@tangent(special.j0)
def j0_tangent(y, x):
    d[y] = -d[x] * special.j1(x)


@adjoint(special.j1)
def j1_adjoint(y, x):
    """d j1(x) = (j0(x) - jv(2, x)) / 2 dx"""
    d[x] += d[y] * 0.5 * (special.j0(x) - special.jv(2.0, x))


@tangent(special.j1)
def j1_tangent(y, x):
    d[y] = d[x] * 0.5 * (special.j0(x) - special.jv(2.0, x))


@adjoint(special.jv)
def jv_adjoint(y, v, z):
    """d jv(v, z) = (jv(v - 1, z) - jv(v + 1, z)) / 2 dz (the order v is not differentiated)"""
    d[z] += unbroadcast(d[y] * 0.5 * (special.jv(v - 1.0, z) - special.jv(v + 1.0, z)), z)
    d[v] += undifferentiated(v)


@tangent(special.jv)
def jv_tangent(y, v, z):
    d[y] = d[z] * 0.5 * (special.jv(v - 1.0, z) - special.jv(v + 1.0, z))


# ---- Bessel functions of the second kind -------------------------------------------------
@adjoint(special.y0)
def y0_adjoint(y, x):
    """d y0(x) = -y1(x) dx"""
    d[x] += -d[y] * special.y1(x)


@tangent(special.y0)
def y0_tangent(y, x):
    d[y] = -d[x] * special.y1(x)


@adjoint(special.y1)
def y1_adjoint(y, x):
    """d y1(x) = (y0(x) - yv(2, x)) / 2 dx"""
    d[x] += d[y] * 0.5 * (special.y0(x) - special.yv(2.0, x))


@tangent(special.y1)
def y1_tangent(y, x):
    d[y] = d[x] * 0.5 * (special.y0(x) - special.yv(2.0, x))


@adjoint(special.yv)
def yv_adjoint(y, v, z):
    """d yv(v, z) = (yv(v - 1, z) - yv(v + 1, z)) / 2 dz (the order v is not differentiated)"""
    d[z] += unbroadcast(d[y] * 0.5 * (special.yv(v - 1.0, z) - special.yv(v + 1.0, z)), z)
    d[v] += undifferentiated(v)


@tangent(special.yv)
def yv_tangent(y, v, z):
    d[y] = d[z] * 0.5 * (special.yv(v - 1.0, z) - special.yv(v + 1.0, z))


@adjoint(special.yn)
def yn_adjoint(y, n, x):
    """d yn(n, x) = (yv(n - 1, x) - yv(n + 1, x)) / 2 dx (the integer order n is not
    differentiated)"""
    d[x] += unbroadcast(d[y] * 0.5 * (special.yv(n - 1.0, x) - special.yv(n + 1.0, x)), x)
    d[n] += undifferentiated(n)


@tangent(special.yn)
def yn_tangent(y, n, x):
    d[y] = d[x] * 0.5 * (special.yv(n - 1.0, x) - special.yv(n + 1.0, x))


# ---- reciprocal gamma, incomplete gamma and beta -----------------------------------------
@adjoint(special.rgamma)
def rgamma_adjoint(y, x):
    """d (1 / gamma(x)) = -rgamma(x) digamma(x) dx"""
    d[x] += -d[y] * y * special.digamma(x)


@tangent(special.rgamma)
def rgamma_tangent(y, x):
    d[y] = -d[x] * y * special.digamma(x)


@adjoint(special.gammainc)
def gammainc_adjoint(y, a, x):
    """d P(a, x) = x**(a-1) exp(-x) / gamma(a) dx (a is not differentiated)"""
    d[x] += unbroadcast(d[y] * np.exp((a - 1.0) * np.log(x) - x - special.gammaln(a)), x)
    d[a] += undifferentiated(a)


@tangent(special.gammainc)
def gammainc_tangent(y, a, x):
    d[y] = d[x] * np.exp((a - 1.0) * np.log(x) - x - special.gammaln(a))


@adjoint(special.gammaincc)
def gammaincc_adjoint(y, a, x):
    """d Q(a, x) = -x**(a-1) exp(-x) / gamma(a) dx (a is not differentiated)"""
    d[x] += unbroadcast(-d[y] * np.exp((a - 1.0) * np.log(x) - x - special.gammaln(a)), x)
    d[a] += undifferentiated(a)


@tangent(special.gammaincc)
def gammaincc_tangent(y, a, x):
    d[y] = -d[x] * np.exp((a - 1.0) * np.log(x) - x - special.gammaln(a))


@adjoint(special.betainc)
def betainc_adjoint(y, a, b, x):
    """d I_x(a, b) = x**(a-1) (1-x)**(b-1) / B(a, b) dx (a, b are not differentiated)"""
    d[x] += unbroadcast(d[y] * np.asarray(np.exp(
        (a - 1.0) * np.log(x) + (b - 1.0) * np.log1p(-x) - special.betaln(a, b)),
        dtype=float_dtype(x)), x)
    d[a] += undifferentiated(a)
    d[b] += undifferentiated(b)


@tangent(special.betainc)
def betainc_tangent(y, a, b, x):
    d[y] = d[x] * np.asarray(np.exp(
        (a - 1.0) * np.log(x) + (b - 1.0) * np.log1p(-x) - special.betaln(a, b)),
        dtype=float_dtype(x))
