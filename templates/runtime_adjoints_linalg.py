"""Reverse templates of the runtime helpers in runtime_linalg.py (adjoints of products,
diagonals, einsum, solve's layout) and runtime_arrays.py (np.cumprod's scans, np.pad,
np.average's weights), for grad of grad; see runtime_adjoints.py for the others and the
conventions.

The product adjoints are bilinear. With phi(a, b) = <g, prod(a, b)> for prod = @, np.dot,
np.inner or np.tensordot, prod_adjoint_a(g, a, b) = dphi/da does not depend on a, and
<h, dphi/da> = <g, prod(h, b)>: so its adjoint is prod(h, b) for g and, for b, the
gradient of <g, prod(h, b)>, which is prod_adjoint_b(g, h, b). Likewise for dphi/db.
Where g was the 0.0 standing for an unreached adjoint, prod_adjoint_a gave that 0.0 back
and h is 0.0 too: match_adjoint makes it zeros of a's shape before it meets b.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d
from s2s_ad.runtime import broadcast_tangent, unbroadcast, unreduce, zero_adjoint
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_flow import float_dtype, match_adjoint
from s2s_ad.runtime_arrays import (linear_scan, logsumexp_weights, pad_linear, shifted, spread_weights,
                                   sum_weighted, unlayout_weights, unpad, unpad_end_values,
                                   unpad_values, weights_layout, weights_total)
from s2s_ad.runtime_linalg import (as_columns, dot_adjoint_a, dot_adjoint_b,
                                   einsum_operand_adjoint, inner_adjoint_a, inner_adjoint_b,
                                   matmul_adjoint_a, matmul_adjoint_b, place_diagonal,
                                   spread_trace, tensordot_adjoint_a, tensordot_adjoint_b,
                                   undiag)


# ---- products: phi(a, b) = <g, prod(a, b)> ------------------------------------------------
@adjoint(matmul_adjoint_a)
def matmul_adjoint_a_adjoint(out, g, a, b):
    """<h, dphi/da> = phi(h, b) = <g, h @ b>"""
    d[g] += unbroadcast(np.matmul(match_adjoint(d[out], a), b), g)
    d[b] += matmul_adjoint_b(g, d[out], b)


@adjoint(matmul_adjoint_b)
def matmul_adjoint_b_adjoint(out, g, a, b):
    """<h, dphi/db> = phi(a, h) = <g, a @ h>"""
    d[g] += unbroadcast(np.matmul(a, match_adjoint(d[out], b)), g)
    d[a] += matmul_adjoint_a(g, a, d[out])


@adjoint(dot_adjoint_a)
def dot_adjoint_a_adjoint(out, g, a, b):
    """<h, dphi/da> = <g, dot(h, b)>"""
    d[g] += np.dot(match_adjoint(d[out], a), b)
    d[b] += dot_adjoint_b(g, d[out], b)


@adjoint(dot_adjoint_b)
def dot_adjoint_b_adjoint(out, g, a, b):
    """<h, dphi/db> = <g, dot(a, h)>"""
    d[g] += np.dot(a, match_adjoint(d[out], b))
    d[a] += dot_adjoint_a(g, a, d[out])


@adjoint(inner_adjoint_a)
def inner_adjoint_a_adjoint(out, g, a, b):
    """<h, dphi/da> = <g, inner(h, b)>"""
    d[g] += np.inner(match_adjoint(d[out], a), b)
    d[b] += inner_adjoint_b(g, d[out], b)


@adjoint(inner_adjoint_b)
def inner_adjoint_b_adjoint(out, g, a, b):
    """<h, dphi/db> = <g, inner(a, h)>"""
    d[g] += np.inner(a, match_adjoint(d[out], b))
    d[a] += inner_adjoint_a(g, a, d[out])


@adjoint(tensordot_adjoint_a)
def tensordot_adjoint_a_adjoint(out, g, a, b, axes=2):
    """<h, dphi/da> = <g, tensordot(h, b, axes)>"""
    d[g] += np.tensordot(match_adjoint(d[out], a), b, axes)
    d[b] += tensordot_adjoint_b(g, d[out], b, axes)


@adjoint(tensordot_adjoint_b)
def tensordot_adjoint_b_adjoint(out, g, a, b, axes=2):
    """<h, dphi/db> = <g, tensordot(a, h, axes)>"""
    d[g] += np.tensordot(a, match_adjoint(d[out], b), axes)
    d[a] += tensordot_adjoint_a(g, a, d[out], axes)


# With phi = <g, einsum(s, operands)>, out = dphi/d operand_k and <h, out> = <g, einsum(s,
# operands with operand k replaced by h)>: g's adjoint is that einsum, operand j's (j != k)
# the adjoint of operand j in it. operands is (a, b, c) padded with None, the first
# n = commas + 1 present; operand k itself and absent ones get zeros (never evaluated).
# The tuple's adjoint is a list, as for any tuple written in the code (take_adjoint
# hands each item to its operand)
@adjoint(einsum_operand_adjoint)
def einsum_operand_adjoint_adjoint(out, g, subscripts, operands, k):
    """g_bar = einsum(s, ops with op_k := out_bar), op_j_bar = its adjoint for op_j (j != k)"""
    _n = subscripts.count(",") + 1
    _swapped = operands[:k] + (d[out],) + operands[k + 1:]
    d[g] += np.einsum(subscripts, *_swapped[:_n])
    d[operands] += [
        zero_adjoint(operands[0]) if k == 0
        else einsum_operand_adjoint(g, subscripts, _swapped, 0),
        zero_adjoint(operands[1]) if k == 1 or _n < 2
        else einsum_operand_adjoint(g, subscripts, _swapped, 1),
        zero_adjoint(operands[2]) if k == 2 or _n < 3
        else einsum_operand_adjoint(g, subscripts, _swapped, 2)]


# ---- diagonals (linear in g) --------------------------------------------------------------
@adjoint(place_diagonal)
def place_diagonal_adjoint(out, g, x, offset=0, axis1=0, axis2=1):
    """out = zeros with g on a diagonal: g_bar = that diagonal of out_bar"""
    d[g] += np.diagonal(d[out], offset, axis1, axis2)


@adjoint(spread_trace)
def spread_trace_adjoint(out, g, x, offset=0, axis1=0, axis2=1):
    """out = zeros with g along a diagonal: g_bar = the trace of out_bar"""
    d[g] += np.trace(d[out], offset, axis1, axis2)


@adjoint(undiag)
def undiag_adjoint(out, g, v, k=0):
    """out = diagonal(g, k) (v a vector) or g on the k-th diagonal: g_bar = np.diag(out_bar, k)"""
    d[g] += np.diag(d[out], k)


@adjoint(as_columns)
def as_columns_adjoint(out, v, a, x):
    """out = v, or v with a trailing axis of length 1: reshape back"""
    d[v] += reshape_like(d[out], v)


# ---- runtime_arrays.py: np.cumprod's scans --------------------------------------------------
# h = linear_scan(c, b) solves L h = b, L unit bidiagonal with -c below the diagonal (above
# for reverse). r = L^-T out_bar is the scan the other way with the coefficients shifted
# one place; dh = L^-1 (dc shifted(h)) gives c_bar = shifted(h) r. c and b broadcast
# against each other; with axis=None they are flattened, so an operand with the result's
# size is reshaped to or from it, a smaller one broadcast to it (summed back)
@adjoint(linear_scan)
def linear_scan_adjoint(out, c, b, axis=None, reverse=False):
    """b_bar = r, c_bar = shifted(h) r, r_i = c_{i+1} r_{i+1} + out_bar_i (mirrored if reverse)"""
    _c = reshape_like(c, out) if np.size(c) == np.size(out) else broadcast_tangent(c, out)
    _r = linear_scan(shifted(_c, axis, 0.0, not reverse), d[out], axis, not reverse)
    _c_bar = shifted(out, axis, 0.0, reverse) * _r
    d[b] += reshape_like(_r, b) if np.size(b) == np.size(_r) else unbroadcast(_r, b)
    d[c] += reshape_like(_c_bar, c) if np.size(c) == np.size(_c_bar) else unbroadcast(_c_bar, c)


@adjoint(shifted)
def shifted_adjoint(out, v, axis=None, first=0.0, reverse=False):
    """out_i = v_{i-1}, out_0 = first: v_bar = out_bar shifted back, first_bar = out_bar_0"""
    d[v] += reshape_like(shifted(d[out], axis, 0.0, not reverse), v)
    d[first] += unbroadcast(np.take(d[out], -1 if reverse else 0, axis), first)


# ---- runtime_arrays.py: np.pad ---------------------------------------------------------------
# unpad (the array's adjoint) and pad_linear (np.pad, the tangent) are each other's
# transposes in every mode; unpad_end_values's transpose pads zeros with ramps
@adjoint(unpad)
def unpad_adjoint(out, g, widths, mode="constant", stat_length=None, reflect_type="even",
                  array=None):
    """out = P^T g: g_bar = P out_bar, np.pad of out_bar in the same mode (zero constants;
    P picks what it picked from `array`, piecewise constant in it)"""
    d[g] += pad_linear(d[out], widths, mode, 0.0, 0.0, stat_length, reflect_type, array)


@adjoint(pad_linear)
def pad_linear_adjoint(out, g, widths, mode="constant", constant_values=0.0, end_values=0.0,
                       stat_length=None, reflect_type="even", array=None):
    """out = np.pad(g, ...): the adjoints of np.pad's array, constant_values, end_values"""
    d[g] += unpad(d[out], widths, mode, stat_length, reflect_type, array)
    d[constant_values] += unpad_values(d[out], widths, constant_values)
    d[end_values] += unpad_end_values(d[out], widths, end_values)


