"""Spec rows for primitives that are smooth between jumps or kinks: np.mod (np.remainder)
and np.fmod, whose remainders jump where x1 / x2 is an integer, and np.ptp (max - min).

Part of specs_elementwise.SPECS, and appends specs_signal.SPECS (np.convolve,
np.correlate, np.average with weights). The mod rows map their UNIT inputs so that x1 / x2 stays
at least 0.24 from every integer (2.29 to 2.74, -3.78 to -3.24): the central differences
never straddle a jump, and the negative quotients tell floor (mod) from trunc (fmod).
Ties of ptp (several maxima) are checked in tests/test_second_derivatives.py.
"""
import numpy as np

import specs_signal
from primitive_specs import BINARY, UNIT, Spec


def np_mod(a, b):
    return np.mod(5.0 + 0.25 * a, 2.0 + 0.1 * b) + np.mod(-7.0 + 0.25 * a, 2.0 + 0.1 * b)


def np_remainder_negative_divisor(a, b):
    return np.remainder(5.0 + 0.25 * a, -2.0 - 0.1 * b)


def np_fmod(a, b):
    return np.fmod(5.0 + 0.25 * a, 2.0 + 0.1 * b) + np.fmod(-7.0 + 0.25 * a, 2.0 + 0.1 * b)


def np_fmod_negative_divisor(a, b):
    return np.fmod(-7.0 + 0.25 * a, -2.0 - 0.1 * b)


def ptp_all(x):
    return np.ptp(x)


def ptp_axis0(x):
    return np.ptp(x, axis=0)


def ptp_last_keepdims(x):
    return np.ptp(x, axis=-1, keepdims=True)


def ptp_axes(x):
    return np.ptp(x, axis=(0, 2))


REDUCE = [((),), ((4,),), ((3, 4),), ((2, 3, 4),)]
ARRAYS = [((4,),), ((3, 4),), ((2, 3, 4),)]

SPECS = [
    Spec(np.mod, np_mod, BINARY, (UNIT,)),
    Spec(np.mod, np_mod, BINARY, (UNIT,), wrt=(0,)),      # one operand's tangent alone:
    Spec(np.mod, np_mod, BINARY, (UNIT,), wrt=(1,)),      # the other's is ZERO
    Spec(np.remainder, np_remainder_negative_divisor, BINARY, (UNIT,)),
    Spec(np.fmod, np_fmod, BINARY, (UNIT,)),
    Spec(np.fmod, np_fmod, BINARY, (UNIT,), wrt=(0,)),
    Spec(np.fmod, np_fmod, BINARY, (UNIT,), wrt=(1,)),
    Spec(np.fmod, np_fmod_negative_divisor, BINARY, (UNIT,)),
    Spec(np.ptp, ptp_all, REDUCE),
    Spec(np.ptp, ptp_axis0, ARRAYS),
    Spec(np.ptp, ptp_last_keepdims, ARRAYS),
    Spec(np.ptp, ptp_axes, [((2, 3, 4),)]),
] + specs_signal.SPECS
