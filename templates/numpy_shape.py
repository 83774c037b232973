"""Indexing and shape manipulation: getitem, transpose, reshape, stacking, ..., and the
rearranging functions roll, sort, diff, tril/triu and pad (the modes linear in the array)."""
import operator

import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_shape import (outer_operand, reshape_like, split_array,
                                  split_concatenated, split_hstacked, split_vstacked,
                                  unrepeat, unstack, untile, untranspose)
from s2s_ad.runtime_arrays import (pad_linear, pad_widths, unpad, unpad_end_values,
                                   unpad_values)
from s2s_ad.runtime_linalg import place_diagonal
from s2s_ad.runtime_creation import through_cast
from s2s_ad.runtime_flow import float_copy, float_dtype


@adjoint(operator.getitem)
def getitem_adjoint(y, x, index):
    """y = x[index]: the adjoint lands on the selected elements (repeats accumulate)."""
    d[x][index] += d[y]


@tangent(operator.getitem)
def getitem_tangent(y, x, index):
    """indexing is linear: d x[index] = dx[index]"""
    d[y] = d[x][index]


@adjoint(np.transpose)
def transpose_adjoint(y, a, axes=None):
    """d transpose(a, axes) = transpose(da, axes): undo the permutation"""
    d[a] += untranspose(d[y], axes)


@tangent(np.transpose)
def transpose_tangent(y, a, axes=None):
    """d transpose(a, axes) = transpose(da, axes)"""
    d[y] = np.transpose(d[a], axes)


@adjoint(np.swapaxes)
def swapaxes_adjoint(y, a, axis1, axis2):
    """d swapaxes(a, i, j) = swapaxes(da, i, j): swapping again undoes it"""
    d[a] += np.swapaxes(d[y], axis1, axis2)


@tangent(np.swapaxes)
def swapaxes_tangent(y, a, axis1, axis2):
    """d swapaxes(a, i, j) = swapaxes(da, i, j)"""
    d[y] = np.swapaxes(d[a], axis1, axis2)


@adjoint(np.reshape)
def reshape_adjoint(y, a, shape=None, order="C"):
    """d reshape(a, s) = reshape(da, s)"""
    d[a] += reshape_like(d[y], a, order)


@tangent(np.reshape)
def reshape_tangent(y, a, shape=None, order="C"):
    """d reshape(a, s) = reshape(da, s) (y's shape, so -1 entries are resolved)"""
    d[y] = np.reshape(d[a], np.shape(y), order=order)


@adjoint(outer_operand)
def outer_operand_adjoint(y, a, b):
    """y = a with length-1 axes appended (ufunc.outer): reshape back to a's shape"""
    d[a] += reshape_like(d[y], a)


@tangent(outer_operand)
def outer_operand_tangent(y, a, b):
    """outer_operand is linear in a"""
    d[y] = outer_operand(d[a], b)


@adjoint(np.ravel)
def ravel_adjoint(y, a, order="C"):
    """d ravel(a) = ravel(da)"""
    d[a] += reshape_like(d[y], a, order)


@tangent(np.ravel)
def ravel_tangent(y, a, order="C"):
    """d ravel(a) = ravel(da)"""
    d[y] = np.ravel(d[a], order=order)


@adjoint(np.squeeze)
def squeeze_adjoint(y, a, axis=None):
    """d squeeze(a) = squeeze(da)"""
    d[a] += reshape_like(d[y], a)


@tangent(np.squeeze)
def squeeze_tangent(y, a, axis=None):
    """d squeeze(a) = squeeze(da)"""
    d[y] = np.squeeze(d[a], axis)


@adjoint(np.expand_dims)
def expand_dims_adjoint(y, a, axis):
    """d expand_dims(a, axis) = expand_dims(da, axis)"""
    d[a] += reshape_like(d[y], a)


@tangent(np.expand_dims)
def expand_dims_tangent(y, a, axis):
    """d expand_dims(a, axis) = expand_dims(da, axis)"""
    d[y] = np.expand_dims(d[a], axis)


@adjoint(np.atleast_1d, np.atleast_2d, np.atleast_3d)
def atleast_adjoint(y, a):
    """d atleast_nd(a) = atleast_nd(da) (one array argument)"""
    d[a] += reshape_like(d[y], a)


@tangent(np.atleast_1d, np.atleast_2d, np.atleast_3d)
def atleast_tangent(y, a):
    """d atleast_nd(a) = atleast_nd(da): da given y's shape"""
    d[y] = np.reshape(d[a], np.shape(y))


@adjoint(np.concatenate)
def concatenate_adjoint(y, arrays, axis=0):
    """d concatenate(arrays) = concatenate(d arrays): split the adjoint back"""
    d[arrays] += split_concatenated(d[y], arrays, axis)


