"""scipy.special (an optional dependency: loaded only once the user's code has imported
scipy.special; see templates/__init__.py OPTIONAL_MODULES).

Most are ufuncs of one or two real arguments; logsumexp, softmax, log_softmax and
polygamma are Python functions, which a template makes primitives (s2s_ad no longer
follows the call into scipy's source). Derivatives, with y the result:

    expit    y (1 - y)                  logit     1 / (x (1 - x))
    log_expit  expit(-x)  (1 - expit(x), without the cancellation for large x)
    gammaln  digamma(x)                 digamma   polygamma(1, x)   polygamma(n, x): (n+1, x)
    gamma    y digamma(x)               beta      y (digamma(a) - digamma(a + b)), same in b
    betaln   digamma(a) - digamma(a + b)
    erf      2/sqrt(pi) exp(-x^2)       erfc      minus that
    erfinv   sqrt(pi)/2 exp(y^2)        erfcinv   minus that
    ndtr     exp(-x^2/2) / sqrt(2 pi)   ndtri     sqrt(2 pi) exp(y^2/2)
    log_ndtr exp(-x^2/2 - y) / sqrt(2 pi)  (the ratio pdf/cdf without dividing by a tiny cdf)
    xlogy    log(y) dx + x/y dy         xlog1py   log1p(y) dx + x/(1+y) dy  (x/y read as 0
             where x = 0, as xlogy reads 0 log 0)
    entr     -(log x + 1)
    iv(v, x) (iv(v-1, x) + iv(v+1, x)) / 2, ive the same minus sign(x) ive(v, x) (the
             exp(-|x|) factor); i0, i1, i0e, i1e are iv / ive of order 0 and 1
    logsumexp  the weights w = b exp(a - y) (runtime_arrays.logsumexp_weights): a_bar = g w,
             b_bar = g exp(a - y); softmax: y (g - sum(g y)); log_softmax: g - y' sum(g)

Each derivative is written with functions that have templates here, so second order works.
"""
import math

import numpy as np
from scipy import special

from s2s_ad.ad.template_dsl import adjoint, d, tangent, undifferentiated
from s2s_ad.runtime import unbroadcast, unreduce
from s2s_ad.runtime_arrays import logsumexp_weights
from s2s_ad.runtime_flow import float_dtype

TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
HALF_SQRT_PI = math.sqrt(math.pi) / 2.0
INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
SQRT_2PI = math.sqrt(2.0 * math.pi)


# ---- logistic ---------------------------------------------------------------------------
@adjoint(special.expit)
def expit_adjoint(y, x):
    """d expit(x) = y (1 - y) dx"""
    d[x] += d[y] * y * (1.0 - y)


@tangent(special.expit)
def expit_tangent(y, x):
    d[y] = d[x] * y * (1.0 - y)


@adjoint(special.log_expit)
def log_expit_adjoint(y, x):
    """d log(expit(x)) = expit(-x) dx"""
    d[x] += d[y] * special.expit(-x)


@tangent(special.log_expit)
def log_expit_tangent(y, x):
    d[y] = d[x] * special.expit(-x)


@adjoint(special.logit)
def logit_adjoint(y, x):
    """d log(x / (1 - x)) = dx / (x (1 - x))"""
    d[x] += d[y] / (x * (1.0 - x))


@tangent(special.logit)
def logit_tangent(y, x):
    d[y] = d[x] / (x * (1.0 - x))


# ---- gamma family -----------------------------------------------------------------------
@adjoint(special.gammaln)
def gammaln_adjoint(y, x):
    """d log|gamma(x)| = digamma(x) dx"""
    d[x] += d[y] * special.digamma(x)


@tangent(special.gammaln)
def gammaln_tangent(y, x):
    d[y] = d[x] * special.digamma(x)


@adjoint(special.gamma)
def gamma_adjoint(y, x):
    """d gamma(x) = gamma(x) digamma(x) dx"""
    d[x] += d[y] * y * special.digamma(x)


