"""Decompositions: np.linalg's svd (and svdvals), eigh, eigvalsh, eig (real eigenvalues),
qr, lstsq and pinv.

Every rule is written in numpy primitives that have templates of their own (and the
runtime helpers quotient_or_nan, leading_columns, real_eigenvalues, whose templates are at
the end), so the derivatives are differentiable again.

The vectors of a decomposition move by x_ij / (w_j - w_i) (eigen) or x_ij / (s_j^2 - s_i^2)
(singular) between distinct values; quotient_or_nan makes a repeated value give nan
where the loss depends on those vectors (the derivative is not defined there, as in JAX
where it is inf or nan) and exactly 0 where it does not, so a loss of the values alone
(eigvalsh, svdvals, the nuclear norm) keeps its exact gradient at repeated values.
Signs (and the choice of basis for a repeated value) are the decomposition's own: a loss
invariant to them gets its true gradient.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_flow import float_dtype
from s2s_ad.runtime_linalg import leading_columns, quotient_or_nan, real_eigenvalues


# ---- singular value decomposition ---------------------------------------------------------
# Thin factors U (m, k), s (k,), Vh (k, n), k = min(m, n); P = U^T dA V. Then ds = diag(P),
# dU = U F(P S + S P^T) + (I - U U^T) dA V / s, dV = V F(S P + P^T S) + (I - V V^T) dA^T U / s
# with F(X)_ij = X_ij / (s_j^2 - s_i^2) off the diagonal. The second terms exist only for
# the longer side. With full_matrices=True the columns beyond k complete U (or V) freely:
# their tangent is nan, and an adjoint reaching them is an error (leading_columns).
@adjoint(np.linalg.svd)
def svd_adjoint(y, a, full_matrices=True, compute_uv=True):
    """A_bar = U ((Y + Y^T) S + S (Y' + Y'^T) + diag(s_bar)) Vh + the longer side's term,
    Y = F(U^T U_bar), Y' = F(V^T V_bar)"""
    _k = min(np.shape(a)[-2:])
    _usv = y if compute_uv else np.linalg.svd(a, full_matrices=False)
    _g = d[y] if compute_uv else (0.0, d[y], 0.0)
    _u = _usv[0][..., :_k]
    _s = _usv[1]
    _vh = _usv[2][..., :_k, :]
    _ub = leading_columns(broadcast_tangent(_g[0], _usv[0]), _k)
    _vbh = np.swapaxes(leading_columns(np.swapaxes(broadcast_tangent(_g[2], _usv[2]), -1, -2),
                                       _k), -1, -2)
    _gaps = np.expand_dims(_s * _s, -2) - np.expand_dims(_s * _s, -1)
    _eye = np.eye(_k, dtype=_s.dtype)          # float32 kept
    _off = 1.0 - _eye
    _yu = quotient_or_nan(_off * (np.swapaxes(_u, -1, -2) @ _ub), _gaps)
    _yv = quotient_or_nan(_off * (_vh @ np.swapaxes(_vbh, -1, -2)), _gaps)
    _p = (_yu + np.swapaxes(_yu, -1, -2)) * np.expand_dims(_s, -2) \
        + np.expand_dims(_s, -1) * (_yv + np.swapaxes(_yv, -1, -2)) \
        + np.expand_dims(broadcast_tangent(_g[1], _s), -1) * _eye
    d[a] += _u @ _p @ _vh \
        + (quotient_or_nan(_ub - _u @ (np.swapaxes(_u, -1, -2) @ _ub), np.expand_dims(_s, -2))
           @ _vh if np.shape(a)[-2] > _k else 0.0) \
        + (_u @ quotient_or_nan(_vbh - (_vbh @ np.swapaxes(_vh, -1, -2)) @ _vh,
                                np.expand_dims(_s, -1)) if np.shape(a)[-1] > _k else 0.0)


