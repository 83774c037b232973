"""Runtime helpers for the derivatives of numpy.fft (see runtime.py), numpy only.

Complex values are intermediates: arguments and results stay real. A complex value's
adjoint follows JAX's convention: for a real loss L of z = x + iy it is
z_bar = dL/dx - i dL/dy, so a holomorphic step w = h(z) passes w_bar * h'(z) back (no
conjugate), and a real operand x of a complex result gets the real part, Re(w_bar dw/dx).
The DFT matrix is symmetric, so the transpose of an FFT is the same FFT:

    fit_to(g, a)                     g cropped or padded with zeros to a's shape (the
                                     transpose of what an FFT's n= / s= does to its input)
    unrfft(g, a, s, axes, norm)      a_bar of y = rfftn(a, s, axes, norm): the half
                                     spectrum padded to s[-1], fftn, real part, fit to a
    unirfft(g, c, s, axes, norm)     c_bar of y = irfftn(c, s, axes, norm): conj(rfft of
                                     g) weighted 2 where irfft counts a bin twice, then
                                     ifftn over the other axes, fit to c
    rfft_axes / irfft_axes           rfftn / irfftn taking an int n and axis as well
                                     (the transposes of unrfft / unirfft)
    unhfft, unihfft                  the same for hfft = irfft(conj(a)) and
                                     ihfft = conj(rfft(a)), norms swapped as numpy does

and, for the reverse and forward templates of functions of a complex operand (the
expander uses them where the complex-values analysis says the operand may be complex):
abs_of_complex, real_of_complex, imag_of_complex, conj_of_complex, angle_of_complex,
which compute what np.abs, np.real, np.imag, np.conj and np.angle do.
"""
import numpy as np

_SWAPPED_NORM = {None: "forward", "backward": "forward", "ortho": "ortho",
                 "forward": "backward"}


def _lengths_and_axes(a, s, axes, inverse_real=False):
    """numpy's defaults for (s, axes) of an n-dimensional FFT of a (an int s / axis is a
    one-axis transform)."""
    if axes is not None and np.ndim(axes) == 0:
        axes = (axes,)
        s = None if s is None else (s,)
    ndim = np.ndim(a)
    if axes is None:
        axes = tuple(range(ndim - (ndim if s is None else len(s)), ndim))
    axes = tuple(k % ndim for k in axes)
    if s is None:
        s = [np.shape(a)[k] for k in axes]
        if inverse_real:
            s[-1] = 2 * (s[-1] - 1)
    return tuple(s), axes


def fit_to(g, a):
    """g cropped or padded with zeros along every axis to a's shape."""
    shape = np.shape(a)
    if np.shape(g) == shape:
        return g
    out = np.zeros(shape, dtype=np.result_type(g, 1.0))
    common = tuple(slice(0, min(m, n)) for m, n in zip(np.shape(g), shape))
    out[common] = np.asarray(g)[common]
    return out


def _padded_along(g, axis, length):
    shape = list(np.shape(g))
    shape[axis] = length
    return fit_to(g, np.empty(shape, dtype=np.result_type(g)))


def unrfft(g, a, s=None, axes=None, norm=None):
    """a_bar of y = np.fft.rfftn(a, s, axes, norm) (rfft for an int axis): y is the first
    s[-1] // 2 + 1 bins of fftn(a) along the last axis, a real."""
    s, axes = _lengths_and_axes(a, s, axes)
    h = _padded_along(g, axes[-1], s[-1])
    return np.real(fit_to(np.fft.fftn(h, s, axes, norm), a))


def unirfft(g, c, s=None, axes=None, norm=None):
    """c_bar of y = np.fft.irfftn(c, s, axes, norm) (irfft for an int axis), real-linear
    in c: y_j = sum_k C_k w^jk over the Hermitian extension C of c, so a bin counted
    twice (0 < k < n/2) gets twice the weight; the imaginary parts irfft ignores (bin 0,
    bin n/2) get none, as conj(rfft(g)) gives them."""
    s, axes = _lengths_and_axes(c, s, axes, inverse_real=True)
    n, last = s[-1], axes[-1]
    h = np.conj(np.fft.rfft(g, n, last, _SWAPPED_NORM[norm]))
    weights = np.full(n // 2 + 1, 2.0, dtype=np.real(h).dtype)     # complex64 h stays so
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    h = h * weights.reshape((-1,) + (1,) * (np.ndim(h) - 1 - last))
    if len(axes) > 1:
        h = np.fft.ifftn(h, s[:-1], axes[:-1], norm)
    return fit_to(h, c)


def rfft_axes(a, s=None, axes=None, norm=None):
    """np.fft.rfftn(a, s, axes, norm), also for an int s and axis (np.fft.rfft)."""
    s, axes = _lengths_and_axes(a, s, axes)
    return np.fft.rfftn(a, s, axes, norm)


def irfft_axes(c, s=None, axes=None, norm=None):
    """np.fft.irfftn(c, s, axes, norm), also for an int s and axis (np.fft.irfft)."""
    s, axes = _lengths_and_axes(c, s, axes, inverse_real=True)
    return np.fft.irfftn(c, s, axes, norm)


def unhfft(g, a, n=None, axis=-1, norm=None):
    """a_bar of y = np.fft.hfft(a, n, axis, norm) = irfft(conj(a), n, axis, swapped norm)."""
    return np.conj(unirfft(g, a, n, axis, _SWAPPED_NORM[norm]))


def unihfft(g, a, n=None, axis=-1, norm=None):
    """a_bar of y = np.fft.ihfft(a, n, axis, norm) = conj(rfft(a, n, axis, swapped norm))."""
    return unrfft(np.conj(g), a, n, axis, _SWAPPED_NORM[norm])


# ---- functions of a complex operand (templates in templates/numpy_complex.py) -------------
def abs_of_complex(x):
    """np.abs(x), for x that may be complex."""
    return np.abs(x)


def real_of_complex(val):
    """np.real(val), for val that may be complex."""
    return np.real(val)


def imag_of_complex(val):
    """np.imag(val), for val that may be complex."""
    return np.imag(val)


def conj_of_complex(x):
    """np.conj(x), for x that may be complex."""
    return np.conj(x)


def angle_of_complex(z):
    """np.angle(z) (radians), for z that may be complex."""
    return np.angle(z)


def nonzero_or_one(y):
    """y with its zeros replaced by 1 (a divisor for conj(z) / |z|, which is 0 at z = 0
    since conj(0) = 0)."""
    return np.where(y == 0, 1.0, y)
