"""Spec rows for indexing, reductions and shape manipulation (linear algebra rows live in
specs_linalg, those of cumprod and the rearranging functions in specs_rearrange; both are
appended). Each fn bakes one combination of options (axis, keepdims, ddof, ...) into a call.
"""
import operator

import numpy as np

import specs_linalg
import specs_rearrange
from primitive_specs import Spec
from s2s_ad.runtime_shape import outer_operand


def get_item(x):
    return x[1]


def get_slice(x):
    return x[1:3]


def get_column(x):
    return x[:, 0]


def get_element(x):
    return x[1, 2]


def get_every_other(x):
    return x[::2]


def get_ellipsis(x):
    return x[..., 0]


def get_last(x):
    return x[-1]


def get_int_array(x):
    return x[np.array([0, 2, 0, 3])]


def get_mask(x):
    return x[x > 0.0]


def get_pair_index(x, i, j):
    return x[i, j]


# ---- reductions -------------------------------------------------------------------------
def sum_all(x):
    return np.sum(x)


def sum_axis0(x):
    return np.sum(x, axis=0)


def sum_last_keepdims(x):
    return np.sum(x, axis=-1, keepdims=True)


def sum_axes02(x):
    return np.sum(x, axis=(0, 2))


def sum_all_keepdims(x):
    return np.sum(x, keepdims=True)


def mean_all(x):
    return np.mean(x)


def mean_axis1(x):
    return np.mean(x, axis=1)


def mean_axes_keepdims(x):
    return np.mean(x, axis=(0, -1), keepdims=True)


def average_all(x):
    return np.average(x)


def average_axis0(x):
    return np.average(x, axis=0)


def prod_all(x):
    return np.prod(x)


def prod_axis_last(x):
    return np.prod(x, axis=-1)


def prod_axes_keepdims(x):
    return np.prod(x, axis=(0, 2), keepdims=True)


def max_all(x):
    return np.max(x)


def max_axis0(x):
    return np.max(x, axis=0)


def amax_last_keepdims(x):
    return np.amax(x, axis=-1, keepdims=True)


def min_axes(x):
    return np.min(x, axis=(0, 2))


def amin_all(x):
    return np.amin(x)


def cumsum_flat(x):
    return np.cumsum(x)


def cumsum_axis0(x):
    return np.cumsum(x, axis=0)


def cumsum_axis_last(x):
    return np.cumsum(x, axis=-1)


def running_max_axis0(x):
    return np.maximum.accumulate(x)


def running_max_axis_last(x):
    return np.maximum.accumulate(x, axis=-1) * x


def running_min_axis1(x):
    return np.minimum.accumulate(x, 1)


def var_all(x):
    return np.var(x)


def var_axis0_ddof1(x):
    return np.var(x, axis=0, ddof=1)


def var_axes_keepdims(x):
    return np.var(x, axis=(1, 2), keepdims=True)


def std_all(x):
    return np.std(x)


def std_last_ddof1(x):
    return np.std(x, axis=-1, ddof=1)


def std_axis0_keepdims(x):
    return np.std(x, axis=0, keepdims=True)


def norm_all(x):
    return np.linalg.norm(x)


def norm_axis_last(x):
    return np.linalg.norm(x, axis=-1)


def norm_axis0_keepdims(x):
    return np.linalg.norm(x, axis=0, keepdims=True)


def norm_ord3(x):
    return np.linalg.norm(x, ord=3, axis=-1)


def norm_ord1(x):
    return np.linalg.norm(x, 1)


def norm_inf(x):
    return np.linalg.norm(x, ord=np.inf, axis=0)


# ---- shape manipulation ------------------------------------------------------------------
def transpose_all(x):
    return np.transpose(x)


def transpose_axes(x):
    return np.transpose(x, (1, 2, 0))


def transpose_negative_axes(x):
    return np.transpose(x, (-1, 0, 1))


def swapaxes_first_last(x):
    return np.swapaxes(x, 0, -1)


