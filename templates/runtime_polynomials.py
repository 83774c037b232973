"""Templates of the helpers of np.poly's and np.polydiv's derivatives
(s2s_ad/runtime_polynomials.py), for their second derivatives: dJ = H dr with H =
poly_hessian(r), so J's adjoint contracts H with J_bar; banded is linear in its
coefficients, with unbanded its adjoint (and banded unbanded's)."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, nondifferentiable, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_polynomials import banded, division_sizes, poly_hessian, poly_jacobian, \
    unbanded

nondifferentiable(division_sizes)       # lengths


@adjoint(poly_jacobian)
def poly_jacobian_adjoint(out, r):
    """r_bar_j = sum_ki J_bar[k, i] H[k, i, j]"""
    d[r] += reshape_like(np.einsum("ki,kij->j", unbroadcast(d[out], out), poly_hessian(r)), r)


@tangent(poly_jacobian)
def poly_jacobian_tangent(out, r):
    """dJ = H dr"""
    d[out] = np.einsum("kij,j->ki", poly_hessian(r), np.ravel(d[r]))


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
