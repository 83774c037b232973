"""np.sinc and the derivatives of every order its templates call
(runtime_sinc.sinc_derivative, which numpy does not have):

    d sinc(x) = sinc_derivative(x, 1) dx
    d sinc_derivative(x, n) = sinc_derivative(x, n + 1) dx

So grad of grad of sinc is right at x = 0 too (-pi**2 / 3), where a first derivative
written as np.where(x == 0, 0, (cos(pi x) - sinc(x)) / x) would differentiate to 0.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_sinc import sinc_derivative


@adjoint(np.sinc)
def sinc_adjoint(y, x):
    """d sin(pi x) / (pi x) = sinc'(x) dx (0 at x = 0)"""
    d[x] += d[y] * sinc_derivative(x, 1)


@tangent(np.sinc)
def sinc_tangent(y, x):
    d[y] = d[x] * sinc_derivative(x, 1)


@adjoint(sinc_derivative)
def sinc_derivative_adjoint(out, x, order=1):
    """d sinc^(n)(x) = sinc^(n+1)(x) dx"""
    d[x] += d[out] * sinc_derivative(x, order + 1)


@tangent(sinc_derivative)
def sinc_derivative_tangent(out, x, order=1):
    d[out] = d[x] * sinc_derivative(x, order + 1)
