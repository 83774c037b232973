"""Spec rows for np.convolve / np.correlate and np.average with weights, and for the
runtime helpers of np.average's adjoint (runtime_arrays.py: weights_total, spread_weights,
sum_weighted, unlayout_weights).

Part of specs_elementwise.SPECS through specs_piecewise. The convolution rows cover every
mode with both length orders (numpy swaps the operands when v is longer, and centres
'same' differently for np.correlate then), equal lengths and length 1. The average rows
cover weights shaped like a, 1-D weights along axis 0, 1 and -1, a tuple axis (weights
one length per axis, in the tuple's order), keepdims and one weight for axis=(); weights
are POSITIVE so that their sums stay away from zero.
"""
import numpy as np

from primitive_specs import POSITIVE, REAL, Spec
from s2s_ad.runtime_arrays import spread_weights, sum_weighted, unlayout_weights, weights_total


# ---- np.convolve / np.correlate ---------------------------------------------------------
# every mode (the default first, then by keyword, by position and by number) in one result
def convolve_modes(a, v):
    return np.concatenate([np.convolve(a, v), np.convolve(a, v, mode="valid"),
                           np.convolve(a, v, "same")])


def correlate_modes(a, v):
    return np.concatenate([np.correlate(a, v), np.correlate(a, v, mode="same"),
                           np.correlate(a, v, "full"), np.correlate(a, v, 1)])


# both orders of the lengths, odd and even, equal, and a length-1 operand
LENGTHS = [((5,), (3,)), ((3,), (5,)), ((6,), (4,)), ((4,), (6,)), ((4,), (4,)),
           ((7,), (2,)), ((2,), (7,)), ((1,), (4,)), ((4,), (1,)), ((1,), (1,))]
SCALAR_OPERANDS = [((), (4,)), ((3,), ()), ((), ())]    # np.convolve only


# ---- np.average -------------------------------------------------------------------------
def average_weighted(a, w):
    return np.average(a, weights=w)


def average_weighted_keepdims(a, w):
    return np.average(a, weights=w, keepdims=True)


def average_weighted_axis0(a, w):
    return np.average(a, axis=0, weights=w)


def average_weighted_axis1(a, w):
    return np.average(a, axis=1, weights=w)


def average_weighted_last(a, w):
    return np.average(a, axis=-1, weights=w)


def average_weighted_axis0_keepdims(a, w):
    return np.average(a, axis=0, weights=w, keepdims=True)


def average_weighted_last_keepdims(a, w):
    return np.average(a, axis=-1, weights=w, keepdims=True)


def average_weighted_axes(a, w):
    return np.average(a, axis=(2, 0), weights=w)


def average_weighted_axes_keepdims(a, w):
    return np.average(a, axis=(0, 2), weights=w, keepdims=True)


def average_weighted_positional(a, w):
    return np.average(a, 1, w)


def average_one_weight(a, w):
    return np.average(a, axis=(), weights=w)


def average_keepdims_last(a):
    return np.average(a, axis=-1, keepdims=True)


def average_axes(a):
    return np.average(a, axis=(0, 2))


AXIS0 = [((3, 4), (3,)), ((3, 4), (3, 4)), ((4,), (4,)), ((3, 2, 4), (3,))]
AXIS1 = [((3, 4), (4,)), ((2, 3, 4), (3,)), ((3, 4), (3, 4))]
LAST = [((3, 4), (4,)), ((2, 3, 4), (4,)), ((4,), (4,))]
SAME = [((4,), (4,)), ((3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4)), ((), ())]


# ---- runtime helpers (weights given; a gives the layout only) ---------------------------
def use_weights_total_axis0(a, w):
    return weights_total(a, w, 0)


def use_weights_total_last_keepdims(a, w):
    return weights_total(a, w, -1, True)


def use_weights_total_axes(a, w):
    return weights_total(a, w, (2, 0))


def use_weights_total_all(a, w):
    return weights_total(a, w)


# spread_weights then sum_weighted (each the other's transpose), with a product by a between
# them so that the result depends on a's values too
def use_weighted_axis1(g, a, w):
    return sum_weighted(spread_weights(g, a, w, 1) * a, a, w, 1)


def use_weighted_axis0_keepdims(g, a, w):
    return sum_weighted(spread_weights(g, a, w, 0, True) * a, a, w, 0, True)


def use_weighted_axes(g, a, w):
    return sum_weighted(spread_weights(g, a, w, (2, 0)) * a, a, w, (2, 0))


def use_weighted_all(g, a, w):
    return sum_weighted(spread_weights(g, a, w) * a, a, w)