@tangent(np.linalg.svd)
def svd_tangent(y, a, full_matrices=True, compute_uv=True):
    """ds = diag(P), dU = U F(P S + S P^T) + (I - U U^T) dA V / s, dV likewise"""
    _k = min(np.shape(a)[-2:])
    _usv = y if compute_uv else np.linalg.svd(a, full_matrices=False)
    _u = _usv[0][..., :_k]
    _s = _usv[1]
    _vh = _usv[2][..., :_k, :]
    _p = np.swapaxes(_u, -1, -2) @ d[a] @ np.swapaxes(_vh, -1, -2)
    _gaps = np.expand_dims(_s * _s, -2) - np.expand_dims(_s * _s, -1)
    _off = 1.0 - np.eye(_k, dtype=_s.dtype)
    _du = _u @ quotient_or_nan(_off * (_p * np.expand_dims(_s, -2)
                                       + np.expand_dims(_s, -1) * np.swapaxes(_p, -1, -2)), _gaps) \
        + (quotient_or_nan(d[a] @ np.swapaxes(_vh, -1, -2) - _u @ _p, np.expand_dims(_s, -2))
           if np.shape(a)[-2] > _k else 0.0)
    _dv = np.swapaxes(_vh, -1, -2) @ quotient_or_nan(
        _off * (np.expand_dims(_s, -1) * _p + np.swapaxes(_p, -1, -2) * np.expand_dims(_s, -2)),
        _gaps) \
        + (quotient_or_nan(np.swapaxes(d[a], -1, -2) @ _u - np.swapaxes(_p @ _vh, -1, -2),
                           np.expand_dims(_s, -2)) if np.shape(a)[-1] > _k else 0.0)
    d[y] = (np.concatenate((_du, np.nan * _usv[0][..., _k:]), -1),
            np.diagonal(_p, 0, -2, -1),
            np.concatenate((np.swapaxes(_dv, -1, -2), np.nan * _usv[2][..., _k:, :]), -2)) \
        if compute_uv else np.diagonal(_p, 0, -2, -1)


# ---- symmetric eigenproblems ----------------------------------------------------------------
# numpy reads one triangle of A (UPLO), as S = tril(A) + tril(A, -1)^T; with P = V^T dS V,
# dw = diag(P) and dV = V F(P), F(X)_ij = X_ij / (w_j - w_i) off the diagonal. The adjoint
# G = V (diag(w_bar) + F(V^T V_bar)) V^T of S goes back to the triangle numpy read.
@adjoint(np.linalg.eigh)
def eigh_adjoint(y, a, UPLO="L"):
    """A_bar = tril(G) + tril(G^T, -1) (UPLO='L'), G = V (diag(w_bar) + F(V^T V_bar)) V^T"""
    _vt = np.swapaxes(y[1], -1, -2)
    _gaps = np.expand_dims(y[0], -2) - np.expand_dims(y[0], -1)
    _eye = np.eye(np.shape(a)[-1], dtype=float_dtype(a))          # float32 kept
    _g = y[1] @ (quotient_or_nan((1.0 - _eye)
                                 * (_vt @ broadcast_tangent(d[y][1], y[1])), _gaps)
                 + np.expand_dims(broadcast_tangent(d[y][0], y[0]), -1)
                 * _eye) @ _vt
    d[a] += np.tril(_g) + np.tril(np.swapaxes(_g, -1, -2), -1) if UPLO in ("L", "l") \
        else np.triu(_g) + np.triu(np.swapaxes(_g, -1, -2), 1)


@tangent(np.linalg.eigh)
def eigh_tangent(y, a, UPLO="L"):
    """dw = diag(V^T dS V), dV = V F(V^T dS V)"""
    _ds = np.tril(d[a]) + np.swapaxes(np.tril(d[a], -1), -1, -2) if UPLO in ("L", "l") \
        else np.triu(d[a]) + np.swapaxes(np.triu(d[a], 1), -1, -2)
    _p = np.swapaxes(y[1], -1, -2) @ _ds @ y[1]
    _gaps = np.expand_dims(y[0], -2) - np.expand_dims(y[0], -1)
    _off = 1.0 - np.eye(np.shape(a)[-1], dtype=float_dtype(a))
    d[y] = (np.diagonal(_p, 0, -2, -1), y[1] @ quotient_or_nan(_off * _p, _gaps))


