"""Spec rows for np.poly and np.polydiv (templates/numpy_polynomial_roots.py), np.i0
(templates/numpy_bessel.py) and the helpers their derivatives call for second order
(runtime_polynomials.py: poly_derivative, banded, unbanded; runtime_bessel.py: bessel_i1;
runtime_sinc.py: sinc_derivative, whose rows reach both its series and its closed form).
np.polydiv's divisors are kept away from a zero leading coefficient (NONZERO), and its
remainder rows use every coefficient of q and r."""
import numpy as np

from primitive_specs import NONZERO, REAL, Spec
from s2s_ad.runtime_bessel import bessel_i1
from s2s_ad.runtime_polynomials import banded, poly_derivative, unbanded
from s2s_ad.runtime_sinc import sinc_derivative

BOTH = ("reverse", "forward")


def poly_of(r):
    return np.poly(r)


def poly_squared_roots(r):
    return np.poly(r * r) * np.poly(r)[:1]


def polydiv_of(u, v):
    q, r = np.polydiv(u, v)
    return np.concatenate((q * q, np.sin(r)))


def polydiv_quotient(u, v):
    return np.polydiv(u, v)[0]


def polydiv_shorter(u, v):
    """u shorter than v: q = [0.], r = u"""
    q, r = np.polydiv(u, v)
    return np.concatenate((q, r * r))


def i0_of(x):
    return np.i0(x)


def i0_product(x, y):
    return np.i0(x * y)


def use_poly_derivative(r):
    return poly_derivative(r, 1) + np.sum(poly_derivative(r * r, 2), axis=-1)


def use_banded(a):
    return banded(a, 5, 3) + banded(a * a, 5, 3)


def use_unbanded(g):
    return unbanded(g, 3) * unbanded(g * g, 3)


def use_bessel_i1(x):
    return bessel_i1(x)


def use_sinc_derivative(x):
    """first and third order, at x and at 0.2 x (|pi x| < 1 takes the series)"""
    return sinc_derivative(x, 1) + sinc_derivative(0.2 * x, 3) * x


SPECS = [
    Spec(np.poly, poly_of, [((1,),), ((3,),), ((5,),)], modes=BOTH),
    Spec(np.poly, poly_squared_roots, [((4,),)], modes=BOTH),
    Spec(np.polydiv, polydiv_of, [((6,), (3,)), ((4,), (4,)), ((5,), ())],
         (REAL, NONZERO), modes=BOTH),
    Spec(np.polydiv, polydiv_quotient, [((5,), (2,)), ((), ())], (REAL, NONZERO), modes=BOTH),
    Spec(np.polydiv, polydiv_shorter, [((2,), (4,))], (REAL, NONZERO), modes=BOTH),
    Spec(np.i0, i0_of, [((),), ((5,),), ((3, 4),)], modes=BOTH),
    Spec(np.i0, i0_product, [((3, 4), (4,)), ((2, 1), (1, 3)), ((), (3,))], modes=BOTH),
    Spec(poly_derivative, use_poly_derivative, [((1,),), ((4,),)], modes=BOTH),
    Spec(banded, use_banded, [((3,),), ((6,),)], modes=BOTH),
    Spec(unbanded, use_unbanded, [((4, 2),), ((2, 5),)], modes=BOTH),
    Spec(bessel_i1, use_bessel_i1, [((),), ((6,),), ((2, 3),)], modes=BOTH),
    Spec(sinc_derivative, use_sinc_derivative, [((),), ((6,),), ((2, 3),), ((1, 4),)],
         modes=BOTH),
]