def use_unweighted(g, a):
    return sum_weighted(spread_weights(g, a, None, -1) * a, a, None, -1, True)


def use_unlayout_weights_axis1(g, w):
    return unlayout_weights(g, w, 1)


def use_unlayout_weights_axes(g, w):
    return unlayout_weights(g, w, (2, 0))


def use_unlayout_weights_one(g, w):
    return unlayout_weights(g, w, ())


SPECS = [
    Spec(np.convolve, convolve_modes, LENGTHS + SCALAR_OPERANDS),
    Spec(np.convolve, convolve_modes, [((5,), (3,)), ((3,), (6,))], wrt=(0,)),
    Spec(np.convolve, convolve_modes, [((5,), (3,)), ((3,), (6,))], wrt=(1,)),
    Spec(np.correlate, correlate_modes, LENGTHS),
    Spec(np.correlate, correlate_modes, [((4,), (6,)), ((5,), (2,))], wrt=(0,)),
    Spec(np.correlate, correlate_modes, [((4,), (6,)), ((5,), (2,))], wrt=(1,)),
    Spec(np.average, average_weighted, SAME, (REAL, POSITIVE)),
    Spec(np.average, average_weighted_keepdims, [((3, 4), (3, 4))], (REAL, POSITIVE)),
    Spec(np.average, average_weighted_axis0, AXIS0, (REAL, POSITIVE)),
    Spec(np.average, average_weighted_axis1, AXIS1, (REAL, POSITIVE)),
    Spec(np.average, average_weighted_last, LAST, (REAL, POSITIVE)),
    Spec(np.average, average_weighted_axis0_keepdims, [((3, 4), (3,)), ((3, 4), (3, 4))],
         (REAL, POSITIVE)),
    Spec(np.average, average_weighted_last_keepdims, [((2, 3, 4), (4,)), ((4,), (4,))],
         (REAL, POSITIVE)),
    Spec(np.average, average_weighted_axes, [((2, 3, 4), (4, 2)), ((2, 3, 4), (2, 3, 4))],
         (REAL, POSITIVE)),
    Spec(np.average, average_weighted_axes_keepdims, [((2, 3, 4), (2, 4))], (REAL, POSITIVE)),
    Spec(np.average, average_weighted_positional, [((3, 4), (4,))], (REAL, POSITIVE)),
    Spec(np.average, average_one_weight, [((3, 4), ())], (REAL, POSITIVE)),
    Spec(np.average, average_weighted_axis1, [((3, 4), (4,))], (REAL, POSITIVE), wrt=(0,)),
    Spec(np.average, average_weighted_axis1, [((3, 4), (4,))], (REAL, POSITIVE), wrt=(1,)),
    Spec(np.average, average_keepdims_last, [((4,),), ((3, 4),)]),
    Spec(np.average, average_axes, [((2, 3, 4),)]),
    Spec(weights_total, use_weights_total_axis0, [((3, 4), (3,)), ((3, 4), (3, 4))], wrt=(1,)),
    Spec(weights_total, use_weights_total_last_keepdims, [((2, 3, 4), (4,))], wrt=(1,)),
    Spec(weights_total, use_weights_total_axes, [((2, 3, 4), (4, 2))], wrt=(1,)),
    Spec(weights_total, use_weights_total_all, [((3, 4), (3, 4))], wrt=(1,)),
    Spec(spread_weights, use_weighted_axis1,
         [((3,), (3, 4), (4,)), ((3,), (3, 4), (3, 4)), ((2, 4), (2, 3, 4), (3,))]),
    Spec(spread_weights, use_weighted_axes, [((3,), (2, 3, 4), (4, 2))]),
    Spec(spread_weights, use_unweighted, [((3,), (3, 4))]),
    Spec(sum_weighted, use_weighted_axis0_keepdims, [((1, 4), (3, 4), (3,))]),
    Spec(sum_weighted, use_weighted_all, [((), (3, 4), (3, 4))]),
    Spec(sum_weighted, use_weighted_axis1, [((3,), (3, 4), (4,))], wrt=(0, 2)),
    Spec(unlayout_weights, use_unlayout_weights_axis1,
         [((3, 4), (4,)), ((1, 4), (4,)), ((3, 4), (3, 4))], wrt=(0,)),
    Spec(unlayout_weights, use_unlayout_weights_axes,
         [((2, 3, 4), (4, 2)), ((2, 1, 4), (4, 2))], wrt=(0,)),
    Spec(unlayout_weights, use_unlayout_weights_one, [((3, 4), ())], wrt=(0,)),
]
