"""Reverse and forward templates of the simplex helpers in runtime_simplex.py (the
derivatives of scipy.stats.dirichlet.logpdf, templates/scipy_stats_dirichlet.py), for
second order. simplex_point is affine in x, the other two linear; k is an integer."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_simplex import simplex_adjoint, simplex_extension, simplex_point


@adjoint(simplex_point)
def simplex_point_adjoint(y, x, k):
    d[x] += simplex_adjoint(d[y], x)


@tangent(simplex_point)
def simplex_point_tangent(y, x, k):
    d[y] = simplex_extension(d[x], k)


@adjoint(simplex_extension)
def simplex_extension_adjoint(y, v, k):
    d[v] += simplex_adjoint(d[y], v)


@tangent(simplex_extension)
def simplex_extension_tangent(y, v, k):
    d[y] = simplex_extension(d[v], k)


@adjoint(simplex_adjoint)
def simplex_adjoint_adjoint(y, g, x):
    d[g] += simplex_extension(d[y], np.shape(g)[0])


@tangent(simplex_adjoint)
def simplex_adjoint_tangent(y, g, x):
    d[y] = simplex_adjoint(d[g], x)
