"""scipy.special's multivariate gamma function and the sign of gamma (an optional
dependency, loaded like scipy_special once the user's code has imported scipy.special).
With y the result:

    multigammaln(a, d)   sum over j < d of gammaln(a - j/2) (plus a constant):
                         da = sum over j < d of digamma(a - j/2)
    gammasgn(x)          the sign of gamma(x): piecewise constant, its derivative is zero
                         (and undefined at the poles 0, -1, -2, ... where it jumps)

The dimension d is an integer: not differentiated. Its parameter is called `d` as scipy
calls it (the template language tells `d[a]`, a derivative, from the plain name `d`).
The derivative is made of functions with templates, so second order works.
"""
import numpy as np
from scipy import special

# (`d` is not imported here: in these templates it is scipy's dimension parameter, and
# `d[a]` still names a derivative; templates are parsed, never run)
from s2s_ad.ad.template_dsl import adjoint, nondifferentiable, tangent


@adjoint(special.multigammaln)
def multigammaln_adjoint(y, a, d):
    """d multigammaln(a, d) = sum_j digamma(a - j/2) da"""
    d[a] += d[y] * np.sum(special.digamma(np.expand_dims(a, -1) - 0.5 * np.arange(d)),
                          axis=-1)


@tangent(special.multigammaln)
def multigammaln_tangent(y, a, d):
    d[y] = d[a] * np.sum(special.digamma(np.expand_dims(a, -1) - 0.5 * np.arange(d)), axis=-1)


nondifferentiable(special.gammasgn)
