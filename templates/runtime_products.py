"""Templates of np.prod's second-order helper runtime_reductions._prod_others_tangent, for a third
derivative through np.prod (`s2s_ad.hvp` of a function calling `s2s_ad.grad` of a
product). With P = unreduce_prod's "other factors" product of x, Q(x, u) its derivative
along u and S(x, u, v) the next one (runtime_products._prod_others_second), and E the
expansion of a reduced value over the reduced axes:

    out = _prod_others_tangent(g, dg, x, dx) = E(dg) P(x) + E(g) Q(x, dx)

Q is linear in u, S bilinear, and prod_{j != i, k} x_j is symmetric in i and k (and the
triple products in all three), so each adjoint is a Q or S of the same x. A fourth
derivative meets _prod_others_second, which has no template: a located error.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast, unreduce
from s2s_ad.runtime_reductions import _prod_others_tangent
from s2s_ad.runtime_products import _prod_others_second


@adjoint(_prod_others_tangent)
def prod_others_tangent_adjoint(out, g, dg, x, dx, axis=None, keepdims=False):
    """g_bar = sum(Q(x, dx) out_bar), dg_bar = sum(P out_bar), dx_bar = Q(x, E(g) out_bar),
    x_bar = Q(x, E(dg) out_bar) + S(x, E(g) out_bar, dx)"""
    _ones = np.ones_like(g)
    _spread = unreduce(g, x, axis, keepdims) * d[out]
    d[g] += np.sum(_prod_others_tangent(_ones, 0.0, x, dx, axis, keepdims) * d[out],
                   axis=axis, keepdims=keepdims)
    d[dg] += np.sum(_prod_others_tangent(0.0, _ones, x, 0.0, axis, keepdims) * d[out],
                    axis=axis, keepdims=keepdims)
    d[dx] += unbroadcast(_prod_others_tangent(_ones, 0.0, x, _spread, axis, keepdims), dx)
    d[x] += _prod_others_tangent(_ones, 0.0, x, unreduce(dg, x, axis, keepdims) * d[out],
                                 axis, keepdims) \
        + _prod_others_second(_ones, x, _spread, dx, axis, keepdims)


@tangent(_prod_others_tangent)
def prod_others_tangent_tangent(out, g, dg, x, dx, axis=None, keepdims=False):
    """E(d dg) P + E(dg) Q(x, d x) + E(d g) Q(x, dx) + E(g) (Q(x, d dx) + S(x, dx, d x))"""
    d[out] = _prod_others_tangent(dg, d[dg], x, d[x], axis, keepdims) \
        + _prod_others_tangent(d[g], 0.0, x, dx, axis, keepdims) \
        + _prod_others_tangent(g, 0.0, x, d[dx], axis, keepdims) \
        + _prod_others_second(g, x, dx, d[x], axis, keepdims)