@adjoint(unpad_end_values)
def unpad_end_values_adjoint(out, g, widths, end_values=0.0):
    """g_bar = zeros inside, the ramps to out_bar's end values around: np.pad of zeros"""
    d[g] += pad_linear(np.zeros(np.subtract(np.shape(g), np.sum(widths, axis=1)),
                                dtype=float_dtype(d[out], g)), widths, "linear_ramp", 0.0,
                       d[out])


# unpad_values sums g over the areas np.pad fills with each constant (numpy's order, a
# corner taking the later axis's value); its transpose fills them as np.pad does
@adjoint(unpad_values)
def unpad_values_adjoint(out, g, widths, constant_values=0):
    """g_bar = zeros inside, out_bar's constants in the padded areas: np.pad of zeros"""
    d[g] += np.pad(np.zeros(np.subtract(np.shape(g), np.sum(widths, axis=1)),
                            dtype=float_dtype(d[out], g)), widths, constant_values=d[out])


# ---- runtime_arrays.py: np.average's weights ------------------------------------------------
# All are linear in g and in the weights; a and axis give the layout only. spread_weights
# and sum_weighted are each other's transposes, and so are laying weights out and
# unlayout_weights. The weights' adjoints exist only for weights that are arrays
@adjoint(unlayout_weights)
def unlayout_weights_adjoint(out, g, weights, axis=None):
    """out = g summed to the weights' layout, laid back: g_bar = out_bar laid out, over g"""
    _layout = weights_layout(g, weights, axis)
    d[g] += broadcast_tangent(np.reshape(np.transpose(
        broadcast_tangent(d[out], weights), _layout[0]), _layout[1]), g)


