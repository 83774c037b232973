"""Piecewise-linear interpolation and numerical calculus: np.interp, np.trapezoid (and
np.trapz where numpy still has it), np.gradient.

np.interp(x, xp, fp, left, right): between the knots, y = (1 - t) fp[i] + t fp[i+1] with
t = (x - xp[i]) / h, h = xp[i+1] - xp[i] (runtime_calculus.py picks i); outside them the
constants left / right (fp[0] / fp[-1] when None). Differentiable in all five: dy/dx is
the slope s = (fp[i+1] - fp[i]) / h inside and 0 outside; dy/dxp[i] = -s (1 - t),
dy/dxp[i+1] = -s t (moving a knot moves the line through it). At a knot x takes the
interval on its right (at xp[-1] the last one): the one-sided derivative from there.

np.trapezoid(y, x, dx, axis) = sum(w * y, axis), w = trapezoid_steps(y, x, axis) (dx
times unit_trapezoid_steps when x is None): linear in y and in x (or dx), so its derivative is
w dy + w(dx) y. np.gradient(f, h1, ..., axis=axes, edge_order) returns y_k = G_k f / h_k
for each axis k (one array for one axis, else a tuple): linear in f and proportional to
1 / h_k, its adjoint applies the transposed difference matrices (ungradients), and
d y_k / d h_k = -y_k / h_k. Spacings are numbers (one for every axis, or one per axis);
coordinate arrays are a clear error. period= (interp) is not a parameter: an error.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unreduce
from s2s_ad.runtime_calculus import (gradient_spacing_adjoints, gradient_tangents,
                                     interp_outside, interp_place, trapezoid_steps,
                                     ungradients, unit_trapezoid_steps,
                                     untrapezoid_steps)


@adjoint(np.interp)
def interp_adjoint(y, x, xp, fp, left=None, right=None):
    """inside: x_bar = s g, fp_bar[i] += (1 - t) g, fp_bar[i+1] += t g, xp_bar[i] -=
    s (1 - t) g, xp_bar[i+1] -= s t g; outside: left_bar / right_bar (or fp's ends) += g"""
    _xp = np.asarray(xp)                # a list of knots indexes as an array
    _fp = np.asarray(fp)
    _i = interp_place(x, _xp)
    _h = _xp[_i + 1] - _xp[_i]
    _t = (x - _xp[_i]) / _h
    _s = (_fp[_i + 1] - _fp[_i]) / _h
    _below = interp_outside(x, xp, -1)
    _above = interp_outside(x, xp, 1)
    _g = np.where(np.logical_or(_below, _above), 0.0, d[y])
    d[x] += _g * _s
    d[fp][_i] += _g * (1.0 - _t)
    d[fp][_i + 1] += _g * _t
    d[xp][_i] += -_g * _s * (1.0 - _t)
    d[xp][_i + 1] += -_g * _s * _t
    d[fp][0] += np.sum(np.where(_below, d[y], 0.0)) if left is None else 0.0
    d[fp][-1] += np.sum(np.where(_above, d[y], 0.0)) if right is None else 0.0
    d[left] += np.sum(np.where(_below, d[y], 0.0))
    d[right] += np.sum(np.where(_above, d[y], 0.0))


@tangent(np.interp)
def interp_tangent(y, x, xp, fp, left=None, right=None):
    """inside: dy = (1 - t) dfp[i] + t dfp[i+1] + s (dx - (1 - t) dxp[i] - t dxp[i+1]);
    outside: dleft / dright (or fp's ends)"""
    _xp = np.asarray(xp)                # a list of knots indexes as an array
    _fp = np.asarray(fp)
    _i = interp_place(x, _xp)
    _h = _xp[_i + 1] - _xp[_i]
    _t = (x - _xp[_i]) / _h
    _s = (_fp[_i + 1] - _fp[_i]) / _h
    _below = interp_outside(x, xp, -1)
    _above = interp_outside(x, xp, 1)
    d[y] = np.where(_below, d[fp][0] if left is None else d[left], np.where(
        _above, d[fp][-1] if right is None else d[right],
        (1.0 - _t) * d[fp][_i] + _t * d[fp][_i + 1]
        + _s * (d[x] - (1.0 - _t) * d[xp][_i] - _t * d[xp][_i + 1])))


_TRAPEZOIDS = tuple(getattr(np, name) for name in ("trapezoid", "trapz") if hasattr(np, name))


@adjoint(*_TRAPEZOIDS)
def trapezoid_adjoint(r, y, x=None, dx=1.0, axis=-1):
    """y_bar = w g, x_bar = the adjoint of w(x) applied to y g, dx_bar = sum(w(1) y g)"""
    _g = unreduce(d[r], y, axis)
    d[y] += _g * (trapezoid_steps(y, x, axis) if x is not None
                  else dx * unit_trapezoid_steps(y, axis))
    d[x] += untrapezoid_steps(y * _g, x, axis)
    d[dx] += np.sum(unit_trapezoid_steps(y, axis) * y * _g) if x is None else 0.0


@tangent(*_TRAPEZOIDS)
def trapezoid_tangent(r, y, x=None, dx=1.0, axis=-1):
    """bilinear: d trapezoid = sum(w dy + w(dx) y) along axis"""
    d[r] = np.sum(d[y] * (trapezoid_steps(y, x, axis) if x is not None else
                          dx * unit_trapezoid_steps(y, axis))
                  + y * (trapezoid_steps(y, d[x], axis) if x is not None else
                         d[dx] * unit_trapezoid_steps(y, axis)), axis=axis)


# np.gradient's *varargs: one number for every axis, or one per axis (h2..h4 None when not
# given); its result is one array for one axis, else one per axis
@adjoint(np.gradient)
def gradient_adjoint(y, f, spacing=1.0, h2=None, h3=None, h4=None, axis=None, edge_order=1):
    """f_bar = sum_k G_k^T g_k / h_k (G_k the difference matrix along axis k), h_k_bar =
    -sum(y_k g_k) / h_k"""
    d[f] += ungradients(d[y], f, [spacing, h2, h3, h4], axis, edge_order)
    _h = gradient_spacing_adjoints(d[y], y, [spacing, h2, h3, h4], f, axis)
    d[spacing] += _h[0]
    d[h2] += _h[1]
    d[h3] += _h[2]
    d[h4] += _h[3]


@tangent(np.gradient)
def gradient_tangent(y, f, spacing=1.0, h2=None, h3=None, h4=None, axis=None, edge_order=1):
    """linear in f, proportional to 1 / h_k: dy_k = G_k df / h_k - y_k dh_k / h_k"""
    d[y] = gradient_tangents(y, d[f], [spacing, h2, h3, h4],
                             [d[spacing], d[h2], d[h3], d[h4]], f, axis, edge_order)
