"""Indexing and shape manipulation: getitem, transpose, reshape, stacking, ..."""
import operator

import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import (broadcast_tangent, reshape_like, split_array, split_concatenated,
                            split_hstacked, split_vstacked, unbroadcast, unrepeat, unstack,
                            untile, untranspose)
from s2s_ad.runtime_linalg import place_diagonal


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


@adjoint(np.atleast_1d, np.atleast_2d)
def atleast_adjoint(y, a):
    """d atleast_nd(a) = atleast_nd(da) (one array argument)"""
    d[a] += reshape_like(d[y], a)


@tangent(np.atleast_1d, np.atleast_2d)
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


@adjoint(np.vstack)
def vstack_adjoint(y, tup):
    """d vstack(arrays) = vstack(d arrays)"""
    d[tup] += split_vstacked(d[y], tup)


@tangent(np.vstack)
def vstack_tangent(y, tup):
    """d vstack(arrays) = vstack(d arrays)"""
    d[y] = np.vstack(d[tup])


@adjoint(np.array)
def array_adjoint(y, object, dtype=None, copy=True, order="K", ndmin=0):
    """d array(x) = array(dx); for a list of arrays, like stack on axis 0"""
    d[object] += split_array(d[y], object)


@tangent(np.array)
def array_tangent(y, object, dtype=None, copy=True, order="K", ndmin=0):
    """d array(x) = array(dx) (a fresh float array; a list of tangents stacks)"""
    d[y] = np.array(d[object], dtype=float, ndmin=ndmin)


@adjoint(np.asarray)
def asarray_adjoint(y, a, dtype=None, order=None, copy=None):
    """d asarray(x) = asarray(dx); for a list of arrays, like stack on axis 0"""
    d[a] += split_array(d[y], a)


@tangent(np.asarray)
def asarray_tangent(y, a, dtype=None, order=None, copy=None):
    """d asarray(x) = asarray(dx) (float; a list of tangents stacks)"""
    d[y] = np.asarray(d[a], dtype=float)


@adjoint(np.copy)
def copy_adjoint(y, a, order="K"):
    """d copy(a) = copy(da)"""
    d[a] += d[y]


@tangent(np.copy)
def copy_tangent(y, a, order="K"):
    """d copy(a) = copy(da): a fresh array, since the copy may be written in place"""
    d[y] = np.array(d[a], dtype=float)


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
