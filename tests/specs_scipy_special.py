"""Spec rows for scipy.special and scipy.stats.norm (templates/scipy_special.py,
templates/scipy_stats.py) and the runtime helper logsumexp_weights. Empty when scipy is
not installed (it is an optional dependency; `pip install -e ".[test]"` installs it).

Domains: arguments are mapped into each function's domain inside the row's function
(logit on (0, 1), erfcinv on (0, 2), ndtri on (0, 1)), orders and axes are literals, and
non-integer Bessel orders take positive arguments.
"""
import numpy as np

from primitive_specs import BINARY, POSITIVE, REAL, UNARY, UNIT, Spec
from s2s_ad.runtime_arrays import logsumexp_weights

try:
    import scipy.special as special
    import scipy.stats as stats
except ImportError:                     # pragma: no cover (CI installs scipy)
    special = stats = None

MODES = ("reverse", "forward")


def expit(x):
    return special.expit(x)


def log_expit(x):
    return special.log_expit(x)


def logit(x):
    return special.logit(0.5 + 0.45 * x)


def gammaln(x):
    return special.gammaln(x)


def gamma(x):
    return special.gamma(x)


def digamma(x):
    return special.digamma(x)


def psi(x):
    return special.psi(x)


def polygamma_1(x):
    return special.polygamma(1, x)


def polygamma_2(x):
    return special.polygamma(2, x)


def betaln(a, b):
    return special.betaln(a, b)


def beta(a, b):
    return special.beta(a, b)


def erf(x):
    return special.erf(x)


def erfc(x):
    return special.erfc(x)


def erfinv(x):
    return special.erfinv(x)


def erfcinv(x):
    return special.erfcinv(1.0 + x)


def ndtr(x):
    return special.ndtr(x)


def ndtri(x):
    return special.ndtri(0.5 + 0.45 * x)


def log_ndtr(x):
    return special.log_ndtr(3.0 * x)


def xlogy(x, y):
    return special.xlogy(x, y)


def xlogy_zeros(x, y):
    """x = 0 in places (xlogy is 0 there whatever y is)"""
    return special.xlogy(x * (x > 0.0), y)


def xlog1py(x, y):
    return special.xlog1py(x, y)


def entr(x):
    return special.entr(x)


def i0(x):
    return special.i0(x)


def i1(x):
    return special.i1(x)


def i0e(x):
    return special.i0e(x)


def i1e(x):
    return special.i1e(x)


def iv_integer(x):
    return special.iv(2, x)


def iv_fraction(x):
    return special.iv(1.5, x)


def ive_integer(x):
    return special.ive(3, x)


def ive_fraction(x):
    return special.ive(0.5, x)


def logsumexp_all(a):
    return special.logsumexp(a)


def logsumexp_rows(a):
    return special.logsumexp(a, axis=-1, return_sign=False)


def logsumexp_keepdims(a):
    return special.logsumexp(a, 0, keepdims=True)


def logsumexp_tuple_axis(a):
    return special.logsumexp(a, axis=(0, 1))


def logsumexp_weighted(a, b):
    return special.logsumexp(a, b=b)


def logsumexp_weighted_axis(a, b):
    return special.logsumexp(a, axis=-1, b=b)


def softmax_all(x):
    return special.softmax(x)


def softmax_last(x):
    return special.softmax(x, axis=-1)


def softmax_first(x):
    return special.softmax(x, 0)


def log_softmax_all(x):
    return special.log_softmax(x)


def log_softmax_last(x):
    return special.log_softmax(x, axis=-1)


def log_softmax_first(x):
    return special.log_softmax(x, 0)


SPD = np.array([[2.0, 0.3, -0.2], [0.3, 1.5, 0.1], [-0.2, 0.1, 1.8]])


def mvn_logpdf(x, mean, a):
    """cov = SPD + a / 10: scipy reads cov's lower triangle, a is not symmetric"""
    return stats.multivariate_normal.logpdf(x, mean, SPD + 0.1 * a)


def mvn_logpdf_built(x, mean, a):
    """a covariance built symmetric, as a Gaussian process's kernel matrix is"""
    return stats.multivariate_normal.logpdf(x, mean=mean, cov=a @ a.T + np.eye(3))


def t_logpdf(x, df, loc, scale):
    return stats.t.logpdf(x, df, loc, scale)


def t_logpdf_standard(x, df):
    return stats.t.logpdf(x, df)


def norm_logpdf(x, loc, scale):
    return stats.norm.logpdf(x, loc, scale)


def norm_logpdf_standard(x):
    return stats.norm.logpdf(x)


def norm_pdf(x, loc, scale):
    return stats.norm.pdf(x, loc=loc, scale=scale)


def norm_cdf(x, loc, scale):
    return stats.norm.cdf(x, loc, scale)


def norm_logcdf(x, loc, scale):
    return stats.norm.logcdf(x, loc, scale)


def norm_sf(x, loc, scale):
    return stats.norm.sf(x, loc, scale)


def norm_logsf(x, loc, scale):
    return stats.norm.logsf(x, loc, scale)


def weights_plain(a, y):
    return logsumexp_weights(a, y, -1)


def weights_keepdims(a, y):
    return logsumexp_weights(a, y, 0, None, True)


def weights_with_b(a, y, b):
    return logsumexp_weights(a, y, 1, b)


