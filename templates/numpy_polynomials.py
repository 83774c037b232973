"""Polynomials in numpy's coefficient order (highest power first): np.polyval, np.polyder,
np.polyint, np.polyfit, np.polyadd, np.polysub, np.polymul, np.vander.

    y = polyval(p, x)       dy = polyval(dp, x) + polyval(polyder(p), x) dx
    polyder, polyint        linear in p (and in polyint's constants k): the matrices of
                            runtime_calculus.polynomial_map transpose their adjoints
    p = polyfit(x, y, deg, w=w)   the least-squares solution of A p = b, A = V(x) * w,
                            b = y * w (V the Vandermonde matrix of powers deg .. 0, y a
                            vector or a matrix of columns). At full rank
                            dp = (A^T A)^-1 (dA^T r + A^T (db - dA p)), r = b - A p;
                            so z = (A^T A)^-1 p_bar gives b_bar = A z and
                            A_bar = r z^T - (A z) p^T.
Differentiable in x, y and w alike. full= and cov= (polyfit's extra outputs) are errors.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_calculus import as_columns_of, polynomial_exponents, polynomial_map
from s2s_ad.runtime_flow import float_dtype
from s2s_ad.runtime_statistics import leading_axes


@adjoint(np.polyval)
def polyval_adjoint(y, p, x):
    """x_bar = polyval(polyder(p), x) g, p_bar_j = sum(x**(n-1-j) g)"""
    d[x] += d[y] * np.polyval(np.asarray(np.polyder(p), dtype=float_dtype(p, x)), x)
    d[p] += np.sum(np.expand_dims(d[y], -1) * np.expand_dims(x, -1) ** polynomial_exponents(
        np.size(p) - 1, x), axis=leading_axes(x))


@tangent(np.polyval)
def polyval_tangent(y, p, x):
    """dy = polyval(dp, x) + polyval(polyder(p), x) dx (np.polyder gives float64: cast to
    p's and x's dtype, float32 kept)"""
    d[y] = np.polyval(d[p], x) \
        + np.polyval(np.asarray(np.polyder(p), dtype=float_dtype(p, x)), x) * d[x]


@adjoint(np.polyder)
def polyder_adjoint(y, p, m=1):
    """linear: p_bar = L^T y_bar"""
    d[p] += reshape_like(unbroadcast(d[y], y) @ polynomial_map(p, np.polyder, m)[0], p)


@tangent(np.polyder)
def polyder_tangent(y, p, m=1):
    """linear: d polyder(p) = polyder(dp)"""
    d[y] = np.polyder(d[p], m)


@adjoint(np.polyint)
def polyint_adjoint(y, p, m=1, k=None):
    """linear in p and k: p_bar = L^T y_bar, k_bar = K^T y_bar"""
    d[p] += reshape_like(unbroadcast(d[y], y) @ polynomial_map(p, np.polyint, m, k)[0], p)
    d[k] += reshape_like(unbroadcast(d[y], y) @ polynomial_map(p, np.polyint, m, k)[1], k)


@tangent(np.polyint)
def polyint_tangent(y, p, m=1, k=None):
    """linear: d polyint(p, m, k) = polyint(dp, m, dk)"""
    d[y] = np.polyint(d[p], m, d[k])


# _e: the powers deg .. 0; _dv = dV/dx entrywise (e x**(e-1), 0 for the constant column)
@adjoint(np.polyfit)
def polyfit_adjoint(p, x, y, deg, rcond=None, w=None):
    """z = (A^T A)^-1 p_bar; b_bar = A z, A_bar = r z^T - (A z) p^T; then y_bar = w b_bar,
    x_bar = w sum(A_bar dV/dx), w_bar = sum(A_bar V) + sum(b_bar y)"""
    _w = np.ones(np.shape(x)) if w is None else w
    _e = polynomial_exponents(deg)
    _v = np.expand_dims(x, 1) ** _e
    _a = _v * np.expand_dims(_w, 1)
    _b = np.transpose(np.transpose(y) * _w)
    _z = np.linalg.solve(np.swapaxes(_a, 0, 1) @ _a, unbroadcast(d[p], p))
    _az = _a @ _z
    _abar = as_columns_of(_b - _a @ p) @ np.swapaxes(as_columns_of(_z), 0, 1) \
        - as_columns_of(_az) @ np.swapaxes(as_columns_of(p), 0, 1)
    d[y] += np.transpose(np.transpose(_az) * _w)
    d[x] += np.sum(_abar * _e * np.expand_dims(x, 1) ** np.maximum(_e - 1.0, 0.0), axis=1) * _w
    d[w] += np.sum(_abar * _v, axis=1) + np.sum(as_columns_of(_az * y), axis=1)


@tangent(np.polyfit)
def polyfit_tangent(p, x, y, deg, rcond=None, w=None):
    """dp = (A^T A)^-1 (dA^T r + A^T (db - dA p)), dA = dV w + V dw, db = dy w + y dw"""
    _w = np.ones(np.shape(x)) if w is None else w
    _e = polynomial_exponents(deg)
    _v = np.expand_dims(x, 1) ** _e
    _a = _v * np.expand_dims(_w, 1)
    _da = _e * np.expand_dims(x, 1) ** np.maximum(_e - 1.0, 0.0) * np.reshape(
        d[x] * _w, (-1, 1)) + _v * np.reshape(d[w], (-1, 1))
    _db = np.transpose(np.transpose(d[y]) * _w + np.transpose(y) * d[w])
    _r = np.transpose(np.transpose(y) * _w) - _a @ p
    d[p] = np.linalg.solve(np.swapaxes(_a, 0, 1) @ _a, np.swapaxes(_da, 0, 1) @ _r
                           + np.swapaxes(_a, 0, 1) @ (_db - _da @ p))


# polyadd / polysub align the coefficients at the constant term (the shorter padded in
# front): each operand's adjoint is the last entries of y_bar
@adjoint(np.polyadd)
def polyadd_adjoint(y, a1, a2):
    _g = broadcast_tangent(d[y], y)
    d[a1] += reshape_like(_g[np.size(y) - np.size(a1):], a1)
    d[a2] += reshape_like(_g[np.size(y) - np.size(a2):], a2)


@tangent(np.polyadd)
def polyadd_tangent(y, a1, a2):
    d[y] = np.polyadd(d[a1], d[a2])


@adjoint(np.polysub)
def polysub_adjoint(y, a1, a2):
    _g = broadcast_tangent(d[y], y)
    d[a1] += reshape_like(_g[np.size(y) - np.size(a1):], a1)
    d[a2] += -reshape_like(_g[np.size(y) - np.size(a2):], a2)


@tangent(np.polysub)
def polysub_tangent(y, a1, a2):
    d[y] = np.polysub(d[a1], d[a2])


# polymul convolves its operands after dropping their leading zeros (numpy reads them as
# np.poly1d, keeping one zero of an all-zero operand): those entries get no derivative
@adjoint(np.polymul)
def polymul_adjoint(y, a1, a2):
    """y = convolve(a1', a2') of the trimmed operands: a1'_bar = correlate(y_bar, a2',
    'valid'), a2'_bar likewise, zeros for the leading zeros"""
    _k1 = np.minimum(np.argmax(np.append(np.ravel(a1) != 0, True)), np.size(a1) - 1)
    _k2 = np.minimum(np.argmax(np.append(np.ravel(a2) != 0, True)), np.size(a2) - 1)
    _g = np.ravel(broadcast_tangent(d[y], y))
    _dtype = float_dtype(_g)                        # float32 y_bar: float32 zeros
    d[a1] += reshape_like(np.concatenate((np.zeros(_k1, _dtype), np.correlate(
        _g, np.ravel(a2)[_k2:], "valid"))), a1)
    d[a2] += reshape_like(np.concatenate((np.zeros(_k2, _dtype), np.correlate(
        _g, np.ravel(a1)[_k1:], "valid"))), a2)