@adjoint(weights_total)
def weights_total_adjoint(out, a, weights=None, axis=None, keepdims=False):
    """out = sum(w) over axis, w laid out: w_bar = out_bar spread over w's layout, laid back"""
    _layout = weights_layout(a, weights, axis)
    d[weights] += unlayout_weights(unreduce(d[out], np.reshape(np.transpose(
        weights, _layout[0]), _layout[1]), axis, keepdims), weights, axis)


@adjoint(spread_weights)
def spread_weights_adjoint(out, g, a, weights=None, axis=None, keepdims=False):
    """out = unreduce(g) w: g_bar = sum(out_bar w) over axis, w_bar = unreduce(g) out_bar"""
    d[g] += unbroadcast(sum_weighted(d[out], a, weights, axis, keepdims), g)
    d[weights] += unlayout_weights(unreduce(g, a, axis, keepdims) * d[out], weights, axis)


@adjoint(sum_weighted)
def sum_weighted_adjoint(out, g, a, weights=None, axis=None, keepdims=False):
    """out = sum(g w) over axis: g_bar = unreduce(out_bar) w, w_bar = g unreduce(out_bar)"""
    d[g] += unbroadcast(spread_weights(d[out], a, weights, axis, keepdims), g)
    d[weights] += unlayout_weights(g * unreduce(d[out], a, axis, keepdims), weights, axis)


# ---- scipy.special.logsumexp's weights w = b exp(a - y) ------------------------------------
@adjoint(logsumexp_weights)
def logsumexp_weights_adjoint(out, a, y, axis=None, b=None, keepdims=False):
    """dw = w (da - dy) + exp(a - y) db, dy spread along axis"""
    d[a] += unbroadcast(d[out] * out, a)
    d[y] += -np.sum(d[out] * out, axis=axis, keepdims=keepdims)
    d[b] += unbroadcast(d[out] * logsumexp_weights(a, y, axis, None, keepdims), b)
