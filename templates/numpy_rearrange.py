"""Moving elements and axes: np.take, np.take_along_axis, np.compress, np.extract,
np.moveaxis, np.rollaxis, np.fliplr, np.flipud, np.rot90, np.meshgrid, np.broadcast_arrays,
np.diagflat, np.ediff1d, np.resize, np.trim_zeros.

np.take and np.take_along_axis read x[index] for an index that the same call, applied to
x's flat positions, gives (so mode='wrap'/'clip' and axis=None are followed exactly);
their derivatives are indexing's, which has templates again. np.meshgrid and
np.broadcast_arrays take any number of arrays: the templates name four (x1..x4, unused
ones None); runtime_pieces.py lays tangents out and sums adjoints back.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent
from s2s_ad.runtime_flow import float_dtype
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_pieces import (along_axis_index, broadcast_each, mesh_tangent,
                                   trimmed_region, unbroadcast_each, unmesh)


# ---- gathering ----------------------------------------------------------------------------
@adjoint(np.take)
def take_adjoint(y, a, indices, axis=None, mode="raise"):
    """y = a[index]: the adjoint lands on the taken elements (repeats accumulate)"""
    _taken = np.take(np.reshape(np.arange(np.size(a)), np.shape(a)), indices, axis, mode=mode)
    d[a][np.unravel_index(_taken, np.shape(a))] += d[y]


@tangent(np.take)
def take_tangent(y, a, indices, axis=None, mode="raise"):
    """take is linear: d take(a) = take(da)"""
    d[y] = np.take(d[a], indices, axis, mode=mode)


# compress is take of the positions where the condition holds; extract is compress of the
# flattened array
@adjoint(np.compress)
def compress_adjoint(y, condition, a, axis=None, out=None):
    """the adjoint lands on the kept elements"""
    _taken = np.take(np.reshape(np.arange(np.size(a)), np.shape(a)), np.flatnonzero(condition),
                     axis)
    d[a][np.unravel_index(_taken, np.shape(a))] += d[y]


@tangent(np.compress)
def compress_tangent(y, condition, a, axis=None, out=None):
    d[y] = np.compress(condition, d[a], axis)


@adjoint(np.extract)
def extract_adjoint(y, condition, arr):
    """the adjoint lands on the extracted elements"""
    d[arr][np.unravel_index(np.flatnonzero(condition), np.shape(arr))] += d[y]


@tangent(np.extract)
def extract_tangent(y, condition, arr):
    d[y] = np.extract(condition, d[arr])


@adjoint(np.take_along_axis)
def take_along_axis_adjoint(y, arr, indices, axis=-1):
    """y = arr[index]: the adjoint lands on the taken elements (repeats accumulate)"""
    d[arr][along_axis_index(arr, indices, axis)] += d[y]


@tangent(np.take_along_axis)
def take_along_axis_tangent(y, arr, indices, axis=-1):
    """take_along_axis is linear"""
    d[y] = np.take_along_axis(d[arr], indices, axis)


# ---- axes ---------------------------------------------------------------------------------
@adjoint(np.moveaxis)
def moveaxis_adjoint(y, a, source, destination):
    """moving the axes back undoes it"""
    d[a] += np.moveaxis(d[y], destination, source)


@tangent(np.moveaxis)
def moveaxis_tangent(y, a, source, destination):
    """d moveaxis(a) = moveaxis(da)"""
    d[y] = np.moveaxis(d[a], source, destination)


# rollaxis(a, axis, start) puts `axis` before the axis at `start` (counted before the move;
# a negative start adds a's rank): it is moveaxis(a, axis, start - 1 if axis < start else
# start); the adjoint moves it back
@adjoint(np.rollaxis)
def rollaxis_adjoint(y, a, axis, start=0):
    """the rolled axis moved back to where it was"""
    _n = np.ndim(a)
    _start = start + _n if start < 0 else start
    d[a] += np.moveaxis(d[y], _start - 1 if axis % _n < _start else _start, axis)


@tangent(np.rollaxis)
def rollaxis_tangent(y, a, axis, start=0):
    """d rollaxis(a) = rollaxis(da)"""
    d[y] = np.rollaxis(d[a], axis, start)


# ---- flips and rotations ------------------------------------------------------------------
@adjoint(np.fliplr)
def fliplr_adjoint(y, m):
    """flipping again undoes it"""
    d[m] += np.fliplr(d[y])


@tangent(np.fliplr)
def fliplr_tangent(y, m):
    """d fliplr(m) = fliplr(dm)"""
    d[y] = np.fliplr(d[m])


@adjoint(np.flipud)
def flipud_adjoint(y, m):
    """flipping again undoes it"""
    d[m] += np.flipud(d[y])


@tangent(np.flipud)
def flipud_tangent(y, m):
    """d flipud(m) = flipud(dm)"""
    d[y] = np.flipud(d[m])


@adjoint(np.rot90)
def rot90_adjoint(y, m, k=1, axes=(0, 1)):
    """rotating back by -k undoes it"""
    d[m] += np.rot90(d[y], -k, axes)


@tangent(np.rot90)
def rot90_tangent(y, m, k=1, axes=(0, 1)):
    """d rot90(m) = rot90(dm)"""
    d[y] = np.rot90(d[m], k, axes)


# ---- grids and broadcasting -------------------------------------------------------------------
@adjoint(np.meshgrid)
def meshgrid_adjoint(y, x1, x2=None, x3=None, x4=None, copy=True, sparse=False,
                     indexing="xy"):
    """each input's adjoint: its grid's summed over the axes it does not run along"""
    _sums = unmesh(d[y], y, [x1, x2, x3, x4], indexing)
    d[x1] += _sums[0]
    d[x2] += _sums[1]
    d[x3] += _sums[2]
    d[x4] += _sums[3]


@tangent(np.meshgrid)
def meshgrid_tangent(y, x1, x2=None, x3=None, x4=None, copy=True, sparse=False,
                     indexing="xy"):
    """meshgrid is linear: each input's tangent laid out along its grid"""
    d[y] = mesh_tangent(y, [d[x1], d[x2], d[x3], d[x4]], indexing)


