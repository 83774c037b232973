"""scipy.linalg's Cholesky pair and matrix exponential (an optional dependency, loaded once
the user's code has imported scipy.linalg; see templates/__init__.py).

    cho_factor(a, lower)   (c, lower): c holds the Cholesky factor T of the symmetric S
        whose `lower` (else upper) triangle is a's in that triangle, and a's own entries in
        the other one (LAPACK leaves them as they are). S = T T^T (lower) or T^T T
        (upper, T = L^T). So dc = dT there and da in the other triangle; dT is
        np.linalg.cholesky's derivative (L phi(inv(L) dS inv(L)^T)), transposed for upper.
    cho_solve((c, lower), b)   x with S x = b, S built from c's triangle T alone.
        Forward: S dx = db - dS x, dS = dT T^T + T dT^T (lower; T^T dT + dT^T T upper).
        Reverse: g = S^-1 x_bar, db = g, S_bar = -g x^T, and T_bar = (S_bar + S_bar^T) T
        (lower; T (S_bar + S_bar^T) upper) in T's triangle, nothing in the other.
    expm(a)   e^A. Its derivative along E is the upper right block of expm([[A, E], [0, A]])
        (Higham, Functions of Matrices, 3.1); the adjoint is that with A^T and Y_bar.

Each is made of expm, cho_solve and numpy operations with templates, so second order works:

    s2s_ad.grad(lambda A, b: np.sum(cho_solve(cho_factor(A @ A.T + I), b) ** 2))
"""
import numpy as np
from scipy import linalg

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import zero_tangent
from s2s_ad.runtime_triangular import lower_congruence, lower_inverse, lower_of_upper_product


# ---- cho_factor: upper is the lower case of a^T, transposed --------------------------------
@adjoint(linalg.cho_factor)
def cho_factor_adjoint(y, a, lower=False, overwrite_a=False, check_finite=True):
    """a_bar = cholesky's adjoint of T_bar (read in T's triangle) + c_bar's other triangle"""
    _l = np.tril(y[0]) if lower else np.swapaxes(np.triu(y[0]), -1, -2)
    _lbar = d[y][0] if lower else np.swapaxes(d[y][0], -1, -2)
    _m = lower_congruence(lower_inverse(_l),
                          lower_of_upper_product(np.swapaxes(_l, -1, -2), np.tril(_lbar)))
    _abar = _m - _m * (0.5 * np.eye(np.shape(_l)[-1], dtype=_l.dtype)) \
        + np.triu(_lbar, 1)
    d[a] += _abar if lower else np.swapaxes(_abar, -1, -2)


@tangent(linalg.cho_factor)
def cho_factor_tangent(y, a, lower=False, overwrite_a=False, check_finite=True):
    """dT = T phi(inv(T) dS inv(T)^T) (lower), the other triangle da's"""
    _l = np.tril(y[0]) if lower else np.swapaxes(np.triu(y[0]), -1, -2)
    _da = d[a] if lower else np.swapaxes(d[a], -1, -2)
    _inv = lower_inverse(_l)
    _x = _inv @ (np.tril(_da) + np.swapaxes(np.tril(_da, -1), -1, -2)) \
        @ np.swapaxes(_inv, -1, -2)
    _dc = _l @ (np.tril(_x) - 0.5 * _x * np.eye(np.shape(_l)[-1], dtype=_l.dtype)) \
        + np.triu(_da, 1)
    d[y] = (_dc if lower else np.swapaxes(_dc, -1, -2), zero_tangent(y[1]))


# ---- cho_solve: x and b a vector (n,) or columns (n, k) ------------------------------------
@adjoint(linalg.cho_solve)
def cho_solve_adjoint(y, c_and_lower, b, overwrite_b=False, check_finite=True):
    """g = S^-1 x_bar; b_bar = g; T_bar = (S_bar + S_bar^T) T (lower), S_bar = -g x^T"""
    _g = linalg.cho_solve(c_and_lower, d[y])
    d[b] += _g
    _cols = np.reshape(_g, (np.shape(_g)[0], -1)) \
        @ np.swapaxes(np.reshape(y, (np.shape(y)[0], -1)), -1, -2)
    _sym = -(_cols + np.swapaxes(_cols, -1, -2))
    d[c_and_lower] += (np.tril(_sym @ np.tril(c_and_lower[0])) if c_and_lower[1]
                       else np.triu(np.triu(c_and_lower[0]) @ _sym), 0.0)


@tangent(linalg.cho_solve)
def cho_solve_tangent(y, c_and_lower, b, overwrite_b=False, check_finite=True):
    """S dx = db - dS x"""
    _t = np.tril(c_and_lower[0]) if c_and_lower[1] else np.triu(c_and_lower[0])
    _dt = np.tril(d[c_and_lower][0]) if c_and_lower[1] else np.triu(d[c_and_lower][0])
    _ds = _dt @ np.swapaxes(_t, -1, -2) if c_and_lower[1] \
        else np.swapaxes(_t, -1, -2) @ _dt
    d[y] = linalg.cho_solve(c_and_lower, d[b] - (_ds + np.swapaxes(_ds, -1, -2)) @ y)


# ---- expm: the Frechet derivative as a block of a bigger exponential -----------------------
@adjoint(linalg.expm)
def expm_adjoint(y, A):
    """A_bar = upper right block of expm([[A^T, Y_bar], [0, A^T]])"""
    _at = np.swapaxes(A, -1, -2)
    _block = np.concatenate((np.concatenate((_at, d[y]), -1),
                             np.concatenate((np.zeros_like(_at), _at), -1)), -2)
    d[A] += linalg.expm(_block)[..., :np.shape(A)[-1], np.shape(A)[-1]:]


@tangent(linalg.expm)
def expm_tangent(y, A):
    """dY = upper right block of expm([[A, dA], [0, A]])"""
    _block = np.concatenate((np.concatenate((A, d[A]), -1),
                             np.concatenate((np.zeros_like(A), A), -1)), -2)
    d[y] = linalg.expm(_block)[..., :np.shape(A)[-1], np.shape(A)[-1]:]
