"""np.i0, the modified Bessel function of the first kind of order 0, and the order-1
function its derivative is (runtime_bessel.bessel_i1, which numpy does not have):

    d i0(x) = i1(x) dx
    d i1(x) = (i0(x) - i1(x) / x) dx      (1/2 at x = 0, where i1(x) / x -> 1/2)

Each derivative is made of np.i0, bessel_i1 and elementwise arithmetic: differentiable
again to any order.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_bessel import bessel_i1


@adjoint(np.i0)
def i0_adjoint(y, x):
    """d i0(x) = i1(x) dx"""
    d[x] += d[y] * bessel_i1(x)


@tangent(np.i0)
def i0_tangent(y, x):
    d[y] = d[x] * bessel_i1(x)


@adjoint(bessel_i1)
def bessel_i1_adjoint(out, x):
    """d i1(x) = (i0(x) - i1(x) / x) dx, 1/2 at x = 0"""
    d[x] += d[out] * (np.i0(x) - np.where(x == 0.0, 0.5, out / np.where(x == 0.0, 1.0, x)))


@tangent(bessel_i1)
def bessel_i1_tangent(out, x):
    d[out] = d[x] * (np.i0(x) - np.where(x == 0.0, 0.5, out / np.where(x == 0.0, 1.0, x)))
