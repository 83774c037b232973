"""Reverse templates of the runtime helpers in runtime.py and runtime_flow.py, so generated
gradients can be differentiated again in reverse mode (grad of grad); those of
runtime_linalg.py and runtime_arrays.py are in runtime_adjoints_linalg.py, forward
templates of all of them in runtime_helpers.py.

Most helpers are linear in their adjoint argument `g` and their adjoint is the transposed
map: unbroadcast sums over broadcast axes, so its adjoint broadcasts back; unreduce
spreads over reduced axes, so its adjoint sums over them. A template gives the adjoint of
every argument the helper's value depends on differentiably (unreduce_var's is bilinear
in g and x, unreduce_norm's nonlinear in x and y); arguments that only give a shape, an
axis or an index get none. The result parameter is called `out` (the helpers use `y`).

A list's adjoint may be a list with the scalar zero 0.0 for items (or for the whole list:
0.0 stands for zeros of any shape), which match_adjoint(d[out], out) fills in, or an
array whose rows are the items' adjoints (np.zeros(np.shape(a_list)) written into).
pop_adjoint has no template here: it pops its list argument in place, and the reverse
generator undoes it as it undoes `items.pop()` (ad/statements.py: the popped adjoint
goes back on the list, its own adjoint on the list's adjoint).
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d
from s2s_ad.runtime import (add_at, broadcast_tangent, extremum_share, reduced_count, unbroadcast,
                            unreduce)
from s2s_ad.runtime_reductions import (_prod_others_tangent, reverse_cumsum, unreduce_extremum,
                                       unreduce_prod, unreduce_var)
from s2s_ad.runtime_shape import (reshape_like, split_array, split_concatenated, split_hstacked,
                                  split_vstacked, unrepeat, unstack, untile, untranspose)
from s2s_ad.runtime_spread import (norm_power, norm_reciprocal, spread_reciprocal,
                                   unreduce_norm, unreduce_std)
from s2s_ad.runtime_flow import (add_adjoints, add_lists, clear_adjoint, copy_adjoint,
                                 copy_argument, float_copy, float_dtype, float_gradient,
                                 match_adjoint, push_adjoint, concatenation_part,
                                 scatter_add, sequence_position, spread_adjoint, sum_repeats,
                                 take_adjoint)


# ---- runtime.py: broadcasting -------------------------------------------------------------
@adjoint(unbroadcast)
def unbroadcast_adjoint(out, g, x):
    """out = g summed down to x's shape; its adjoint broadcasts back to g's shape"""
    d[g] += broadcast_tangent(d[out], g)


@adjoint(unreduce)
def unreduce_adjoint(out, g, x, axis=None, keepdims=False):
    """out = g spread over x's shape; its adjoint sums back to g's shape: over `axis`
    first when g lacks it (keepdims False), and then over what g broadcast along (g of
    a keepdims shape spread with axis None, as reductions' adjoints may write it)"""
    d[g] += unbroadcast(np.sum(d[out], axis=axis) if axis is not None and not keepdims
                        else d[out], g)


@adjoint(broadcast_tangent)
def broadcast_tangent_adjoint(out, t, y):
    """out = t broadcast to y's shape; its adjoint sums back to t's shape"""
    d[t] += unbroadcast(d[out], t)


# out = a with g added at a[index] (repeated integer indices accumulate): g's adjoint
# gathers every repeat, unlike take_adjoint (which keeps only the last write of `=`)
@adjoint(add_at)
def add_at_adjoint(out, a, index, g):
    """out = a + g placed at index: a_bar = out_bar, g_bar = out_bar[index] summed to g"""
    d[a] += d[out]
    d[g] += unbroadcast(match_adjoint(d[out], out)[index], g)


# ---- runtime.py: reductions ---------------------------------------------------------------
@adjoint(unreduce_extremum)
def unreduce_extremum_adjoint(out, g, x, y, axis=None, keepdims=False):
    """out = share(x, y) g (share piecewise constant in x, y): g_bar = sum(share out_bar)"""
    d[g] += np.sum(extremum_share(x, y, axis, keepdims) * d[out], axis=axis, keepdims=keepdims)


# out = g P(x) with P_i = prod_{j != i} x_j; y = prod(x) only serves the helper's fast path,
# so x carries the whole derivative (as in the tangent). dP_i/dx_k = prod_{j != i, k} x_j
# is symmetric in i and k: x_bar = dP along g out_bar, computed without dividing by x
@adjoint(unreduce_prod)
def unreduce_prod_adjoint(out, g, x, y, axis=None, keepdims=False):
    """g_bar = sum(P out_bar), x_bar_k = sum_{i != k} g out_bar_i prod_{j != i, k} x_j"""
    _ones = np.ones_like(y)
    d[g] += np.sum(unreduce_prod(_ones, x, y, axis, keepdims) * d[out], axis=axis,
                   keepdims=keepdims)
    d[x] += _prod_others_tangent(_ones, np.zeros_like(y), x,
                                 unreduce(g, x, axis, keepdims) * d[out], axis, keepdims)


@adjoint(reverse_cumsum)
def reverse_cumsum_adjoint(out, g, x, axis=None):
    """out_i = sum_{j >= i} g_j, so g_bar_j = sum_{i <= j} out_bar_i: a cumulative sum"""
    d[g] += np.cumsum(d[out], axis=axis)


# out = c (x - mean(x)) g with c = 2 / (N - ddof): bilinear in g and x, and centring is a
# symmetric projection, so x's adjoint centres g out_bar
@adjoint(unreduce_var)
def unreduce_var_adjoint(out, g, x, axis=None, ddof=0, keepdims=False):
    """g_bar = c sum((x - mean x) out_bar), x_bar = c (s - mean s) with s = g out_bar"""
    _c = 2.0 / (reduced_count(x, axis) - ddof)
    d[g] += _c * np.sum((x - np.mean(x, axis=axis, keepdims=True)) * d[out], axis=axis,
                        keepdims=keepdims)
    _spread = unreduce(g, x, axis, keepdims) * d[out]
    d[x] += _c * (_spread - np.mean(_spread, axis=axis, keepdims=True))


# out = s g with s = sign(x) (|x|/y)**(p-1), p = 2 for None / 'fro', p = 1 for +-inf (s is
# then piecewise constant). ds/dy = -(p-1) s / y, ds_i/dx_i = (p-1) (|x_i|/y)**(p-2) / y;
# for p = 1 the power is taken as **0 (its factor p - 1 is 0), as in the tangent. h = out_bar
@adjoint(unreduce_norm)
def unreduce_norm_adjoint(out, g, x, y, ord=None, axis=None, keepdims=False):
    """g_bar = sum(s h), y_bar = -(p-1) g g_bar / y, x_bar = (p-1) (|x|/y)**(p-2) g h / y
    (1 / y taken as 0 where y = 0, as the first derivative is)"""
    _p = norm_power(ord, x, axis)
    _r = norm_reciprocal(y)
    _g_bar = np.sum(unreduce_norm(np.ones_like(y), x, y, ord, axis, keepdims) * d[out],
                    axis=axis, keepdims=keepdims)
    d[g] += _g_bar
    d[y] += -(_p - 1.0) * g * _g_bar * _r
    _power = (np.abs(x) * unreduce(_r, x, axis, keepdims)) ** (_p - 2.0 + (_p == 1.0))
    d[x] += (_p - 1.0) * _power * unreduce(g * _r, x, axis, keepdims) * d[out]


# out = c (x - mean x) E(g r), r = spread_reciprocal(y) (1 / y, 0 at a zero spread, which
# is piecewise constant in x), c = 1 / (N - ddof): like unreduce_var with g r / 2 for g
@adjoint(unreduce_std)
def unreduce_std_adjoint(out, g, x, y, axis=None, ddof=0, keepdims=False):
    """g_bar = c r sum((x - mean x) out_bar), y_bar = -g r g_bar, x_bar = c (s - mean s)
    with s = E(g r) out_bar"""
    _r = spread_reciprocal(y, x, axis, keepdims)
    _c = 1.0 / (reduced_count(x, axis) - ddof)
    _g_bar = _c * _r * np.sum((x - np.mean(x, axis=axis, keepdims=True)) * d[out], axis=axis,
                              keepdims=keepdims)
    d[g] += _g_bar
    d[y] += -g * _r * _g_bar
    _spread = unreduce(g * _r, x, axis, keepdims) * d[out]
    d[x] += _c * (_spread - np.mean(_spread, axis=axis, keepdims=True))


@adjoint(norm_reciprocal)
def norm_reciprocal_adjoint(out, y):
    """out = 1 / y (0 at a zero norm): y_bar = -out**2 out_bar"""
    d[y] += -d[out] * out * out


@adjoint(spread_reciprocal)
def spread_reciprocal_adjoint(out, y, x, axis=None, keepdims=False):
    """out = 1 / y (0 at a zero spread): y_bar = -out**2 out_bar"""
    d[y] += -d[out] * out * out


# ---- runtime.py: shape manipulation (linear in g; the other arguments give shapes) --------
@adjoint(reshape_like)
def reshape_like_adjoint(out, g, x, order="C"):
    """out = g reshaped to x's shape: reshape back to g's"""
    d[g] += reshape_like(d[out], g, order)


@adjoint(untranspose)
def untranspose_adjoint(out, g, axes=None):
    """out = g transposed by the inverse of axes: transpose by axes"""
    d[g] += np.transpose(d[out], axes)


@adjoint(split_concatenated)
def split_concatenated_adjoint(out, g, arrays, axis=0):
    """out = g cut into one piece per array: concatenate the pieces' adjoints"""
    _items = list(d[out]) if isinstance(d[out], np.ndarray) else d[out]
    d[g] += np.concatenate(match_adjoint(_items, out), axis)


@adjoint(split_hstacked)
def split_hstacked_adjoint(out, g, arrays):
    """out = g cut as np.hstack joined it: hstack the pieces' adjoints"""
    _items = list(d[out]) if isinstance(d[out], np.ndarray) else d[out]
    d[g] += np.hstack(match_adjoint(_items, out))


@adjoint(split_vstacked)
def split_vstacked_adjoint(out, g, arrays):
    """out = g cut as np.vstack joined it: vstack the pieces' adjoints"""
    _items = list(d[out]) if isinstance(d[out], np.ndarray) else d[out]
    d[g] += np.vstack(match_adjoint(_items, out))


@adjoint(unstack)
def unstack_adjoint(out, g, arrays, axis=0):
    """out = the slices of g along axis: stack their adjoints"""
    _items = list(d[out]) if isinstance(d[out], np.ndarray) else d[out]
    d[g] += np.stack(match_adjoint(_items, out), axis)


@adjoint(split_array)
def split_array_adjoint(out, g, obj):
    """out = g reshaped, or its items for a list: the items' adjoints as one array"""
    _items = d[out] if isinstance(d[out], np.ndarray) else match_adjoint(d[out], out)
    d[g] += reshape_like(np.array(_items, dtype=float_dtype(_items)), g)    # float32 kept


@adjoint(untile)
def untile_adjoint(out, g, x, reps):
    """out = g summed over the copies np.tile made: tile the adjoint (in g's dtype: a
    number's adjoint, grad's seed 1.0, would tile as float64)"""
    d[g] += np.tile(np.asarray(d[out], dtype=float_dtype(d[out], g)), reps)


@adjoint(unrepeat)
def unrepeat_adjoint(out, g, x, repeats, axis=None):
    """out = g summed over each element's copies: repeat the adjoint"""
    d[g] += np.repeat(d[out], repeats, axis)


# ---- runtime_flow.py: adjoints in control flow, lists and in-place writes -----------------
# Arrays, numbers, dicts and lists of them add. An array out_bar is summed to each
# operand's shape; a structure is passed on (to b as a copy: a list adjoint may be updated
# in place later, and a and b must not share it)
@adjoint(add_adjoints)
def add_adjoints_adjoint(out, a, b):
    """out = a + b: a_bar = out_bar, b_bar = out_bar (each summed to its own shape)"""
    d[a] += unbroadcast(d[out], a) if isinstance(d[out], np.ndarray) else d[out]
    d[b] += unbroadcast(d[out], b) if isinstance(d[out], np.ndarray) \
        else add_adjoints(0.0, d[out])


@adjoint(add_lists)
def add_lists_adjoint(out, a, b):
    """out = a + b item by item: a_bar = b_bar = out_bar (b's a copy: lists change in place)"""
    d[a] += d[out]
    d[b] += copy_adjoint(d[out])


@adjoint(spread_adjoint)
def spread_adjoint_adjoint(out, g, items):
    """out_k = g summed to items[k]'s shape: g_bar = sum_k out_bar_k broadcast to g's shape"""
    _items = d[out] if isinstance(d[out], np.ndarray) else match_adjoint(d[out], out)
    d[g] += broadcast_tangent(sum(_items), g)


@adjoint(push_adjoint)
def push_adjoint_adjoint(out, a, items, g):
    """out = a with g appended: a_bar = out_bar[:-1], g_bar = out_bar[-1]"""
    d[a] += take_adjoint(d[out], slice(None, -1, None))
    d[g] += take_adjoint(d[out], -1)


@adjoint(match_adjoint)
def match_adjoint_adjoint(out, a, x):
    """out = a, broadcast to x's shape when a is still a scalar zero"""
    d[a] += unbroadcast(d[out], a) if isinstance(d[out], np.ndarray) else d[out]


@adjoint(float_gradient)
def float_gradient_adjoint(out, g):
    """out = g as floats: the identity on values"""
    d[g] += d[out]


@adjoint(copy_adjoint)
def copy_adjoint_adjoint(out, a):
    """out = a copy of a"""
    d[a] += d[out]


@adjoint(float_copy)
def float_copy_adjoint(out, a):
    """out = a copy of a as an array (a list's items: one row each)"""
    d[a] += split_array(d[out], a)


@adjoint(sum_repeats)
def sum_repeats_adjoint(out, g, items):
    """out_i = the sum of g over item i's copies: g_bar is out_bar repeated as often"""
    d[g] += match_adjoint(d[out], out) * (len(g) // len(items))


@adjoint(concatenation_part)
def concatenation_part_adjoint(out, g, before, items):
    """out = g's slice for items: g_bar is out_bar in that slice, zeros elsewhere"""
    d[g] += [0.0] * len(before) + match_adjoint(d[out], out) \
        + [0.0] * (len(g) - len(before) - len(items))


@adjoint(copy_argument)
def copy_argument_adjoint(out, x):
    """out = a copy of x (an array, dict or list)"""
    d[x] += d[out]


# y[index] = v with a repeated integer index keeps only the last write of each element,
# and take_adjoint gives the earlier ones nothing: its adjoint scatters out_bar times that
# mask (ones gathered as take_adjoint gathers). A list, tuple or dict `a` is never masked
# (its adjoint mirrors it item by item); anything else (the scalar zero 0.0) take_adjoint
# returns as it is
@adjoint(take_adjoint)
def take_adjoint_adjoint(out, a, index):
    """out = a[index] (last writes only): a_bar[index] += out_bar where kept"""
    _kept = d[out] * take_adjoint(np.ones_like(a), index) \
        if isinstance(a, np.ndarray) else d[out]
    d[a] += scatter_add(0.0, a, index, _kept) \
        if isinstance(a, (np.ndarray, list, tuple, dict)) else d[out]


@adjoint(clear_adjoint)
def clear_adjoint_adjoint(out, a, index):
    """out = a with a[index] set to zero (on a copy of out_bar: a dict one too)"""
    d[a] += clear_adjoint(add_adjoints(0.0, d[out]), index)


@adjoint(scatter_add)
def scatter_add_adjoint(out, a, x, index, g):
    """out = a with g added at a[index]: g_bar = out_bar[index], every repeat included"""
    _taken = (d[out] if isinstance(d[out], np.ndarray) else
              match_adjoint(d[out], out))[sequence_position(x, index)]
    d[a] += d[out]
    d[g] += unbroadcast(_taken, g) if isinstance(out, np.ndarray) else _taken
