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

scipy.stats.multivariate_normal.logpdf(x, mean, cov) with cov a matrix, of which scipy
reads the lower triangle (S = tril(cov) + tril(cov, -1)^T, as np.linalg.eigh does): with
r = x - mean and a = S^-1 r for each sample (x's last axis),

    logpdf  -(d log(2 pi) + log det S + r.a) / 2:  dx = -a, dmean = a,
            dS = (a a^T - S^-1) / 2, of which cov's lower triangle gets the symmetric sum

scipy.stats.t.logpdf(x, df, loc, scale), Student's t, with z = (x - loc) / scale and
q = df + z^2:

    logpdf  gammaln((df+1)/2) - gammaln(df/2) - log(df pi)/2 - log(scale)
            - (df+1)/2 log(q/df):  dx = -(df+1) z/(scale q), dloc = -dx,
            dscale = ((df+1) z^2/q - 1)/scale,
            ddf = (digamma((df+1)/2) - digamma(df/2) - 1/df - log(q/df) + (df+1) z^2/(df q))/2

A frozen distribution (`norm(0.0, 1.0).logpdf(x)`) is an object built inside the
function: not a primitive (s2s_ad reports it where it is called).
"""
import math

import numpy as np
from scipy import special, stats

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast

INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


@adjoint(stats.t.logpdf)
def t_logpdf_adjoint(y, x, df, loc=0.0, scale=1.0):
    """see the module docstring"""
    _z = (x - loc) / scale
    _q = df + _z * _z
    _gx = d[y] * (df + 1.0) * _z / (scale * _q)
    d[x] += unbroadcast(-_gx, x)
    d[loc] += unbroadcast(_gx, loc)
    d[scale] += unbroadcast(d[y] * ((df + 1.0) * _z * _z / _q - 1.0) / scale, scale)
    d[df] += unbroadcast(d[y] * 0.5 * (special.digamma(0.5 * (df + 1.0))
                                       - special.digamma(0.5 * df) - 1.0 / df
                                       - np.log(_q / df) + (df + 1.0) * _z * _z / (df * _q)),
                         df)


@tangent(stats.t.logpdf)
def t_logpdf_tangent(y, x, df, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    _q = df + _z * _z
    d[y] = (df + 1.0) * _z * (d[loc] - d[x]) / (scale * _q) \
        + ((df + 1.0) * _z * _z / _q - 1.0) * d[scale] / scale \
        + 0.5 * (special.digamma(0.5 * (df + 1.0)) - special.digamma(0.5 * df) - 1.0 / df
                 - np.log(_q / df) + (df + 1.0) * _z * _z / (df * _q)) * d[df]


@adjoint(stats.multivariate_normal.logpdf)
def multivariate_normal_logpdf_adjoint(y, x, mean=None, cov=1, allow_singular=False):
    """d logpdf = -a.(dx - dmean) + (a^T dS a - tr(S^-1 dS)) / 2, a = S^-1 (x - mean)"""
    _s = np.tril(cov) + np.swapaxes(np.tril(cov, -1), -1, -2)
    _r = x - mean
    _a = np.swapaxes(np.linalg.solve(_s, np.swapaxes(np.reshape(_r, (-1, np.shape(_s)[-1])),
                                                     -1, -2)), -1, -2)
    _ga = np.reshape(d[y], (-1, 1)) * _a
    d[x] += unbroadcast(np.reshape(-_ga, np.shape(_r)), x)
    d[mean] += unbroadcast(np.reshape(_ga, np.shape(_r)), mean)
    _g = 0.5 * (np.swapaxes(_ga, -1, -2) @ _a - np.sum(d[y]) * np.linalg.inv(_s))
    d[cov] += np.tril(_g) + np.tril(np.swapaxes(_g, -1, -2), -1)


@tangent(stats.multivariate_normal.logpdf)
def multivariate_normal_logpdf_tangent(y, x, mean=None, cov=1, allow_singular=False):
    _s = np.tril(cov) + np.swapaxes(np.tril(cov, -1), -1, -2)
    _ds = np.tril(d[cov] + 0.0 * cov) + np.swapaxes(np.tril(d[cov] + 0.0 * cov, -1), -1, -2)
    _r = x - mean
    _a = np.swapaxes(np.linalg.solve(_s, np.swapaxes(np.reshape(_r, (-1, np.shape(_s)[-1])),
                                                     -1, -2)), -1, -2)
    _dr = np.sum(np.reshape(_a, np.shape(_r)) * (d[x] - d[mean]), axis=-1)
    _quad = 0.5 * np.sum((_a @ _ds) * _a, axis=-1) - 0.5 * np.trace(np.linalg.solve(_s, _ds))
    d[y] = np.reshape(np.reshape(_quad, np.shape(_dr)) - _dr, np.shape(y))


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
