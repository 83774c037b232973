"""Spec rows for scipy.linalg's solve_sylvester, solve_banded, solve_triangular, cho_factor,
cho_solve, expm, inv, det, solve and cholesky, and multigammaln (templates/scipy_linalg.py,
templates/scipy_cholesky.py, templates/scipy_linalg_basics.py,
templates/scipy_special_multivariate.py), and the
banded-matrix helpers their derivatives use (runtime_banded.py). Empty when scipy is not
installed. The row functions add a multiple of the identity (of the main diagonal, for a
band) to their random matrices, so that the systems are well conditioned; multigammaln's
argument is mapped above (d - 1) / 2, where it is defined.

scipy.special.gammasgn, the sign of gamma, is piecewise constant: it is registered as
having no derivative (like np.sign), so it has no row here; tests/test_scipy_solvers.py
checks that a function of it differentiates to the derivative of the rest."""
import numpy as np

from primitive_specs import UNARY, Spec
from s2s_ad.runtime_banded import band_of, band_product, transposed_band
from s2s_ad.runtime_triangular import triangle_apply, triangle_outer

try:
    from scipy import linalg, special
except ImportError:                     # pragma: no cover (CI installs scipy)
    linalg = special = None

MODES = ("reverse", "forward")


def sylvester(a, b, q):
    return linalg.solve_sylvester(a + 4.0 * np.eye(a.shape[0]), b + 3.0 * np.eye(b.shape[0]), q)


def banded_tridiagonal(ab, b):
    return linalg.solve_banded((1, 1), ab + np.array([[0.0], [5.0], [0.0]]), b)


def banded_upper(ab, b):
    """(l, u) = (0, 2): upper triangular with two superdiagonals"""
    return linalg.solve_banded((0, 2), ab + np.array([[0.0], [0.0], [5.0]]), b)


def banded_lower_wide(ab, b):
    return linalg.solve_banded((2, 1), ab + np.array([[0.0], [5.0], [0.0], [0.0]]), b)


def triangular_lower(a, b):
    return linalg.solve_triangular(a + 4.0 * np.eye(a.shape[0]), b, lower=True)


def triangular_upper_transposed(a, b):
    """trans='T' with a's upper triangle: the solve with its transpose"""
    return linalg.solve_triangular(a + 4.0 * np.eye(a.shape[0]), b, trans="T")


def triangular_unit_diagonal(a, b):
    """a's diagonal not read (ones): its adjoint there is zero"""
    return linalg.solve_triangular(0.3 * a, b, trans=1, lower=True, unit_diagonal=True)


def triangle_apply_of(m, x):
    return triangle_apply(m, x, "T", True, False)


def triangle_outer_of(g, x):
    return triangle_outer(g, x, 0, False, True)


def multigammaln_3(a):
    return special.multigammaln(2.0 + 0.3 * a * a, 3)


def multigammaln_keyword(a):
    """`d` given by keyword, as scipy names it"""
    return special.multigammaln(1.0 + 0.3 * a * a, d=1)


def transposed_band_of(ab):
    return transposed_band((1, 2), ab)


def band_product_of(ab, x):
    return band_product((2, 1), ab, x)


def band_of_of(g, x):
    return band_of((1, 2), g, x)


def cho_factor_upper(a):
    """a's upper triangle read (the lower one comes back as it is, its derivative too)"""
    return linalg.cho_factor(a + 5.0 * np.eye(a.shape[0]))[0]


def cho_factor_lower(a):
    return linalg.cho_factor(a + 5.0 * np.eye(a.shape[0]), lower=True)[0]


def cho_solve_upper(c, b):
    """c's strictly lower part is not read: its adjoint there is zero"""
    return linalg.cho_solve((c + 3.0 * np.eye(c.shape[0]), False), b)


def cho_solve_lower(c, b):
    return linalg.cho_solve((c + 3.0 * np.eye(c.shape[0]), True), b)


def scipy_inv(a):
    return linalg.inv(a + 4.0 * np.eye(a.shape[-1]))


def scipy_det(a):
    return linalg.det(a + 2.0 * np.eye(a.shape[-1]))


