"""Spec rows for scipy.stats.gamma, chi2 and beta's logpdf, pdf and cdf
(templates/scipy_stats_gamma_beta.py), in x, the shape parameters (not the cdfs'), loc and
scale; scipy.stats.t's pdf, cdf and logcdf and poisson's logpmf, pmf and cdf in mu
(templates/scipy_stats_t_poisson.py; counts fixed). Empty when scipy is not installed. Arguments are mapped into each distribution's
support inside the row's function (x - loc > 0, and below loc + scale for beta)."""
import numpy as np

from primitive_specs import POSITIVE, REAL, UNARY, Spec

try:
    import scipy.stats as stats
except ImportError:                     # pragma: no cover (CI installs scipy)
    stats = None

MODES = ("reverse", "forward")
THREE = [((), (), ()), ((4,), (4,), ()), ((3, 4), (4,), (3, 1))]


def gamma_logpdf(x, a, scale):
    return stats.gamma.logpdf(x + 0.5, a + 0.5, 0.2, scale)


def gamma_pdf(x, a, scale):
    return stats.gamma.pdf(x + 0.5, a, loc=0.1, scale=scale)


def gamma_cdf(x, loc, scale):
    return stats.gamma.cdf(x + 1.0, 2.5, loc * 0.2, scale)


def chi2_logpdf(x, df, scale):
    return stats.chi2.logpdf(x + 0.5, df + 1.0, 0.2, scale)


def chi2_pdf(x, df, scale):
    return stats.chi2.pdf(x, df + 1.0, scale=scale)


def chi2_cdf(x, loc, scale):
    return stats.chi2.cdf(x + 1.0, 3.0, loc * 0.2, scale)


def beta_logpdf(x, a, b):
    return stats.beta.logpdf(0.2 + 0.3 * x, a + 0.5, b + 0.5, 0.1, 1.2)


def beta_pdf(x, a, b):
    return stats.beta.pdf(0.2 + 0.3 * x, a, b)


def beta_cdf(x, loc, scale):
    return stats.beta.cdf(0.5 + 0.2 * x, 2.5, 1.5, 0.1 * loc, scale + 1.0)


def t_pdf(x, df, scale):
    return stats.t.pdf(x, df + 2.0, 0.3, scale)


def t_cdf(x, loc, scale):
    return stats.t.cdf(x, 3.5, loc, scale)


def t_logcdf(x, loc, scale):
    return stats.t.logcdf(x, 2.5, loc=loc, scale=scale)


COUNTS = np.array([0.0, 1.0, 4.0, 2.0])


def poisson_logpmf(mu):
    return stats.poisson.logpmf(COUNTS[:np.shape(mu)[-1]] if np.ndim(mu) else 3.0, mu)


def poisson_pmf(mu):
    return stats.poisson.pmf(COUNTS[:np.shape(mu)[-1]] if np.ndim(mu) else 2.0, mu)


def poisson_cdf(mu):
    return stats.poisson.cdf(COUNTS[:np.shape(mu)[-1]] if np.ndim(mu) else 1.0, mu)


SPECS = [] if stats is None else [
    Spec(stats.gamma.logpdf, gamma_logpdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.gamma.pdf, gamma_pdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.gamma.cdf, gamma_cdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.chi2.logpdf, chi2_logpdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.chi2.pdf, chi2_pdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.chi2.cdf, chi2_cdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.beta.logpdf, beta_logpdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.beta.pdf, beta_pdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.beta.cdf, beta_cdf, THREE, (POSITIVE,), modes=MODES),
    Spec(stats.t.pdf, t_pdf, THREE, (REAL, POSITIVE, POSITIVE), modes=MODES),
    Spec(stats.t.cdf, t_cdf, THREE, (REAL, REAL, POSITIVE), modes=MODES),
    Spec(stats.t.logcdf, t_logcdf, THREE, (REAL, REAL, POSITIVE), modes=MODES),
    Spec(stats.poisson.logpmf, poisson_logpmf, UNARY, (POSITIVE,), modes=MODES),
    Spec(stats.poisson.pmf, poisson_pmf, UNARY, (POSITIVE,), modes=MODES),
    Spec(stats.poisson.cdf, poisson_cdf, UNARY, (POSITIVE,), modes=MODES),
]
