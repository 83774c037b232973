"""scipy.signal.convolve and scipy.signal.correlate of real n-d arrays, every mode (an
optional dependency, loaded once the user's code has imported scipy.signal).

Both are bilinear. The result y is a window of the full convolution (shape in1 + in2 - 1
along each axis), centred as scipy centres it (runtime_arrays.signal_widths_nd). The
adjoint pads y_bar with zeros back to the full shape (g) and transposes the full product,
a correlation, written as a convolution with the flipped operand:

    convolve(a, b):   a_bar = convolve(g, flip(b), 'valid'),  b_bar = convolve(g, flip(a), 'valid')

g is at least as large as either operand along every axis, so these 'valid' products have
exactly a's and b's shapes. correlate(a, b, mode) is convolve(a, flip(b), mode) for real
operands, and is differentiated as that. Made of convolve, np.flip and np.pad: second
order works. `method` ('auto', 'direct', 'fft') is passed on.
"""
import numpy as np
from scipy import signal

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_arrays import signal_widths_nd


@adjoint(signal.convolve)
def convolve_adjoint(y, in1, in2, mode="full", method="auto"):
    """y = (in1 * in2)[window]: in1_bar = convolve(g, flip(in2), valid), the same for in2"""
    _g = np.pad(unbroadcast(d[y], y), signal_widths_nd(in1, in2, mode))
    d[in1] += signal.convolve(_g, np.flip(in2), "valid", method)
    d[in2] += signal.convolve(_g, np.flip(in1), "valid", method)


@tangent(signal.convolve)
def convolve_tangent(y, in1, in2, mode="full", method="auto"):
    """convolve is bilinear: d convolve(a, b) = convolve(da, b) + convolve(a, db)"""
    d[y] = signal.convolve(d[in1], in2, mode, method) + signal.convolve(in1, d[in2], mode, method)


@adjoint(signal.correlate)
def correlate_adjoint(y, in1, in2, mode="full", method="auto"):
    """correlate(a, b) = convolve(a, flip(b)): a_bar = convolve(g, b, valid),
    b_bar = flip(convolve(g, flip(a), valid))"""
    _g = np.pad(unbroadcast(d[y], y), signal_widths_nd(in1, in2, mode))
    d[in1] += signal.convolve(_g, in2, "valid", method)
    d[in2] += np.flip(signal.convolve(_g, np.flip(in1), "valid", method))


@tangent(signal.correlate)
def correlate_tangent(y, in1, in2, mode="full", method="auto"):
    d[y] = signal.correlate(d[in1], in2, mode, method) + signal.correlate(in1, d[in2], mode, method)