def scipy_solve(a, b):
    """a general A (scipy's default assume_a); b a vector or columns"""
    return linalg.solve(a + 4.0 * np.eye(a.shape[0]), b)


def scipy_cholesky_upper(a):
    """scipy's default: the upper factor, of the symmetric matrix a's upper triangle gives
    (the strictly lower part is not read: its adjoint there is zero)"""
    return linalg.cholesky(a + 5.0 * np.eye(a.shape[-1]))


def scipy_cholesky_lower(a):
    return linalg.cholesky(a + 5.0 * np.eye(a.shape[-1]), lower=True)


def expm_of(a):
    return linalg.expm(0.5 * a)


SPECS = [] if linalg is None else [
    Spec(linalg.solve_sylvester, sylvester,
         [((3, 3), (2, 2), (3, 2)), ((1, 1), (1, 1), (1, 1)), ((4, 4), (4, 4), (4, 4))],
         modes=MODES),
    Spec(linalg.solve_banded, banded_tridiagonal, [((3, 5), (5,)), ((3, 4), (4, 3))],
         modes=MODES),
    Spec(linalg.solve_banded, banded_upper, [((3, 5), (5,)), ((3, 4), (4, 2))], modes=MODES),
    Spec(linalg.solve_banded, banded_lower_wide, [((4, 5), (5, 2)), ((4, 1), (1,))],
         modes=MODES),
    Spec(linalg.solve_triangular, triangular_lower, [((3, 3), (3,)), ((1, 1), (1, 2)),
                                                     ((4, 4), (4, 3))], modes=MODES),
    Spec(linalg.solve_triangular, triangular_upper_transposed, [((3, 3), (3,)),
                                                                ((3, 3), (3, 2))], modes=MODES),
    Spec(linalg.solve_triangular, triangular_unit_diagonal, [((3, 3), (3,)), ((4, 4), (4, 2))],
         modes=MODES),
    Spec(triangle_apply, triangle_apply_of, [((3, 3), (3,)), ((3, 3), (3, 2))], modes=MODES),
    Spec(triangle_outer, triangle_outer_of, [((3,), (3,)), ((3, 2), (3, 2))], modes=MODES),
    Spec(special.multigammaln, multigammaln_3, UNARY + [((2, 1, 3),)], modes=MODES),
    Spec(special.multigammaln, multigammaln_keyword, UNARY, modes=MODES),
    Spec(transposed_band, transposed_band_of, [((4, 5),), ((4, 2),)], modes=MODES),
    Spec(band_product, band_product_of, [((4, 5), (5,)), ((4, 5), (5, 3))], modes=MODES),
    Spec(band_of, band_of_of, [((5,), (5,)), ((5, 3), (5, 3))], modes=MODES),
    Spec(linalg.cho_factor, cho_factor_upper, [((3, 3),), ((1, 1),), ((4, 4),)], modes=MODES),
    Spec(linalg.cho_factor, cho_factor_lower, [((3, 3),), ((4, 4),)], modes=MODES),
    Spec(linalg.cho_solve, cho_solve_upper, [((3, 3), (3,)), ((1, 1), (1, 2)),
                                             ((4, 4), (4, 3))], modes=MODES),
    Spec(linalg.cho_solve, cho_solve_lower, [((3, 3), (3,)), ((4, 4), (4, 2))], modes=MODES),
    Spec(linalg.inv, scipy_inv, [((3, 3),), ((1, 1),), ((2, 3, 3),)], modes=MODES),
    Spec(linalg.det, scipy_det, [((3, 3),), ((1, 1),), ((2, 3, 3),)], modes=MODES),
    Spec(linalg.solve, scipy_solve, [((3, 3), (3,)), ((1, 1), (1, 2)), ((4, 4), (4, 3))],
         modes=MODES),
    Spec(linalg.cholesky, scipy_cholesky_upper, [((3, 3),), ((1, 1),), ((2, 4, 4),)],
         modes=MODES),
    Spec(linalg.cholesky, scipy_cholesky_lower, [((3, 3),), ((4, 4),)], modes=MODES),
    Spec(linalg.expm, expm_of, [((1, 1),), ((3, 3),), ((2, 3, 3),)], modes=MODES),
]
