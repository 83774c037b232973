"""Templates of the helpers in s2s_ad/runtime_statistics.py, for second derivatives of the
order statistics. The quantile weights W are piecewise constant in x and (for 'linear')
piecewise linear in q: dW = dW/dq dq, with dW/dq (quantile_slopes) piecewise constant.
The slopes, the axes and partition's order are declared without derivative."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, nondifferentiable, tangent
from s2s_ad.runtime_statistics import (partition_order, quantile_axes, quantile_q_axes,
                                       quantile_slopes, quantile_weights)

nondifferentiable(quantile_slopes, quantile_axes, quantile_q_axes, partition_order)


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
