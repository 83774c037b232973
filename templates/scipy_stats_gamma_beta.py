"""scipy.stats.gamma, chi2 and beta: logpdf, pdf and cdf (an optional dependency, loaded
once the user's code has imported scipy.stats). With z = (x - loc) / scale, each is its
standard form at z (logpdf minus log(scale)); G is d logpdf_std / dz, p the standard
density at z:

    gamma(a)     logpdf_std = (a-1) log z - z - gammaln(a):  G = (a-1)/z - 1,
                 d/da = log z - digamma(a);  cdf = gammainc(a, z)
    chi2(df)     gamma(df/2) at z/2, scaled by 1/2:  G = (df/2-1)/z - 1/2,
                 d/ddf = (log(z/2) - digamma(df/2)) / 2;  cdf = gammainc(df/2, z/2)
    beta(a, b)   logpdf_std = (a-1) log z + (b-1) log(1-z) - betaln(a, b):
                 G = (a-1)/z - (b-1)/(1-z), d/da = log z - digamma(a) + digamma(a+b),
                 d/db = log(1-z) - digamma(b) + digamma(a+b);  cdf = betainc(a, b, z)
    loc, scale   logpdf: dx = G/scale, dloc = -G/scale, dscale = -(G z + 1)/scale;
                 pdf: y times those; cdf: dx = p/scale, dloc = -p/scale, dscale = -p z/scale

The cdfs' shape parameters are not differentiated (`undifferentiated`: an error if they
carry a derivative).
"""
import numpy as np
from scipy import special, stats

from s2s_ad.ad.template_dsl import adjoint, d, tangent, undifferentiated
from s2s_ad.runtime import unbroadcast


# ---- gamma ------------------------------------------------------------------------------
@adjoint(stats.gamma.logpdf)
def gamma_logpdf_adjoint(y, x, a, loc=0.0, scale=1.0):
    """see the module docstring"""
    _z = (x - loc) / scale
    _g = d[y] * ((a - 1.0) / _z - 1.0) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z - d[y] / scale, scale)
    d[a] += unbroadcast(d[y] * (np.log(_z) - special.digamma(a)), a)


@tangent(stats.gamma.logpdf)
def gamma_logpdf_tangent(y, x, a, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    _gz = ((a - 1.0) / _z - 1.0) / scale
    d[y] = _gz * (d[x] - d[loc] - _z * d[scale]) - d[scale] / scale \
        + (np.log(_z) - special.digamma(a)) * d[a]


@adjoint(stats.gamma.pdf)
def gamma_pdf_adjoint(y, x, a, loc=0.0, scale=1.0):
    """y times the derivatives of logpdf"""
    _z = (x - loc) / scale
    _g = d[y] * y * ((a - 1.0) / _z - 1.0) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z - d[y] * y / scale, scale)
    d[a] += unbroadcast(d[y] * y * (np.log(_z) - special.digamma(a)), a)


@tangent(stats.gamma.pdf)
def gamma_pdf_tangent(y, x, a, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    _gz = ((a - 1.0) / _z - 1.0) / scale
    d[y] = y * (_gz * (d[x] - d[loc] - _z * d[scale]) - d[scale] / scale
                + (np.log(_z) - special.digamma(a)) * d[a])


@adjoint(stats.gamma.cdf)
def gamma_cdf_adjoint(y, x, a, loc=0.0, scale=1.0):
    """d gammainc(a, z) = p(z) dz"""
    _z = (x - loc) / scale
    _g = d[y] * np.exp((a - 1.0) * np.log(_z) - _z - special.gammaln(a)) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z, scale)
    d[a] += undifferentiated(a)


@tangent(stats.gamma.cdf)
def gamma_cdf_tangent(y, x, a, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = np.exp((a - 1.0) * np.log(_z) - _z - special.gammaln(a)) \
        * (d[x] - d[loc] - _z * d[scale]) / scale


# ---- chi2 -------------------------------------------------------------------------------
@adjoint(stats.chi2.logpdf)
def chi2_logpdf_adjoint(y, x, df, loc=0.0, scale=1.0):
    """see the module docstring"""
    _z = (x - loc) / scale
    _g = d[y] * ((0.5 * df - 1.0) / _z - 0.5) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z - d[y] / scale, scale)
    d[df] += unbroadcast(d[y] * 0.5 * (np.log(0.5 * _z) - special.digamma(0.5 * df)), df)


@tangent(stats.chi2.logpdf)
def chi2_logpdf_tangent(y, x, df, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    _gz = ((0.5 * df - 1.0) / _z - 0.5) / scale
    d[y] = _gz * (d[x] - d[loc] - _z * d[scale]) - d[scale] / scale \
        + 0.5 * (np.log(0.5 * _z) - special.digamma(0.5 * df)) * d[df]


@adjoint(stats.chi2.pdf)
def chi2_pdf_adjoint(y, x, df, loc=0.0, scale=1.0):
    """y times the derivatives of logpdf"""
    _z = (x - loc) / scale
    _g = d[y] * y * ((0.5 * df - 1.0) / _z - 0.5) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z - d[y] * y / scale, scale)
    d[df] += unbroadcast(d[y] * y * 0.5 * (np.log(0.5 * _z) - special.digamma(0.5 * df)), df)


