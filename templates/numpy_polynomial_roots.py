"""Polynomials from their roots and by division (coefficients highest power first):
np.poly and np.polydiv, with the helpers of s2s_ad/runtime_polynomials.py.

    c = poly(r)          dc = J dr, J = poly_derivative(r, 1) (column i: -[0, the product of
                         the other factors (x - r_j)]); a matrix argument (numpy's
                         characteristic polynomial) is an error naming it
    q, r = polydiv(u, v) u = q v + R: dq divides du - q dv by v, dR = du - q dv - dq v
                         (banded matrices of v and q, np.linalg.solve, slices)

Both are differentiable again, to any order: poly_derivative's derivative is the next
poly_derivative, banded's is unbanded and back.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_flow import float_dtype
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_polynomials import banded, division_sizes, poly_derivative


@adjoint(np.poly)
def poly_adjoint(y, seq_of_zeros):
    """r_bar = J^T c_bar"""
    d[seq_of_zeros] += reshape_like(unbroadcast(d[y], y) @ poly_derivative(seq_of_zeros, 1),
                                    seq_of_zeros)


@tangent(np.poly)
def poly_tangent(y, seq_of_zeros):
    """dc = J dr"""
    d[y] = poly_derivative(seq_of_zeros, 1) @ np.ravel(d[seq_of_zeros])


@adjoint(np.polydiv)
def polydiv_adjoint(y, u, v):
    """w = du - q dv: w_bar = [0, r_bar] + [T^-T (q_bar - C_v^T [0, r_bar]), 0], T and
    C_v the banded matrices of v (dq = T^-1 w[:len(q)], dR = w - C_v dq); u_bar = w_bar,
    v_bar = -C_q^T w_bar"""
    _s = division_sizes(u, v, y)
    _gq = np.ravel(broadcast_tangent(d[y][0], y[0]))
    _w = np.concatenate((np.zeros(_s[0] - _s[3], float_dtype(u, v)), np.ravel(broadcast_tangent(d[y][1], y[1]))))
    _inner = _gq - banded(v, _s[0], _s[2]).T @ _w
    _w = _w + np.concatenate((_s[4] * np.linalg.solve(banded(v, _s[2], _s[2]).T, _inner),
                              np.zeros(_s[0] - _s[2], float_dtype(u, v))))
    d[u] += reshape_like(_w, u)
    d[v] += reshape_like(-(banded(y[0], _s[0], _s[1]).T @ _w), v)


@tangent(np.polydiv)
def polydiv_tangent(y, u, v):
    """dq divides w = du - q dv by v; dR = w - dq v, of which r keeps the last len(r)"""
    _s = division_sizes(u, v, y)
    _w = np.ravel(broadcast_tangent(d[u], u)) \
        - banded(y[0], _s[0], _s[1]) @ np.ravel(broadcast_tangent(d[v], v))
    _dq = _s[4] * np.linalg.solve(banded(v, _s[2], _s[2]), _w[:_s[2]])
    _dr = _w - banded(v, _s[0], _s[2]) @ _dq
    d[y] = (_dq, _dr[_s[0] - _s[3]:])
