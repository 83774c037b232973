"""Spec rows for scipy.stats.gamma, chi2 and beta's logpdf, pdf and cdf
(templates/scipy_stats_gamma_beta.py), in x, the shape parameters (not the cdfs'), loc and
scale. Empty when scipy is not installed. Arguments are mapped into each distribution's
support inside the row's function (x - loc > 0, and below loc + scale for beta)."""
import numpy as np

from primitive_specs import POSITIVE, Spec

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
]
