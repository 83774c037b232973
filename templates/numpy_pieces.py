"""Cutting an array into pieces and joining pieces: np.split, np.array_split, np.hsplit,
np.vsplit, np.dsplit; np.column_stack, np.dstack, np.append, np.block, np.row_stack;
np.insert and np.delete; `x.tolist()` (runtime_shape.array_tolist), an array cut into
nested lists of numbers.

A split's result is a list of arrays, its adjoint a list of their adjoints (0.0 for a
piece the loss does not use: match_adjoint fills those with zeros) joined back the way
the split cut them; a join's adjoint is cut back into the pieces (runtime_pieces.py).
np.delete and np.insert move elements: the elements' flat positions, put through the
same call, say where each adjoint goes.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_shape import array_tolist, split_concatenated
from s2s_ad.runtime_flow import match_adjoint
from s2s_ad.runtime_pieces import split_block, split_column_stacked, split_dstacked, uninsert


# ---- splits -----------------------------------------------------------------------------------
@adjoint(np.split, np.array_split)
def split_adjoint(y, ary, indices_or_sections, axis=0):
    """d split(a) = split(da): the pieces' adjoints concatenated back"""
    d[ary] += np.concatenate(match_adjoint(d[y], y), axis)


@tangent(np.split)
def split_tangent(y, ary, indices_or_sections, axis=0):
    """split is linear: one tangent per piece"""
    d[y] = np.split(d[ary], indices_or_sections, axis)


@tangent(np.array_split)
def array_split_tangent(y, ary, indices_or_sections, axis=0):
    """array_split is linear: one tangent per piece"""
    d[y] = np.array_split(d[ary], indices_or_sections, axis)


@adjoint(np.hsplit)
def hsplit_adjoint(y, ary, indices_or_sections):
    """hsplit cuts along axis 1 (0 for a vector), as np.hstack joins"""
    d[ary] += np.hstack(match_adjoint(d[y], y))


@tangent(np.hsplit)
def hsplit_tangent(y, ary, indices_or_sections):
    """hsplit is linear"""
    d[y] = np.hsplit(d[ary], indices_or_sections)


@adjoint(np.vsplit)
def vsplit_adjoint(y, ary, indices_or_sections):
    """vsplit cuts along axis 0, as np.vstack joins"""
    d[ary] += np.vstack(match_adjoint(d[y], y))


@tangent(np.vsplit)
def vsplit_tangent(y, ary, indices_or_sections):
    """vsplit is linear"""
    d[y] = np.vsplit(d[ary], indices_or_sections)


@adjoint(np.dsplit)
def dsplit_adjoint(y, ary, indices_or_sections):
    """dsplit cuts along axis 2, as np.dstack joins"""
    d[ary] += np.dstack(match_adjoint(d[y], y))


@tangent(np.dsplit)
def dsplit_tangent(y, ary, indices_or_sections):
    """dsplit is linear"""
    d[y] = np.dsplit(d[ary], indices_or_sections)


# ---- joins ------------------------------------------------------------------------------------
@adjoint(np.column_stack)
def column_stack_adjoint(y, tup):
    """d column_stack(arrays) = column_stack(d arrays): cut the adjoint back"""
    d[tup] += split_column_stacked(d[y], tup)


@tangent(np.column_stack)
def column_stack_tangent(y, tup):
    """column_stack is linear"""
    d[y] = np.column_stack(d[tup])


@adjoint(np.dstack)
def dstack_adjoint(y, tup):
    """d dstack(arrays) = dstack(d arrays): cut the adjoint back along axis 2"""
    d[tup] += split_dstacked(d[y], tup)


@tangent(np.dstack)
def dstack_tangent(y, tup):
    """dstack is linear"""
    d[y] = np.dstack(d[tup])


# append(arr, values) = concatenate((arr, values), axis), both flattened for axis=None
@adjoint(np.append)
def append_adjoint(y, arr, values, axis=None):
    """the adjoint cut where arr ends"""
    _parts = split_concatenated(d[y], [arr, values], axis)
    d[arr] += _parts[0]
    d[values] += _parts[1]


@tangent(np.append)
def append_tangent(y, arr, values, axis=None):
    """append is linear in arr and values together"""
    d[y] = np.append(d[arr], d[values], axis)


@adjoint(np.block)
def block_adjoint(y, arrays):
    """d block(arrays) = block(d arrays): cut the adjoint back into the nested blocks"""
    d[arrays] += split_block(d[y], arrays)


@tangent(np.block)
def block_tangent(y, arrays):
    """block is linear"""
    d[y] = np.block(d[arrays])


# ---- insert and delete ------------------------------------------------------------------------
@adjoint(np.insert)
def insert_adjoint(y, arr, obj, values, axis=None):
    """arr_bar: the adjoint where arr's elements went; values_bar: where values went,
    summed over the places one value was broadcast to"""
    _parts = uninsert(d[y], arr, obj, values, axis)
    d[arr] += _parts[0]
    d[values] += _parts[1]


@tangent(np.insert)
def insert_tangent(y, arr, obj, values, axis=None):
    """insert is linear in arr and values together"""
    d[y] = np.insert(d[arr], obj, d[values], axis)


# delete(arr, obj, axis) = arr[index], index: the kept elements' positions in arr
@adjoint(np.delete)
def delete_adjoint(y, arr, obj, axis=None):
    """the adjoint goes back to the kept elements; the deleted ones get none"""
    _kept = np.delete(np.reshape(np.arange(np.size(arr)), np.shape(arr)), obj, axis)
    d[arr][np.unravel_index(_kept, np.shape(arr))] += d[y]


@tangent(np.delete)
def delete_tangent(y, arr, obj, axis=None):
    """delete is linear"""
    d[y] = np.delete(d[arr], obj, axis)


# ---- x.tolist() -------------------------------------------------------------------------------
@adjoint(array_tolist)
def tolist_adjoint(y, x):
    """y = x.tolist(), x's items as nested lists: x's adjoint is y's laid out as x (an
    item the loss does not use: the 0.0 match_adjoint fills with zeros)"""
    d[x] += match_adjoint(d[y], x)


@tangent(array_tolist)
def tolist_tangent(y, x):
    """tolist is linear: the tangent's items as nested lists"""
    d[y] = array_tolist(d[x])
