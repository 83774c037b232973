"""Spec rows for numpy.fft (templates/numpy_fft.py), np.real / np.imag / np.conj /
np.angle and their complex forms (templates/numpy_complex.py), and the runtime helpers of
runtime_complex.py.

Arguments and results are real (the inner-product test is over real vectors): a row
makes its complex operand from two real arguments, a + b * I with the global I = 1j
(complex literals are refused in differentiated code; a complex global is a constant),
and returns real and imaginary parts with different weights, so an error in either part
of an adjoint shows. Rows cover n= / s= cropping and padding, axis= / axes=, and the three
norms, over vectors, matrices and 3-D arrays.
"""
import numpy as np

from primitive_specs import NONZERO, POSITIVE, REAL, Spec
from s2s_ad import runtime_complex as rc

I = 1j
MODES = ("reverse", "forward")
VECTORS = [((8,),), ((7,),), ((3, 6),), ((2, 3, 5),)]
PAIRS = [((8,), (8,)), ((7,), (7,)), ((3, 6), (3, 6)), ((2, 3, 5), (2, 3, 5))]
MATRICES = [((4, 6),), ((5, 3),), ((2, 4, 5),)]
MATRIX_PAIRS = [((4, 6), (4, 6)), ((5, 3), (5, 3)), ((2, 4, 5), (2, 4, 5))]


# ---- complex transforms --------------------------------------------------------------------
def fft_real(x):
    f = np.fft.fft(x)
    return np.real(f) + 2.0 * np.imag(f)


def fft_complex(a, b):
    f = np.fft.fft(a + b * I, 6, 0, "ortho")
    return np.real(f) - 3.0 * np.imag(f)


def fft_padded(x):
    f = np.fft.fft(x, n=11, norm="forward")
    return np.real(f) * np.imag(f)


def ifft_real(x):
    f = np.fft.ifft(x, 5)
    return np.real(f) + 2.0 * np.imag(f)


def ifft_complex(a, b):
    f = np.fft.ifft(a + b * I, axis=0, norm="ortho")
    return np.real(f) - 3.0 * np.imag(f)


def fft2_real(x):
    f = np.fft.fft2(x)
    return np.real(f) + 2.0 * np.imag(f)


def fft2_shaped(a, b):
    f = np.fft.fft2(a + b * I, s=(3, 7), axes=(-1, -2), norm="ortho")
    return np.real(f) - 3.0 * np.imag(f)


def ifft2_real(x):
    f = np.fft.ifft2(x, norm="forward")
    return np.real(f) + 2.0 * np.imag(f)


def ifft2_shaped(a, b):
    f = np.fft.ifft2(a + b * I, (6, 2))
    return np.real(f) - 3.0 * np.imag(f)


def fftn_real(x):
    f = np.fft.fftn(x)
    return np.real(f) + 2.0 * np.imag(f)


def fftn_axes(a, b):
    f = np.fft.fftn(a + b * I, s=(5,), axes=(0,), norm="ortho")
    return np.real(f) - 3.0 * np.imag(f)


def ifftn_real(x):
    f = np.fft.ifftn(x, axes=(-1,))
    return np.real(f) + 2.0 * np.imag(f)


def ifftn_shaped(a, b):
    f = np.fft.ifftn(a + b * I, s=(2, 9), axes=(0, -1), norm="forward")
    return np.real(f) - 3.0 * np.imag(f)


# ---- real transforms -----------------------------------------------------------------------
def rfft_plain(x):
    f = np.fft.rfft(x)
    return np.real(f) + 2.0 * np.imag(f)


def rfft_options(x):
    f = np.fft.rfft(x, 9, axis=0, norm="ortho")
    return np.real(f) - 3.0 * np.imag(f)


def rfft_cropped(x):
    f = np.fft.rfft(x, n=4, norm="forward")
    return np.real(f) * np.imag(f)


def irfft_plain(a, b):
    return np.fft.irfft(a + b * I)


def irfft_options(a, b):
    return np.fft.irfft(a + b * I, 7, 0, "ortho")


def irfft_padded(a, b):
    return np.fft.irfft(a + b * I, n=20, norm="forward")


def irfft_of_real(x):
    return np.fft.irfft(x, 6)


def rfft2_plain(x):
    f = np.fft.rfft2(x)
    return np.real(f) + 2.0 * np.imag(f)


def rfft2_options(x):
    f = np.fft.rfft2(x, s=(3, 5), axes=(-1, -2), norm="ortho")
    return np.real(f) - 3.0 * np.imag(f)


def irfft2_plain(a, b):
    return np.fft.irfft2(a + b * I)


def irfft2_options(a, b):
    return np.fft.irfft2(a + b * I, s=(3, 7), norm="forward")


