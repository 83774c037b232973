"""Spec rows for the functions that gather, cut, join, move and pick array elements
(templates/numpy_rearrange.py, numpy_pieces.py, numpy_select.py, numpy2_arrays.py):
np.take, np.take_along_axis, np.split and its kin, np.moveaxis, np.rollaxis, np.fliplr,
np.flipud, np.rot90, np.column_stack, np.dstack, np.append, np.block, np.row_stack,
np.meshgrid, np.broadcast_arrays, np.atleast_3d, np.insert, np.delete, np.select,
np.choose, np.real, np.imag, np.conjugate, np.degrees, np.radians, np.nan_to_num,
np.cumulative_sum, np.cumulative_prod, np.unstack; `x.tolist()` (runtime_shape.array_tolist,
its items used unequally, some not at all). The runtime helpers' rows are in
specs_runtime_pieces (appended).

A split's pieces are used unequally (one squared, one unused), so every piece's adjoint
and the zero of an unused one are exercised.
"""
import numpy as np

import specs_runtime_pieces
from primitive_specs import POSITIVE, REAL, Spec
from s2s_ad.runtime_shape import array_tolist

BOTH = ("reverse", "forward")
# a nan, infinities and finite values, repeated over any shape (np.nan_to_num's holes)
HOLES = np.array([np.nan, 0.0, np.inf, 0.0, -np.inf, 0.0, 0.0])


def _holes(x):
    return np.resize(HOLES, np.shape(x))


# ---- gathering ---------------------------------------------------------------------------------
def take_flat(x):
    return np.take(x, [0, 2, 2])


def take_axis1(x):
    return np.take(x, np.array([[0, 2], [1, 1]]), axis=1)


def take_clip(x):
    return np.take(x, [5, -1, 0], axis=0, mode="clip")


def take_wrap_last(x):
    return np.take(x, [7, -1, 1], axis=-1, mode="wrap")


def take_along_sorted(x):
    return np.take_along_axis(x, np.argsort(x, axis=-1)[..., :2], axis=-1)


def take_along_rows(x):
    return np.take_along_axis(x, np.array([[2, 0, 1, 1]]), axis=0)


def take_along_flat(x):
    return np.take_along_axis(x, np.array([0, 3, 3, 1]), axis=None)


# ---- splits -------------------------------------------------------------------------------------
def split_halves(x):
    a, b = np.split(x, 2)
    return a * b + a


def split_at(x):
    parts = np.split(x, [1, 3], axis=-1)
    return np.concatenate([parts[2], parts[0] ** 2], axis=-1)


def array_split_three(x):
    parts = np.array_split(x, 3)
    return np.sum(parts[0]) * parts[1] + parts[2] ** 2


def hsplit_halves(x):
    a, b = np.hsplit(x, 2)
    return a * np.sin(b)


def vsplit_first(x):
    a, b = np.vsplit(x, [1])
    return a * b


def dsplit_halves(x):
    a, b = np.dsplit(x, 2)
    return a ** 2 + b


def unstack_rows(x):
    a, b, c = np.unstack(x)
    return a * b + c


def unstack_columns(x):
    parts = np.unstack(x, axis=1)
    return parts[0] * parts[2]


# ---- axes, flips, rotations ---------------------------------------------------------------------
def moveaxis_first_last(x):
    return np.moveaxis(x, 0, -1)


def moveaxis_pair(x):
    return np.moveaxis(x, [0, 1], [-1, 0])


def rollaxis_last(x):
    return np.rollaxis(x, -1)


def rollaxis_to(x):
    return np.rollaxis(x, 0, 2)


def rollaxis_negative_start(x):
    return np.rollaxis(x, 2, -2)


def fliplr_m(x):
    return np.fliplr(x)


def flipud_m(x):
    return np.flipud(x)


def rot90_once(x):
    return np.rot90(x)


def rot90_back(x):
    return np.rot90(x, -1, axes=(1, 2))


def rot90_twice(x):
    return np.rot90(x, k=2)


def atleast_3d_x(x):
    return np.atleast_3d(x)


# ---- joins --------------------------------------------------------------------------------------
def column_stack_pair(a, b):
    return np.column_stack((a, b))


