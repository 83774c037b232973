"""Spec rows for the runtime helpers that generated gradients call (what grad of grad and
forward-over-reverse differentiate): runtime.py and runtime_flow.py here, runtime_linalg.py
and runtime_arrays.py in specs_runtime_linalg (appended). Arguments are shaped as
generated code passes them: g like the primal result whose adjoint it is, x like the
operand, y = max(x) / prod(x) / norm(x) computed from x where the helper assumes it.
"""
import numpy as np

import specs_runtime_linalg
from primitive_specs import NONZERO, POSITIVE, REAL, Spec, UNARY as UNARY_SHAPES
from s2s_ad.runtime import (add_at, broadcast_tangent, logistic, power_of_exp,
                            scaled_pair_maximum, unbroadcast, unreduce, written_sigmoid)
from s2s_ad.runtime_reductions import (reverse_cumsum, unreduce_extremum, unreduce_prod,
                                       unreduce_var)
from s2s_ad.runtime_shape import (reshape_like, split_array, split_concatenated, split_hstacked,
                                  split_vstacked, unrepeat, unstack, untile, untranspose)
from s2s_ad.runtime_spread import unreduce_norm
from s2s_ad.runtime_flow import (add_adjoints, add_lists, clear_adjoint, copy_adjoint,
                                 copy_argument, float_copy, float_gradient, match_adjoint,
                                 push_adjoint, concatenation_part, scatter_add, spread_adjoint,
                                 sum_repeats, take_adjoint)


# ---- broadcasting, writes at an index ----------------------------------------------------
def use_broadcast_tangent(t, y):
    return broadcast_tangent(t, y)


def use_unbroadcast(g, x):
    return unbroadcast(g, x)


def use_unreduce_all(g, x):
    return unreduce(g, x)


def use_unreduce_axis(g, x):
    return unreduce(g, x, 1, False)


def use_unreduce_kept_shape(g, x):
    """g already of a keepdims shape, spread with axis None (np.sum(x, axis=1,
    keepdims=True)'s adjoint written so): its adjoint sums back to g's shape"""
    return unreduce(g, x)


def use_unreduce_keepdims(g, x):
    return unreduce(g, x, 0, True)


def use_add_at_repeated(a, g):
    return add_at(a * 1.0, np.array([0, 2, 0]), g)


def use_add_at_rows(a, g):
    return add_at(a * 1.0, np.array([1, 1]), g)


# ---- reductions: y computed from x as generated code computes it --------------------------
def use_max_all(g, x):
    return unreduce_extremum(g, x, np.max(x))


def use_max_axis1(g, x):
    return unreduce_extremum(g, x, np.max(x, axis=1), 1, False)


def use_min_axis0_keepdims(g, x):
    return unreduce_extremum(g, x, np.min(x, axis=0, keepdims=True), 0, True)


def use_max_axes(g, x):
    return unreduce_extremum(g, x, np.max(x, axis=(0, 2)), (0, 2), False)


def use_prod_all(g, x):
    return unreduce_prod(g, x, np.prod(x))


def use_prod_axis1(g, x):
    return unreduce_prod(g, x, np.prod(x, axis=1), 1, False)


def use_prod_axis0_keepdims(g, x):
    return unreduce_prod(g, x, np.prod(x, axis=0, keepdims=True), 0, True)


def use_prod_axes(g, x):
    return unreduce_prod(g, x, np.prod(x, axis=(0, 2)), (0, 2), False)


def use_reverse_cumsum_all(g, x):
    return reverse_cumsum(g, x)


def use_reverse_cumsum_axis1(g, x):
    return reverse_cumsum(g, x, 1)


def use_var_all(g, x):
    return unreduce_var(g, x)


def use_var_axis1_ddof(g, x):
    return unreduce_var(g, x, 1, 1, False)


def use_var_axes_keepdims(g, x):
    return unreduce_var(g, x, (0, 2), 0, True)


def use_norm_all(g, x, y):
    return unreduce_norm(g, x, y)


def use_norm_axis1(g, x, y):
    return unreduce_norm(g, x, y, 2, 1, False)


def use_norm3_axis1(g, x, y):
    return unreduce_norm(g, x, y, 3, 1, False)


