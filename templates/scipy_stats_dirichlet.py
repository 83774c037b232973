"""scipy.stats.dirichlet.logpdf(x, alpha) and pdf (an optional dependency, loaded once the user's
code has imported scipy.stats; see templates/__init__.py). x holds the components along
its first axis (all K of them, or K - 1 with the last 1 - sum(x)); alpha has K entries.
With x the full point (runtime_simplex.simplex_point):

    logpdf  sum_i (alpha_i - 1) log x_i - sum_i gammaln(alpha_i) + gammaln(sum alpha):
            dx_i = (alpha_i - 1) / x_i   (for K - 1 given components, minus the last's:
            runtime_simplex.simplex_adjoint),
            dalpha_i = log x_i - digamma(alpha_i) + digamma(sum alpha)
    pdf     exp(logpdf): y times those

Computed with x transposed, components last, so alpha broadcasts against every point (as
scipy computes it); the derivative is made of functions with templates, so second order
works. scipy squeezes a single point's result to a number: the tangent takes y's shape.
"""
import numpy as np
from scipy import special, stats

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_simplex import simplex_adjoint, simplex_extension, simplex_point


@adjoint(stats.dirichlet.logpdf)
def dirichlet_logpdf_adjoint(y, x, alpha):
    """see the module docstring"""
    _xt = np.transpose(simplex_point(x, np.shape(alpha)[0]))
    _g = np.expand_dims(np.transpose(d[y]), -1)
    d[x] += simplex_adjoint(np.transpose(_g * (alpha - 1.0) / _xt), x)
    d[alpha] += unbroadcast(_g * (np.log(_xt) - special.digamma(alpha)
                                  + special.digamma(np.sum(alpha))), alpha)


@tangent(stats.dirichlet.logpdf)
def dirichlet_logpdf_tangent(y, x, alpha):
    _xt = np.transpose(simplex_point(x, np.shape(alpha)[0]))
    d[y] = np.reshape(np.transpose(np.sum(
        np.transpose(simplex_extension(d[x], np.shape(alpha)[0])) * (alpha - 1.0) / _xt
        + d[alpha] * (np.log(_xt) - special.digamma(alpha) + special.digamma(np.sum(alpha))),
        axis=-1)), np.shape(y))


@adjoint(stats.dirichlet.pdf)
def dirichlet_pdf_adjoint(y, x, alpha):
    """y times logpdf's (see the module docstring)"""
    _xt = np.transpose(simplex_point(x, np.shape(alpha)[0]))
    _g = np.expand_dims(np.transpose(d[y] * y), -1)
    d[x] += simplex_adjoint(np.transpose(_g * (alpha - 1.0) / _xt), x)
    d[alpha] += unbroadcast(_g * (np.log(_xt) - special.digamma(alpha)
                                  + special.digamma(np.sum(alpha))), alpha)


@tangent(stats.dirichlet.pdf)
def dirichlet_pdf_tangent(y, x, alpha):
    _xt = np.transpose(simplex_point(x, np.shape(alpha)[0]))
    d[y] = y * np.reshape(np.transpose(np.sum(
        np.transpose(simplex_extension(d[x], np.shape(alpha)[0])) * (alpha - 1.0) / _xt
        + d[alpha] * (np.log(_xt) - special.digamma(alpha) + special.digamma(np.sum(alpha))),
        axis=-1)), np.shape(y))