@adjoint(np.broadcast_arrays)
def broadcast_arrays_adjoint(y, a1, a2=None, a3=None, a4=None):
    """each result's adjoint summed back over the axes broadcasting added"""
    _sums = unbroadcast_each(d[y], [a1, a2, a3, a4])
    d[a1] += _sums[0]
    d[a2] += _sums[1]
    d[a3] += _sums[2]
    d[a4] += _sums[3]


@tangent(np.broadcast_arrays)
def broadcast_arrays_tangent(y, a1, a2=None, a3=None, a4=None):
    """broadcast_arrays is linear: each tangent broadcast like its array"""
    d[y] = broadcast_each([d[a1], d[a2], d[a3], d[a4]], y)


# ---- made from a flattened array -------------------------------------------------------------
@adjoint(np.diagflat)
def diagflat_adjoint(y, v, k=0):
    """v_bar = the k-th diagonal of y_bar, in v's shape"""
    d[v] += reshape_like(np.diagonal(d[y], k), v)


@tangent(np.diagflat)
def diagflat_tangent(y, v, k=0):
    d[y] = np.diagflat(d[v], k)


# ediff1d(a, to_end, to_begin) = [to_begin, diff(a.ravel()), to_end]; diff's adjoint is
# g_{j-1} - g_j (g_{-1} = g_{n-1} = 0)
@adjoint(np.ediff1d)
def ediff1d_adjoint(y, ary, to_end=None, to_begin=None):
    """the middle of y_bar through diff's adjoint; to_begin and to_end take their ends"""
    _nb = np.size(to_begin) if to_begin is not None else 0
    _all = broadcast_tangent(d[y], y)
    _g = _all[_nb:_nb + np.size(ary) - 1]
    _zero = np.zeros(1, float_dtype(_all))              # float32 y_bar: float32
    d[ary] += reshape_like(-np.diff(np.concatenate((_zero, _g, _zero))), ary)
    d[to_begin] += reshape_like(_all[:_nb], to_begin)
    d[to_end] += reshape_like(_all[_nb + np.size(ary) - 1:], to_end)


@tangent(np.ediff1d)
def ediff1d_tangent(y, ary, to_end=None, to_begin=None):
    d[y] = np.ediff1d(d[ary], to_end=None if to_end is None else d[to_end],
                      to_begin=None if to_begin is None else d[to_begin])


# resize(a, shape) repeats a's flattened elements to fill the shape: each element's adjoint
# sums its copies (y_bar flattened, zero-padded to whole repeats, rows of a's size summed)
@adjoint(np.resize)
def resize_adjoint(y, a, new_shape):
    """a_bar_j = sum of y_bar over the places a_j was copied to"""
    _copies = -(-np.size(y) // np.size(a))
    _g = np.concatenate((np.ravel(broadcast_tangent(d[y], y)),
                         np.zeros(_copies * np.size(a) - np.size(y))))
    d[a] += reshape_like(np.sum(np.reshape(_g, (_copies, np.size(a))), axis=0), a)


@tangent(np.resize)
def resize_tangent(y, a, new_shape):
    d[y] = np.resize(d[a], new_shape)


@adjoint(np.trim_zeros)
def trim_zeros_adjoint(y, filt, trim="fb", axis=None):
    """the adjoint lands on the part kept (runtime_pieces.trimmed_region)"""
    d[filt][trimmed_region(filt, trim, axis)] += d[y]


@tangent(np.trim_zeros)
def trim_zeros_tangent(y, filt, trim="fb", axis=None):
    d[y] = d[filt][trimmed_region(filt, trim, axis)]