def use_norm_1_5_keepdims(g, x, y):
    return unreduce_norm(g, x, y, 1.5, 0, True)


def use_norm1(g, x, y):
    return unreduce_norm(g, x, y, 1)


def use_norm_fro_axes(g, x, y):
    return unreduce_norm(g, x, y, "fro", (1, 2), False)


def use_norm_of_x(g, x):
    return unreduce_norm(g, x, np.linalg.norm(x, 3, 1), 3, 1, False)


def use_norm_inf_of_x(g, x):
    return unreduce_norm(g, x, np.linalg.norm(x, np.inf))


# ---- shape manipulation ---------------------------------------------------------------
def use_reshape_like(g, x):
    return reshape_like(g, x)


def use_reshape_like_f(g, x):
    return reshape_like(g, x, "F")


def use_untranspose(g):
    return untranspose(g)


def use_untranspose_axes(g):
    return untranspose(g, (1, -1, 0))


def _pieces(parts):
    """A function of the first two pieces, each its own way (a third is left unused)."""
    return np.sum(parts[0] * parts[0]) + np.sum(np.sin(parts[1]) * 3.0)


def use_split_concatenated(g):
    return _pieces(split_concatenated(g, [np.zeros((2, 3)), np.zeros((1, 3))]))


def use_split_concatenated_axis1(g):
    return _pieces(split_concatenated(g, [np.zeros((2, 1)), np.zeros((2, 3)),
                                          np.zeros((2, 2))], 1))


def use_split_concatenated_flat(g):
    return _pieces(split_concatenated(g, [np.zeros((2, 2)), np.zeros(3)], None))


def use_split_hstacked(g):
    return _pieces(split_hstacked(g, [np.zeros((2, 1)), np.zeros((2, 3))]))


def use_split_hstacked_vectors(g):
    return _pieces(split_hstacked(g, [np.zeros(2), 0.0, np.zeros(3)]))


def use_split_vstacked(g):
    return _pieces(split_vstacked(g, [np.zeros(3), np.zeros((2, 3))]))


def use_unstack(g):
    return _pieces(unstack(g, [np.zeros(4), np.zeros(4), np.zeros(4)]))


def use_unstack_axis1(g):
    return _pieces(unstack(g, [np.zeros(3), np.zeros(3)], 1))


def use_unstack_scalars(g):
    return _pieces(unstack(g, [0.0, 0.0]))


def use_unstack_items(g):
    parts = unstack(g, [np.zeros(4), np.zeros(4), np.zeros(4)])
    return parts[0] * parts[2] + np.stack(parts) ** 2


def use_split_concatenated_items(g):
    parts = split_concatenated(g, [np.zeros(2), np.zeros(2)])
    return parts[1] ** 2 + np.stack(parts)


def use_split_array_list(g):
    return _pieces(split_array(g, [np.zeros(3), np.zeros(3)]))


def use_split_array_scalars(g):
    return _pieces(split_array(g, [0.0, 0.0, 0.0]))


def use_split_array_array(g):
    return split_array(g, np.zeros((2, 3))) * 2.0


def use_untile(g):
    return untile(g, np.zeros((2, 3)), (2, 1, 2))


def use_untile_int(g):
    return untile(g, np.zeros(3), 2)


def use_untile_scalar(g):
    return untile(g, 0.0, 3)


def use_unrepeat(g):
    return unrepeat(g, np.zeros((2, 3)), 2, 1)


def use_unrepeat_flat(g):
    return unrepeat(g, np.zeros((2, 3)), 2)


def use_unrepeat_counts(g):
    return unrepeat(g, np.zeros(3), np.array([1, 0, 3]), 0)


# ---- runtime_flow: adjoints in control flow, lists and in-place writes --------------------
def use_match(a, x):
    return match_adjoint(a, x)


def use_match_zero(a, x):
    return match_adjoint(a * 0.0, x) + x * a


def use_float_gradient(g):
    return float_gradient(g) * 3.0


def use_copy_argument(x):
    return copy_argument(x) * 2.0


def use_copy(a):
    return copy_adjoint(a) * 3.0


def use_float_copy(a):
    return float_copy(a) * 3.0


def use_take(a):
    return take_adjoint(a, 1) * 2.0


