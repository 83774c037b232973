"""Spec rows for the runtime helpers of runtime_pieces.py (the adjoints and tangents of
np.column_stack, np.dstack, np.block, np.insert, np.select, np.choose, np.meshgrid and
np.broadcast_arrays, np.maximum / np.minimum) and of spread_masked, which normalize writes
np.piecewise with (the np.piecewise and np.put_along_axis rows are here), checked as
generated code calls them: g shaped like the primal result, the other arguments as the
primal call had them.
Part of specs_pieces.SPECS.
"""
import numpy as np

from primitive_specs import Spec
from s2s_ad.runtime_flow import take_adjoint
from s2s_ad.runtime_pieces import (broadcast_each, kink_share, masked_values, mesh_tangent,
                                   split_block, split_column_stacked, split_dstacked, where_negated,
                                   spread_masked, unbroadcast_each, unchoose, uninsert, unmesh,
                                   unselect)

BOTH = ("reverse", "forward")
GRIDS_XY = np.meshgrid(np.zeros(4), np.zeros(3))                       # (3, 4) each
GRIDS_SPARSE = np.meshgrid(np.zeros(4), np.zeros(3), indexing="ij", sparse=True)
CONDITIONS = [np.arange(12).reshape(3, 4) % 3 == 0, np.arange(4) % 2 == 0]
INDEX = np.array([[0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]])


def _pieces(parts):
    """A function of the first two pieces, each its own way (a third is left unused)."""
    return np.sum(parts[0] * parts[0]) + np.sum(np.sin(parts[1]) * 3.0)


def use_split_column_stacked(g):
    return _pieces(split_column_stacked(g, [np.zeros(3), np.zeros((3, 2))]))


def use_split_dstacked(g):
    return _pieces(split_dstacked(g, [np.zeros((2, 3)), np.zeros((2, 3, 2))]))


def use_split_dstacked_vectors(g):
    return _pieces(split_dstacked(g, [np.zeros(3), np.zeros(3), np.zeros(3)]))


def use_split_block(g):
    parts = split_block(g, [[np.zeros((1, 2)), np.zeros((1, 3))],
                            [np.zeros((2, 2)), np.zeros((2, 3))]])
    return np.sum(parts[0][1] ** 2) + np.sum(np.sin(parts[1][0])) * 3.0


def use_uninsert_rows(g):
    return _pieces(uninsert(g, np.zeros((3, 4)), 1, np.zeros(4), 0))


def use_uninsert_flat(g):
    return _pieces(uninsert(g, np.zeros(4), [0, 2], 0.0))


def use_unselect(g):
    return _pieces(unselect(g, CONDITIONS, [np.zeros((3, 4)), np.zeros(4)], 0.0))


def use_unselect_default(g):
    parts = unselect(g, CONDITIONS[:1], [0.0], np.zeros((3, 4)))
    return parts[1] ** 2 + parts[0]


def use_unchoose(g):
    return _pieces(unchoose(g, INDEX, [np.zeros((3, 4)), np.zeros(4)]))


def use_unchoose_rows(g):
    return unchoose(g, np.array([0, 1, 1]), np.zeros((2, 3))) ** 2


def use_unmesh(g):
    return _pieces(unmesh([g[0], g[1]], GRIDS_XY, [np.zeros(4), np.zeros(3)]))


def use_unmesh_sparse(g, h):
    return _pieces(unmesh([g, h], GRIDS_SPARSE, [np.zeros(4), np.zeros((3, 1)), None], "ij"))


def use_mesh_tangent(t1, t2):
    grids = mesh_tangent(GRIDS_XY, [t1, t2, 0.0])
    return grids[0] * grids[1]


def use_unbroadcast_each(g1, g2):
    return _pieces(unbroadcast_each([g1, g2], [np.zeros(4), np.zeros((3, 1)), None]))


def use_broadcast_each(t1, t2):
    parts = broadcast_each([t1, t2, 0.0], [np.zeros((3, 4)), np.zeros((3, 4))])
    return parts[0] * parts[1]


# np.maximum's shares: ties (0.0 against 0.0, 1.0 against 1.0) keep half of g each way
TIED_LEFT = np.array([[0.0, -1.0, 1.0, 2.0], [0.5, 1.0, -2.0, 0.0], [3.0, 0.0, 1.0, -1.0]])
TIED_RIGHT = np.array([0.5, 0.0, 1.0, 0.0])


def use_kink_share_relu(g, z):
    return np.sum(kink_share(g, 0.0, z, False) ** 2)


def use_kink_share_first(g, x):
    return kink_share(g, x, 0.25, True) * 3.0


def use_kink_share_ties(g):
    return np.sin(kink_share(g, TIED_LEFT, TIED_RIGHT, True)) \
        + kink_share(g, TIED_LEFT, TIED_RIGHT, False) ** 2


MASK = np.arange(12).reshape(3, 4) % 3 != 1


def use_where_negated(g):
    return np.sum(np.sin(where_negated(g, MASK)) * 2.0)


def use_where_negated_row(g):
    return where_negated(g, MASK) ** 2