@tangent(special.gamma)
def gamma_tangent(y, x):
    d[y] = d[x] * y * special.digamma(x)


@adjoint(special.digamma)
def digamma_adjoint(y, x):
    """d digamma(x) = polygamma(1, x) dx (polygamma gives float64 for float32 x: cast)"""
    d[x] += d[y] * np.asarray(special.polygamma(1, x), dtype=float_dtype(y))


@tangent(special.digamma)
def digamma_tangent(y, x):
    d[y] = d[x] * np.asarray(special.polygamma(1, x), dtype=float_dtype(y))


@adjoint(special.polygamma)
def polygamma_adjoint(y, n, x):
    """d polygamma(n, x) = polygamma(n + 1, x) dx (n is an order, not differentiated)"""
    d[x] += unbroadcast(d[y] * special.polygamma(n + 1, x), x)


@tangent(special.polygamma)
def polygamma_tangent(y, n, x):
    d[y] = d[x] * special.polygamma(n + 1, x)


@adjoint(special.betaln)
def betaln_adjoint(y, a, b):
    """betaln = gammaln(a) + gammaln(b) - gammaln(a + b)"""
    _both = special.digamma(a + b)
    d[a] += unbroadcast(d[y] * (special.digamma(a) - _both), a)
    d[b] += unbroadcast(d[y] * (special.digamma(b) - _both), b)


@tangent(special.betaln)
def betaln_tangent(y, a, b):
    _both = special.digamma(a + b)
    d[y] = d[a] * (special.digamma(a) - _both) + d[b] * (special.digamma(b) - _both)


@adjoint(special.beta)
def beta_adjoint(y, a, b):
    """d beta = beta d betaln"""
    _both = special.digamma(a + b)
    d[a] += unbroadcast(d[y] * y * (special.digamma(a) - _both), a)
    d[b] += unbroadcast(d[y] * y * (special.digamma(b) - _both), b)


@tangent(special.beta)
def beta_tangent(y, a, b):
    _both = special.digamma(a + b)
    d[y] = y * (d[a] * (special.digamma(a) - _both) + d[b] * (special.digamma(b) - _both))


# ---- error function and the normal distribution -------------------------------------------
@adjoint(special.erf)
def erf_adjoint(y, x):
    """d erf(x) = 2/sqrt(pi) exp(-x^2) dx"""
    d[x] += d[y] * TWO_OVER_SQRT_PI * np.exp(-x * x)


@tangent(special.erf)
def erf_tangent(y, x):
    d[y] = d[x] * TWO_OVER_SQRT_PI * np.exp(-x * x)


@adjoint(special.erfc)
def erfc_adjoint(y, x):
    """d erfc(x) = -2/sqrt(pi) exp(-x^2) dx"""
    d[x] += -d[y] * TWO_OVER_SQRT_PI * np.exp(-x * x)


@tangent(special.erfc)
def erfc_tangent(y, x):
    d[y] = -d[x] * TWO_OVER_SQRT_PI * np.exp(-x * x)


@adjoint(special.erfinv)
def erfinv_adjoint(y, x):
    """the inverse of erf: dy = sqrt(pi)/2 exp(y^2) dx"""
    d[x] += d[y] * HALF_SQRT_PI * np.exp(y * y)


@tangent(special.erfinv)
def erfinv_tangent(y, x):
    d[y] = d[x] * HALF_SQRT_PI * np.exp(y * y)


@adjoint(special.erfcinv)
def erfcinv_adjoint(y, x):
    """the inverse of erfc: dy = -sqrt(pi)/2 exp(y^2) dx"""
    d[x] += -d[y] * HALF_SQRT_PI * np.exp(y * y)


@tangent(special.erfcinv)
def erfcinv_tangent(y, x):
    d[y] = -d[x] * HALF_SQRT_PI * np.exp(y * y)


@adjoint(special.ndtr)
def ndtr_adjoint(y, x):
    """the standard normal cdf: d ndtr(x) = exp(-x^2/2) / sqrt(2 pi) dx"""
    d[x] += d[y] * INV_SQRT_2PI * np.exp(-0.5 * x * x)


