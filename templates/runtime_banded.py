"""Reverse and forward templates of the banded-matrix helpers in runtime_banded.py (the
derivatives of scipy.linalg.solve_banded, templates/scipy_linalg.py), for second order.
Each helper is linear in each array it takes; the bandwidths are integers.

    transposed_band   a permutation of the band's entries (those outside A dropped): its
                      adjoint puts them back, transposed_band((u, l), g)
    band_product      A x: dx = A^T g, dab = the band of g x^T
    band_of           the band of g x^T: dg = A_h x, dx = A_h^T g, with A_h the matrix
                      whose band is the adjoint h
"""
from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_banded import band_of, band_product, transposed_band


@adjoint(transposed_band)
def transposed_band_adjoint(y, l_and_u, ab):
    d[ab] += transposed_band(l_and_u[::-1], d[y])


@tangent(transposed_band)
def transposed_band_tangent(y, l_and_u, ab):
    d[y] = transposed_band(l_and_u, d[ab])


@adjoint(band_product)
def band_product_adjoint(y, l_and_u, ab, x):
    d[ab] += band_of(l_and_u, d[y], x)
    d[x] += band_product(l_and_u[::-1], transposed_band(l_and_u, ab), d[y])


@tangent(band_product)
def band_product_tangent(y, l_and_u, ab, x):
    d[y] = band_product(l_and_u, d[ab], x) + band_product(l_and_u, ab, d[x])


@adjoint(band_of)
def band_of_adjoint(y, l_and_u, g, x):
    d[g] += band_product(l_and_u, d[y], x)
    d[x] += band_product(l_and_u[::-1], transposed_band(l_and_u, d[y]), g)


@tangent(band_of)
def band_of_tangent(y, l_and_u, g, x):
    d[y] = band_of(l_and_u, d[g], x) + band_of(l_and_u, g, d[x])
