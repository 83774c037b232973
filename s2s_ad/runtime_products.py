"""The second derivative of the "other factors" products np.prod's derivatives use, for a
third derivative through np.prod (hvp of a function calling grad of a product).

With P_i = prod_{j != i} x_j (runtime_reductions.unreduce_prod) and its derivative along u,
runtime_reductions._prod_others_tangent, the next one along u and v is

    S_i = sum over k != m, both != i, of u_k v_m prod_{j not in {i, k, m}} x_j

computed exactly when x has zeros (no division): prefix and suffix products of the
truncated dual numbers x + s u + t v (terms 1, s, t, st), whose product's st term is S.

    _prod_others_second(1.0, [a, b, c], u, v)[0] == u[1] v[2] + u[2] v[1]
"""
import numpy as np

from .runtime import _expand, _float_dtype, _normalize_axes, _scalar_like


def _prod_others_second(g, x, u, v, axis=None, keepdims=False):
    """g (the reduced cotangent, expanded over the reduced axes) times S (see the module
    docstring), with the shape of x."""
    x = np.asarray(x, dtype=_float_dtype(x))
    u = np.broadcast_to(np.asarray(u, dtype=_float_dtype(u)), x.shape)
    v = np.broadcast_to(np.asarray(v, dtype=_float_dtype(v)), x.shape)
    # the reduced axes moved last and flattened into one: a product along it per row
    axes = tuple(range(x.ndim)) if axis is None else _normalize_axes(axis, x.ndim)
    last = tuple(range(x.ndim - len(axes), x.ndim))
    moved_shape = np.moveaxis(x, axes, last).shape
    fx, fu, fv = (np.moveaxis(a, axes, last).reshape(moved_shape[:x.ndim - len(axes)] + (-1,))
                  for a in (x, u, v))
    n = fx.shape[-1]
    # [value, s, t, st] terms of the prefix (before) and suffix (after) products
    before = [np.ones_like(fx)] + [np.zeros_like(fx) for _ in range(3)]
    after = [np.ones_like(fx)] + [np.zeros_like(fx) for _ in range(3)]
    for i in range(1, n):
        for scan, k, j in ((before, i, i - 1), (after, n - 1 - i, n - i)):
            b, bu, bv, buv = (part[..., j] for part in scan)
            xj, uj, vj = fx[..., j], fu[..., j], fv[..., j]
            scan[3][..., k] = buv * xj + bu * vj + bv * uj
            scan[1][..., k] = bu * xj + b * uj
            scan[2][..., k] = bv * xj + b * vj
            scan[0][..., k] = b * xj
    second = before[0] * after[3] + before[1] * after[2] + before[2] * after[1] \
        + before[3] * after[0]
    others = np.moveaxis(second.reshape(moved_shape), last, axes)
    return _scalar_like(_expand(g, x, axis, keepdims) * others, x)