@tangent(special.ndtr)
def ndtr_tangent(y, x):
    d[y] = d[x] * INV_SQRT_2PI * np.exp(-0.5 * x * x)


@adjoint(special.ndtri)
def ndtri_adjoint(y, x):
    """the inverse of ndtr: dy = sqrt(2 pi) exp(y^2/2) dx"""
    d[x] += d[y] * SQRT_2PI * np.exp(0.5 * y * y)


@tangent(special.ndtri)
def ndtri_tangent(y, x):
    d[y] = d[x] * SQRT_2PI * np.exp(0.5 * y * y)


@adjoint(special.log_ndtr)
def log_ndtr_adjoint(y, x):
    """d log ndtr(x) = pdf(x) / ndtr(x) dx = exp(-x^2/2 - y) / sqrt(2 pi) dx"""
    d[x] += d[y] * INV_SQRT_2PI * np.exp(-0.5 * x * x - y)


@tangent(special.log_ndtr)
def log_ndtr_tangent(y, x):
    d[y] = d[x] * INV_SQRT_2PI * np.exp(-0.5 * x * x - y)


# ---- x log y and entropy --------------------------------------------------------------------
@adjoint(special.xlogy)
def xlogy_adjoint(y, x1, x2):
    """d (x1 log x2) = log(x2) dx1 + x1 / x2 dx2 (0 where x1 = 0)"""
    d[x1] += unbroadcast(d[y] * np.log(x2), x1)
    d[x2] += unbroadcast(d[y] * x1 / np.where(x1 == 0.0, 1.0, x2), x2)


@tangent(special.xlogy)
def xlogy_tangent(y, x1, x2):
    d[y] = d[x1] * np.log(x2) + d[x2] * x1 / np.where(x1 == 0.0, 1.0, x2)


@adjoint(special.xlog1py)
def xlog1py_adjoint(y, x1, x2):
    """d (x1 log(1 + x2)) = log1p(x2) dx1 + x1 / (1 + x2) dx2 (0 where x1 = 0)"""
    d[x1] += unbroadcast(d[y] * np.log1p(x2), x1)
    d[x2] += unbroadcast(d[y] * x1 / np.where(x1 == 0.0, 1.0, 1.0 + x2), x2)


@tangent(special.xlog1py)
def xlog1py_tangent(y, x1, x2):
    d[y] = d[x1] * np.log1p(x2) + d[x2] * x1 / np.where(x1 == 0.0, 1.0, 1.0 + x2)


@adjoint(special.entr)
def entr_adjoint(y, x):
    """d (-x log x) = -(log x + 1) dx"""
    d[x] += -d[y] * (np.log(x) + 1.0)


@tangent(special.entr)
def entr_tangent(y, x):
    d[y] = -d[x] * (np.log(x) + 1.0)


# ---- modified Bessel functions of the first kind ----------------------------------------------
@adjoint(special.iv)
def iv_adjoint(y, v, z):
    """d iv(v, z) = (iv(v - 1, z) + iv(v + 1, z)) / 2 dz (the order v is not differentiated)"""
    d[z] += unbroadcast(d[y] * 0.5 * (special.iv(v - 1.0, z) + special.iv(v + 1.0, z)), z)
    d[v] += undifferentiated(v)


@tangent(special.iv)
def iv_tangent(y, v, z):
    d[y] = d[z] * 0.5 * (special.iv(v - 1.0, z) + special.iv(v + 1.0, z))


@adjoint(special.ive)
def ive_adjoint(y, v, z):
    """ive = iv exp(-|z|): d ive = ((ive(v-1) + ive(v+1)) / 2 - sign(z) ive) dz"""
    d[z] += unbroadcast(d[y] * (0.5 * (special.ive(v - 1.0, z) + special.ive(v + 1.0, z))
                                - np.sign(z) * y), z)
    d[v] += undifferentiated(v)