def rfftn_plain(x):
    f = np.fft.rfftn(x)
    return np.real(f) + 2.0 * np.imag(f)


def rfftn_options(x):
    f = np.fft.rfftn(x, s=(4, 5), axes=(0, 1), norm="ortho")
    return np.real(f) - 3.0 * np.imag(f)


def irfftn_plain(a, b):
    return np.fft.irfftn(a + b * I)


def irfftn_options(a, b):
    return np.fft.irfftn(a + b * I, s=(5, 6), axes=(0, 1), norm="ortho")


def hfft_plain(a, b):
    return np.fft.hfft(a + b * I)


def hfft_options(a, b):
    return np.fft.hfft(a + b * I, 9, 0, "ortho")


def ihfft_plain(x):
    f = np.fft.ihfft(x)
    return np.real(f) + 2.0 * np.imag(f)


def ihfft_options(x):
    f = np.fft.ihfft(x, n=5, axis=0, norm="forward")
    return np.real(f) - 3.0 * np.imag(f)


def fftshift_all(x):
    return np.fft.fftshift(x)


def fftshift_axis(x):
    return np.fft.fftshift(x, axes=0)


def ifftshift_all(x):
    return np.fft.ifftshift(x)


def ifftshift_axes(x):
    return np.fft.ifftshift(x, axes=(-1,))


# ---- real / imag / conj / angle / abs -------------------------------------------------------
def real_of_real(x):
    return np.real(x) * x


def imag_of_real(x):
    return np.imag(x) + x


def conj_of_real(x):
    return np.conj(x) * 2.0


def conjugate_method(x):
    return x.conjugate() * x


def angle_of_real(x):
    return np.angle(x) + x


def real_of_complex(a, b):
    z = a + b * I
    return np.real(z * z)


def real_attribute(a, b):
    z = (a + b * I) * (b - a * I)
    return z.real + 3.0 * z.imag


def imag_of_complex(a, b):
    z = a + b * I
    return np.imag(z * z * z)


def conj_of_complex(a, b):
    z = a + b * I
    return np.real(np.conj(z) * (b + a * a * I))


def abs_of_complex(a, b):
    return np.abs(a * a + b * I)


def builtin_abs_of_complex(a, b):
    return abs((a + b * I) ** 2)


def angle_of_complex(a, b):
    return np.angle(a + b * b * I)


# ---- runtime helpers (grad of grad) -----------------------------------------------------------
def fit_cropped(g, a):
    return rc.fit_to(g, a)


def unrfft_rows(g, h, a):
    return rc.unrfft(g + h * I, a, None, -1, None)


def unrfft_axes(g, h, a):
    return rc.unrfft(g + h * I, a, (3, 5), (0, 1), "ortho")


def unirfft_rows(g, c):
    z = rc.unirfft(g, c, 6, -1, "forward")
    return np.real(z) + 2.0 * np.imag(z)


def unirfft_axes(g, c):
    z = rc.unirfft(g, c, (3, 6), (0, 1), None)
    return np.real(z) - 3.0 * np.imag(z)


def rfft_axes_rows(x):
    z = rc.rfft_axes(x, 9, 0, "ortho")
    return np.real(z) + 2.0 * np.imag(z)


def irfft_axes_rows(a, b):
    return rc.irfft_axes(a + b * I, (4, 6), (0, 1), None)


def unhfft_rows(g, c):
    z = rc.unhfft(g, c, 7, -1, "ortho")
    return np.real(z) + 2.0 * np.imag(z)


def unihfft_rows(g, h, a):
    return rc.unihfft(g + h * I, a, 5, -1, None)


def nonzero_or_one(y):
    return rc.nonzero_or_one(y) * y