def dstack_pair(a, b):
    return np.dstack([a, b])


def append_flat(a, v):
    return np.append(a, v)


def append_rows(a, v):
    return np.append(a, v, axis=0)


def block_grid(a, b):
    return np.block([[a, b], [b, a]])


def block_row(a, b):
    return np.block([a, b])


def row_stack_pair(a, b):
    return np.row_stack([a, b])       # deprecated in numpy 2 (a DeprecationWarning)


def meshgrid_xy(a, b):
    p, q = np.meshgrid(a, b)
    return p * q + p


def meshgrid_ij(a, b):
    p, q = np.meshgrid(a, b, indexing="ij")
    return p * q ** 2


def meshgrid_sparse(a, b):
    p, q = np.meshgrid(a, b, sparse=True)
    return p * q


def meshgrid_three(a, b, c):
    p, q, r = np.meshgrid(a, b, c, indexing="ij")
    return p * q + r


def broadcast_arrays_pair(a, b):
    p, q = np.broadcast_arrays(a, b)
    return p * 2.0 + q ** 2


# ---- x.tolist(): nested lists of Python floats ------------------------------------------------
def tolist_vector(x):
    v = x.tolist()
    return v[0] * v[-1] + np.sin(v[len(v) // 2]) + np.array(v) ** 2


def tolist_rows(x):
    rows = x.tolist()
    return rows[0][-1] * rows[-1][0] + sum(rows[-1]) ** 2 + np.sum(np.array(rows[0]) * x)


def tolist_nested(x):
    t = x.tolist()
    return t[0][1][2] * t[-1][0][0] + sum(t[-1][-1]) ** 2


# ---- insert and delete --------------------------------------------------------------------------
def insert_row(x, v):
    return np.insert(x, 1, v, axis=0)


def insert_flat(x, v):
    return np.insert(x, [0, 2, 2], v)


def insert_slice(x, v):
    return np.insert(x, slice(0, 2), v, axis=1)


def delete_flat(x):
    return np.delete(x, [0, 2])


def delete_row(x):
    return np.delete(x, 1, axis=0)


def delete_every_other(x):
    return np.delete(x, slice(None, None, 2), axis=-1)


def delete_mask(x):
    return np.delete(x, np.array([True, False, True, False]), axis=1)


# ---- picking ------------------------------------------------------------------------------------
def select_two(x, y):
    return np.select([x > 0.5, x < -0.5], [x * y, y ** 2], default=x)


def select_no_default(x):
    return np.select([x > 0.0], [x ** 2])


def select_default_arg(x, v):
    return np.select([x > 0.3], [x], v)


def choose_pair(x, y):
    return np.choose(np.array([[0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]]), [x, y])


def choose_wrap(x):
    return np.choose(np.array([0, 3, 1, 2]), [x, 2.0 * x, x ** 2], mode="wrap")


def choose_rows(x):
    return np.choose(np.array([0, 1, 1]), x)


# ---- parts of a number, angles, replacements -----------------------------------------------
def real_part(x):
    return np.real(x)


def imag_part(x):
    return np.imag(x) + x


def conjugate_x(x):
    return np.conjugate(x)


def conj_x(x):
    return np.conj(x) * x


def degrees_x(x):
    return np.degrees(x)


def radians_x(x):
    return np.radians(x)


def nan_to_num_plain(x):
    return np.nan_to_num(x)


def nan_to_num_holes(x):
    return np.nan_to_num(x + _holes(x), posinf=5.0, neginf=-5.0)


def nan_to_num_values(x, v):
    return np.nan_to_num(x + _holes(x), nan=v, posinf=2.0 * v, neginf=v ** 2)


# ---- numpy 2 scans ------------------------------------------------------------------------------
def cumulative_sum_flat(x):
    return np.cumulative_sum(x)


def cumulative_sum_rows(x):
    return np.cumulative_sum(x, axis=0)


def cumulative_sum_initial(x):
    return np.cumulative_sum(x, axis=-1, include_initial=True)


def cumulative_prod_flat(x):
    return np.cumulative_prod(x)


def cumulative_prod_initial(x):
    return np.cumulative_prod(x, axis=-1, include_initial=True)


ARRAYS = [((4,),), ((3, 4),), ((2, 3, 4),)]
MATRICES = [((3, 4),), ((2, 3, 4),)]
UNARY = [((),), ((4,),), ((3, 4),), ((2, 3, 4),)]

SPECS = [
    Spec(np.take, take_flat, ARRAYS, modes=BOTH),
    Spec(np.take, take_axis1, MATRICES, modes=BOTH),
    Spec(np.take, take_clip, [((4,),), ((3, 4),)], modes=BOTH),
    Spec(np.take, take_wrap_last, ARRAYS, modes=BOTH),
    Spec(np.take_along_axis, take_along_sorted, ARRAYS, modes=BOTH),
    Spec(np.take_along_axis, take_along_rows, [((3, 4),)], modes=BOTH),
    Spec(np.take_along_axis, take_along_flat, [((4,),), ((3, 4),)], modes=BOTH),
    Spec(np.split, split_halves, [((4,),), ((4, 3),), ((2, 3, 4),)], modes=BOTH),
    Spec(np.split, split_at, ARRAYS, modes=BOTH),
    Spec(np.array_split, array_split_three, [((4,),), ((5, 3),), ((3, 2),)], modes=BOTH),
    Spec(np.hsplit, hsplit_halves, [((4,),), ((3, 4),), ((2, 4, 3),)], modes=BOTH),
    Spec(np.vsplit, vsplit_first, [((3, 4),), ((3, 2, 2),)], modes=BOTH),
    Spec(np.dsplit, dsplit_halves, [((2, 3, 4),)], modes=BOTH),
    Spec(np.moveaxis, moveaxis_first_last, [((3, 4),), ((2, 3, 4),)], modes=BOTH),
    Spec(np.moveaxis, moveaxis_pair, [((2, 3, 4),)], modes=BOTH),
    Spec(np.rollaxis, rollaxis_last, [((3, 4),), ((2, 3, 4),)], modes=BOTH),
    Spec(np.rollaxis, rollaxis_to, [((3, 4),), ((2, 3, 4),)], modes=BOTH),
    Spec(np.rollaxis, rollaxis_negative_start, [((2, 3, 4),), ((2, 3, 4, 5),)], modes=BOTH),
    Spec(np.fliplr, fliplr_m, MATRICES, modes=BOTH),
    Spec(np.flipud, flipud_m, ARRAYS, modes=BOTH),
    Spec(np.rot90, rot90_once, MATRICES + [((4, 4),)], modes=BOTH),
    Spec(np.rot90, rot90_back, [((2, 3, 4),)], modes=BOTH),
    Spec(np.rot90, rot90_twice, MATRICES, modes=BOTH),
    Spec(np.atleast_3d, atleast_3d_x, UNARY, modes=BOTH),
    Spec(np.column_stack, column_stack_pair, [((4,), (4,)), ((3, 2), (3,)), ((), ())],
         modes=BOTH),
    Spec(np.dstack, dstack_pair, [((3, 4), (3, 4)), ((4,), (4,)), ((2, 3, 1), (2, 3, 2)),
                                  ((), ())], modes=BOTH),
    Spec(np.append, append_flat, [((3, 4), (2,)), ((4,), ()), ((), ())], modes=BOTH),
    Spec(np.append, append_rows, [((3, 4), (1, 4)), ((2, 3), (2, 3))], modes=BOTH),
    Spec(np.block, block_grid, [((2, 2), (2, 2)), ((3,), (3,)), ((2, 1, 2), (2, 1, 2))],
         modes=BOTH),
    Spec(np.block, block_row, [((3,), (2,)), ((2, 3), (2, 1)), ((), (4,))], modes=BOTH),
    Spec(np.meshgrid, meshgrid_xy, [((3,), (4,)), ((2, 2), (3,)), ((), (3,))], modes=BOTH),
    Spec(np.meshgrid, meshgrid_ij, [((3,), (4,)), ((4,), ())], modes=BOTH),
    Spec(np.meshgrid, meshgrid_sparse, [((3,), (4,))], modes=BOTH),
    Spec(np.meshgrid, meshgrid_three, [((2,), (3,), (4,))], modes=BOTH),
    Spec(np.broadcast_arrays, broadcast_arrays_pair,
         [((), ()), ((4,), (4,)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((), (3, 4)),
          ((2, 3, 4), (3, 1))], modes=BOTH),
    Spec(np.insert, insert_row, [((3, 4), ()), ((3, 4), (4,)), ((4,), ())], modes=BOTH),
    Spec(np.insert, insert_flat, [((3, 4), ()), ((3, 4), (3,)), ((4,), (3,))], modes=BOTH),
    Spec(np.insert, insert_slice, [((3, 4), (3, 1)), ((3, 4), ())], modes=BOTH),
    Spec(np.insert, insert_row, [((3, 4), ())], wrt=(0,), modes=BOTH),
    Spec(array_tolist, tolist_vector, [((4,),), ((1,),), ((3,),)], modes=BOTH),
    Spec(array_tolist, tolist_rows, [((3, 4),), ((2, 2),), ((2, 1),)], modes=BOTH),
    Spec(array_tolist, tolist_nested, [((2, 3, 4),), ((2, 2, 3),)], modes=BOTH),
    Spec(np.delete, delete_flat, [((4,),), ((3, 4),)], modes=BOTH),
    Spec(np.delete, delete_row, [((3, 4),), ((3, 2, 2),)], modes=BOTH),
    Spec(np.delete, delete_every_other, [((4,),), ((3, 4),)], modes=BOTH),
    Spec(np.delete, delete_mask, [((3, 4),)], modes=BOTH),
    Spec(np.select, select_two, [((4,), (4,)), ((3, 4), (4,)), ((), ()), ((3, 1), (1, 4))],
         modes=BOTH),
    Spec(np.select, select_no_default, UNARY, modes=BOTH),
    Spec(np.select, select_default_arg, [((3, 4), ()), ((3, 4), (4,))], modes=BOTH),
    Spec(np.choose, choose_pair, [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 4), ())],
         modes=BOTH),
    Spec(np.choose, choose_wrap, [((4,),), ((3, 4),)], modes=BOTH),
    Spec(np.choose, choose_rows, [((2, 3),), ((2, 4, 3),)], modes=BOTH),
    Spec(np.real, real_part, UNARY, modes=BOTH),
    Spec(np.imag, imag_part, UNARY, modes=BOTH),
    Spec(np.conjugate, conjugate_x, UNARY, modes=BOTH),
    Spec(np.conjugate, conj_x, UNARY, modes=BOTH),
    Spec(np.degrees, degrees_x, UNARY, modes=BOTH),
    Spec(np.radians, radians_x, UNARY, modes=BOTH),
    Spec(np.nan_to_num, nan_to_num_plain, UNARY, modes=BOTH),
    Spec(np.nan_to_num, nan_to_num_holes, [((7,),), ((3, 4),), ((2, 3, 4),)], modes=BOTH),
    Spec(np.nan_to_num, nan_to_num_values, [((7,), ()), ((3, 4), ())], (REAL, POSITIVE),
         modes=BOTH),
]
if hasattr(np, "row_stack"):
    SPECS += [Spec(np.row_stack, row_stack_pair, [((4,), (4,)), ((2, 3), (1, 3))], modes=BOTH)]
if hasattr(np, "cumulative_sum") and hasattr(np, "unstack"):
    SPECS += [
        Spec(np.cumulative_sum, cumulative_sum_flat, [((4,),)], modes=BOTH),
        Spec(np.cumulative_sum, cumulative_sum_rows, [((3, 4),), ((2, 3, 4),)], modes=BOTH),
        Spec(np.cumulative_sum, cumulative_sum_initial, ARRAYS, modes=BOTH),
        Spec(np.cumulative_prod, cumulative_prod_flat, [((4,),)], modes=BOTH),
        Spec(np.cumulative_prod, cumulative_prod_initial, ARRAYS, modes=BOTH),
        Spec(np.unstack, unstack_rows, [((3,),), ((3, 4),)], modes=BOTH),
        Spec(np.unstack, unstack_columns, [((2, 3),), ((4, 3, 2),)], modes=BOTH),
    ]
SPECS += specs_runtime_pieces.SPECS