@tangent(np.concatenate)
def concatenate_tangent(y, arrays, axis=0):
    """d concatenate(arrays) = concatenate(d arrays)"""
    d[y] = np.concatenate(d[arrays], axis)


@adjoint(np.stack)
def stack_adjoint(y, arrays, axis=0):
    """d stack(arrays) = stack(d arrays): one slice per array"""
    d[arrays] += unstack(d[y], arrays, axis)


@tangent(np.stack)
def stack_tangent(y, arrays, axis=0):
    """d stack(arrays) = stack(d arrays)"""
    d[y] = np.stack(d[arrays], axis)


@adjoint(np.hstack)
def hstack_adjoint(y, tup):
    """d hstack(arrays) = hstack(d arrays)"""
    d[tup] += split_hstacked(d[y], tup)


@tangent(np.hstack)
def hstack_tangent(y, tup):
    """d hstack(arrays) = hstack(d arrays)"""
    d[y] = np.hstack(d[tup])


# np.row_stack (deprecated in numpy 2) is np.vstack under another name
_ROW_STACK = (np.row_stack,) if hasattr(np, "row_stack") else ()


@adjoint(np.vstack, *_ROW_STACK)
def vstack_adjoint(y, tup):
    """d vstack(arrays) = vstack(d arrays)"""
    d[tup] += split_vstacked(d[y], tup)


@tangent(np.vstack, *_ROW_STACK)
def vstack_tangent(y, tup):
    """d vstack(arrays) = vstack(d arrays)"""
    d[y] = np.vstack(d[tup])


@adjoint(np.array)
def array_adjoint(y, object, dtype=None, copy=True, order="K", ndmin=0):
    """d array(x) = array(dx); for a list of arrays, like stack on axis 0"""
    d[object] += split_array(through_cast(d[y], y, dtype), object)


@tangent(np.array)
def array_tangent(y, object, dtype=None, copy=True, order="K", ndmin=0):
    """d array(x) = array(dx) (a fresh float array; a list of tangents stacks)"""
    d[y] = through_cast(np.array(d[object], dtype=float_dtype(d[object]), ndmin=ndmin), y,
                        dtype)


@adjoint(np.asarray)
def asarray_adjoint(y, a, dtype=None, order=None, copy=None):
    """d asarray(x) = asarray(dx); for a list of arrays, like stack on axis 0"""
    d[a] += split_array(through_cast(d[y], y, dtype), a)


@tangent(np.asarray)
def asarray_tangent(y, a, dtype=None, order=None, copy=None):
    """d asarray(x) = asarray(dx) (float, float32 kept; a list of tangents stacks)"""
    d[y] = through_cast(np.asarray(d[a], dtype=float_dtype(d[a])), y, dtype)


@adjoint(np.copy)
def copy_adjoint(y, a, order="K"):
    """d copy(a) = copy(da)"""
    d[a] += d[y]


@tangent(np.copy)
def copy_tangent(y, a, order="K"):
    """d copy(a) = copy(da): a fresh array, since the copy may be written in place"""
    d[y] = float_copy(d[a])


@adjoint(np.broadcast_to)
def broadcast_to_adjoint(y, array, shape):
    """d broadcast_to(a, s) = broadcast_to(da, s): sum over the broadcast axes"""
    d[array] += unbroadcast(d[y], array)


@tangent(np.broadcast_to)
def broadcast_to_tangent(y, array, shape):
    """d broadcast_to(a, s) = broadcast_to(da, s) (a writable copy)"""
    d[y] = broadcast_tangent(d[array], y)


@adjoint(np.tile)
def tile_adjoint(y, A, reps):
    """d tile(a, reps) = tile(da, reps): sum over the copies"""
    d[A] += untile(d[y], A, reps)


@tangent(np.tile)
def tile_tangent(y, A, reps):
    """d tile(a, reps) = tile(da, reps)"""
    d[y] = np.tile(d[A], reps)


@adjoint(np.repeat)
def repeat_adjoint(y, a, repeats, axis=None):
    """d repeat(a, r) = repeat(da, r): sum over each element's copies"""
    d[a] += unrepeat(d[y], a, repeats, axis)


@tangent(np.repeat)
def repeat_tangent(y, a, repeats, axis=None):
    """d repeat(a, r) = repeat(da, r)"""
    d[y] = np.repeat(d[a], repeats, axis)


@adjoint(np.flip)
def flip_adjoint(y, m, axis=None):
    """d flip(m) = flip(dm)"""
    d[m] += np.flip(d[y], axis)


@tangent(np.flip)
def flip_tangent(y, m, axis=None):
    """d flip(m) = flip(dm)"""
    d[y] = np.flip(d[m], axis)


@adjoint(np.diagonal)
def diagonal_adjoint(y, a, offset=0, axis1=0, axis2=1):
    """d diagonal(a) = diagonal(da): the adjoint sits on the diagonal"""
    d[a] += place_diagonal(d[y], a, offset, axis1, axis2)


