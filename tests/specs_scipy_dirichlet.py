"""Spec rows for scipy.stats.dirichlet.logpdf and pdf (templates/scipy_stats_dirichlet.py) and the
simplex helpers its derivatives use (runtime_simplex.py). Empty when scipy is not
installed. scipy checks that x lies on the simplex, so the rows map their random input
there with a softmax over the first axis (the components): for all K components, or K - 1
of them (the last one dropped, as scipy also takes x); alpha is mapped above 0."""
import numpy as np

from primitive_specs import Spec
from s2s_ad.runtime_simplex import simplex_adjoint, simplex_extension, simplex_point

try:
    import scipy.stats as stats
except ImportError:                     # pragma: no cover (CI installs scipy)
    stats = None

MODES = ("reverse", "forward")
ALPHA = np.array([1.5, 2.0, 3.0])
POINTS = np.array([[0.2, 0.1, 0.4, 0.3], [0.3, 0.6, 0.2, 0.3], [0.5, 0.3, 0.4, 0.4]])


def _on_simplex(z):
    # in float64 (float32 rows too): scipy checks that the components sum to 1 within 1e-9
    z = z + np.zeros(np.shape(z))
    e = np.exp(z - np.max(z, axis=0))
    return e / np.sum(e, axis=0)


def dirichlet_x(z):
    return stats.dirichlet.logpdf(_on_simplex(z), ALPHA)


def dirichlet_x_but_last(z):
    return stats.dirichlet.logpdf(_on_simplex(z)[:-1], ALPHA)


def dirichlet_alpha(a):
    return stats.dirichlet.logpdf(POINTS[:, :np.shape(a)[-1] + 1], 0.5 + a * a)


def dirichlet_both(z, a):
    return stats.dirichlet.logpdf(_on_simplex(z)[:-1], 0.5 + a * a)


def dirichlet_pdf(z, a):
    return stats.dirichlet.pdf(_on_simplex(z), 0.5 + a * a)


def dirichlet_pdf_but_last(z):
    return stats.dirichlet.pdf(_on_simplex(z)[:-1], ALPHA)


def simplex_point_of(x):
    return simplex_point(x, 3)


def simplex_extension_of(v):
    return simplex_extension(v, 3)


def simplex_adjoint_of(g):
    return simplex_adjoint(g, np.zeros((2,) + np.shape(g)[1:]))


SPECS = [] if stats is None else [
    Spec(stats.dirichlet.logpdf, dirichlet_x, [((3,),), ((3, 4),), ((3, 1),)], modes=MODES),
    Spec(stats.dirichlet.logpdf, dirichlet_x_but_last, [((3,),), ((3, 4),)], modes=MODES),
    Spec(stats.dirichlet.logpdf, dirichlet_alpha, [((3,),)], modes=MODES),
    Spec(stats.dirichlet.logpdf, dirichlet_both, [((3, 4), (3,)), ((3,), (3,))], modes=MODES),
    Spec(stats.dirichlet.pdf, dirichlet_pdf, [((3, 4), (3,)), ((3,), (3,))], modes=MODES),
    Spec(stats.dirichlet.pdf, dirichlet_pdf_but_last, [((3,),), ((3, 2),)], modes=MODES),
    Spec(simplex_point, simplex_point_of, [((2,),), ((2, 4),), ((3, 4),)], modes=MODES),
    Spec(simplex_extension, simplex_extension_of, [((2,),), ((2, 4),)], modes=MODES),
    Spec(simplex_adjoint, simplex_adjoint_of, [((3,),), ((3, 4),)], modes=MODES),
]
