"""Templates of the helpers in s2s_ad/runtime_calculus.py, for second derivatives of
np.trapezoid and np.gradient. trapezoid_steps is linear in x, untrapezoid_steps in h,
ungradient in g and proportional to 1 / h; the places, sides, axes, exponents and the
polynomial matrices only depend on shapes or are piecewise constant: no derivative."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, nondifferentiable, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_flow import add_adjoints
from s2s_ad.runtime_calculus import (as_columns_of, gradient_layout, gradient_spacing_adjoints,
                                     gradient_tangents, interp_outside, interp_place,
                                     polynomial_exponents, polynomial_map, spacing_tangents,
                                     trapezoid_steps, ungradient, ungradients,
                                     unit_trapezoid_steps, untrapezoid_steps)

nondifferentiable(interp_place, interp_outside, gradient_layout, polynomial_map,
                  polynomial_exponents, unit_trapezoid_steps)


@adjoint(trapezoid_steps)
def trapezoid_steps_adjoint(out, y, x, axis=-1):
    """linear in x: x_bar = untrapezoid_steps(out_bar)"""
    d[x] += untrapezoid_steps(unbroadcast(d[out], out), x, axis)


@tangent(trapezoid_steps)
def trapezoid_steps_tangent(out, y, x, axis=-1):
    """linear in x"""
    d[out] = trapezoid_steps(y, d[x], axis)


@adjoint(untrapezoid_steps)
def untrapezoid_steps_adjoint(out, h, x, axis=-1):
    """linear in h: h_bar = trapezoid_steps(out_bar) spread over h's shape"""
    d[h] += trapezoid_steps(h, d[out], axis) + np.zeros_like(h)


@tangent(untrapezoid_steps)
def untrapezoid_steps_tangent(out, h, x, axis=-1):
    """linear in h"""
    d[out] = untrapezoid_steps(d[h], x, axis)


@adjoint(ungradient)
def ungradient_adjoint(out, g, h=1.0, axis=-1, edge_order=1):
    """out = G^T g / h: g_bar = G out_bar / h = np.gradient(out_bar, h), h_bar = -sum(out
    out_bar) / h"""
    d[g] += np.gradient(d[out], h, axis=axis, edge_order=edge_order)
    d[h] += -np.sum(out * d[out]) / h


@tangent(ungradient)
def ungradient_tangent(out, g, h=1.0, axis=-1, edge_order=1):
    """linear in g, proportional to 1 / h"""
    d[out] = ungradient(d[g], h, axis, edge_order) - out * d[h] / h


@adjoint(ungradients)
def ungradients_adjoint(out, gs, f, spacings, axis=None, edge_order=1):
    """out = sum_k G_k^T g_k / h_k: g_k_bar = G_k out_bar / h_k (np.gradient of out_bar),
    h_k_bar = -sum(g_k g_k_bar) / h_k"""
    _ys = gradient_tangents(None, d[out], spacings, None, f, axis, edge_order)
    d[gs] += _ys
    d[spacings] += gradient_spacing_adjoints(gs, _ys, spacings, f, axis)


@tangent(ungradients)
def ungradients_tangent(out, gs, f, spacings, axis=None, edge_order=1):
    """linear in gs, proportional to 1 / h_k: d(g_k / h_k) = dg_k / h_k - g_k dh_k / h_k^2"""
    d[out] = ungradients(add_adjoints(d[gs], spacing_tangents(gs, spacings, d[spacings], f,
                                                              axis)),
                         f, spacings, axis, edge_order)


@adjoint(gradient_spacing_adjoints)
def gradient_spacing_adjoints_adjoint(out, gs, ys, spacings, f, axis=None):
    """out_j = -sum_k (y_k g_k) / h_k over the axes k spacing j gives: bilinear in gs
    and ys, proportional to 1 / h"""
    d[gs] += spacing_tangents(ys, spacings, d[out], f, axis)
    d[ys] += spacing_tangents(gs, spacings, d[out], f, axis)
    d[spacings] += gradient_spacing_adjoints(gs, spacing_tangents(ys, spacings, d[out], f, axis),
                                             spacings, f, axis)


@tangent(gradient_spacing_adjoints)
def gradient_spacing_adjoints_tangent(out, gs, ys, spacings, f, axis=None):
    """the product rule, and d(1 / h) = -dh / h^2"""
    d[out] = add_adjoints(add_adjoints(
        gradient_spacing_adjoints(d[gs], ys, spacings, f, axis),
        gradient_spacing_adjoints(gs, d[ys], spacings, f, axis)),
        gradient_spacing_adjoints(gs, spacing_tangents(ys, spacings, d[spacings], f, axis),
                                  spacings, f, axis))


@adjoint(as_columns_of)
def as_columns_of_adjoint(out, v):
    """a reshape: v_bar = out_bar in v's shape"""
    d[v] += reshape_like(d[out], v)


@tangent(as_columns_of)
def as_columns_of_tangent(out, v):
    """a reshape: linear"""
    d[out] = as_columns_of(d[v])
