"""numpy.fft: the complex transforms (fft, ifft, fft2, ifft2, fftn, ifftn), the real ones
(rfft, irfft, rfft2, irfft2, rfftn, irfftn, hfft, ihfft) and fftshift / ifftshift, with
n= / s=, axis= / axes= and norm= ('backward', 'ortho', 'forward').

Adjoints follow JAX's convention for complex values (runtime_complex.py): the DFT matrix
is symmetric, so the adjoint of a complex transform is the same transform with the same
arguments applied to y_bar (whose lengths along the axes are already n / s), then cropped
or padded back to the operand's shape (fit_to). A real operand takes the real part (the
expander adds it: analyses/complex_values.py). The real transforms' adjoints are in
runtime_complex.py (unrfft, unirfft, unhfft, unihfft). unbroadcast(d[y], y) gives the
scalar zero a loop's adjoint may still be the result's shape. Tangents are the transforms
of the tangents: every transform is linear (the real ones real-linear).
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_complex import (fit_to, irfft_axes, rfft_axes, unhfft, unihfft,
                                    unirfft, unrfft)


# ---- complex transforms: the transpose is the transform itself -------------------------------
@adjoint(np.fft.fft)
def fft_adjoint(y, a, n=None, axis=-1, norm=None):
    d[a] += fit_to(np.fft.fft(unbroadcast(d[y], y), n, axis, norm), a)


@tangent(np.fft.fft)
def fft_tangent(y, a, n=None, axis=-1, norm=None):
    d[y] = np.fft.fft(d[a], n, axis, norm)


@adjoint(np.fft.ifft)
def ifft_adjoint(y, a, n=None, axis=-1, norm=None):
    d[a] += fit_to(np.fft.ifft(unbroadcast(d[y], y), n, axis, norm), a)


@tangent(np.fft.ifft)
def ifft_tangent(y, a, n=None, axis=-1, norm=None):
    d[y] = np.fft.ifft(d[a], n, axis, norm)


@adjoint(np.fft.fft2)
def fft2_adjoint(y, a, s=None, axes=(-2, -1), norm=None):
    d[a] += fit_to(np.fft.fft2(unbroadcast(d[y], y), s, axes, norm), a)


@tangent(np.fft.fft2)
def fft2_tangent(y, a, s=None, axes=(-2, -1), norm=None):
    d[y] = np.fft.fft2(d[a], s, axes, norm)


@adjoint(np.fft.ifft2)
def ifft2_adjoint(y, a, s=None, axes=(-2, -1), norm=None):
    d[a] += fit_to(np.fft.ifft2(unbroadcast(d[y], y), s, axes, norm), a)


@tangent(np.fft.ifft2)
def ifft2_tangent(y, a, s=None, axes=(-2, -1), norm=None):
    d[y] = np.fft.ifft2(d[a], s, axes, norm)


@adjoint(np.fft.fftn)
def fftn_adjoint(y, a, s=None, axes=None, norm=None):
    d[a] += fit_to(np.fft.fftn(unbroadcast(d[y], y), s, axes, norm), a)


@tangent(np.fft.fftn)
def fftn_tangent(y, a, s=None, axes=None, norm=None):
    d[y] = np.fft.fftn(d[a], s, axes, norm)


@adjoint(np.fft.ifftn)
def ifftn_adjoint(y, a, s=None, axes=None, norm=None):
    d[a] += fit_to(np.fft.ifftn(unbroadcast(d[y], y), s, axes, norm), a)


@tangent(np.fft.ifftn)
def ifftn_tangent(y, a, s=None, axes=None, norm=None):
    d[y] = np.fft.ifftn(d[a], s, axes, norm)


# ---- real transforms --------------------------------------------------------------------------
@adjoint(np.fft.rfft)
def rfft_adjoint(y, a, n=None, axis=-1, norm=None):
    d[a] += unrfft(unbroadcast(d[y], y), a, n, axis, norm)


@tangent(np.fft.rfft)
def rfft_tangent(y, a, n=None, axis=-1, norm=None):
    d[y] = np.fft.rfft(d[a], n, axis, norm)


@adjoint(np.fft.irfft)
def irfft_adjoint(y, a, n=None, axis=-1, norm=None):
    d[a] += unirfft(unbroadcast(d[y], y), a, n, axis, norm)


@tangent(np.fft.irfft)
def irfft_tangent(y, a, n=None, axis=-1, norm=None):
    d[y] = np.fft.irfft(d[a], n, axis, norm)


@adjoint(np.fft.rfft2)
def rfft2_adjoint(y, a, s=None, axes=(-2, -1), norm=None):
    d[a] += unrfft(unbroadcast(d[y], y), a, s, axes, norm)


@tangent(np.fft.rfft2)
def rfft2_tangent(y, a, s=None, axes=(-2, -1), norm=None):
    d[y] = np.fft.rfft2(d[a], s, axes, norm)


@adjoint(np.fft.irfft2)
def irfft2_adjoint(y, a, s=None, axes=(-2, -1), norm=None):
    d[a] += unirfft(unbroadcast(d[y], y), a, s, axes, norm)


@tangent(np.fft.irfft2)
def irfft2_tangent(y, a, s=None, axes=(-2, -1), norm=None):
    d[y] = np.fft.irfft2(d[a], s, axes, norm)


@adjoint(np.fft.rfftn)
def rfftn_adjoint(y, a, s=None, axes=None, norm=None):
    d[a] += unrfft(unbroadcast(d[y], y), a, s, axes, norm)


@tangent(np.fft.rfftn)
def rfftn_tangent(y, a, s=None, axes=None, norm=None):
    d[y] = np.fft.rfftn(d[a], s, axes, norm)


@adjoint(np.fft.irfftn)
def irfftn_adjoint(y, a, s=None, axes=None, norm=None):
    d[a] += unirfft(unbroadcast(d[y], y), a, s, axes, norm)


@tangent(np.fft.irfftn)
def irfftn_tangent(y, a, s=None, axes=None, norm=None):
    d[y] = np.fft.irfftn(d[a], s, axes, norm)


@adjoint(np.fft.hfft)
def hfft_adjoint(y, a, n=None, axis=-1, norm=None):
    d[a] += unhfft(unbroadcast(d[y], y), a, n, axis, norm)


@tangent(np.fft.hfft)
def hfft_tangent(y, a, n=None, axis=-1, norm=None):
    d[y] = np.fft.hfft(d[a], n, axis, norm)


@adjoint(np.fft.ihfft)
def ihfft_adjoint(y, a, n=None, axis=-1, norm=None):
    d[a] += unihfft(unbroadcast(d[y], y), a, n, axis, norm)


@tangent(np.fft.ihfft)
def ihfft_tangent(y, a, n=None, axis=-1, norm=None):
    d[y] = np.fft.ihfft(d[a], n, axis, norm)


# ---- shifts: permutations, undone by the other shift ---------------------------------------
@adjoint(np.fft.fftshift)
def fftshift_adjoint(y, x, axes=None):
    d[x] += np.fft.ifftshift(unbroadcast(d[y], y), axes)


@tangent(np.fft.fftshift)
def fftshift_tangent(y, x, axes=None):
    d[y] = np.fft.fftshift(d[x], axes)


@adjoint(np.fft.ifftshift)
def ifftshift_adjoint(y, x, axes=None):
    d[x] += np.fft.fftshift(unbroadcast(d[y], y), axes)


@tangent(np.fft.ifftshift)
def ifftshift_tangent(y, x, axes=None):
    d[y] = np.fft.ifftshift(d[x], axes)


# ---- the runtime helpers (for second derivatives): each is linear in its first argument,
# and its transpose is the map it is the adjoint of --------------------------------------------
@adjoint(fit_to)
def fit_to_adjoint(out, g, a):
    """cropping and padding with zeros are each other's transposes"""
    d[g] += fit_to(d[out], g)


