"""scipy.linalg's Sylvester and banded solvers (an optional dependency, loaded once the
user's code has imported scipy.linalg; see templates/__init__.py). With X the result:

    solve_sylvester(A, B, Q)   X with A X + X B = Q.  Reverse: G solves the transposed
        equation A^T G + G B^T = dX; dQ = G, dA = -G X^T, dB = -X^T G.  Forward:
        A dX + dX B = dQ - dA X - X dB.
    solve_banded((l, u), ab, b)   x with A x = b, A given by its diagonals ab (row u + i - j
        of ab holds A[i, j]).  Reverse: g solves the transposed banded system (A^T's
        diagonals: runtime_banded.transposed_band); db = g, and dab gets -g x^T on A's band
        (runtime_banded.band_of).  Forward: A dx = db - dA x (runtime_banded.band_product).
        The bandwidths (l, u) are integers, not differentiated.

    solve_triangular(a, b, trans, lower, unit_diagonal)   x with op(T) x = b, T the
        triangle of a it reads (its diagonal ones with unit_diagonal), op the transpose
        for trans 'T' / 'C' / 1 / 2.  Reverse: g solves the transposed system; db = g,
        da = -(T's part of g x^T), of x g^T when op transposes
        (runtime_triangular.triangle_outer).  Forward: op(T) dx = db - op(dT) x
        (triangle_apply).

Each derivative is made of the solvers themselves and linear helpers with templates
(runtime_adjoints_banded.py), so second order works.
"""
import numpy as np
from scipy import linalg

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_banded import band_of, band_product, transposed_band
from s2s_ad.runtime_triangular import flipped_trans, triangle_apply, triangle_outer


@adjoint(linalg.solve_sylvester)
def solve_sylvester_adjoint(y, a, b, q):
    """see the module docstring"""
    _g = linalg.solve_sylvester(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), d[y])
    d[q] += _g
    d[a] += -(_g @ np.swapaxes(y, -1, -2))
    d[b] += -(np.swapaxes(y, -1, -2) @ _g)


@tangent(linalg.solve_sylvester)
def solve_sylvester_tangent(y, a, b, q):
    d[y] = linalg.solve_sylvester(a, b, d[q] - d[a] @ y - y @ d[b])


@adjoint(linalg.solve_banded)
def solve_banded_adjoint(y, l_and_u, ab, b, overwrite_ab=False, overwrite_b=False,
                         check_finite=True):
    """see the module docstring"""
    _g = linalg.solve_banded(l_and_u[::-1], transposed_band(l_and_u, ab), d[y])
    d[b] += _g
    d[ab] += -band_of(l_and_u, _g, y)


@tangent(linalg.solve_banded)
def solve_banded_tangent(y, l_and_u, ab, b, overwrite_ab=False, overwrite_b=False,
                         check_finite=True):
    d[y] = linalg.solve_banded(l_and_u, ab, d[b] - band_product(l_and_u, d[ab], y))


@adjoint(linalg.solve_triangular)
def solve_triangular_adjoint(y, a, b, trans=0, lower=False, unit_diagonal=False,
                             overwrite_b=False, check_finite=True):
    """see the module docstring"""
    _g = linalg.solve_triangular(a, d[y], trans=flipped_trans(trans), lower=lower,
                                 unit_diagonal=unit_diagonal)
    d[b] += _g
    d[a] += -triangle_outer(_g, y, trans, lower, unit_diagonal)


@tangent(linalg.solve_triangular)
def solve_triangular_tangent(y, a, b, trans=0, lower=False, unit_diagonal=False,
                             overwrite_b=False, check_finite=True):
    d[y] = linalg.solve_triangular(a, d[b] - triangle_apply(d[a], y, trans, lower,
                                                            unit_diagonal),
                                   trans=trans, lower=lower, unit_diagonal=unit_diagonal)
