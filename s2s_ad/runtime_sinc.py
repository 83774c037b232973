"""Derivatives of every order of np.sinc(x) = sin(pi x) / (pi x), which numpy does not
have: the derivative templates of np.sinc call them, and their own templates call the
next order, so grad of grad (of grad ...) of sinc is exact, at x = 0 too.

    sinc_derivative(0.0, 1) ->  0.0
    sinc_derivative(0.0, 2) -> -pi**2 / 3
    sinc_derivative(0.0, 4) ->  pi**4 / 5

With u = pi x, sinc is sin(u) / u; its n-th derivative in x is pi**n times the n-th in u:
- near 0 (|u| < 1), from the series sin(u) / u = sum over k of (-1)**k u**(2k) / (2k+1)!,
  whose n-th derivative is the sum over 2k >= n of (-1)**k u**(2k-n) / ((2k+1) (2k-n)!):
  no division by u, so no loss of digits where the closed form cancels;
- elsewhere, by Leibniz's rule on sin(u) * u**-1:
  sum over j of C(n, j) sin(u + j pi/2) (-1)**(n-j) (n-j)! u**-(n-j+1).
"""
import math

import numpy as np

from .runtime import _float_dtype

_SERIES_TERMS = 30      # |u| < 1: the terms fall faster than 1/(2k-n)!, 30 is past float64


def sinc_derivative(x, order=1):
    """The order-th derivative of np.sinc at x, elementwise; a number for a number."""
    u = np.pi * np.asarray(x, dtype=np.float64)
    near = np.abs(u) < 1.0
    u_near = np.where(near, u, 0.0)
    u_far = np.where(near, 1.0, u)
    series = np.zeros_like(u)
    for k in range((order + 1) // 2, (order + 1) // 2 + _SERIES_TERMS):
        power = 2 * k - order
        series = series + (-1.0) ** k * u_near ** power / ((2 * k + 1) * math.factorial(power))
    closed = np.zeros_like(u)
    for j in range(order + 1):
        m = order - j
        closed = closed + (math.comb(order, j) * np.sin(u_far + j * np.pi / 2)
                           * (-1.0) ** m * math.factorial(m) / u_far ** (m + 1))
    total = np.pi ** order * np.where(near, series, closed)
    out = np.asarray(total, dtype=_float_dtype(x))
    return out if np.ndim(x) else out[()]
