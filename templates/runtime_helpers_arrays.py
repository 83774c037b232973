"""Tangents of the runtime helpers of runtime_arrays.py (np.cumprod's scans, np.pad, the
weights of np.average) and runtime_spread.py (np.std), split from runtime_helpers.py,
whose docstring says what these templates are for; and both templates of runtime.py's
logistic, the derivative of np.logaddexp, and of its written_sigmoid (the user's chain
1.0 / (1.0 + np.exp(-x)) reversed as one primitive) and scaled_pair_maximum (a maximum of
two multiples of one value) and power_of_exp (a power of an exponential), each reversed as
one primitive."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import (logistic, power_of_exp, scaled_pair_maximum, unbroadcast,
                            unreduce, written_sigmoid)
from s2s_ad.runtime_pieces import kink_share
from s2s_ad.runtime_reductions import unreduce_var
from s2s_ad.runtime_arrays import (linear_scan, logsumexp_weights, pad_linear, shifted,
                                   spread_weights, sum_weighted, unlayout_weights, unpad,
                                   unpad_end_values, unpad_values, weights_total)
from s2s_ad.runtime_spread import spread_reciprocal, unreduce_std


# ---- runtime.py's logistic (np.logaddexp's derivative) -------------------------------------
@adjoint(logistic)
def logistic_adjoint(y, x, shift=0.0):
    """d logistic(x - s) = logistic(x - s) logistic(s - x) (dx - ds) (not y (1 - y): 1 - y
    rounds to 0 where logistic(s - x) is tiny but not 0)"""
    _g = d[y] * y * logistic(shift, x)
    d[x] += unbroadcast(_g, x)
    d[shift] += unbroadcast(-_g, shift)


@tangent(logistic)
def logistic_tangent(y, x, shift=0.0):
    d[y] = (d[x] - d[shift]) * y * logistic(shift, x)


@adjoint(written_sigmoid)
def written_sigmoid_adjoint(y, x):
    """d 1 / (1 + e) with e = exp(-x) is y * y * e dx, and y e = 1 - y: the result alone,
    as a hand-written gradient reads it (1 - y keeps y's absolute error, at most half an
    ulp of 1, where y rounds near 1; e itself is not kept for it)"""
    d[x] += d[y] * y * (1.0 - y)


@tangent(written_sigmoid)
def written_sigmoid_tangent(y, x):
    d[y] = d[x] * y * (1.0 - y)


@adjoint(scaled_pair_maximum)
def scaled_pair_maximum_adjoint(y, r, high, low):
    """max(high r, low r) with high >= low: d = high dr + r dhigh where r > 0, low dr + r dlow
    where r < 0, the mean of the two at r = 0 (np.maximum's rule at its tie); the share
    of r > 0 taken once, and r's adjoint as low g + (high - low) share"""
    _share = kink_share(d[y], r, 0.0, True)
    d[r] += unbroadcast(low * d[y] + (high - low) * _share, r)
    d[high] += unbroadcast(_share * r, high)
    d[low] += unbroadcast((d[y] - _share) * r, low)


@tangent(scaled_pair_maximum)
def scaled_pair_maximum_tangent(y, r, high, low):
    d[y] = np.where(r > 0.0, high * d[r] + r * d[high], np.where(
        r == 0.0, 0.5 * (high + low) * d[r], low * d[r] + r * d[low]))


@adjoint(power_of_exp)
def power_of_exp_adjoint(y, x, c):
    """exp(x) ** c = exp(c x): d = exp(c x) (c dx + x dc), one exp (the pow's own rule
    takes a pow, c mu ** (c - 1), and exp's a product)"""
    _e = np.exp(c * x)
    d[x] += unbroadcast(d[y] * c * _e, x)
    d[c] += unbroadcast(d[y] * x * _e, c)


@tangent(power_of_exp)
def power_of_exp_tangent(y, x, c):
    d[y] = y * (c * d[x] + x * d[c])


# ---- runtime_spread.py ---------------------------------------------------------------------
@tangent(unreduce_std)
def unreduce_std_tangent(out, g, x, y, axis=None, ddof=0, keepdims=False):
    """c (x - mean x) E(g r): d = the same of dg - g r dy, plus c (dx - mean dx) E(g r)"""
    _r = spread_reciprocal(y, x, axis, keepdims)
    d[out] = unreduce_std(d[g] - g * _r * d[y], x, y, axis, ddof, keepdims) \
        + unreduce_var(0.5 * g * _r, d[x], axis, ddof, keepdims)


@tangent(spread_reciprocal)
def spread_reciprocal_tangent(out, y, x, axis=None, keepdims=False):
    """d (1 / y) = -dy / y**2 (0 at a zero spread)"""
    d[out] = -d[y] * out * out


# ---- runtime_arrays.py ---------------------------------------------------------------------
# h = c shifted(h) + b, so dh = c shifted(dh) + (db + dc shifted(h)): the same scan
@tangent(linear_scan)
def linear_scan_tangent(out, c, b, axis=None, reverse=False):
    """d linear_scan(c, b) = linear_scan(c, db + dc shifted(h))"""
    d[out] = linear_scan(c, d[b] + d[c] * shifted(out, axis, 0.0, reverse), axis, reverse)


@tangent(shifted)
def shifted_tangent(out, v, axis=None, first=0.0, reverse=False):
    """shifted is linear in v and first"""
    d[out] = shifted(d[v], axis, d[first], reverse)


@tangent(unpad)
def unpad_tangent(out, g, widths, mode="constant", stat_length=None, reflect_type="even",
                  array=None):
    """unpad is linear in g (and piecewise constant in array)"""
    d[out] = unpad(d[g], widths, mode, stat_length, reflect_type, array)


@tangent(pad_linear)
def pad_linear_tangent(out, g, widths, mode="constant", constant_values=0.0, end_values=0.0,
                       stat_length=None, reflect_type="even", array=None):
    """np.pad is linear in g, constant_values and end_values together (and piecewise
    constant in array)"""
    d[out] = pad_linear(d[g], widths, mode, d[constant_values], d[end_values], stat_length,
                        reflect_type, array)


@tangent(unpad_end_values)
def unpad_end_values_tangent(out, g, widths, end_values=0.0):
    """unpad_end_values is linear in g"""
    d[out] = unpad_end_values(d[g], widths, end_values)


@tangent(unpad_values)
def unpad_values_tangent(out, g, widths, constant_values=0):
    """unpad_values is linear in g"""
    d[out] = unpad_values(d[g], widths, constant_values)


# np.average's weights helpers: linear in g and in the weights (a and axis give the
# layout only). A weights tangent that is zero (weights=None: zero_tangent(None) is 0.0)
# is laid out as one weight, so it broadcasts
@tangent(unlayout_weights)
def unlayout_weights_tangent(out, g, weights, axis=None):
    """unlayout_weights is linear in g"""
    d[out] = unlayout_weights(d[g], weights, axis)


@tangent(weights_total)
def weights_total_tangent(out, a, weights=None, axis=None, keepdims=False):
    """linear in the weights: d sum(w) = sum(dw)"""
    d[out] = weights_total(a, d[weights], axis, keepdims)


@tangent(spread_weights)
def spread_weights_tangent(out, g, a, weights=None, axis=None, keepdims=False):
    """bilinear in g and the weights: d (unreduce(g) w) = unreduce(dg) w + unreduce(g) dw"""
    d[out] = spread_weights(d[g], a, weights, axis, keepdims) \
        + spread_weights(g, a, d[weights], axis, keepdims)


@tangent(sum_weighted)
def sum_weighted_tangent(out, g, a, weights=None, axis=None, keepdims=False):
    """bilinear in g and the weights: d sum(g w) = sum(dg w) + sum(g dw)"""
    d[out] = sum_weighted(d[g], a, weights, axis, keepdims) \
        + sum_weighted(g, a, d[weights], axis, keepdims)


@tangent(logsumexp_weights)
def logsumexp_weights_tangent(out, a, y, axis=None, b=None, keepdims=False):
    """dw = w (da - dy) + exp(a - y) db, dy spread along axis"""
    d[out] = out * (d[a] - unreduce(d[y], out, axis, keepdims)) \
        + logsumexp_weights(a, y, axis, None, keepdims) * d[b]
