"""Constructors whose values depend on an argument: np.full and np.full_like (the fill
value), np.linspace and np.geomspace (start and stop) and np.logspace (start, stop, base). The other constructors (zeros, ones, arange,
eye, ...) are in nondifferentiable.py. np.r_[...] and np.c_[...] are rewritten to
np.concatenate of np.atleast_1d / column_item (transforms/array_syntax.py)."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_flow import float_dtype
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_creation import column_item, linspace_fractions, through_cast


@adjoint(np.full)
def full_adjoint(y, shape, fill_value, dtype=None, order="C"):
    """every element is fill_value (broadcast): its adjoint is the sum of y's"""
    d[fill_value] += unbroadcast(through_cast(d[y], y, dtype), fill_value)


@tangent(np.full)
def full_tangent(y, shape, fill_value, dtype=None, order="C"):
    """d full(s, v) = full(s, dv)"""
    d[y] = through_cast(broadcast_tangent(d[fill_value], y), y, dtype)


@adjoint(np.full_like)
def full_like_adjoint(y, a, fill_value, dtype=None, order="K", subok=True, shape=None):
    """every element is fill_value (a gives only the shape): the sum of y's adjoint"""
    d[fill_value] += unbroadcast(through_cast(d[y], y, dtype), fill_value)


@tangent(np.full_like)
def full_like_tangent(y, a, fill_value, dtype=None, order="K", subok=True, shape=None):
    """d full_like(a, v) = full_like(a, dv)"""
    d[y] = through_cast(broadcast_tangent(d[fill_value], y), y, dtype)


# y = start + (stop - start) t along axis, t the fractions (0 ... 1, or 0 ... (n-1)/n
# without the endpoint): linear in start and stop
@adjoint(np.linspace)
def linspace_adjoint(y, start, stop, num=50, endpoint=True, retstep=False, dtype=None,
                     axis=0):
    """start_bar = sum over the samples of (1 - t) y_bar, stop_bar = sum of t y_bar"""
    _t = through_cast(linspace_fractions(num, endpoint, y, axis, retstep, dtype), y, dtype)
    d[start] += unbroadcast(np.sum(d[y] * (1.0 - _t), axis=axis), start)
    d[stop] += unbroadcast(np.sum(d[y] * _t, axis=axis), stop)


@tangent(np.linspace)
def linspace_tangent(y, start, stop, num=50, endpoint=True, retstep=False, dtype=None,
                     axis=0):
    """d linspace(a, b) = da (1 - t) + db t, the endpoints' tangents spread along axis"""
    _t = through_cast(linspace_fractions(num, endpoint, y, axis, retstep, dtype), y, dtype)
    d[y] = broadcast_tangent(np.expand_dims(d[start], axis) * (1.0 - _t)
                             + np.expand_dims(d[stop], axis) * _t, y)


@adjoint(column_item)
def column_item_adjoint(y, v):
    """np.c_'s layout only reshapes: reshape back"""
    d[v] += reshape_like(d[y], v)


@tangent(column_item)
def column_item_tangent(y, v):
    """d column_item(v) = column_item(dv)"""
    d[y] = column_item(d[v])


@adjoint(through_cast)
def through_cast_adjoint(r, g, y, dtype):
    """linear in g; y only decides (by its dtype) whether g passes"""
    d[g] += through_cast(d[r], y, dtype)


@tangent(through_cast)
def through_cast_tangent(r, g, y, dtype):
    """d through_cast(g) = through_cast(dg)"""
    d[r] = through_cast(d[g], y, dtype)


# geomspace: y = start (stop / start)**t, so dy = y ((1 - t) dstart / start + t dstop / stop)
@adjoint(np.geomspace)
def geomspace_adjoint(y, start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """start_bar = sum((1 - t) y y_bar) / start, stop_bar = sum(t y y_bar) / stop"""
    _t = linspace_fractions(num, endpoint, y, axis)
    d[start] += unbroadcast(np.sum(d[y] * y * (1.0 - _t), axis=axis) / start, start)
    d[stop] += unbroadcast(np.sum(d[y] * y * _t, axis=axis) / stop, stop)


@tangent(np.geomspace)
def geomspace_tangent(y, start, stop, num=50, endpoint=True, dtype=None, axis=0):
    _t = linspace_fractions(num, endpoint, y, axis)
    d[y] = broadcast_tangent(y * (np.expand_dims(d[start] / start, axis) * (1.0 - _t)
                                  + np.expand_dims(d[stop] / stop, axis) * _t), y)


# logspace: y = base**u, u = linspace(start, stop): dy = y (log(base) du + u dbase / base)
@adjoint(np.logspace)
def logspace_adjoint(y, start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """start_bar, stop_bar: linspace's, times y log(base); base_bar = sum(u y y_bar) / base"""
    _t = linspace_fractions(num, endpoint, y, axis)
    _log = np.log(np.asarray(base, dtype=float_dtype(base, y)))     # float32 y: float32
    d[start] += unbroadcast(np.sum(d[y] * y * (1.0 - _t), axis=axis) * _log, start)
    d[stop] += unbroadcast(np.sum(d[y] * y * _t, axis=axis) * _log, stop)
    d[base] += unbroadcast(np.sum(d[y] * y * np.linspace(start, stop, num, endpoint=endpoint,
                                                         axis=axis), axis=axis) / base, base)


@tangent(np.logspace)
def logspace_tangent(y, start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    _t = linspace_fractions(num, endpoint, y, axis)
    d[y] = broadcast_tangent(y * (np.log(np.expand_dims(np.asarray(
        base, dtype=float_dtype(base, y)), axis)) * (
        np.expand_dims(d[start], axis) * (1.0 - _t) + np.expand_dims(d[stop], axis) * _t)
        + np.linspace(start, stop, num, endpoint=endpoint, axis=axis)
        * np.expand_dims(np.asarray(d[base] / base, dtype=float_dtype(base, y)), axis)), y)