SPECS = [
    Spec(np.fft.fft, fft_real, VECTORS, modes=MODES),
    Spec(np.fft.fft, fft_complex, PAIRS, modes=MODES),
    Spec(np.fft.fft, fft_padded, VECTORS[:2], modes=MODES),
    Spec(np.fft.ifft, ifft_real, VECTORS, modes=MODES),
    Spec(np.fft.ifft, ifft_complex, PAIRS, modes=MODES),
    Spec(np.fft.fft2, fft2_real, MATRICES, modes=MODES),
    Spec(np.fft.fft2, fft2_shaped, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.ifft2, ifft2_real, MATRICES, modes=MODES),
    Spec(np.fft.ifft2, ifft2_shaped, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.fftn, fftn_real, VECTORS, modes=MODES),
    Spec(np.fft.fftn, fftn_axes, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.ifftn, ifftn_real, VECTORS, modes=MODES),
    Spec(np.fft.ifftn, ifftn_shaped, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.rfft, rfft_plain, VECTORS, modes=MODES),
    Spec(np.fft.rfft, rfft_options, MATRICES, modes=MODES),
    Spec(np.fft.rfft, rfft_cropped, VECTORS, modes=MODES),
    Spec(np.fft.irfft, irfft_plain, PAIRS, modes=MODES),
    Spec(np.fft.irfft, irfft_options, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.irfft, irfft_padded, PAIRS[:2], modes=MODES),
    Spec(np.fft.irfft, irfft_of_real, VECTORS, modes=MODES),
    Spec(np.fft.rfft2, rfft2_plain, MATRICES, modes=MODES),
    Spec(np.fft.rfft2, rfft2_options, MATRICES, modes=MODES),
    Spec(np.fft.irfft2, irfft2_plain, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.irfft2, irfft2_options, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.rfftn, rfftn_plain, VECTORS, modes=MODES),
    Spec(np.fft.rfftn, rfftn_options, MATRICES, modes=MODES),
    Spec(np.fft.irfftn, irfftn_plain, PAIRS, modes=MODES),
    Spec(np.fft.irfftn, irfftn_options, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.hfft, hfft_plain, PAIRS, modes=MODES),
    Spec(np.fft.hfft, hfft_options, MATRIX_PAIRS, modes=MODES),
    Spec(np.fft.ihfft, ihfft_plain, VECTORS, modes=MODES),
    Spec(np.fft.ihfft, ihfft_options, MATRICES, modes=MODES),
    Spec(np.fft.fftshift, fftshift_all, VECTORS, modes=MODES),
    Spec(np.fft.fftshift, fftshift_axis, MATRICES, modes=MODES),
    Spec(np.fft.ifftshift, ifftshift_all, VECTORS, modes=MODES),
    Spec(np.fft.ifftshift, ifftshift_axes, MATRICES, modes=MODES),
    Spec(np.real, real_of_real, [((),), ((4,),), ((3, 4),)], modes=MODES),
    Spec(np.imag, imag_of_real, [((),), ((4,),), ((3, 4),)], modes=MODES),
    Spec(np.conj, conj_of_real, [((),), ((4,),), ((3, 4),)], modes=MODES),
    Spec(np.conj, conjugate_method, [((4,),), ((3, 4),)], modes=MODES),
    Spec(np.angle, angle_of_real, [((),), ((4,),), ((3, 4),)], (NONZERO,), modes=MODES),
    Spec(rc.real_of_complex, real_of_complex, PAIRS, modes=MODES),
    Spec(rc.real_of_complex, real_attribute, PAIRS[:3], modes=MODES),
    Spec(rc.imag_of_complex, imag_of_complex, PAIRS, modes=MODES),
    Spec(rc.conj_of_complex, conj_of_complex, PAIRS, modes=MODES),
    Spec(rc.abs_of_complex, abs_of_complex, PAIRS + [((), ()), ((3, 1), (1, 4))],
         modes=MODES),
    Spec(rc.abs_of_complex, builtin_abs_of_complex, PAIRS[:2], modes=MODES),
    Spec(rc.angle_of_complex, angle_of_complex, PAIRS + [((), ())], (NONZERO,), modes=MODES),
    Spec(rc.fit_to, fit_cropped, [((5,), (3,)), ((3,), (5,)), ((3, 4), (5, 2))], wrt=(0,),
         modes=MODES),
    Spec(rc.unrfft, unrfft_rows, [((5,), (5,), (8,)), ((3, 4), (3, 4), (3, 7))], wrt=(0, 1),
         modes=MODES),
    Spec(rc.unrfft, unrfft_axes, [((3, 3), (3, 3), (4, 6))], wrt=(0, 1), modes=MODES),
    Spec(rc.unirfft, unirfft_rows, [((6,), (4,)), ((3, 6), (3, 5))], wrt=(0,), modes=MODES),
    Spec(rc.unirfft, unirfft_axes, [((3, 6), (4, 5))], wrt=(0,), modes=MODES),
    Spec(rc.rfft_axes, rfft_axes_rows, [((7,),), ((6, 3),)], modes=MODES),
    Spec(rc.irfft_axes, irfft_axes_rows, [((4, 4), (4, 4)), ((3, 5), (3, 5))], modes=MODES),
    Spec(rc.unhfft, unhfft_rows, [((7,), (4,)), ((3, 7), (3, 5))], wrt=(0,), modes=MODES),
    Spec(rc.unihfft, unihfft_rows, [((3,), (3,), (5,)), ((2, 3), (2, 3), (2, 6))],
         wrt=(0, 1), modes=MODES),
    Spec(rc.nonzero_or_one, nonzero_or_one, [((),), ((4,),)], (POSITIVE,), modes=MODES),
]