def outer_operand_of(a, b):
    return outer_operand(a, b) * 2.0


def subtract_outer(a, b):
    """normalize writes np.F.outer(a, b) as np.F(outer_operand(a, b), b)"""
    return np.subtract.outer(a, b)


def multiply_outer(a, b):
    return np.multiply.outer(a, b)


def add_reduce(x):
    """a ufunc's reduce is the numpy reduction over axis 0 (its default)"""
    return np.add.reduce(x)


def multiply_reduce_last(x):
    return np.multiply.reduce(x, -1)


def maximum_reduce(x):
    return np.maximum.reduce(x, axis=None)


def add_accumulate(x):
    return np.add.accumulate(x)


def multiply_accumulate_last(x):
    return np.multiply.accumulate(x, axis=-1)


def reshape_flat(x):
    return np.reshape(x, (-1,))


def reshape_rows(x):
    return np.reshape(x, (2, -1))


def reshape_fortran(x):
    return np.reshape(x, (4, 3), order="F")


def ravel_c(x):
    return np.ravel(x)


def ravel_f(x):
    return np.ravel(x, order="F")


def squeeze_all(x):
    return np.squeeze(x)


def squeeze_axis1(x):
    return np.squeeze(x, axis=1)


def expand_dims_first(x):
    return np.expand_dims(x, 0)


def expand_dims_axes(x):
    return np.expand_dims(x, axis=(0, -1))


def atleast_1d_of(x):
    return np.atleast_1d(x)


def atleast_2d_of(x):
    return np.atleast_2d(x)


def concatenate_rows(a, b):
    return np.concatenate((a, b))


def concatenate_last(a, b):
    return np.concatenate([a, b], axis=-1)


def concatenate_flat(a, b):
    return np.concatenate((a, b), axis=None)


def concatenate_three(a, b, c):
    return np.concatenate((a, b, c), axis=1)


def stack_first(a, b):
    return np.stack((a, b))


def stack_last(a, b):
    return np.stack([a, b], axis=-1)


def hstack_pair(a, b):
    return np.hstack((a, b))


def vstack_pair(a, b):
    return np.vstack((a, b))


def array_copy(x):
    return np.array(x)


def array_of_list(a, b):
    return np.array([a, b])


def asarray_of(x):
    return np.asarray(x)


def asarray_of_tuple(a, b, c):
    return np.asarray((a, b, c))


def astype_float(x):
    return x.astype(float)


def copy_of(x):
    return np.copy(x)


def broadcast_to_rows(x):
    return np.broadcast_to(x, (3, 4))


def broadcast_to_3d(x):
    return np.broadcast_to(x, (2, 3, 4))


def tile_twice(x):
    return np.tile(x, 2)


def tile_grid(x):
    return np.tile(x, (2, 1, 3))


def repeat_flat(x):
    return np.repeat(x, 2)


def repeat_axis1(x):
    return np.repeat(x, 3, axis=1)


def repeat_counts(x):
    return np.repeat(x, [1, 0, 3, 2], axis=0)


def flip_all(x):
    return np.flip(x)


def flip_axis0(x):
    return np.flip(x, 0)


def flip_axes(x):
    return np.flip(x, axis=(0, 2))


def diagonal_main(x):
    return np.diagonal(x)


def diagonal_above(x):
    return np.diagonal(x, 1)


def diagonal_below_last_axes(x):
    return np.diagonal(x, offset=-1, axis1=2, axis2=1)


REDUCE = [((),), ((4,),), ((3, 4),), ((2, 3, 4),)]
ARRAYS = [((4,),), ((3, 4),), ((2, 3, 4),)]
ROWS = [((3, 4),), ((2, 3, 4),)]
CUBE = [((2, 3, 4),)]
PAIRS = [((4,), (4,)), ((3, 4), (3, 4)), ((), ())]
SQUARE = [((4, 4),), ((3, 5),), ((2, 3, 4),)]