def use_take_repeated(a):
    return take_adjoint(a, np.array([0, 2, 0, 2, 1])) * np.array([1.0, 2.0, 3.0, 4.0, 5.0])


def use_take_list(a, b):
    return take_adjoint([a, b * b], 1) * 2.0


def use_take_tuple(a, b):
    return take_adjoint((a, b * b), 1) * 2.0


def use_take_dict(a, b):
    return take_adjoint({"p": a, "q": b * b}, "q") * 2.0


def use_clear(a):
    return clear_adjoint(a * 1.0, 2)


def use_scatter(a, x, g):
    return scatter_add(a * 1.0, x, 1, g)


def use_scatter_repeated(a, x, g):
    return scatter_add(a * 1.0, x, np.array([1, 1, 3]), g)


def use_scatter_list(a, g):
    return _pieces(scatter_add([a, a * a], [0.0, 0.0], 1, g))


def use_add_adjoints(a, b):
    return add_adjoints(a, b)


def use_add_adjoints_lists(a, b):
    return _pieces(add_adjoints([a, b * b], [b, a]))


def use_add_lists(a, b):
    return _pieces(add_lists([a, b * b], [b, a]))


def use_add_lists_zero(a, b):
    return _pieces(add_lists(0.0, [b, a * b]))


def use_spread_adjoint(g):
    return _pieces(spread_adjoint(g, [np.zeros((3, 4)), np.zeros(4), 0.0, np.zeros((3, 1))]))


def use_spread_adjoint_items(g):
    parts = spread_adjoint(g, [np.zeros(4), np.zeros(4)])
    return parts[1] * 3.0 + np.stack(parts) ** 2


def use_sum_repeats(a, b):
    return _pieces(sum_repeats([a, b * b, a * b, b, a, b], [0.0, 0.0]))


def use_concatenation_part(a, b):
    return _pieces(concatenation_part([a, b * b, a * b, b], [0.0], [0.0, 0.0]))


def use_spread_adjoint_rows(g):
    return spread_adjoint(g, np.zeros((2, 3, 4))) * 2.0


def use_push_adjoint(a, g):
    return _pieces(push_adjoint([a * a], [0.0], g))


def use_push_adjoint_zero(a, g):
    return _pieces(push_adjoint(0.0, [0.0], g * a))


def use_logistic(x):
    return logistic(x)


def use_logistic_wide(x):
    # both signs far out: the e / (1 + e) side and the 1 / (1 + e) side
    return logistic(12.0 * x)


def use_logistic_of_difference(a, b):
    return logistic(a, b)                   # np.logaddexp's derivative: broadcasting operands


def use_written_sigmoid(x):
    # the primitive a written-out sigmoid's chain is reversed as (ad/composites.py)
    return written_sigmoid(3.0 * x)


def use_scaled_pair_maximum(r, high):
    # the primitive np.maximum(q * r, (q - 1.0) * r) is reversed as: its low is below high
    return scaled_pair_maximum(r, high, high - 1.5)


def use_power_of_exp(x, c):
    # the primitive `mu ** c` of mu = np.exp(x) is reversed as
    return power_of_exp(0.5 * x, c)


