"""scipy.linalg's inv, det, solve and cholesky (an optional dependency, loaded once the
user's code has imported scipy.linalg; see templates/__init__.py): the same derivatives as
np.linalg's (templates/numpy_linalg.py), for scipy's signatures.

    inv(a)      d inv(A) = -inv(A) dA inv(A).
    det(a)      d det(A) = det(A) trace(inv(A) dA).
    solve(a, b) a general square A (assume_a left out: a structured A, of which scipy reads
        one triangle or band, is refused by name); b a vector (n,) or columns (n, k), as
        np.linalg.solve's for a 2-D A. d x = solve(A, dB - dA X).
    cholesky(a, lower)   scipy's default is the UPPER factor U = L^T, of the symmetric S
        whose upper triangle is a's (lower=True: L of S read from a's lower triangle, as
        np.linalg.cholesky). The upper case is the lower one of a^T, transposed; the
        derivative of L is np.linalg.cholesky's: L phi(inv(L) dS inv(L)^T).

Each is made of numpy operations and runtime_triangular helpers with templates, so second
order works.
"""
import numpy as np
from scipy import linalg

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_linalg import as_columns, matmul_adjoint_a
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_triangular import (halved_diagonal, lower_congruence, lower_inverse,
                                       lower_of_upper_product)


@adjoint(linalg.inv)
def inv_adjoint(y, a, overwrite_a=False, check_finite=True):
    """A_bar = -inv(A)^T y_bar inv(A)^T"""
    d[a] += -(np.swapaxes(y, -1, -2) @ d[y] @ np.swapaxes(y, -1, -2))


@tangent(linalg.inv)
def inv_tangent(y, a, overwrite_a=False, check_finite=True):
    d[y] = -(y @ d[a] @ y)


@adjoint(linalg.det)
def det_adjoint(y, a, overwrite_a=False, check_finite=True):
    """A_bar = y_bar det(A) inv(A)^T"""
    d[a] += np.expand_dims(d[y] * y, (-2, -1)) * np.swapaxes(np.linalg.inv(a), -1, -2)


@tangent(linalg.det)
def det_tangent(y, a, overwrite_a=False, check_finite=True):
    d[y] = y * np.trace(np.linalg.inv(a) @ d[a], axis1=-2, axis2=-1)


@adjoint(linalg.solve)
def solve_adjoint(y, a, b, lower=False, overwrite_a=False, overwrite_b=False,
                  check_finite=True):
    """B_bar = solve(A^T, X_bar), A_bar = -B_bar X^T"""
    _solved = np.linalg.solve(np.swapaxes(a, -1, -2), as_columns(d[y], a, y))
    d[a] += matmul_adjoint_a(-_solved, a, as_columns(y, a, y))
    d[b] += unbroadcast(reshape_like(_solved, y), b)


@tangent(linalg.solve)
def solve_tangent(y, a, b, lower=False, overwrite_a=False, overwrite_b=False,
                  check_finite=True):
    d[y] = reshape_like(np.linalg.solve(
        a, as_columns(d[b], a, y) - d[a] @ as_columns(y, a, y)), y)


@adjoint(linalg.cholesky)
def cholesky_adjoint(y, a, lower=False, overwrite_a=False, check_finite=True):
    """A_bar = phi(inv(L)^T P inv(L)) in the triangle read, P symmetric with tril(L^T L_bar)
    as lower triangle (transposed in and out for the upper factor)"""
    _l = y if lower else np.swapaxes(y, -1, -2)
    _lbar = d[y] if lower else np.swapaxes(d[y], -1, -2)
    _abar = halved_diagonal(lower_congruence(
        lower_inverse(_l), lower_of_upper_product(np.swapaxes(_l, -1, -2), _lbar)))
    d[a] += _abar if lower else np.swapaxes(_abar, -1, -2)


@tangent(linalg.cholesky)
def cholesky_tangent(y, a, lower=False, overwrite_a=False, check_finite=True):
    """dL = L phi(inv(L) dS inv(L)^T), dS symmetric from the triangle of dA read"""
    _l = y if lower else np.swapaxes(y, -1, -2)
    _da = d[a] if lower else np.swapaxes(d[a], -1, -2)
    _inv = lower_inverse(_l)
    _x = _inv @ (np.tril(_da) + np.swapaxes(np.tril(_da, -1), -1, -2)) \
        @ np.swapaxes(_inv, -1, -2)
    _dl = _l @ (np.tril(_x) - 0.5 * _x * np.eye(np.shape(_l)[-1], dtype=_l.dtype))
    d[y] = _dl if lower else np.swapaxes(_dl, -1, -2)