@tangent(np.diagonal)
def diagonal_tangent(y, a, offset=0, axis1=0, axis2=1):
    """d diagonal(a) = diagonal(da)"""
    d[y] = np.diagonal(d[a], offset, axis1, axis2)


@adjoint(np.roll)
def roll_adjoint(y, a, shift, axis=None):
    """d roll(a, s) = roll(da, s): the adjoint rolls back by -s"""
    d[a] += np.roll(d[y], np.negative(shift), axis)


@tangent(np.roll)
def roll_tangent(y, a, shift, axis=None):
    """d roll(a, s) = roll(da, s)"""
    d[y] = np.roll(d[a], shift, axis)


# sort(a) = a[index]: `index` takes the flat position of each element in argsort's order
# (axis=None sorts the flattened a); ties are ordered as argsort orders them
@adjoint(np.sort)
def sort_adjoint(y, a, axis=-1, kind=None):
    """d sort(a) = da[index]: each adjoint goes back to where its value came from"""
    _flat = np.reshape(np.arange(np.size(a)), np.shape(a))
    _order = np.argsort(a, axis=axis, kind=kind)
    d[a][np.unravel_index(np.take_along_axis(_flat, _order, axis=axis), np.shape(a))] += d[y]


@tangent(np.sort)
def sort_tangent(y, a, axis=-1, kind=None):
    """d sort(a) = da[index], index from argsort(a)"""
    _flat = np.reshape(np.arange(np.size(a)), np.shape(a))
    _order = np.argsort(a, axis=axis, kind=kind)
    d[y] = d[a][np.unravel_index(np.take_along_axis(_flat, _order, axis=axis), np.shape(a))]


# diff is linear: D (n = 1) has the transpose -D applied to the adjoint padded with one zero
# at each end of axis, so that of D^n is (-1)^n D^n of it padded with n zeros at each end
@adjoint(np.diff)
def diff_adjoint(y, a, n=1, axis=-1):
    """d diff(a, n) = diff(da, n): a_bar = (-1)^n diff(y_bar padded by n zeros, n)"""
    _widths = np.where(np.arange(np.ndim(a)) == axis % np.ndim(a), n, 0)   # ints, per axis
    _g = broadcast_tangent(d[y], y)          # the scalar zero of a loop: y's shape
    d[a] += (-1.0) ** n * np.diff(np.pad(_g, _widths[:, None]), n, axis)


@tangent(np.diff)
def diff_tangent(y, a, n=1, axis=-1):
    """d diff(a, n) = diff(da, n)"""
    d[y] = np.diff(d[a], n, axis)


# a 1-D m gives a square result (its rows are m, masked): unbroadcast sums them back
@adjoint(np.tril)
def tril_adjoint(y, m, k=0):
    """d tril(m, k) = tril(dm, k): the adjoint keeps the same triangle"""
    d[m] += unbroadcast(np.tril(d[y], k), m)


@tangent(np.tril)
def tril_tangent(y, m, k=0):
    """d tril(m, k) = tril(dm, k)"""
    d[y] = np.tril(d[m], k)


@adjoint(np.triu)
def triu_adjoint(y, m, k=0):
    """d triu(m, k) = triu(dm, k): the adjoint keeps the same triangle"""
    d[m] += unbroadcast(np.triu(d[y], k), m)


@tangent(np.triu)
def triu_tangent(y, m, k=0):
    """d triu(m, k) = triu(dm, k)"""
    d[y] = np.triu(d[m], k)


# np.pad is linear in the array (and constant_values, end_values) in every mode
# pad_widths accepts: constant, edge, wrap, reflect, symmetric, linear_ramp, mean
@adjoint(np.pad)
def pad_adjoint(y, array, pad_width, mode="constant", constant_values=0, end_values=0,
                stat_length=None, reflect_type="even"):
    """d pad(a, w, c) = pad(da, w, dc): a_bar is y_bar's inner block plus what the padding
    copied or averaged from a, c_bar the padding's sum (likewise end_values)"""
    _widths = pad_widths(array, pad_width, mode)
    d[array] += unpad(d[y], _widths, mode, stat_length, reflect_type, array)
    d[constant_values] += unpad_values(d[y], _widths, constant_values)
    d[end_values] += unpad_end_values(d[y], _widths, end_values)


@tangent(np.pad)
def pad_tangent(y, array, pad_width, mode="constant", constant_values=0, end_values=0,
                stat_length=None, reflect_type="even"):
    """d pad(a, w, c, e) = pad(da, w, dc, de) in the same mode"""
    _widths = pad_widths(array, pad_width, mode)
    d[y] = pad_linear(d[array], _widths, mode, d[constant_values], d[end_values],
                      stat_length, reflect_type, array)