SPECS = [
    Spec(power_of_exp, use_power_of_exp, [((), ()), ((3, 4), ()), ((3, 4), (4,)), ((3, 1), (1, 4))],
         modes=("reverse", "forward")),
    Spec(scaled_pair_maximum, use_scaled_pair_maximum, [((), ()), ((3, 4), ()), ((3, 4), (4,)),
                                                        ((3, 1), (1, 4))],
         modes=("reverse", "forward")),
    Spec(written_sigmoid, use_written_sigmoid, UNARY_SHAPES, modes=("reverse", "forward")),
    Spec(logistic, use_logistic, UNARY_SHAPES, modes=("reverse", "forward")),
    # (16, 20): at least runtime._FEW elements, the path without np.logaddexp
    Spec(logistic, use_logistic_wide, UNARY_SHAPES + [((16, 20),)],
         modes=("reverse", "forward")),
    Spec(logistic, use_logistic_of_difference, [((), ()), ((3, 4), (4,)), ((3, 1), (1, 4)),
                                                 ((16, 20), (20,))],
         modes=("reverse", "forward")),
    Spec(broadcast_tangent, use_broadcast_tangent, [((4,), (3, 4)), ((3, 1), (3, 4)),
                                                    ((2, 2), (2, 2))], wrt=(0,)),
    Spec(unbroadcast, use_unbroadcast, [((3, 4), (4,)), ((3, 4), (3, 1)), ((2, 3), (2, 3))],
         wrt=(0,)),
    Spec(unreduce, use_unreduce_all, [((), (2, 3))], wrt=(0,)),
    Spec(unreduce, use_unreduce_axis, [((2,), (2, 3))], wrt=(0,)),
    Spec(unreduce, use_unreduce_keepdims, [((1, 3), (2, 3))], wrt=(0,)),
    Spec(unreduce, use_unreduce_kept_shape, [((2, 1), (2, 3)), ((1, 3), (2, 3)), ((3,), (2, 3))],
         wrt=(0,)),
    Spec(add_at, use_add_at_repeated, [((4,), (3,)), ((4,), ())]),
    Spec(add_at, use_add_at_rows, [((3, 4), (4,)), ((3, 4), (2, 4)), ((3, 4), (2, 1))]),
    Spec(unreduce_extremum, use_max_all, [((), (3, 4)), ((), ()), ((), (5,))]),
    Spec(unreduce_extremum, use_max_axis1, [((3,), (3, 4)), ((2, 4), (2, 3, 4))]),
    Spec(unreduce_extremum, use_min_axis0_keepdims, [((1, 4), (3, 4))]),
    Spec(unreduce_extremum, use_max_axes, [((3,), (2, 3, 4))]),
    Spec(unreduce_prod, use_prod_all, [((), (3, 4)), ((), ()), ((), (5,))]),
    Spec(unreduce_prod, use_prod_axis1, [((3,), (3, 4)), ((2, 4), (2, 3, 4))]),
    Spec(unreduce_prod, use_prod_axis0_keepdims, [((1, 4), (3, 4))]),
    Spec(unreduce_prod, use_prod_axes, [((3,), (2, 3, 4))]),
    Spec(reverse_cumsum, use_reverse_cumsum_all, [((12,), (3, 4)), ((1,), ()), ((5,), (5,))],
         wrt=(0,)),   # g flattened for axis=None
    Spec(reverse_cumsum, use_reverse_cumsum_axis1, [((3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4))],
         wrt=(0,)),
    Spec(unreduce_var, use_var_all, [((), (3, 4)), ((), (5,))]),
    Spec(unreduce_var, use_var_axis1_ddof, [((3,), (3, 4)), ((2, 4), (2, 3, 4))]),
    Spec(unreduce_var, use_var_axes_keepdims, [((1, 3, 1), (2, 3, 4))]),
    Spec(unreduce_norm, use_norm_all, [((), (4,), ()), ((), (3, 4), ()), ((), (), ())],
         (REAL, REAL, POSITIVE)),
    Spec(unreduce_norm, use_norm_axis1, [((3,), (3, 4), (3,))], (REAL, REAL, POSITIVE)),
    Spec(unreduce_norm, use_norm3_axis1, [((3,), (3, 4), (3,)), ((2, 4), (2, 3, 4), (2, 4))],
         (REAL, NONZERO, POSITIVE)),
    Spec(unreduce_norm, use_norm_1_5_keepdims, [((1, 4), (3, 4), (1, 4))],
         (REAL, NONZERO, POSITIVE)),
    Spec(unreduce_norm, use_norm1, [((), (5,), ())], (REAL, NONZERO, POSITIVE)),
    Spec(unreduce_norm, use_norm_fro_axes, [((2,), (2, 3, 4), (2,))], (REAL, REAL, POSITIVE)),
    Spec(unreduce_norm, use_norm_of_x, [((3,), (3, 4))], (REAL, NONZERO)),
    Spec(unreduce_norm, use_norm_inf_of_x, [((), (5,)), ((), (3,))], (REAL, NONZERO)),
    Spec(reshape_like, use_reshape_like, [((12,), (3, 4)), ((1,), ()), ((2, 6), (3, 4))],
         wrt=(0,)),
    Spec(reshape_like, use_reshape_like_f, [((2, 6), (3, 4))], wrt=(0,)),
    Spec(untranspose, use_untranspose, [((3, 4),), ((2, 3, 4),), ((),)]),
    Spec(untranspose, use_untranspose_axes, [((2, 3, 4),)]),
    Spec(split_concatenated, use_split_concatenated, [((3, 3),)]),
    Spec(split_concatenated, use_split_concatenated_axis1, [((2, 6),)]),
    Spec(split_concatenated, use_split_concatenated_flat, [((7,),)]),
    Spec(split_hstacked, use_split_hstacked, [((2, 4),)]),
    Spec(split_hstacked, use_split_hstacked_vectors, [((6,),)]),
    Spec(split_vstacked, use_split_vstacked, [((3, 3),)]),
    Spec(unstack, use_unstack, [((3, 4),)]),
    Spec(unstack, use_unstack_axis1, [((3, 2),)]),
    Spec(unstack, use_unstack_scalars, [((2,),)]),
    Spec(unstack, use_unstack_items, [((3, 4),)]),
    Spec(split_concatenated, use_split_concatenated_items, [((4,),)]),
    Spec(split_array, use_split_array_list, [((2, 3),), ((1, 2, 3),)]),
    Spec(split_array, use_split_array_scalars, [((3,),)]),
    Spec(split_array, use_split_array_array, [((2, 3),), ((6,),)]),
    Spec(untile, use_untile, [((2, 2, 6),)]),
    Spec(untile, use_untile_int, [((6,),)]),
    Spec(untile, use_untile_scalar, [((3,),)]),
    Spec(unrepeat, use_unrepeat, [((2, 6),)]),
    Spec(unrepeat, use_unrepeat_flat, [((12,),)]),
    Spec(unrepeat, use_unrepeat_counts, [((4,),)]),
    Spec(match_adjoint, use_match, [((3,), (3,)), ((), ())], wrt=(0,)),
    Spec(match_adjoint, use_match_zero, [((), (3,))]),
    Spec(copy_adjoint, use_copy, [((4,),), ((2, 3),)]),
    Spec(float_copy, use_float_copy, [((4,),), ((2, 3),)], modes=("reverse", "forward")),
    Spec(copy_argument, use_copy_argument, [((4,),), ((2, 3),)]),
    Spec(float_gradient, use_float_gradient, [((),), ((4,),), ((2, 3),)]),
    Spec(take_adjoint, use_take, [((4,),), ((4, 3),)]),
    Spec(take_adjoint, use_take_repeated, [((4,),)]),
    Spec(take_adjoint, use_take_list, [((3,), (3,))], wrt=(1,)),
    Spec(take_adjoint, use_take_tuple, [((3,), (3,)), ((), ())], wrt=(1,)),
    Spec(take_adjoint, use_take_dict, [((3,), (3,)), ((2, 2), (2, 2))], wrt=(1,)),
    Spec(clear_adjoint, use_clear, [((4,),)]),
    Spec(scatter_add, use_scatter, [((4,), (4,), ()), ((4, 3), (4, 3), (3,))], wrt=(0, 2)),
    Spec(scatter_add, use_scatter_repeated, [((4,), (4,), (3,)), ((4,), (4,), ())],
         wrt=(0, 2)),
    Spec(scatter_add, use_scatter_list, [((3,), (3,))]),
    Spec(add_adjoints, use_add_adjoints, [((3,), (2, 3)), ((), ()), ((2, 1), (3,))]),
    Spec(add_adjoints, use_add_adjoints_lists, [((3,), (3,))]),
    Spec(add_lists, use_add_lists, [((3,), (3,)), ((), ())]),
    Spec(add_lists, use_add_lists_zero, [((3,), (3,))]),
    Spec(spread_adjoint, use_spread_adjoint, [((3, 4),)]),
    Spec(spread_adjoint, use_spread_adjoint_rows, [((3, 4),)]),
    Spec(spread_adjoint, use_spread_adjoint_items, [((4,),)]),
    Spec(sum_repeats, use_sum_repeats, [((3,), (3,)), ((2, 3), (2, 3))]),
    Spec(concatenation_part, use_concatenation_part, [((3,), (3,)), ((2, 3), (2, 3))]),
    Spec(push_adjoint, use_push_adjoint, [((3,), (3,))]),
    Spec(push_adjoint, use_push_adjoint_zero, [((3,), (3,))]),
] + specs_runtime_linalg.SPECS
