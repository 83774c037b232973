"""np.real, np.imag, np.conj (np.conjugate), np.angle, and np.abs of complex values.

Of a real operand: np.real and np.conj are the identity, np.imag is 0 and np.angle is 0
or pi, piecewise constant. Where the complex-values analysis says the operand may be
complex, the expander uses the templates of their complex forms (runtime_complex's
real_of_complex, ...), which follow JAX's convention: for a real loss L of z = x + iy,
z_bar = dL/dx - i dL/dy, so with g = y_bar (real for a real result):

    real(z)   z_bar = g                     imag(z)   z_bar = -i g
    conj(z)   z_bar = conj(w_bar)           abs(z)    z_bar = g conj(z) / |z|  (0 at 0)
    angle(z)  z_bar = -i g conj(z) / |z|^2  (0 at 0)

Tangents are the real-linear maps themselves: real(dz), imag(dz), conj(dz),
Re(conj(z) dz) / |z|, Im(conj(z) dz) / |z|^2. ONE (1 + 0j) makes real_of_complex's
adjoint complex, as the adjoint of a complex value is (an array adjoint is then never a
real array that a complex contribution is added into in place).
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import zero_adjoint, zero_tangent
from s2s_ad.runtime_complex import (abs_of_complex, angle_of_complex, conj_of_complex,
                                    imag_of_complex, nonzero_or_one, real_of_complex)

ONE = complex(1.0, 0.0)
MINUS_I = complex(0.0, -1.0)


# ---- of a real operand ---------------------------------------------------------------------
@adjoint(np.real)
def real_adjoint(y, val):
    """np.real(x) = x for real x"""
    d[val] += d[y]


@tangent(np.real)
def real_tangent(y, val):
    d[y] = d[val]


@adjoint(np.conj)
def conj_adjoint(y, x):
    """np.conj(x) = x for real x"""
    d[x] += d[y]


@tangent(np.conj)
def conj_tangent(y, x):
    d[y] = d[x]


@adjoint(np.imag)
def imag_adjoint(y, val):
    """np.imag(x) = 0 for real x"""
    d[val] += zero_adjoint(val)


@tangent(np.imag)
def imag_tangent(y, val):
    d[y] = zero_tangent(val)


@adjoint(np.angle)
def angle_adjoint(y, z):
    """np.angle(x) is 0 or pi for real x: piecewise constant"""
    d[z] += zero_adjoint(z)


@tangent(np.angle)
def angle_tangent(y, z):
    d[y] = zero_tangent(z)


# ---- of a complex operand --------------------------------------------------------------------
@adjoint(real_of_complex)
def real_of_complex_adjoint(y, val):
    """y = x: z_bar = g"""
    d[val] += d[y] * ONE


@tangent(real_of_complex)
def real_of_complex_tangent(y, val):
    d[y] = np.real(d[val])


@adjoint(imag_of_complex)
def imag_of_complex_adjoint(y, val):
    """y = y(z): z_bar = -i g"""
    d[val] += d[y] * MINUS_I


@tangent(imag_of_complex)
def imag_of_complex_tangent(y, val):
    d[y] = np.imag(d[val])


@adjoint(conj_of_complex)
def conj_of_complex_adjoint(y, x):
    """w = x - iy: z_bar = conj(w_bar)"""
    d[x] += np.conj(d[y])


@tangent(conj_of_complex)
def conj_of_complex_tangent(y, x):
    d[y] = np.conj(d[x])


@adjoint(abs_of_complex)
def abs_of_complex_adjoint(y, x):
    """|z| = sqrt(x^2 + y^2): z_bar = g (x - iy) / |z|"""
    d[x] += d[y] * np.conj(x) / nonzero_or_one(y)


@tangent(abs_of_complex)
def abs_of_complex_tangent(y, x):
    d[y] = np.real(np.conj(x) * d[x]) / nonzero_or_one(y)


@adjoint(angle_of_complex)
def angle_of_complex_adjoint(y, z):
    """atan2(y, x): z_bar = g (-y - ix) / |z|^2 = -i g conj(z) / |z|^2"""
    _r = np.abs(z)
    d[z] += d[y] * MINUS_I * np.conj(z) / nonzero_or_one(_r * _r)


@tangent(angle_of_complex)
def angle_of_complex_tangent(y, z):
    _r = np.abs(z)
    d[y] = np.imag(np.conj(z) * d[z]) / nonzero_or_one(_r * _r)


@adjoint(nonzero_or_one)
def nonzero_or_one_adjoint(out, y):
    """y where y != 0 (1 elsewhere, a constant)"""
    d[y] += d[out] * (y != 0.0)


@tangent(nonzero_or_one)
def nonzero_or_one_tangent(out, y):
    d[out] = d[y] * (y != 0.0)
