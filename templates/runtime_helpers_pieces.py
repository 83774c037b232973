"""Reverse and forward templates of the helpers in runtime_pieces.py (the adjoints and
tangents of np.column_stack, np.dstack, np.block, np.insert, np.select, np.choose,
np.meshgrid, np.broadcast_arrays and np.maximum / np.minimum), so those derivatives can be
differentiated again, and those of spread_masked, which np.piecewise is written with
(transforms/calls.py).

Every helper is linear in its first argument, which is all its value depends on
differentiably (the others give shapes, positions and conditions): its tangent is the
helper applied to that argument's tangent, its adjoint the transposed map, which is the
numpy function whose adjoint the helper is (or the helper it is paired with). A list's
adjoint may hold 0.0 for items: match_adjoint(d[out], out) fills them in. The result
parameter is called `out`.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, nondifferentiable, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_flow import match_adjoint
from s2s_ad.runtime_pieces import (along_axis_index, broadcast_each, diagonal_index,
                                   kink_share, masked_values, running_source, where_negated,
                                   mesh_tangent, piecewise_masks, split_block,
                                   split_column_stacked, split_dstacked, spread_masked,
                                   unbroadcast_each, unchoose, uninsert, unmesh, unselect)

nondifferentiable(piecewise_masks, along_axis_index, diagonal_index,
                  running_source)                   # booleans, indices


@adjoint(split_column_stacked)
def split_column_stacked_adjoint(out, g, tup):
    """out = g cut into columns: column_stack the pieces' adjoints"""
    d[g] += np.column_stack(match_adjoint(d[out], out))


@tangent(split_column_stacked)
def split_column_stacked_tangent(out, g, tup):
    """linear in g"""
    d[out] = split_column_stacked(d[g], tup)


@adjoint(split_dstacked)
def split_dstacked_adjoint(out, g, tup):
    """out = g cut along axis 2: dstack the pieces' adjoints"""
    d[g] += np.reshape(np.dstack(match_adjoint(d[out], out)), np.shape(g))


@tangent(split_dstacked)
def split_dstacked_tangent(out, g, tup):
    """linear in g"""
    d[out] = split_dstacked(d[g], tup)


@adjoint(split_block)
def split_block_adjoint(out, g, arrays):
    """out = g cut into blocks: np.block of the blocks' adjoints"""
    d[g] += np.reshape(np.block(match_adjoint(d[out], out)), np.shape(g))


@tangent(split_block)
def split_block_tangent(out, g, arrays):
    """linear in g"""
    d[out] = split_block(d[g], arrays)


@adjoint(uninsert)
def uninsert_adjoint(out, g, arr, obj, values, axis=None):
    """out = g gathered back to arr and values: np.insert puts their adjoints back"""
    _parts = match_adjoint(d[out], out)
    d[g] += np.insert(_parts[0], obj, _parts[1], axis)


@tangent(uninsert)
def uninsert_tangent(out, g, arr, obj, values, axis=None):
    """linear in g"""
    d[out] = uninsert(d[g], arr, obj, values, axis)


@adjoint(unselect)
def unselect_adjoint(out, g, condlist, choicelist, default=0):
    """out = each choice's share of g: np.select of the shares' adjoints"""
    _parts = match_adjoint(d[out], out)
    d[g] += np.select(condlist, _parts[:-1], _parts[-1])


@tangent(unselect)
def unselect_tangent(out, g, condlist, choicelist, default=0):
    """linear in g"""
    d[out] = unselect(d[g], condlist, choicelist, default)


@adjoint(unchoose)
def unchoose_adjoint(out, g, a, choices, mode="raise"):
    """out = each choice's share of g: np.choose of the shares' adjoints"""
    d[g] += np.choose(a, match_adjoint(d[out], out), mode=mode)


@tangent(unchoose)
def unchoose_tangent(out, g, a, choices, mode="raise"):
    """linear in g"""
    d[out] = unchoose(d[g], a, choices, mode)


@adjoint(unmesh)
def unmesh_adjoint(out, g, grids, xs, indexing="xy"):
    """out = the grids' adjoints summed to the inputs: lay them out again"""
    d[g] += mesh_tangent(grids, match_adjoint(d[out], out), indexing)


@tangent(unmesh)
def unmesh_tangent(out, g, grids, xs, indexing="xy"):
    """linear in g"""
    d[out] = unmesh(d[g], grids, xs, indexing)


@adjoint(mesh_tangent)
def mesh_tangent_adjoint(out, grids, ts, indexing="xy"):
    """out = the tangents laid out on the grids: sum them back"""
    d[ts] += unmesh(d[out], grids, ts, indexing)


@tangent(mesh_tangent)
def mesh_tangent_tangent(out, grids, ts, indexing="xy"):
    """linear in ts"""
    d[out] = mesh_tangent(grids, d[ts], indexing)


@adjoint(unbroadcast_each)
def unbroadcast_each_adjoint(out, gs, xs):
    """out = each g summed to its x: broadcast the adjoints back to the g's shapes"""
    d[gs] += broadcast_each(match_adjoint(d[out], out), gs)


@tangent(unbroadcast_each)
def unbroadcast_each_tangent(out, gs, xs):
    """linear in gs"""
    d[out] = unbroadcast_each(d[gs], xs)


@adjoint(broadcast_each)
def broadcast_each_adjoint(out, ts, ys):
    """out = each t broadcast to its y: sum the adjoints back to the t's shapes"""
    d[ts] += unbroadcast_each(d[out], ts)


@tangent(broadcast_each)
def broadcast_each_tangent(out, ts, ys):
    """linear in ts"""
    d[out] = broadcast_each(d[ts], ys)


@adjoint(spread_masked)
def spread_masked_adjoint(out, values, mask):
    """out = values placed where mask holds: values_bar = out_bar there (summed when one
    value filled every place)"""
    _values = values
    d[values] += unbroadcast(masked_values(d[out], mask), _values)


@tangent(spread_masked)
def spread_masked_tangent(out, values, mask):
    """linear in values"""
    d[out] = spread_masked(d[values], mask)


@adjoint(masked_values)
def masked_values_adjoint(out, g, mask):
    """out = g where mask holds: g_bar = out_bar spread back (zeros elsewhere)"""
    _g = g
    d[g] += unbroadcast(spread_masked(d[out], mask), _g)


@tangent(masked_values)
def masked_values_tangent(out, g, mask):
    """linear in g"""
    d[out] = masked_values(d[g], mask)


# the mask kink_share multiplies g by is piecewise constant in x1 and x2
@adjoint(kink_share)
def kink_share_adjoint(out, g, x1, x2, first):
    """out = g m(x1, x2), m in {0, 1/2, 1}: g_bar = out_bar m summed back to g's shape"""
    d[g] += unbroadcast(kink_share(d[out], x1, x2, first), g)


@tangent(kink_share)
def kink_share_tangent(out, g, x1, x2, first):
    """linear in g"""
    d[out] = kink_share(d[g], x1, x2, first)


# where_negated(g, c) = g s, s = +-1 by c: its own transpose
@adjoint(where_negated)
def where_negated_adjoint(out, g, c):
    """out = g s, s in {1, -1}: g_bar = out_bar s summed back to g's shape"""
    d[g] += unbroadcast(where_negated(d[out], c), g)


@tangent(where_negated)
def where_negated_tangent(out, g, c):
    """linear in g"""
    d[out] = where_negated(d[g], c)