ROWS = [((4,),), ((3, 4),), ((2, 3, 4),)]
REDUCED_ROWS = [((4,), ()), ((3, 4), (3,)), ((2, 3, 4), (2, 3))]
MIXTURE = [((4,), (4,)), ((3, 4), (4,)), ((3, 4), (3, 1)), ((3, 4), ()), ((), ())]
MVN = [((3,), (3,), (3, 3)), ((4, 3), (3,), (3, 3)), ((2, 4, 3), (3,), (3, 3))]
NORM = [((), (), ()), ((4,), (4,), ()), ((3, 4), (4,), (3, 1)), ((3, 4), (), (4,))]
SPECS = [] if special is None else [
    Spec(special.expit, expit, UNARY, modes=MODES),
    Spec(special.log_expit, log_expit, UNARY, modes=MODES),
    Spec(special.logit, logit, UNARY, (UNIT,), modes=MODES),
    Spec(special.gammaln, gammaln, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.gamma, gamma, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.digamma, digamma, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.digamma, psi, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.polygamma, polygamma_1, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.polygamma, polygamma_2, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.betaln, betaln, BINARY, (POSITIVE,), modes=MODES),
    Spec(special.beta, beta, BINARY, (POSITIVE,), modes=MODES),
    Spec(special.erf, erf, UNARY, modes=MODES),
    Spec(special.erfc, erfc, UNARY, modes=MODES),
    Spec(special.erfinv, erfinv, UNARY, (UNIT,), modes=MODES),
    Spec(special.erfcinv, erfcinv, UNARY, (UNIT,), modes=MODES),
    Spec(special.ndtr, ndtr, UNARY, modes=MODES),
    Spec(special.ndtri, ndtri, UNARY, (UNIT,), modes=MODES),
    Spec(special.log_ndtr, log_ndtr, UNARY, modes=MODES),
    Spec(special.xlogy, xlogy, BINARY, (REAL, POSITIVE), modes=MODES),
    Spec(special.xlogy, xlogy_zeros, BINARY, (REAL, POSITIVE), modes=MODES),
    Spec(special.xlog1py, xlog1py, BINARY, (REAL, POSITIVE), modes=MODES),
    Spec(special.entr, entr, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.i0, i0, UNARY, modes=MODES),
    Spec(special.i1, i1, UNARY, modes=MODES),
    Spec(special.i0e, i0e, UNARY, modes=MODES),
    Spec(special.i1e, i1e, UNARY, modes=MODES),
    Spec(special.iv, iv_integer, UNARY, modes=MODES),
    Spec(special.iv, iv_fraction, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.ive, ive_integer, UNARY, modes=MODES),
    Spec(special.ive, ive_fraction, UNARY, (POSITIVE,), modes=MODES),
    Spec(special.logsumexp, logsumexp_all, UNARY, modes=MODES),
    Spec(special.logsumexp, logsumexp_rows, ROWS, modes=MODES),
    Spec(special.logsumexp, logsumexp_keepdims, ROWS, modes=MODES),
    Spec(special.logsumexp, logsumexp_tuple_axis, [((3, 4),), ((2, 3, 4),)], modes=MODES),
    Spec(special.logsumexp, logsumexp_weighted, MIXTURE, (REAL, POSITIVE), modes=MODES),
    Spec(special.logsumexp, logsumexp_weighted_axis, MIXTURE[:4], (REAL, POSITIVE),
         modes=MODES),
    Spec(special.softmax, softmax_all, UNARY, modes=MODES),
    Spec(special.softmax, softmax_last, ROWS, modes=MODES),
    Spec(special.softmax, softmax_first, ROWS, modes=MODES),
    Spec(special.log_softmax, log_softmax_all, UNARY, modes=MODES),
    Spec(special.log_softmax, log_softmax_last, ROWS, modes=MODES),
    Spec(special.log_softmax, log_softmax_first, ROWS, modes=MODES),
    Spec(stats.norm.logpdf, norm_logpdf, NORM, (REAL, REAL, POSITIVE), modes=MODES),
    Spec(stats.t.logpdf, t_logpdf, [((4,), (), (4,), ()), ((3, 4), (4,), (), (3, 1))],
         (REAL, POSITIVE, REAL, POSITIVE), modes=MODES),
    Spec(stats.t.logpdf, t_logpdf_standard, [((), ()), ((4,), ())], (REAL, POSITIVE),
         modes=MODES),
    Spec(stats.multivariate_normal.logpdf, mvn_logpdf, MVN, modes=MODES),
    Spec(stats.multivariate_normal.logpdf, mvn_logpdf_built, MVN, modes=MODES),
    Spec(stats.norm.logpdf, norm_logpdf_standard, UNARY, modes=MODES),
    Spec(stats.norm.pdf, norm_pdf, NORM, (REAL, REAL, POSITIVE), modes=MODES),
    Spec(stats.norm.cdf, norm_cdf, NORM, (REAL, REAL, POSITIVE), modes=MODES),
    Spec(stats.norm.logcdf, norm_logcdf, NORM, (REAL, REAL, POSITIVE), modes=MODES),
    Spec(stats.norm.sf, norm_sf, NORM, (REAL, REAL, POSITIVE), modes=MODES),
    Spec(stats.norm.logsf, norm_logsf, NORM, (REAL, REAL, POSITIVE), modes=MODES),
    Spec(logsumexp_weights, weights_plain, REDUCED_ROWS, modes=MODES),
    Spec(logsumexp_weights, weights_keepdims, [((3, 4), (1, 4))], modes=MODES),
    Spec(logsumexp_weights, weights_with_b, [((3, 4), (3,), (4,)), ((3, 4), (3,), (3, 4))],
         (REAL, REAL, POSITIVE), modes=MODES),
]
