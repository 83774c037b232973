"""Templates of the helpers of np.poly's and np.polydiv's derivatives
(s2s_ad/runtime_polynomials.py), for their second and later derivatives: each
poly_derivative's derivative is the next order's, so its adjoint contracts that with
out_bar; banded is linear in its
coefficients, with unbanded its adjoint (and banded unbanded's)."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, nondifferentiable, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_polynomials import banded, division_sizes, poly_derivative, unbanded

nondifferentiable(division_sizes)       # lengths


@adjoint(poly_derivative)
def poly_derivative_adjoint(out, r, order=1):
    """r_bar_j = the sum over out's entries of out_bar times their derivative in r_j (the
    derivative of the next order)"""
    d[r] += reshape_like(np.tensordot(unbroadcast(d[out], out), poly_derivative(r, order + 1),
                                      order + 1), r)


@tangent(poly_derivative)
def poly_derivative_tangent(out, r, order=1):
    """d out = (the next derivative) dr"""
    d[out] = poly_derivative(r, order + 1) @ np.ravel(d[r])


@adjoint(banded)
def banded_adjoint(out, a, rows, cols):
    """linear in a: the diagonal sums of out_bar"""
    d[a] += reshape_like(unbanded(unbroadcast(d[out], out), np.size(a)), a)


@tangent(banded)
def banded_tangent(out, a, rows, cols):
    d[out] = banded(d[a], rows, cols)


@adjoint(unbanded)
def unbanded_adjoint(out, g, size):
    """linear in g: out_bar laid along g's diagonals"""
    d[g] += banded(d[out], np.shape(g)[0], np.shape(g)[1])


@tangent(unbanded)
def unbanded_tangent(out, g, size):
    d[out] = unbanded(d[g], size)