SPECS = [
    Spec(where_negated, use_where_negated, [((3, 4),)], modes=BOTH),
    Spec(where_negated, use_where_negated_row, [((4,),), ((),)], modes=BOTH),
    Spec(split_column_stacked, use_split_column_stacked, [((3, 3),)], modes=BOTH),
    Spec(split_dstacked, use_split_dstacked, [((2, 3, 3),)], modes=BOTH),
    Spec(split_dstacked, use_split_dstacked_vectors, [((1, 3, 3),)], modes=BOTH),
    Spec(split_block, use_split_block, [((3, 5),)], modes=BOTH),
    Spec(uninsert, use_uninsert_rows, [((4, 4),)], modes=BOTH),
    Spec(uninsert, use_uninsert_flat, [((6,),)], modes=BOTH),
    Spec(unselect, use_unselect, [((3, 4),)], modes=BOTH),
    Spec(unselect, use_unselect_default, [((3, 4),)], modes=BOTH),
    Spec(unchoose, use_unchoose, [((3, 4),)], modes=BOTH),
    Spec(unchoose, use_unchoose_rows, [((3,),)], modes=BOTH),
    Spec(unmesh, use_unmesh, [((2, 3, 4),)], modes=BOTH),
    Spec(unmesh, use_unmesh_sparse, [((4, 1), (1, 3))], modes=BOTH),
    Spec(mesh_tangent, use_mesh_tangent, [((4,), (3,))], modes=BOTH),
    Spec(unbroadcast_each, use_unbroadcast_each, [((3, 4), (3, 4))], modes=BOTH),
    Spec(broadcast_each, use_broadcast_each, [((4,), (3, 1))], modes=BOTH),
    Spec(kink_share, use_kink_share_relu, [((), ()), ((5,), (5,)), ((3, 4), (3, 4))],
         modes=BOTH),
    Spec(kink_share, use_kink_share_first, [((3, 4), (3, 4)), ((), (3, 4))], modes=BOTH),
    Spec(kink_share, use_kink_share_ties, [((3, 4),), ((4,),)], modes=BOTH),
]


# ---- np.piecewise, as normalize writes it: spread_masked of each function's values ----------
def cube(v):
    return v ** 3


def piecewise_lambdas(x):
    return np.piecewise(x, [x < 0.0, x >= 0.0], [lambda v: v ** 2, lambda v: np.sin(v) * 2.0])


def piecewise_otherwise(x):
    return np.piecewise(x, [x < -0.5, x > 0.5], [np.sin, 1.5, cube])


def piecewise_single_condition(x, c):
    return np.piecewise(x, x > 0.0, [lambda v: v * c, lambda v: c])


def piecewise_overlapping(x):
    """where both conditions hold the later one wins, as in numpy"""
    return np.piecewise(x, [x > -1.0, x > 0.0], [lambda v: np.exp(v), lambda v: -v])


def use_spread_masked(values):
    return spread_masked(values ** 2, np.array([True, False, True, True]))


def use_spread_masked_one(value):
    return spread_masked(value * 3.0, np.array([[True, False], [False, True]]))


PIECEWISE = {"listed_as": "numpy.piecewise"}      # the coverage table's name for these rows
SPECS += [
    Spec(spread_masked, piecewise_lambdas, [((),), ((5,),), ((3, 4),)], modes=BOTH,
         extra=PIECEWISE),
    Spec(spread_masked, piecewise_otherwise, [((5,),), ((3, 4),)], modes=BOTH,
         extra=PIECEWISE),
    Spec(spread_masked, piecewise_single_condition, [((5,), ()), ((2,), ())], modes=BOTH,
         extra=PIECEWISE),
    Spec(spread_masked, piecewise_overlapping, [((6,),), ((2, 3, 4),)], modes=BOTH,
         extra=PIECEWISE),
    Spec(spread_masked, use_spread_masked, [((3,),)], modes=BOTH),
    Spec(spread_masked, use_spread_masked_one, [((),)], modes=BOTH),
]


def use_masked_values(g):
    return masked_values(g, np.array([[True, False, True], [False, False, True]])) ** 2


SPECS += [Spec(masked_values, use_masked_values, [((2, 3),)], modes=BOTH)]


# ---- np.put_along_axis, as normalize writes it: an index write (take_adjoint's template) -----
def put_along_rows(x, v):
    y = x * 1.0
    np.put_along_axis(y, np.array([[0], [2], [1]]), v ** 2, axis=1)
    return y * x


def put_along_flat(x, v):
    y = np.sin(x)
    np.put_along_axis(y, np.array([3, 0, 3]), v, axis=None)
    return y


PUT = {"listed_as": "numpy.put_along_axis"}
SPECS += [
    Spec(take_adjoint, put_along_rows, [((3, 4), (3, 1)), ((3, 4), ()), ((3, 3), (3, 1))],
         modes=BOTH, extra=PUT),
    Spec(take_adjoint, put_along_flat, [((4,), ()), ((2, 3), (3,))], modes=BOTH, extra=PUT),
]
