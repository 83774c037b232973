"""scipy.stats.t's pdf, cdf and logcdf (its logpdf: scipy_stats.py) and scipy.stats.poisson's
logpmf, pmf and cdf (an optional dependency, loaded once the user's code has imported
scipy.stats). With z = (x - loc) / scale, q = df + z^2 and p = t.pdf(z, df):

    t.pdf      y times t.logpdf's derivatives: dz = -(df+1) z / q, dscale adds -1,
               ddf = (digamma((df+1)/2) - digamma(df/2) - 1/df - log(q/df) + (df+1) z^2/(df q))/2
    t.cdf      dx = p/scale, dloc = -p/scale, dscale = -p z/scale
    t.logcdf   the same times exp(-y), written exp(t.logpdf(z, df) - y)
    poisson    logpmf(k, mu, loc) = n log mu - mu - gammaln(n + 1), n = k - loc:
               dmu = n/mu - 1;  pmf: y times that;  cdf = Q(floor(n) + 1, mu):
               dmu = -pmf(floor(n), mu)

t's cdf and logcdf in df and poisson's k and loc (integers) are not differentiated
(`undifferentiated`: an error if they carry a derivative).
"""
import numpy as np
from scipy import special, stats

from s2s_ad.ad.template_dsl import adjoint, d, tangent, undifferentiated
from s2s_ad.runtime import unbroadcast


# ---- Student's t ------------------------------------------------------------------------
@adjoint(stats.t.pdf)
def t_pdf_adjoint(y, x, df, loc=0.0, scale=1.0):
    """y times the derivatives of t.logpdf"""
    _z = (x - loc) / scale
    _q = df + _z * _z
    _g = -d[y] * y * (df + 1.0) * _z / (_q * scale)
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z - d[y] * y / scale, scale)
    d[df] += unbroadcast(d[y] * y * 0.5 * (special.digamma(0.5 * (df + 1.0))
                                           - special.digamma(0.5 * df) - 1.0 / df
                                           - np.log(_q / df)
                                           + (df + 1.0) * _z * _z / (df * _q)), df)


@tangent(stats.t.pdf)
def t_pdf_tangent(y, x, df, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    _q = df + _z * _z
    d[y] = y * (-(df + 1.0) * _z / (_q * scale) * (d[x] - d[loc] - _z * d[scale])
                - d[scale] / scale
                + 0.5 * (special.digamma(0.5 * (df + 1.0)) - special.digamma(0.5 * df)
                         - 1.0 / df - np.log(_q / df) + (df + 1.0) * _z * _z / (df * _q))
                * d[df])


@adjoint(stats.t.cdf)
def t_cdf_adjoint(y, x, df, loc=0.0, scale=1.0):
    """d cdf = p(z) dz"""
    _z = (x - loc) / scale
    _g = d[y] * stats.t.pdf(_z, df) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z, scale)
    d[df] += undifferentiated(df)


@tangent(stats.t.cdf)
def t_cdf_tangent(y, x, df, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = stats.t.pdf(_z, df) * (d[x] - d[loc] - _z * d[scale]) / scale


@adjoint(stats.t.logcdf)
def t_logcdf_adjoint(y, x, df, loc=0.0, scale=1.0):
    """d logcdf = p(z) / cdf(z) dz = exp(logpdf(z) - y) dz"""
    _z = (x - loc) / scale
    _g = d[y] * np.exp(stats.t.logpdf(_z, df) - y) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z, scale)
    d[df] += undifferentiated(df)


@tangent(stats.t.logcdf)
def t_logcdf_tangent(y, x, df, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = np.exp(stats.t.logpdf(_z, df) - y) * (d[x] - d[loc] - _z * d[scale]) / scale


# ---- Poisson ----------------------------------------------------------------------------
@adjoint(stats.poisson.logpmf)
def poisson_logpmf_adjoint(y, k, mu, loc=0):
    """d logpmf = ((k - loc)/mu - 1) dmu"""
    d[mu] += unbroadcast(d[y] * ((k - loc) / mu - 1.0), mu)
    d[k] += undifferentiated(k)
    d[loc] += undifferentiated(loc)


@tangent(stats.poisson.logpmf)
def poisson_logpmf_tangent(y, k, mu, loc=0):
    d[y] = ((k - loc) / mu - 1.0) * d[mu]


@adjoint(stats.poisson.pmf)
def poisson_pmf_adjoint(y, k, mu, loc=0):
    """d pmf = pmf ((k - loc)/mu - 1) dmu"""
    d[mu] += unbroadcast(d[y] * y * ((k - loc) / mu - 1.0), mu)
    d[k] += undifferentiated(k)
    d[loc] += undifferentiated(loc)


@tangent(stats.poisson.pmf)
def poisson_pmf_tangent(y, k, mu, loc=0):
    d[y] = y * ((k - loc) / mu - 1.0) * d[mu]


@adjoint(stats.poisson.cdf)
def poisson_cdf_adjoint(y, k, mu, loc=0):
    """d Q(floor(n) + 1, mu) = -pmf(floor(n), mu) dmu"""
    d[mu] += unbroadcast(-d[y] * stats.poisson.pmf(np.floor(k - loc), mu), mu)
    d[k] += undifferentiated(k)
    d[loc] += undifferentiated(loc)


@tangent(stats.poisson.cdf)
def poisson_cdf_tangent(y, k, mu, loc=0):
    d[y] = -stats.poisson.pmf(np.floor(k - loc), mu) * d[mu]