@tangent(special.ive)
def ive_tangent(y, v, z):
    d[y] = d[z] * (0.5 * (special.ive(v - 1.0, z) + special.ive(v + 1.0, z)) - np.sign(z) * y)


@adjoint(special.i0)
def i0_adjoint(y, x):
    """d i0(x) = i1(x) dx"""
    d[x] += d[y] * special.i1(x)


@tangent(special.i0)
def i0_tangent(y, x):
    d[y] = d[x] * special.i1(x)


@adjoint(special.i1)
def i1_adjoint(y, x):
    """d i1(x) = (i0(x) + iv(2, x)) / 2 dx"""
    d[x] += d[y] * 0.5 * (special.i0(x) + special.iv(2.0, x))


@tangent(special.i1)
def i1_tangent(y, x):
    d[y] = d[x] * 0.5 * (special.i0(x) + special.iv(2.0, x))


@adjoint(special.i0e)
def i0e_adjoint(y, x):
    """i0e = i0 exp(-|x|): d i0e = (i1e(x) - sign(x) i0e(x)) dx"""
    d[x] += d[y] * (special.i1e(x) - np.sign(x) * y)


@tangent(special.i0e)
def i0e_tangent(y, x):
    d[y] = d[x] * (special.i1e(x) - np.sign(x) * y)


@adjoint(special.i1e)
def i1e_adjoint(y, x):
    """i1e = i1 exp(-|x|): d i1e = ((i0e(x) + ive(2, x)) / 2 - sign(x) i1e(x)) dx"""
    d[x] += d[y] * (0.5 * (special.i0e(x) + special.ive(2.0, x)) - np.sign(x) * y)


@tangent(special.i1e)
def i1e_tangent(y, x):
    d[y] = d[x] * (0.5 * (special.i0e(x) + special.ive(2.0, x)) - np.sign(x) * y)


# ---- log-sum-exp and softmax (Python functions in scipy) ------------------------------------
@adjoint(special.logsumexp)
def logsumexp_adjoint(y, a, axis=None, b=None, keepdims=False):
    """y = log sum b exp(a): da = w, db = exp(a - y) along axis, w = b exp(a - y)"""
    _w = logsumexp_weights(a, y, axis, b, keepdims)
    _g = unreduce(d[y], _w, axis, keepdims)
    # the contributions have the shape a and b broadcast to, not y's: unbroadcast to
    # copies, which the expander does not take for operands shaped like y (the rule of
    # elementwise templates)
    _a = a
    _b = b
    d[a] += unbroadcast(_g * _w, _a)
    d[b] += unbroadcast(_g * logsumexp_weights(a, y, axis, None, keepdims), _b)


@tangent(special.logsumexp)
def logsumexp_tangent(y, a, axis=None, b=None, keepdims=False):
    d[y] = np.sum(logsumexp_weights(a, y, axis, b, keepdims) * d[a]
                  + logsumexp_weights(a, y, axis, None, keepdims) * d[b],
                  axis=axis, keepdims=keepdims)


@adjoint(special.softmax)
def softmax_adjoint(y, x, axis=None):
    """d softmax = y (dx - sum(y dx)) along axis; the same map transposed (it is symmetric)"""
    _g = unbroadcast(d[y], y)
    d[x] += y * (_g - np.sum(_g * y, axis=axis, keepdims=True))


@tangent(special.softmax)
def softmax_tangent(y, x, axis=None):
    d[y] = y * (d[x] - np.sum(d[x] * y, axis=axis, keepdims=True))


@adjoint(special.log_softmax)
def log_softmax_adjoint(y, x, axis=None):
    """log_softmax = x - logsumexp(x): x_bar = g - softmax(x) sum(g) along axis"""
    _g = unbroadcast(d[y], y)
    d[x] += _g - np.exp(y) * np.sum(_g, axis=axis, keepdims=True)


@tangent(special.log_softmax)
def log_softmax_tangent(y, x, axis=None):
    d[y] = d[x] - np.sum(np.exp(y) * d[x], axis=axis, keepdims=True)