@adjoint(np.linalg.eigvalsh)
def eigvalsh_adjoint(y, a, UPLO="L"):
    """A_bar = the triangle of V diag(w_bar) V^T"""
    _v = np.linalg.eigh(a, UPLO)[1]
    _g = (_v * np.expand_dims(d[y], -2)) @ np.swapaxes(_v, -1, -2)
    d[a] += np.tril(_g) + np.tril(np.swapaxes(_g, -1, -2), -1) if UPLO in ("L", "l") \
        else np.triu(_g) + np.triu(np.swapaxes(_g, -1, -2), 1)


@tangent(np.linalg.eigvalsh)
def eigvalsh_tangent(y, a, UPLO="L"):
    """dw = diag(V^T dS V)"""
    _v = np.linalg.eigh(a, UPLO)[1]
    _ds = np.tril(d[a]) + np.swapaxes(np.tril(d[a], -1), -1, -2) if UPLO in ("L", "l") \
        else np.triu(d[a]) + np.swapaxes(np.triu(d[a], 1), -1, -2)
    d[y] = np.sum(_v * (_ds @ _v), -2)


# ---- general eigenproblem, real eigenvalues ---------------------------------------------------
# P = inv(V) dA V: dw = diag(P), dV = V F(P) - V diag(V^T V F(P)) (numpy's columns have unit
# length, and keep it)
@adjoint(np.linalg.eig)
def eig_adjoint(y, a):
    """A_bar = inv(V)^T (diag(w_bar) + F(V^T V_bar')) V^T, V_bar' = V_bar - V diag(V^T V_bar)"""
    _w = real_eigenvalues(y[0])
    _vb = broadcast_tangent(d[y][1], y[1]) \
        - y[1] * np.expand_dims(np.sum(y[1] * d[y][1], -2), -2)
    _gaps = np.expand_dims(_w, -2) - np.expand_dims(_w, -1)
    _eye = np.eye(np.shape(a)[-1], dtype=float_dtype(a))          # float32 kept
    _inner = quotient_or_nan((1.0 - _eye) * (np.swapaxes(y[1], -1, -2) @ _vb),
                             _gaps) + np.expand_dims(broadcast_tangent(d[y][0], _w), -1) * _eye
    d[a] += np.linalg.solve(np.swapaxes(y[1], -1, -2), _inner @ np.swapaxes(y[1], -1, -2))


@tangent(np.linalg.eig)
def eig_tangent(y, a):
    """dw = diag(P), dV = V F(P) - V diag(V^T V F(P)), P = inv(V) dA V"""
    _w = real_eigenvalues(y[0])
    _p = np.linalg.solve(y[1], d[a] @ y[1])
    _gaps = np.expand_dims(_w, -2) - np.expand_dims(_w, -1)
    _dv = y[1] @ quotient_or_nan((1.0 - np.eye(np.shape(a)[-1], dtype=float_dtype(a))) * _p,
                                 _gaps)
    d[y] = (np.diagonal(_p, 0, -2, -1),
            _dv - y[1] * np.expand_dims(np.sum(y[1] * _dv, -2), -2))


# ---- QR, A = [X Y] with X the first k = min(m, n) columns, R = [U V] -------------------------
# X = Q U is the square (or tall) factorisation: C = Q^T dX inv(U) = Omega + dU inv(U) with
# Omega skew, dU inv(U) upper: Omega = tril(C, -1) - tril(C, -1)^T, dU = (C - Omega) U,
# dQ = (dX - Q dU) inv(U); and V = Q^T Y gives dV = dQ^T Y + Q^T dY. mode='r' returns R
# alone; mode='complete' completes Q freely beyond k columns (tangent nan, adjoint checked).
@adjoint(np.linalg.qr)
def qr_adjoint(y, a, mode="reduced"):
    """Q_bar' = Q_bar + Y V_bar^T, M = U U_bar^T - Q_bar'^T Q, X_bar = (Q_bar' + Q
    copyltu(M)) inv(U)^T, Y_bar = Q V_bar"""
    _k = min(np.shape(a)[-2:])
    _qr = np.linalg.qr(a) if mode == "r" else y
    _g = (np.zeros_like(_qr[0]), broadcast_tangent(d[y], _qr[1])) if mode == "r" else \
        (broadcast_tangent(d[y][0], y[0]), broadcast_tangent(d[y][1], y[1]))
    _q = _qr[0][..., :_k]
    _qb = leading_columns(_g[0], _k, "np.linalg.qr") \
        + a[..., :, _k:] @ np.swapaxes(_g[1][..., :_k, _k:], -1, -2)
    _m = _qr[1][..., :_k, :_k] @ np.swapaxes(_g[1][..., :_k, :_k], -1, -2) \
        - np.swapaxes(_qb, -1, -2) @ _q
    _b = _qb + _q @ (np.tril(_m) + np.swapaxes(np.tril(_m, -1), -1, -2))
    d[a] += np.concatenate((np.swapaxes(np.linalg.solve(_qr[1][..., :_k, :_k],
                                                        np.swapaxes(_b, -1, -2)), -1, -2),
                            _q @ _g[1][..., :_k, _k:]), -1)


