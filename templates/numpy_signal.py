"""np.convolve and np.correlate: 1-D (or scalar) operands, both differentiable, every mode.

Both are bilinear. Their result y is a window of the full result (length N + M - 1):
convolve's c_k = sum_i a_i v_{k-i}, correlate's c_j = sum_n a_{n+j-(M-1)} v_n (real
operands; numpy conjugates a complex v, which s2s_ad does not differentiate).
signal_widths locates the window as numpy computes it: the longer operand first, and the
centring of 'same', which for np.correlate with N < M differs by one place. The adjoint
pads y_bar with zeros back to the full length (g) and transposes the full product:

    convolve:   a_bar_i = sum_k g_k v_{k-i}       = correlate(g, v, 'valid')_i
                v_bar_j = sum_k g_k a_{k-j}       = correlate(g, a, 'valid')_j
    correlate:  a_bar_i = sum_j g_j v_{i-j+M-1}   = convolve(g, v, 'valid')_i
                v_bar_n = sum_j g_j a_{n+j-(M-1)} = correlate(a, g, 'valid')_n

g is at least as long as either operand, so these 'valid' products have exactly N and M
values (np.correlate(a, g) with N < N + M - 1 is numpy's swapped case, the same lags).
unbroadcast(d[y], y) turns the scalar zero an adjoint of a loop or branch may still be
into zeros of y's shape (it reads y's shape only). np.convolve takes scalars as
1-vectors, np.correlate does not: its adjoint ravels them, and reshape_like gives a scalar
operand its scalar adjoint back.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_arrays import signal_widths


@adjoint(np.convolve)
def convolve_adjoint(y, a, v, mode="full"):
    """y = (a * v)[window]: a_bar = correlate(g, v, valid), v_bar = correlate(g, a, valid)"""
    _g = np.pad(unbroadcast(d[y], y), signal_widths(a, v, mode))
    d[a] += reshape_like(np.correlate(_g, np.ravel(v), "valid"), a)
    d[v] += reshape_like(np.correlate(_g, np.ravel(a), "valid"), v)


@tangent(np.convolve)
def convolve_tangent(y, a, v, mode="full"):
    """convolve is bilinear: d convolve(a, v) = convolve(da, v) + convolve(a, dv)"""
    d[y] = np.convolve(d[a], v, mode) + np.convolve(a, d[v], mode)


@adjoint(np.correlate)
def correlate_adjoint(y, a, v, mode="valid"):
    """y = (a star v)[window]: a_bar = convolve(g, v, valid), v_bar = correlate(a, g, valid)"""
    _g = np.pad(unbroadcast(d[y], y), signal_widths(a, v, mode, True))
    d[a] += reshape_like(np.convolve(_g, v, "valid"), a)
    d[v] += reshape_like(np.correlate(a, _g, "valid"), v)


@tangent(np.correlate)
def correlate_tangent(y, a, v, mode="valid"):
    """correlate is bilinear: d correlate(a, v) = correlate(da, v) + correlate(a, dv)"""
    d[y] = np.correlate(d[a], v, mode) + np.correlate(a, d[v], mode)
