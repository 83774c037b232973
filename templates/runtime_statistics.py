"""Templates of the helpers in s2s_ad/runtime_statistics.py, for second derivatives of the
order statistics. The quantile weights W are piecewise constant in x and (for 'linear')
piecewise linear in q: dW = dW/dq dq, with dW/dq (quantile_slopes) piecewise constant.
The slopes, the axes and partition's order are declared without derivative."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, nondifferentiable, tangent
from s2s_ad.runtime_statistics import (covariance_shape, observation_count, observations,
                                       partition_order, quantile_axes, leading_axes,
                                       quantile_slopes, quantile_weights, unobserve)

nondifferentiable(quantile_slopes, quantile_axes, leading_axes, partition_order)


@adjoint(quantile_weights)
def quantile_weights_adjoint(out, x, q, axis=None, method="linear", ignore_nan=False):
    """q_bar = sum over x's axes of dW/dq out_bar"""
    d[q] += np.sum(quantile_slopes(x, q, axis, method, ignore_nan) * d[out],
                   axis=quantile_axes(x, q))


@tangent(quantile_weights)
def quantile_weights_tangent(out, x, q, axis=None, method="linear", ignore_nan=False):
    """dW = dW/dq dq (dq laid along q's axes of W)"""
    d[out] = quantile_slopes(x, q, axis, method, ignore_nan) * np.expand_dims(
        d[q], quantile_axes(x, q))


nondifferentiable(observation_count, covariance_shape)


# observations and unobserve are linear in their first arguments (m, y and g); m0 and y0
# fix the layout only
@adjoint(observations)
def observations_adjoint(out, m, y=None, rowvar=True, m0=None, y0=None):
    """m_bar, y_bar = out_bar's rows back in m's and y's layouts"""
    d[m] += unobserve(d[out], m0, y0, rowvar, 0)
    d[y] += unobserve(d[out], m0, y0, rowvar, 1)


@tangent(observations)
def observations_tangent(out, m, y=None, rowvar=True, m0=None, y0=None):
    """linear: d observations(m, y) = observations(dm, dy)"""
    d[out] = observations(d[m], d[y], rowvar, m0, y0)


@adjoint(unobserve)
def unobserve_adjoint(out, g, m0, y0=None, rowvar=True, part=0):
    """g_bar = out_bar laid out as the rows of the part it came from, zeros elsewhere"""
    d[g] += observations(d[out], 0.0, rowvar, m0, y0) if part == 0 else observations(
        0.0, d[out], rowvar, m0, y0)


@tangent(unobserve)
def unobserve_tangent(out, g, m0, y0=None, rowvar=True, part=0):
    """linear: d unobserve(g) = unobserve(dg)"""
    d[out] = unobserve(d[g], m0, y0, rowvar, part)