@tangent(np.linalg.qr)
def qr_tangent(y, a, mode="reduced"):
    """dU = (C - Omega) U, dQ = (dX - Q dU) inv(U), dV = dQ^T Y + Q^T dY"""
    _k = min(np.shape(a)[-2:])
    _qr = np.linalg.qr(a) if mode == "r" else y
    _q = _qr[0][..., :_k]
    _u = _qr[1][..., :_k, :_k]
    _dx_over_u = np.swapaxes(np.linalg.solve(np.swapaxes(_u, -1, -2),
                                             np.swapaxes(d[a][..., :, :_k], -1, -2)), -1, -2)
    _c = np.swapaxes(_q, -1, -2) @ _dx_over_u
    _w = np.triu(_c) + np.swapaxes(np.tril(_c, -1), -1, -2)      # dU inv(U)
    _du = _w @ _u
    _dq = _dx_over_u - _q @ _w
    _dr = np.concatenate((_du, np.swapaxes(_dq, -1, -2) @ a[..., :, _k:]
                          + np.swapaxes(_q, -1, -2) @ d[a][..., :, _k:]), -1)
    _dr_full = np.concatenate((_dr, 0.0 * _qr[1][..., _k:, :]), -2)
    d[y] = _dr_full if mode == "r" else \
        (np.concatenate((_dq, np.nan * _qr[0][..., _k:]), -1), _dr_full)


# ---- the helpers' own templates (second derivatives) -----------------------------------------
@adjoint(quotient_or_nan)
def quotient_or_nan_adjoint(q, x, y):
    """q = x / y: x_bar = q_bar / y, y_bar = -q_bar q / y (same rule at y == 0). Where
    x and y are both 0 (a masked entry: q is the constant 0 there) nothing flows back, as
    in the tangent: a nan there would survive the mask's 0 * nan (grad of grad)"""
    _flowing = np.where(np.logical_and(y == 0, x == 0), 0.0, d[q])
    d[x] += unbroadcast(quotient_or_nan(_flowing, y), x)
    d[y] += unbroadcast(-quotient_or_nan(_flowing * q, y), y)


@tangent(quotient_or_nan)
def quotient_or_nan_tangent(q, x, y):
    """dq = (dx - q dy) / y"""
    d[q] = quotient_or_nan(d[x] - q * d[y], y)


@adjoint(leading_columns)
def leading_columns_adjoint(out, g, k, what="np.linalg.svd"):
    """out = g[..., :k]: g_bar is out_bar in those columns, zero beyond"""
    d[g] += np.concatenate((d[out], np.zeros_like(g[..., k:])), -1)


@tangent(leading_columns)
def leading_columns_tangent(out, g, k, what="np.linalg.svd"):
    """out = g[..., :k] (the rest checked zero)"""
    d[out] = leading_columns(d[g], k, what)


@adjoint(real_eigenvalues)
def real_eigenvalues_adjoint(out, w):
    """the identity on real eigenvalues"""
    d[w] += d[out]


@tangent(real_eigenvalues)
def real_eigenvalues_tangent(out, w):
    """the identity on real eigenvalues"""
    d[out] = d[w]