@tangent(stats.chi2.pdf)
def chi2_pdf_tangent(y, x, df, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    _gz = ((0.5 * df - 1.0) / _z - 0.5) / scale
    d[y] = y * (_gz * (d[x] - d[loc] - _z * d[scale]) - d[scale] / scale
                + 0.5 * (np.log(0.5 * _z) - special.digamma(0.5 * df)) * d[df])


@adjoint(stats.chi2.cdf)
def chi2_cdf_adjoint(y, x, df, loc=0.0, scale=1.0):
    """d gammainc(df/2, z/2) = p(z) dz, p(z) = exp((df/2-1) log(z/2) - z/2 - gammaln(df/2)) / 2"""
    _z = (x - loc) / scale
    _g = d[y] * 0.5 * np.exp((0.5 * df - 1.0) * np.log(0.5 * _z) - 0.5 * _z
                             - special.gammaln(0.5 * df)) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z, scale)
    d[df] += undifferentiated(df)


@tangent(stats.chi2.cdf)
def chi2_cdf_tangent(y, x, df, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = 0.5 * np.exp((0.5 * df - 1.0) * np.log(0.5 * _z) - 0.5 * _z
                        - special.gammaln(0.5 * df)) * (d[x] - d[loc] - _z * d[scale]) / scale


# ---- beta -------------------------------------------------------------------------------
@adjoint(stats.beta.logpdf)
def beta_logpdf_adjoint(y, x, a, b, loc=0.0, scale=1.0):
    """see the module docstring"""
    _z = (x - loc) / scale
    _g = d[y] * ((a - 1.0) / _z - (b - 1.0) / (1.0 - _z)) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z - d[y] / scale, scale)
    d[a] += unbroadcast(d[y] * (np.log(_z) - special.digamma(a) + special.digamma(a + b)), a)
    d[b] += unbroadcast(d[y] * (np.log1p(-_z) - special.digamma(b) + special.digamma(a + b)),
                        b)


@tangent(stats.beta.logpdf)
def beta_logpdf_tangent(y, x, a, b, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    _gz = ((a - 1.0) / _z - (b - 1.0) / (1.0 - _z)) / scale
    d[y] = _gz * (d[x] - d[loc] - _z * d[scale]) - d[scale] / scale \
        + (np.log(_z) - special.digamma(a) + special.digamma(a + b)) * d[a] \
        + (np.log1p(-_z) - special.digamma(b) + special.digamma(a + b)) * d[b]


@adjoint(stats.beta.pdf)
def beta_pdf_adjoint(y, x, a, b, loc=0.0, scale=1.0):
    """y times the derivatives of logpdf"""
    _z = (x - loc) / scale
    _g = d[y] * y * ((a - 1.0) / _z - (b - 1.0) / (1.0 - _z)) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z - d[y] * y / scale, scale)
    d[a] += unbroadcast(d[y] * y * (np.log(_z) - special.digamma(a) + special.digamma(a + b)),
                        a)
    d[b] += unbroadcast(d[y] * y * (np.log1p(-_z) - special.digamma(b)
                                    + special.digamma(a + b)), b)


@tangent(stats.beta.pdf)
def beta_pdf_tangent(y, x, a, b, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    _gz = ((a - 1.0) / _z - (b - 1.0) / (1.0 - _z)) / scale
    d[y] = y * (_gz * (d[x] - d[loc] - _z * d[scale]) - d[scale] / scale
                + (np.log(_z) - special.digamma(a) + special.digamma(a + b)) * d[a]
                + (np.log1p(-_z) - special.digamma(b) + special.digamma(a + b)) * d[b])


@adjoint(stats.beta.cdf)
def beta_cdf_adjoint(y, x, a, b, loc=0.0, scale=1.0):
    """d betainc(a, b, z) = p(z) dz"""
    _z = (x - loc) / scale
    _g = d[y] * np.exp((a - 1.0) * np.log(_z) + (b - 1.0) * np.log1p(-_z)
                       - special.betaln(a, b)) / scale
    d[x] += unbroadcast(_g, x)
    d[loc] += unbroadcast(-_g, loc)
    d[scale] += unbroadcast(-_g * _z, scale)
    d[a] += undifferentiated(a)
    d[b] += undifferentiated(b)


@tangent(stats.beta.cdf)
def beta_cdf_tangent(y, x, a, b, loc=0.0, scale=1.0):
    _z = (x - loc) / scale
    d[y] = np.exp((a - 1.0) * np.log(_z) + (b - 1.0) * np.log1p(-_z) - special.betaln(a, b)) \
        * (d[x] - d[loc] - _z * d[scale]) / scale
