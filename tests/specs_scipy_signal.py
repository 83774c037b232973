"""Spec rows for scipy.signal.convolve and scipy.signal.correlate (templates/scipy_signal.py,
whose window runtime_arrays.signal_widths_nd places: integers, declared non-differentiable).
Empty when scipy is not installed.

Every mode in one result; 1-D and 2-D operands, in1 larger, smaller (scipy swaps them for
'valid') and larger along one axis only ('full' and 'same'), even and odd lengths."""
import numpy as np

from primitive_specs import Spec

try:
    import scipy.signal as signal
except ImportError:                     # pragma: no cover (CI installs scipy)
    signal = None

MODES = ("reverse", "forward")
ORDERED = [((5,), (3,)), ((4,), (2,)), ((2,), (4,)), ((4, 3), (2, 2)), ((3, 3), (5, 4)),
           ((2, 4, 3), (2, 2, 2))]
MIXED = [((5, 4), (4, 6)), ((3, 4), (1, 1))]


def convolve_modes(a, b):
    return np.concatenate([np.ravel(signal.convolve(a, b)),
                           np.ravel(signal.convolve(a, b, mode="valid")),
                           np.ravel(signal.convolve(a, b, "same"))])


def convolve_full_same(a, b):
    return np.concatenate([np.ravel(signal.convolve(a, b, "full")),
                           np.ravel(signal.convolve(a, b, mode="same", method="direct"))])


def correlate_modes(a, b):
    return np.concatenate([np.ravel(signal.correlate(a, b)),
                           np.ravel(signal.correlate(a, b, mode="valid")),
                           np.ravel(signal.correlate(a, b, "same", "fft"))])


def correlate_full_same(a, b):
    return np.concatenate([np.ravel(signal.correlate(a, b, "full")),
                           np.ravel(signal.correlate(a, b, mode="same"))])


SPECS = [] if signal is None else [
    Spec(signal.convolve, convolve_modes, ORDERED, modes=MODES),
    Spec(signal.convolve, convolve_full_same, MIXED, modes=MODES),
    Spec(signal.convolve, convolve_modes, [((4, 3), (2, 2))], wrt=(1,), modes=MODES),
    Spec(signal.correlate, correlate_modes, ORDERED, modes=MODES),
    Spec(signal.correlate, correlate_full_same, MIXED, modes=MODES),
    Spec(signal.correlate, correlate_modes, [((2,), (4,))], wrt=(0,), modes=MODES),
]
