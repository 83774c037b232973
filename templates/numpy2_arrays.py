"""numpy 2's array-API names for scans, stacking and casting (loaded only where numpy has
them; see MODULES): np.cumulative_sum, np.cumulative_prod, np.unstack and np.astype. The other new names
(np.concat, np.permute_dims, np.pow, np.acos, ..., np.atan2) are the very objects of the
old ones (np.concatenate, np.transpose, np.power, np.arccos, ...) and use their templates.

cumulative_sum / cumulative_prod are np.cumsum / np.cumprod with an optional leading
initial value (0 or 1, a constant) along axis; axis=None is allowed for at most one axis,
where the flattening helpers (np.delete, np.insert, reverse_cumsum, linear_scan with
axis=None) change nothing.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent
from s2s_ad.runtime_reductions import reverse_cumsum
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_arrays import linear_scan, shifted
from s2s_ad.runtime_flow import match_adjoint


@adjoint(np.cumulative_sum)
def cumulative_sum_adjoint(y, x, axis=None, dtype=None, include_initial=False):
    """the reversed cumulative sum of y_bar (without the initial value's)"""
    _g = np.delete(broadcast_tangent(d[y], y), 0, axis) if include_initial else d[y]
    d[x] += reverse_cumsum(_g, x, axis)


@tangent(np.cumulative_sum)
def cumulative_sum_tangent(y, x, axis=None, dtype=None, include_initial=False):
    """cumulative_sum is linear"""
    d[y] = np.cumulative_sum(d[x], axis=axis, include_initial=include_initial)


# as np.cumprod's templates (numpy_reductions.py), on the products after the initial 1
@adjoint(np.cumulative_prod)
def cumulative_prod_adjoint(y, x, axis=None, dtype=None, include_initial=False):
    """x_bar = e r, r_j = y_bar_j + x_{j+1} r_{j+1}, e the product of the earlier factors"""
    _y = np.delete(y, 0, axis) if include_initial else y
    _g = np.delete(broadcast_tangent(d[y], y), 0, axis) if include_initial else d[y]
    _r = linear_scan(shifted(x, axis, 0.0, True), _g, axis, True)
    d[x] += reshape_like(shifted(_y, axis, 1.0) * _r, x)


@tangent(np.cumulative_prod)
def cumulative_prod_tangent(y, x, axis=None, dtype=None, include_initial=False):
    """d y_i = x_i d y_{i-1} + y_{i-1} d x_i: a scan (the initial 1 has tangent 0)"""
    _y = np.delete(y, 0, axis) if include_initial else y
    _t = linear_scan(x, shifted(_y, axis, 1.0) * d[x], axis)
    d[y] = np.insert(_t, 0, 0.0, axis) if include_initial else _t


@adjoint(np.unstack)
def unstack_adjoint(y, x, axis=0):
    """the slices' adjoints stacked back"""
    d[x] += np.stack(match_adjoint(d[y], y), axis)


@tangent(np.unstack)
def unstack_tangent(y, x, axis=0):
    """unstack is linear"""
    d[y] = np.unstack(d[x], axis=axis)


@adjoint(np.astype)
def astype_adjoint(y, x, dtype, copy=True, device=None):
    """x_bar = y_bar for a floating dtype; a cast to integers or booleans is piecewise
    constant (its derivative is 0)"""
    d[x] += reshape_like(broadcast_tangent(d[y], y), x) if np.dtype(dtype).kind == "f" \
        else np.zeros(np.shape(x))


@tangent(np.astype)
def astype_tangent(y, x, dtype, copy=True, device=None):
    d[y] = np.astype(broadcast_tangent(d[x], y), dtype) if np.dtype(dtype).kind == "f" \
        else np.zeros(np.shape(y))
