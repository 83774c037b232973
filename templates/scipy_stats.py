"""scipy.stats.norm's pdf, logpdf, cdf, logcdf, sf and logsf (an optional dependency,
loaded once the user's code has imported scipy.stats; see templates/__init__.py).

`scipy.stats.norm.logpdf(x, loc, scale)` is a method of one module-level object, so the
call resolves to that bound method, which these templates are registered for. With
z = (x - loc) / scale and phi the standard normal density:

    logpdf  -z^2/2 - log(scale) - log(2 pi)/2:  dx = -z/scale, dloc = z/scale,
            dscale = (z^2 - 1)/scale
    pdf     y times those of logpdf
    cdf     ndtr(z):  dz = phi(z), dz/dx = 1/scale, dz/dloc = -1/scale, dz/dscale = -z/scale
    logcdf  log_ndtr(z):  dz = phi(z) / ndtr(z) = exp(-z^2/2 - y) / sqrt(2 pi)
    sf      ndtr(-z), logsf log_ndtr(-z): the same with -phi

A frozen distribution (`norm(0.0, 1.0).logpdf(x)`) is an object built inside the
function: not a primitive (s2s_ad reports it where it is called).
"""
import math

import numpy as np
from scipy import stats

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast

INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


@adjoint(stats.norm.logpdf)
def norm_logpdf_adjoint(y, x, loc=0.0, scale=1.0):
    """d logpdf = -z/scale dx + z/scale dloc + (z^2 - 1)/scale dscale"""
    _z = (x - loc) / scale
    _gz = d[y] * _z / scale
    d[x] += unbroadcast(-_gz, x)
    d[loc] += unbroadcast(_gz, loc)
    d[scale] += unbroadcast(d[y] * (_z * _z - 1.0) / scale, scale)


@tangent(stats.norm.logpdf)
def norm_logpdf_tangent(y, x, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = (_z * (d[loc] - d[x]) + (_z * _z - 1.0) * d[scale]) / scale


@adjoint(stats.norm.pdf)
def norm_pdf_adjoint(y, x, loc=0.0, scale=1.0):
    """d pdf = pdf d logpdf"""
    _z = (x - loc) / scale
    _gz = d[y] * y * _z / scale
    d[x] += unbroadcast(-_gz, x)
    d[loc] += unbroadcast(_gz, loc)
    d[scale] += unbroadcast(d[y] * y * (_z * _z - 1.0) / scale, scale)


@tangent(stats.norm.pdf)
def norm_pdf_tangent(y, x, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = y * (_z * (d[loc] - d[x]) + (_z * _z - 1.0) * d[scale]) / scale


@adjoint(stats.norm.cdf)
def norm_cdf_adjoint(y, x, loc=0.0, scale=1.0):
    """d ndtr(z) = phi(z) dz, dz = (dx - dloc - z dscale) / scale"""
    _z = (x - loc) / scale
    _gz = d[y] * INV_SQRT_2PI * np.exp(-0.5 * _z * _z) / scale
    d[x] += unbroadcast(_gz, x)
    d[loc] += unbroadcast(-_gz, loc)
    d[scale] += unbroadcast(-_gz * _z, scale)


@tangent(stats.norm.cdf)
def norm_cdf_tangent(y, x, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = INV_SQRT_2PI * np.exp(-0.5 * _z * _z) * (d[x] - d[loc] - _z * d[scale]) / scale


@adjoint(stats.norm.logcdf)
def norm_logcdf_adjoint(y, x, loc=0.0, scale=1.0):
    """d log_ndtr(z) = exp(-z^2/2 - y) / sqrt(2 pi) dz"""
    _z = (x - loc) / scale
    _gz = d[y] * INV_SQRT_2PI * np.exp(-0.5 * _z * _z - y) / scale
    d[x] += unbroadcast(_gz, x)
    d[loc] += unbroadcast(-_gz, loc)
    d[scale] += unbroadcast(-_gz * _z, scale)


@tangent(stats.norm.logcdf)
def norm_logcdf_tangent(y, x, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = INV_SQRT_2PI * np.exp(-0.5 * _z * _z - y) * (d[x] - d[loc] - _z * d[scale]) / scale


@adjoint(stats.norm.sf)
def norm_sf_adjoint(y, x, loc=0.0, scale=1.0):
    """sf = ndtr(-z): d sf = -phi(z) dz"""
    _z = (x - loc) / scale
    _gz = d[y] * INV_SQRT_2PI * np.exp(-0.5 * _z * _z) / scale
    d[x] += unbroadcast(-_gz, x)
    d[loc] += unbroadcast(_gz, loc)
    d[scale] += unbroadcast(_gz * _z, scale)


@tangent(stats.norm.sf)
def norm_sf_tangent(y, x, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = INV_SQRT_2PI * np.exp(-0.5 * _z * _z) * (d[loc] - d[x] + _z * d[scale]) / scale


@adjoint(stats.norm.logsf)
def norm_logsf_adjoint(y, x, loc=0.0, scale=1.0):
    """logsf = log_ndtr(-z): d logsf = -exp(-z^2/2 - y) / sqrt(2 pi) dz"""
    _z = (x - loc) / scale
    _gz = d[y] * INV_SQRT_2PI * np.exp(-0.5 * _z * _z - y) / scale
    d[x] += unbroadcast(-_gz, x)
    d[loc] += unbroadcast(_gz, loc)
    d[scale] += unbroadcast(_gz * _z, scale)


@tangent(stats.norm.logsf)
def norm_logsf_tangent(y, x, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = INV_SQRT_2PI * np.exp(-0.5 * _z * _z - y) * (d[loc] - d[x] + _z * d[scale]) / scale