SPECS = [
    Spec(operator.getitem, get_item, [((4,),), ((4, 3),)]),
    Spec(operator.getitem, get_slice, [((4,),), ((4, 3),)]),
    Spec(operator.getitem, get_column, [((4, 3),)]),
    Spec(operator.getitem, get_element, [((4, 3),)]),
    Spec(operator.getitem, get_every_other, [((5,),), ((5, 2),)]),
    Spec(operator.getitem, get_ellipsis, [((4, 3),), ((2, 4, 3),)]),
    Spec(operator.getitem, get_last, [((4,),), ((4, 3),)]),
    Spec(operator.getitem, get_int_array, [((4,),), ((5, 2),)]),
    Spec(operator.getitem, get_mask, [((6,),), ((3, 4),)]),
    # reductions
    Spec(np.sum, sum_all, REDUCE),
    Spec(np.sum, sum_axis0, ARRAYS),
    Spec(np.sum, sum_last_keepdims, ARRAYS),
    Spec(np.sum, sum_axes02, CUBE),
    Spec(np.sum, sum_all_keepdims, REDUCE),
    Spec(np.mean, mean_all, REDUCE),
    Spec(np.mean, mean_axis1, ROWS),
    Spec(np.mean, mean_axes_keepdims, ROWS),
    Spec(np.average, average_all, REDUCE),
    Spec(np.average, average_axis0, ARRAYS),
    Spec(np.prod, prod_all, REDUCE),
    Spec(np.prod, prod_axis_last, ARRAYS),
    Spec(np.prod, prod_axes_keepdims, CUBE),
    Spec(np.max, max_all, REDUCE),
    Spec(np.max, max_axis0, ARRAYS),
    Spec(np.amax, amax_last_keepdims, ARRAYS),
    Spec(np.min, min_axes, CUBE),
    Spec(np.amin, amin_all, REDUCE),
    Spec(np.cumsum, cumsum_flat, REDUCE),
    Spec(np.cumsum, cumsum_axis0, ARRAYS),
    Spec(np.cumsum, cumsum_axis_last, ROWS),
    Spec(np.maximum.accumulate, running_max_axis0, ARRAYS, modes=("reverse", "forward")),
    Spec(np.maximum.accumulate, running_max_axis_last, ARRAYS, modes=("reverse", "forward")),
    Spec(np.minimum.accumulate, running_min_axis1, ARRAYS[1:], modes=("reverse", "forward")),
    Spec(np.var, var_all, ARRAYS),
    Spec(np.var, var_axis0_ddof1, ARRAYS),
    Spec(np.var, var_axes_keepdims, CUBE),
    Spec(np.std, std_all, ARRAYS),
    Spec(np.std, std_last_ddof1, ARRAYS),
    Spec(np.std, std_axis0_keepdims, ROWS),
    Spec(np.linalg.norm, norm_all, ARRAYS[:2]),
    Spec(np.linalg.norm, norm_axis_last, ARRAYS),
    Spec(np.linalg.norm, norm_axis0_keepdims, ROWS),
    Spec(np.linalg.norm, norm_ord3, ARRAYS),
    Spec(np.linalg.norm, norm_ord1, [((4,),)]),
    Spec(np.linalg.norm, norm_inf, ARRAYS),
    # shape manipulation
    Spec(np.transpose, transpose_all, [((4,),), ((3, 4),), ((2, 3, 4),)]),
    Spec(np.transpose, transpose_axes, CUBE),
    Spec(np.transpose, transpose_negative_axes, CUBE),
    Spec(np.swapaxes, swapaxes_first_last, ROWS),
    Spec(np.reshape, reshape_flat, REDUCE),
    Spec(outer_operand, outer_operand_of, [((3,), (4,)), ((2, 3), (4,)), ((), (2, 3))],
         wrt=(0,), modes=("reverse", "forward")),
    Spec(np.subtract, subtract_outer, [((3,), (4,)), ((2, 3), (4,)), ((3,), ())],
         modes=("reverse", "forward")),
    Spec(np.multiply, multiply_outer, [((3,), (2, 2))], modes=("reverse", "forward")),
    Spec(np.sum, add_reduce, [((4,),), ((3, 4),)], modes=("reverse", "forward")),
    Spec(np.prod, multiply_reduce_last, [((3, 4),)], modes=("reverse", "forward")),
    Spec(np.max, maximum_reduce, [((3, 4),)], modes=("reverse", "forward")),
    Spec(np.cumsum, add_accumulate, [((4,),), ((3, 4),)], modes=("reverse", "forward")),
    Spec(np.cumprod, multiply_accumulate_last, [((3, 4),)], modes=("reverse", "forward")),
    Spec(np.reshape, reshape_rows, [((6,),), ((3, 4),), ((2, 3, 4),)]),
    Spec(np.reshape, reshape_fortran, [((3, 4),), ((12,),), ((2, 6),)]),
    Spec(np.ravel, ravel_c, REDUCE),
    Spec(np.ravel, ravel_f, ROWS),
    Spec(np.squeeze, squeeze_all, [((1, 4),), ((3, 1, 4, 1),)]),
    Spec(np.squeeze, squeeze_axis1, [((3, 1),), ((3, 1, 4),)]),
    Spec(np.expand_dims, expand_dims_first, REDUCE),
    Spec(np.expand_dims, expand_dims_axes, REDUCE),
    Spec(np.atleast_1d, atleast_1d_of, [((),), ((4,),), ((3, 4),)]),
    Spec(np.atleast_2d, atleast_2d_of, [((),), ((4,),), ((3, 4),)]),
    Spec(np.concatenate, concatenate_rows, [((3,), (4,)), ((3, 4), (2, 4))]),
    Spec(np.concatenate, concatenate_last, [((3, 2), (3, 4)), ((2, 3, 1), (2, 3, 4))]),
    Spec(np.concatenate, concatenate_flat, [((2, 3), (4,)), ((3,), (2, 2, 2))]),
    Spec(np.concatenate, concatenate_three, [((3, 1), (3, 4), (3, 2))]),
    Spec(np.stack, stack_first, PAIRS),
    Spec(np.stack, stack_last, PAIRS + [((2, 3, 4), (2, 3, 4))]),
    Spec(np.hstack, hstack_pair, [((), ()), ((3,), (4,)), ((3, 2), (3, 4)), ((), (4,))]),
    Spec(np.vstack, vstack_pair, [((), ()), ((4,), (4,)), ((2, 4), (3, 4)), ((4,), (3, 4))]),
    Spec(np.array, array_copy, REDUCE),
    Spec(np.array, array_of_list, PAIRS),
    Spec(np.asarray, asarray_of, REDUCE),
    Spec(np.asarray, asarray_of_tuple, [((), (), ()), ((4,), (4,), (4,))]),
    Spec(np.asarray, astype_float, ARRAYS),
    Spec(np.copy, copy_of, REDUCE),
    Spec(np.broadcast_to, broadcast_to_rows, [((),), ((4,),), ((3, 1),), ((1, 4),)]),
    Spec(np.broadcast_to, broadcast_to_3d, [((3, 1),), ((2, 1, 4),)]),
    Spec(np.tile, tile_twice, REDUCE),
    Spec(np.tile, tile_grid, REDUCE),
    Spec(np.repeat, repeat_flat, REDUCE),
    Spec(np.repeat, repeat_axis1, ROWS),
    Spec(np.repeat, repeat_counts, [((4,),), ((4, 3),)]),
    Spec(np.flip, flip_all, ARRAYS),
    Spec(np.flip, flip_axis0, ARRAYS),
    Spec(np.flip, flip_axes, CUBE),
    Spec(np.diagonal, diagonal_main, SQUARE),
    Spec(np.diagonal, diagonal_above, SQUARE),
    Spec(np.diagonal, diagonal_below_last_axes, [((2, 3, 4),), ((2, 4, 4),)]),
] + specs_linalg.SPECS + specs_rearrange.SPECS