@tangent(fit_to)
def fit_to_tangent(out, g, a):
    d[out] = fit_to(d[g], a)


@adjoint(unrfft)
def unrfft_adjoint(out, g, a, s=None, axes=None, norm=None):
    d[g] += rfft_axes(d[out], s, axes, norm)


@tangent(unrfft)
def unrfft_tangent(out, g, a, s=None, axes=None, norm=None):
    d[out] = unrfft(d[g], a, s, axes, norm)


@adjoint(unirfft)
def unirfft_adjoint(out, g, c, s=None, axes=None, norm=None):
    d[g] += irfft_axes(d[out], s, axes, norm)


@tangent(unirfft)
def unirfft_tangent(out, g, c, s=None, axes=None, norm=None):
    d[out] = unirfft(d[g], c, s, axes, norm)


@adjoint(rfft_axes)
def rfft_axes_adjoint(out, a, s=None, axes=None, norm=None):
    d[a] += unrfft(d[out], a, s, axes, norm)


@tangent(rfft_axes)
def rfft_axes_tangent(out, a, s=None, axes=None, norm=None):
    d[out] = rfft_axes(d[a], s, axes, norm)


@adjoint(irfft_axes)
def irfft_axes_adjoint(out, c, s=None, axes=None, norm=None):
    d[c] += unirfft(d[out], c, s, axes, norm)


@tangent(irfft_axes)
def irfft_axes_tangent(out, c, s=None, axes=None, norm=None):
    d[out] = irfft_axes(d[c], s, axes, norm)


@adjoint(unhfft)
def unhfft_adjoint(out, g, a, n=None, axis=-1, norm=None):
    d[g] += np.fft.hfft(d[out], n, axis, norm)


@tangent(unhfft)
def unhfft_tangent(out, g, a, n=None, axis=-1, norm=None):
    d[out] = unhfft(d[g], a, n, axis, norm)


@adjoint(unihfft)
def unihfft_adjoint(out, g, a, n=None, axis=-1, norm=None):
    d[g] += np.fft.ihfft(d[out], n, axis, norm)


@tangent(unihfft)
def unihfft_tangent(out, g, a, n=None, axis=-1, norm=None):
    d[out] = unihfft(d[g], a, n, axis, norm)
