"""Least squares and other products: np.linalg's pinv, lstsq (full rank) and cond, and
np.kron (operands of any rank) and np.cross (3-vectors).

pinv and lstsq follow the derivative of the pseudo-inverse P of a matrix of constant rank,
dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P; lstsq's x is P b.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_linalg import kron_layout
from s2s_ad.runtime_spread import unreduce_norm


@adjoint(np.linalg.pinv)
def pinv_adjoint(y, a, rcond=None):
    """A_bar = -P^T P_bar P^T + (I - A P) P_bar^T P P^T + P^T P P_bar^T (I - P A)"""
    _pt = np.swapaxes(y, -1, -2)
    _gt = np.swapaxes(d[y], -1, -2)
    _left = _gt @ y @ _pt
    _right = _pt @ y @ _gt
    d[a] += -(_pt @ d[y] @ _pt) + _left - a @ (y @ _left) + _right - (_right @ y) @ a


@tangent(np.linalg.pinv)
def pinv_tangent(y, a, rcond=None):
    """dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P"""
    _at = np.swapaxes(d[a], -1, -2)
    _pt = np.swapaxes(y, -1, -2)
    _first = y @ _pt @ _at
    _second = _at @ _pt @ y
    d[y] = -(y @ d[a] @ y) + _first - (_first @ a) @ y + _second - y @ (a @ _second)


# lstsq returns (x, residuals, rank, s); b holds vectors or columns, worked on as columns.
# residuals (the squared norms of r = b - A x, when A is tall and of full rank) move by
# 2 r^T (db - dA x), as A^T r = 0; s by the singular values' rule
@adjoint(np.linalg.lstsq)
def lstsq_adjoint(y, a, b, rcond=None):
    """b_bar = P^T x_bar + 2 r res_bar, A_bar = -b_bar' x^T + r (P b_bar')^T
    + (P^T x)(x_bar - P A x_bar)^T - 2 r res_bar x^T + U diag(s_bar) Vh"""
    _p = np.linalg.pinv(a)
    _x = np.reshape(y[0], (np.shape(a)[-1], -1))
    _xb = np.reshape(broadcast_tangent(d[y][0], y[0]), np.shape(_x))
    _bb = np.swapaxes(_p, -1, -2) @ _xb
    _r = np.reshape(b, (np.shape(a)[0], -1)) - a @ _x
    _rb = 2.0 * _r * d[y][1] if np.size(y[1]) else 0.0 * _r
    _usv = np.linalg.svd(a, full_matrices=False) if np.any(d[y][3]) else None
    d[b] += reshape_like(_bb + _rb, b)
    d[a] += -(_bb + _rb) @ _x.T + _r @ (_p @ _bb).T + (_p.T @ _x) @ (_xb - _p @ (a @ _xb)).T \
        + ((_usv[0] * d[y][3]) @ _usv[2] if np.any(d[y][3]) else 0.0)


@tangent(np.linalg.lstsq)
def lstsq_tangent(y, a, b, rcond=None):
    """dx = -P dA x + P P^T dA^T r + (I - P A) dA^T P^T x + P db"""
    _p = np.linalg.pinv(a)
    _x = np.reshape(y[0], (np.shape(a)[-1], -1))
    _r = np.reshape(b, (np.shape(a)[0], -1)) - a @ _x
    _db = reshape_like(d[b], _r)     # (np.reshape of a zero tangent keeps b's shape)
    _z = d[a].T @ (_p.T @ _x)
    _dx = -(_p @ (d[a] @ _x)) + _p @ (_p.T @ (d[a].T @ _r)) + _z - _p @ (a @ _z) + _p @ _db
    _usv = np.linalg.svd(a, full_matrices=False)
    d[y] = (reshape_like(_dx, y[0]),
            2.0 * np.sum(_r * (_db - d[a] @ _x), 0) if np.size(y[1]) else 0.0 * y[1],
            0.0,
            np.sum(_usv[0] * (d[a] @ _usv[2].T), -2))


# cond(x) = s_max / s_min for p None or 2 (s_min / s_max for -2), else
# norm(x, p) norm(inv(x), p), differentiated through the norm's own rule
@adjoint(np.linalg.cond)
def cond_adjoint(y, x, p=None):
    """x_bar = c_bar (u_hi v_hi^T - c u_lo v_lo^T) / s_lo; else the product rule"""
    _usv = np.linalg.svd(x, full_matrices=False) if p in (None, 2, -2) else None
    _inv = None if p in (None, 2, -2) else np.linalg.inv(x)
    _hi = -1 if p == -2 else 0
    _lo = 0 if p == -2 else -1
    d[x] += np.expand_dims(d[y] / _usv[1][..., _lo], (-2, -1)) * (
        _usv[0][..., :, _hi, None] * _usv[2][..., None, _hi, :]
        - np.expand_dims(y, (-2, -1)) * _usv[0][..., :, _lo, None] * _usv[2][..., None, _lo, :]) \
        if p in (None, 2, -2) else unreduce_norm(
            d[y] * np.linalg.norm(_inv, p, (-2, -1)), x, np.linalg.norm(x, p, (-2, -1)), p,
            (-2, -1)) - np.swapaxes(_inv, -1, -2) @ unreduce_norm(
            d[y] * np.linalg.norm(x, p, (-2, -1)), _inv, np.linalg.norm(_inv, p, (-2, -1)), p,
            (-2, -1)) @ np.swapaxes(_inv, -1, -2)


@tangent(np.linalg.cond)
def cond_tangent(y, x, p=None):
    """dc = (ds_hi - c ds_lo) / s_lo, ds_i = u_i^T dx v_i; else the product rule"""
    _usv = np.linalg.svd(x, full_matrices=False) if p in (None, 2, -2) else None
    _inv = None if p in (None, 2, -2) else np.linalg.inv(x)
    _hi = -1 if p == -2 else 0
    _lo = 0 if p == -2 else -1
    d[y] = (np.sum(_usv[0][..., :, _hi] * (d[x] @ _usv[2][..., _hi, :, None])[..., 0], -1)
            - y * np.sum(_usv[0][..., :, _lo] * (d[x] @ _usv[2][..., _lo, :, None])[..., 0], -1)) \
        / _usv[1][..., _lo] if p in (None, 2, -2) else np.sum(unreduce_norm(
            np.linalg.norm(_inv, p, (-2, -1)), x, np.linalg.norm(x, p, (-2, -1)), p, (-2, -1))
            * d[x] - unreduce_norm(np.linalg.norm(x, p, (-2, -1)), _inv,
                                   np.linalg.norm(_inv, p, (-2, -1)), p, (-2, -1))
            * (_inv @ d[x] @ _inv), (-2, -1))


# kron(a, b) with both padded to one rank n, reshaped to (a_0, b_0, a_1, b_1, ...), holds
# a[i...] b[k...] at [i_0, k_0, i_1, k_1, ...] (runtime_linalg.kron_layout): any ranks
@adjoint(np.kron)
def kron_adjoint(y, a, b):
    """the adjoint laid out with a's and b's axes interleaved, contracted with the other
    factor over its axes"""
    _lay = kron_layout(a, b)
    _g = np.reshape(d[y], _lay[0])
    d[a] += reshape_like(np.tensordot(_g, np.reshape(b, _lay[2]), (_lay[4], _lay[5])), a)
    d[b] += reshape_like(np.tensordot(_g, np.reshape(a, _lay[1]), (_lay[3], _lay[5])), b)


@tangent(np.kron)
def kron_tangent(y, a, b):
    """d kron(a, b) = kron(da, b) + kron(a, db)"""
    d[y] = np.kron(d[a], b) + np.kron(a, d[b])


# the vector axes moved last (where numpy broadcasts the others), and back
@adjoint(np.cross)
def cross_adjoint(y, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """<g, a x b> = <b x g, a> = <g x a, b> (3-vectors)"""
    _a = np.moveaxis(a, axisa if axis is None else axis, -1)
    _b = np.moveaxis(b, axisb if axis is None else axis, -1)
    _g = np.moveaxis(d[y], axisc if axis is None else axis, -1)
    d[a] += np.moveaxis(unbroadcast(np.cross(_b, _g), _a), -1, axisa if axis is None else axis)
    d[b] += np.moveaxis(unbroadcast(np.cross(_g, _a), _b), -1, axisb if axis is None else axis)


@tangent(np.cross)
def cross_tangent(y, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """d (a x b) = da x b + a x db"""
    d[y] = np.cross(d[a], b, axisa, axisb, axisc, axis) \
        + np.cross(a, d[b], axisa, axisb, axisc, axis)