@tangent(np.polymul)
def polymul_tangent(y, a1, a2):
    _k1 = np.minimum(np.argmax(np.append(np.ravel(a1) != 0, True)), np.size(a1) - 1)
    _k2 = np.minimum(np.argmax(np.append(np.ravel(a2) != 0, True)), np.size(a2) - 1)
    d[y] = np.convolve(np.ravel(d[a1])[_k1:], np.ravel(a2)[_k2:]) \
        + np.convolve(np.ravel(a1)[_k1:], np.ravel(d[a2])[_k2:])


# vander: column j holds x**p_j (p = N-1 ... 0, or 0 ... N-1 with increasing=True)
@adjoint(np.vander)
def vander_adjoint(y, x, N=None, increasing=False):
    """x_bar_i = sum_j y_bar_ij p_j x_i**(p_j - 1)"""
    _p = np.arange(np.shape(y)[1]) if increasing else np.arange(np.shape(y)[1])[::-1]
    d[x] += np.sum(d[y] * (_p * (_p > 0)) * np.expand_dims(x, 1) ** np.maximum(_p - 1, 0),
                   axis=1)


@tangent(np.vander)
def vander_tangent(y, x, N=None, increasing=False):
    _p = np.arange(np.shape(y)[1]) if increasing else np.arange(np.shape(y)[1])[::-1]
    d[y] = np.expand_dims(d[x], 1) * (_p * (_p > 0)) * np.expand_dims(x, 1) ** np.maximum(
        _p - 1, 0)
