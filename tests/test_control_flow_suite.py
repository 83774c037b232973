"""Control flow in reverse mode, end to end: loops, branches and in-place updates.

Each row of ROWS is (function, argument factory, wrt). For every row the suite checks
  * the gradient against central differences at three random points (seeds 0, 1, 2);
  * that calling the gradient leaves the caller's arrays untouched and returns none of them
    (nor a view of one);
  * that the generated source is deterministic (two fresh copies of the function give
    the same text).
The factories draw points away from every branch and stopping boundary of their function.
"""
import types

import numpy as np
import pytest

import s2s_ad
from gradcheck import assert_grad_matches, forward_check, numeric_grad
from programs import branches as br
from programs import loops as lp
from programs import loop_structures as ls
from programs import loops_flow as lf
from programs import mutation as mu
from programs import reassigned as ra

SEEDS = (0, 1, 2)


# --- argument factories -----------------------------------------------------------------

def r(rng, *shape):
    return rng.standard_normal(shape)


def uni(rng, lo, hi):
    return float(rng.uniform(lo, hi))


def pos(rng, *shape, lo=0.5, hi=1.5):
    return rng.uniform(lo, hi, shape)


def away(rng, *shape, lo=0.2, hi=2.0):
    """Random signs, magnitudes in [lo, hi]: never near zero."""
    if not shape:
        return float(rng.choice([-1.0, 1.0]) * rng.uniform(lo, hi))
    return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(lo, hi, shape)


def pick(rng, *intervals):
    """A scalar from one of the intervals, chosen at random."""
    lo, hi = intervals[rng.integers(len(intervals))]
    return float(rng.uniform(lo, hi))


def pick_vec(rng, n, *intervals):
    return np.array([pick(rng, *intervals) for _ in range(n)])


def maybe_negative(rng, *shape):
    """Half the time all entries negative, so loops that wait for a positive value
    run to the end (their else / fall-through path)."""
    x = r(rng, *shape)
    return -np.abs(x) if rng.random() < 0.5 else x


def diag_dominant(rng, n):
    return 0.3 * r(rng, n, n) + 3.0 * np.eye(n)


def lower_triangular(rng, n):
    return np.tril(0.3 * r(rng, n, n)) + 2.0 * np.eye(n)


def spd(rng, n):
    m = r(rng, n, n)
    return m @ m.T + n * np.eye(n)


# --- the table --------------------------------------------------------------------------

ROWS = [
    # loops.py: recurrences
    (lp.running_sum_of_squares, lambda g: [r(g, 6)], (0,)),
    (lp.running_product, lambda g: [pos(g, 5)], (0,)),
    (lp.horner, lambda g: [r(g, 5), uni(g, -1, 1)], (0, 1)),
    (lp.horner_by_index_reversed, lambda g: [r(g, 5), uni(g, -1, 1)], (0, 1)),
    (lp.power_sum, lambda g: [r(g, 5), uni(g, -1, 1)], (0, 1)),
    (lp.logistic_map, lambda g: [uni(g, 2.5, 3.2), uni(g, 0.2, 0.8)], (0, 1)),
    (lp.newton_sqrt, lambda g: [uni(g, 0.5, 4.0)], (0,)),
    (lp.exp_series, lambda g: [uni(g, -2, 2)], (0,)),
    (lp.cosine_fixed_point, lambda g: [uni(g, -1, 1)], (0,)),
    (lp.chebyshev, lambda g: [uni(g, -0.9, 0.9)], (0,)),
    (lp.fibonacci_like, lambda g: [uni(g, -1, 1)], (0,)),
    (lp.continued_fraction, lambda g: [uni(g, 0.5, 2.0)], (0,)),
    (lp.ema_overwrite, lambda g: [r(g, 8)], (0,)),
    (lp.augmented_ops, lambda g: [r(g, 5), uni(g, -1, 1)], (0, 1)),
    (lp.loop_index_as_float, lambda g: [uni(g, -2, 2)], (0,)),
    (lp.range_with_step, lambda g: [r(g, 7)], (0,)),
    (lp.loop_reads_len_shape, lambda g: [r(g, 3, 4)], (0,)),
    # loops.py: time stepping
    (lp.euler_decay, lambda g: [uni(g, 0.5, 2), uni(g, 0.1, 2)], (0, 1)),
    (lp.oscillator_semi_implicit, lambda g: [uni(g, -1, 1), uni(g, -1, 1), uni(g, 0.5, 2)],
     (0, 1, 2)),
    (lp.leapfrog_vectors, lambda g: [r(g, 4), r(g, 4)], (0, 1)),
    (lp.rk2_logistic, lambda g: [uni(g, 0.1, 0.9), uni(g, 0.5, 2)], (0, 1)),
    (lp.gradient_descent_unrolled, lambda g: [r(g, 4), r(g, 4)], (0, 1)),
    (lp.predator_prey, lambda g: [uni(g, 0.5, 1.5), uni(g, 0.5, 1.5)], (0, 1)),
    # loops.py: loops over arrays
    (lp.rnn_over_rows, lambda g: [0.5 * r(g, 3, 3), r(g, 3), r(g, 4, 3)], (0, 1, 2)),
    (lp.rows_dot_weights, lambda g: [r(g, 4, 3), r(g, 3)], (0, 1)),
    (lp.columns_via_transpose, lambda g: [r(g, 3, 4)], (0,)),
    (lp.accumulate_vector, lambda g: [r(g, 4, 3)], (0,)),
    (lp.power_iteration, lambda g: [spd(g, 3), r(g, 3)], (0, 1)),
    (lp.power_iteration_norm, lambda g: [spd(g, 3), r(g, 3)], (0, 1)),
    (lp.jacobi_iterations, lambda g: [diag_dominant(g, 3), r(g, 3)], (0, 1)),
    (lp.moving_average, lambda g: [r(g, 6)], (0,)),
    (lp.stencil_energy, lambda g: [r(g, 6)], (0,)),
    (lp.pairwise_distances, lambda g: [r(g, 4, 2)], (0,)),
    # loops.py: nested loops
    (lp.nested_quadratic_form, lambda g: [r(g, 3, 3), r(g, 3)], (0, 1)),
    (lp.nested_transpose_product, lambda g: [r(g, 3, 3)], (0,)),
    (lp.triangular_sum, lambda g: [r(g, 5)], (0,)),
    (lp.nested_rows_and_elements, lambda g: [r(g, 3, 4)], (0,)),
    (lp.nested_time_and_space, lambda g: [r(g, 4)], (0,)),
    # loops.py: enumerate / zip
    (lp.enumerate_weights, lambda g: [r(g, 5)], (0,)),
    (lp.enumerate_rows, lambda g: [r(g, 3, 4)], (0,)),
    (lp.zip_dot, lambda g: [r(g, 5), r(g, 5)], (0, 1)),
    (lp.zip_rows, lambda g: [r(g, 3, 2), r(g, 3, 2)], (0, 1)),
    (lp.enumerate_zip, lambda g: [r(g, 4), r(g, 4)], (0, 1)),
    (lp.zip_three, lambda g: [r(g, 4), r(g, 4), r(g, 4)], (0, 1, 2)),
    (lp.enumerate_start, lambda g: [r(g, 5)], (0,)),
    # loops.py: helpers called in loops
    (lp.helper_step_loop, lambda g: [r(g, 3), uni(g, -1, 1)], (0, 1)),
    (lp.helper_keyword_args, lambda g: [r(g, 4)], (0,)),
    (lp.helper_called_twice, lambda g: [r(g, 4), r(g, 4)], (0, 1)),
    (lp.helper_default_and_positional, lambda g: [r(g, 4)], (0,)),
    (lp.scale_from_shape_in_loop, lambda g: [r(g, 4)], (0,)),

    # loops_flow.py: while loops
    (lf.halve_until_small, lambda g: [uni(g, 1.1, 1.9) * 2.0 ** int(g.integers(0, 4))], (0,)),
    (lf.double_until_large,
     lambda g: [10.0 * uni(g, 0.55, 0.95) / 2.0 ** int(g.integers(0, 4))], (0,)),
    (lf.while_counter, lambda g: [uni(g, -1, 1)], (0,)),
    (lf.while_index_accumulate, lambda g: [r(g, 5)], (0,)),
    (lf.shrink_vector_until_small, lambda g: [r(g, 4)], (0,)),
    (lf.while_two_conditions, lambda g: [uni(g, 0.5, 3.0)], (0,)),
    (lf.while_true_break, lambda g: [uni(g, 0.5, 3.0)], (0,)),
    (lf.while_with_continue, lambda g: [away(g, 6)], (0,)),
    (lf.newton_until_converged, lambda g: [uni(g, 0.5, 4.0)], (0,)),
    # loops_flow.py: break / continue / for-else / early return
    (lf.break_on_threshold, lambda g: [r(g, 8)], (0,)),
    (lf.break_keeps_last_value, lambda g: [r(g, 6)], (0,)),
    (lf.continue_skip_negative, lambda g: [away(g, 6)], (0,)),
    (lf.continue_and_break, lambda g: [r(g, 8)], (0,)),
    (lf.for_else_no_break, lambda g: [r(g, 5)], (0,)),
    (lf.for_else_with_break, lambda g: [maybe_negative(g, 4)], (0,)),
    (lf.early_return_in_loop, lambda g: [maybe_negative(g, 5)], (0,)),
    (lf.early_return_from_nested, lambda g: [r(g, 3, 3)], (0,)),
    (lf.nested_inner_break, lambda g: [r(g, 3, 4)], (0,)),
    (lf.nested_inner_continue, lambda g: [r(g, 3, 3)], (0,)),
    (lf.first_positive_index_scaled, lambda g: [away(g, 5)], (0,)),
    # loops_flow.py: comprehensions
    (lf.list_comprehension_sum, lambda g: [r(g, 5)], (0,)),
    (lf.generator_in_sum, lambda g: [r(g, 5)], (0,)),
    (lf.generator_with_filter, lambda g: [away(g, 6)], (0,)),
    (lf.comprehension_stack, lambda g: [r(g, 3)], (0,)),
    (lf.comprehension_enumerate, lambda g: [r(g, 4)], (0,)),
    (lf.comprehension_zip_array, lambda g: [r(g, 4), r(g, 4)], (0, 1)),
    (lf.comprehension_over_rows, lambda g: [r(g, 3, 2)], (0,)),
    (lf.comprehension_ternary, lambda g: [away(g, 6)], (0,)),
    (lf.comprehension_calls_helper, lambda g: [r(g, 4)], (0,)),
    # loops_flow.py: lists
    (lf.append_then_stack, lambda g: [r(g, 3)], (0,)),
    (lf.append_then_array, lambda g: [r(g, 4)], (0,)),
    (lf.append_then_sum, lambda g: [r(g, 3, 4)], (0,)),
    (lf.list_index_first_last, lambda g: [r(g, 3)], (0,)),
    (lf.list_unpacking, lambda g: [r(g, 3)], (0,)),
    (lf.list_of_scalars_literal, lambda g: [uni(g, -1, 1), uni(g, -1, 1)], (0, 1)),
    (lf.trajectory_list, lambda g: [uni(g, -1, 1), uni(g, -1, 1)], (0, 1)),
    (lf.append_in_branch, lambda g: [away(g, 6)], (0,)),
    # loops_flow.py: more loop shapes
    (lf.helper_with_loop_in_loop, lambda g: [r(g, 4)], (0,)),
    (lf.reversed_range, lambda g: [r(g, 5)], (0,)),
    (lf.loop_over_slice, lambda g: [r(g, 5)], (0,)),
    (lf.rows_of_column_slice, lambda g: [r(g, 3, 3)], (0,)),
    (lf.stack_columns, lambda g: [r(g, 4)], (0,)),
    (lf.generator_over_range, lambda g: [r(g, 4), r(g, 4)], (0, 1)),
    (lf.return_inside_while, lambda g: [uni(g, 0.3, 4.0)], (0,)),
    (lf.while_else, lambda g: [uni(g, 0.2, 1.5)], (0,)),
    (lf.nested_comprehension, lambda g: [r(g, 3)], (0,)),
    (lf.append_rows_of_scalars, lambda g: [r(g, 3, 3)], (0,)),
    (lf.list_of_states, lambda g: [r(g, 4)], (0,)),

    # branches.py: scalar piecewise
    (br.piecewise_two, lambda g: [away(g)], (0,)),
    (br.piecewise_three, lambda g: [pick(g, (-2.5, -1.2), (-0.8, 0.8), (1.2, 2.5))], (0,)),
    (br.clip_branches, lambda g: [pick(g, (-2.0, -1.2), (-0.8, 0.8), (1.2, 2.5))], (0,)),
    (br.ternary_scalar, lambda g: [pick(g, (-1.0, 0.3), (0.7, 2.0))], (0,)),
    (br.ternary_on_reduction, lambda g: [r(g, 4)], (0,)),
    (br.and_condition, lambda g: [away(g), away(g)], (0, 1)),
    (br.or_condition, lambda g: [pick(g, (-2.0, -1.2), (-0.8, 0.8), (1.2, 2.0))], (0,)),
    (br.not_condition, lambda g: [away(g)], (0,)),
    (br.chained_comparison, lambda g: [pick(g, (-1.0, -0.2), (0.2, 0.8), (1.2, 2.0))], (0,)),
    (br.nested_ifs, lambda g: [away(g), away(g)], (0, 1)),
    (br.branch_without_else, lambda g: [pick(g, (-1.0, 0.1), (0.5, 2.0))], (0,)),
    (br.return_in_both_branches, lambda g: [r(g, 4)], (0,)),
    (br.early_return_guard, lambda g: [away(g)], (0,)),
    (br.max_of_two, lambda g: (lambda x: [x, x + away(g)])(uni(g, -1, 1)), (0, 1)),
    (br.abs_via_branch, lambda g: [away(g)], (0,)),
    (br.sign_multiply, lambda g: [away(g), uni(g, -1, 1)], (0, 1)),
    (br.math_functions_in_branches, lambda g: [pick(g, (-1.0, 0.8), (1.2, 3.0))], (0,)),
    (br.branch_on_integer_mode, lambda g: [away(g, 4), int(g.integers(0, 3))], (0,)),
    (br.branch_on_flag, lambda g: [pos(g, 4), bool(g.integers(0, 2))], (0,)),
    (br.default_none_weights, lambda g: [r(g, 4)], (0,)),
    (br.optional_offset, lambda g: [r(g, 4), r(g, 4)], (0, 1)),
    (br.branch_on_length, lambda g: [r(g, int(g.integers(2, 6)))], (0,)),
    (br.parity_of_int, lambda g: [uni(g, 0.5, 1.5), int(g.integers(2, 6))], (0,)),
    (br.branch_leaves_values_alone, lambda g: [away(g)], (0,)),
    (br.branch_assigns_two_names, lambda g: [pick(g, (-1.0, 0.1), (0.4, 2.0))], (0,)),
    # branches.py: branches in loops
    (br.relu_sum_loop, lambda g: [away(g, 6)], (0,)),
    (br.leaky_relu_loop, lambda g: [away(g, 6)], (0,)),
    (br.huber_loop,
     lambda g: [pick_vec(g, 6, (-3.0, -1.2), (-0.8, -0.1), (0.1, 0.8), (1.2, 3.0))], (0,)),
    (br.running_max, lambda g: [r(g, 6)], (0,)),
    (br.argmin_tracking, lambda g: [r(g, 6)], (0,)),
    (br.ternary_in_loop, lambda g: [away(g, 6)], (0,)),
    (br.two_accumulators, lambda g: [away(g, 6)], (0,)),
    (br.boundary_conditions_stencil, lambda g: [r(g, 6)], (0,)),
    (br.branch_inside_while, lambda g: [uni(g, -0.5, 1.5)], (0,)),
    (br.spline_lookup, lambda g: [pick(g, (0.1, 0.9), (1.1, 1.9), (2.1, 2.9), (3.2, 4.0))],
     (0,)),
    # reassigned.py: a value read after the loop or branch that reassigned it
    (ra.product_after_loop, lambda g: [uni(g, -1, 1)], (0,)),
    (ra.product_after_branch, lambda g: [uni(g, -1, 1), bool(g.integers(0, 2))], (0,)),
    (ra.product_after_break, lambda g: [uni(g, 0.5, 1.5)], (0,)),
    (ra.product_after_while, lambda g: [uni(g, 0.5, 1.5), uni(g, 1.3, 1.7)], (0, 1)),
    (ra.sum_then_product_after_loop, lambda g: [uni(g, -1, 1)], (0,)),
    (ra.dot_after_loop_of_arrays, lambda g: [r(g, 4)], (0,)),
    (ra.list_item_overwritten, lambda g: [r(g, 3)], (0,)),
    (ra.preallocated_list_filled_in_loop, lambda g: [r(g, 3)], (0,)),
    (ra.preallocated_list_to_array, lambda g: [r(g, 3)], (0,)),
    (ra.add_at_repeated_index, lambda g: [r(g, 3)], (0,)),
    (ra.rows_written_twice, lambda g: [r(g, 3), r(g, 3, 2)], (0, 1)),
    # loop_structures.py: lists and tuples built before a loop, read inside it
    (ls.stack_read_in_loop, lambda g: [uni(g, -1, 1)], (0,)),
    (ls.tuple_unpacked_in_loop, lambda g: [r(g, 3)], (0,)),
    (ls.list_indexed_in_loop, lambda g: [uni(g, -1, 1)], (0,)),
    (ls.concatenated_in_loop, lambda g: [r(g, 3)], (0,)),
    (ls.summed_list_in_loop, lambda g: [uni(g, -1, 1)], (0,)),
    (ls.cumsum_under_branch_in_loop, lambda g: [r(g, 3)], (0,)),
    (ls.stacked_under_branch_in_loop, lambda g: [r(g, 3)], (0,)),
    (ls.index_and_whole_updates, lambda g: [r(g, 3)], (0,)),
    (ls.repeated_list, lambda g: [r(g, 3)], (0,)),
    (ls.concatenated_lists, lambda g: [r(g, 3)], (0,)),
    (ls.diff_under_branch_in_loop, lambda g: [r(g, 4)], (0,)),
    (ra.fresh_row_each_iteration, lambda g: [uni(g, -1, 1)], (0,)),
    (ra.copy_appended, lambda g: [uni(g, -1, 1)], (0,)),
    (ra.loop_over_rows_read_only, lambda g: [r(g, 2, 3)], (0,)),
    (ra.list_of_arrays_then_sum, lambda g: [r(g, 2)], (0,)),
    (br.helper_with_branch_in_loop, lambda g: [away(g, 5)], (0,)),
    (br.soft_threshold_loop,
     lambda g: [pick_vec(g, 6, (-2.0, -0.35), (-0.28, -0.12), (-0.08, -0.02),
                         (0.02, 0.08), (0.12, 0.28), (0.35, 2.0))], (0,)),
    (br.branch_on_row_norm, lambda g: [r(g, 3, 3)], (0,)),
    (br.branch_on_loop_index, lambda g: [r(g, 5)], (0,)),
    (br.and_in_loop, lambda g: [pick_vec(g, 6, (-2.0, -0.7), (-0.3, 0.3), (0.7, 2.0))], (0,)),
    (br.or_in_loop, lambda g: [pick_vec(g, 6, (-2.0, -1.2), (-0.8, 0.8), (1.2, 2.0))], (0,)),
    (br.chained_in_loop,
     lambda g: [pick_vec(g, 6, (-2.0, -0.7), (-0.3, 0.3), (0.7, 2.0))], (0,)),
    (br.not_in_loop, lambda g: [away(g, 6)], (0,)),
    (br.min_max_builtins, lambda g: (lambda x: [x, x + away(g)])(uni(g, 0.2, 1.5)), (0, 1)),
    (br.ternary_and_in_loop,
     lambda g: [pick_vec(g, 6, (-2.0, -0.2), (0.2, 0.8), (1.2, 2.0))], (0,)),
    (br.running_max_ternary, lambda g: [r(g, 6)], (0,)),
    (br.loop_only_in_one_branch, lambda g: [away(g, lo=0.2, hi=1.0)], (0,)),

    # mutation.py: arrays filled element by element
    (mu.fill_squares, lambda g: [r(g, 5), r(g, 5)], (0, 1)),
    (mu.cumulative_sum_in_place, lambda g: [r(g, 5)], (0,)),
    (mu.cumulative_product_in_place, lambda g: [pos(g, 5)], (0,)),
    (mu.recurrence_last_entry, lambda g: [r(g, 5)], (0,)),
    (mu.vector_from_scalars, lambda g: [uni(g, -1, 1), uni(g, -1, 1), uni(g, -1, 1)],
     (0, 1, 2)),
    (mu.negative_index_writes, lambda g: [r(g, 5)], (0,)),
    (mu.strided_slice_write, lambda g: [r(g, 6)], (0,)),
    (mu.multiply_in_place, lambda g: [r(g, 4)], (0,)),
    (mu.accumulate_into_bins, lambda g: [r(g, 7)], (0,)),
    (mu.scatter_by_index, lambda g: [r(g, 6), g.integers(0, 4, 6)], (0,)),
    (mu.swap_entries, lambda g: [r(g, 4)], (0,)),
    # mutation.py: copies updated in place
    (mu.copy_then_update, lambda g: [r(g, 4)], (0,)),
    (mu.copy_read_updated_neighbour, lambda g: [0.5 * r(g, 5)], (0,)),
    (mu.standardize_in_place, lambda g: [r(g, 5)], (0,)),
    (mu.augmented_whole_array, lambda g: [r(g, 4)], (0,)),
    # mutation.py: columns, rows, matrices
    (mu.column_add_in_place, lambda g: [r(g, 3, 2), r(g, 3)], (0, 1)),
    (mu.column_writes_loop, lambda g: [r(g, 3, 3)], (0,)),
    (mu.row_normalize, lambda g: [r(g, 3, 3)], (0,)),
    (mu.row_slice_writes, lambda g: [r(g, 3, 4)], (0,)),
    (mu.outer_product_loops, lambda g: [r(g, 3)], (0,)),
    (mu.matvec_loops, lambda g: [r(g, 3, 4), r(g, 4)], (0, 1)),
    (mu.blur_2d, lambda g: [r(g, 4, 4)], (0,)),
    (mu.trajectory_matrix, lambda g: [uni(g, -1, 1), uni(g, -1, 1)], (0, 1)),
    # mutation.py: solvers written with loops
    (mu.forward_substitution, lambda g: [lower_triangular(g, 3), r(g, 3)], (0, 1)),
    (mu.back_substitution, lambda g: [lower_triangular(g, 3).T, r(g, 3)], (0, 1)),
    (mu.gauss_seidel, lambda g: [diag_dominant(g, 3), r(g, 3)], (0, 1)),
    (mu.cholesky_loops, lambda g: [spd(g, 3)], (0,)),
    # mutation.py: stencils and time stepping
    (mu.laplacian_in_place, lambda g: [r(g, 6)], (0,)),
    (mu.heat_equation_elementwise, lambda g: [r(g, 6)], (0,)),
    (mu.heat_equation_slices, lambda g: [r(g, 6)], (0,)),
    (mu.flux_helper_update, lambda g: [r(g, 5)], (0,)),
    (mu.upwind_advection, lambda g: [r(g, 5), uni(g, 0.2, 0.8)], (0, 1)),
    # mutation.py: boolean-mask writes
    (mu.mask_zero_negatives, lambda g: [away(g, 6)], (0,)),
    (mu.mask_scale, lambda g: [pick_vec(g, 6, (-2.0, 0.4), (0.6, 2.0))], (0,)),
    (mu.mask_add_in_place, lambda g: [away(g, 5), uni(g, -1, 1)], (0, 1)),
    (mu.mask_from_other_array, lambda g: [r(g, 5), away(g, 5)], (0, 1)),
    (mu.mask_clip_rows, lambda g: [1.5 * r(g, 3, 4)], (0,)),
    (mu.write_in_branch, lambda g: [away(g, 5)], (0,)),
    (mu.add_assign_index_in_while, lambda g: [r(g, 4)], (0,)),
]



def _name(fn):
    return f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"


def _params(check):
    return [pytest.param(fn, make, wrt, id=_name(fn)) for fn, make, wrt in ROWS]


def _points(make):
    return [make(np.random.default_rng(seed)) for seed in SEEDS]


def _fresh_copy(fn):
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__qualname__ = fn.__qualname__
    copy.__module__ = fn.__module__
    return copy


def test_table_is_large_and_distinct():
    names = [_name(fn) for fn, _, _ in ROWS]
    assert len(names) == len(set(names))
    assert len(names) >= 110
    codes = {fn.__code__.co_code + repr(fn.__code__.co_consts).encode() for fn, _, _ in ROWS}
    assert len(codes) == len(ROWS), "two rows differentiate the same code"


@pytest.mark.parametrize("fn, make, wrt", _params("grad"))
def test_gradient_matches_central_differences(fn, make, wrt):
    for args in _points(make):
        assert_grad_matches(fn, args, wrt=wrt, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn, make, wrt", _params("general"))
def test_general_derivative_matches_central_differences(fn, make, wrt):
    """The derivative every signature without facts falls back to (grad(f) runs the one
    specialised on the arguments' kinds; this row checks the general one as well)."""
    general = s2s_ad.api.general_derivative(s2s_ad.grad(fn, wrt=wrt))
    for args in _points(make):
        got = general(*args)
        got = got if isinstance(wrt, tuple) else (got,)
        for k, g in zip(wrt if isinstance(wrt, tuple) else (wrt,), got):
            assert np.shape(g) == np.shape(args[k])
            np.testing.assert_allclose(g, numeric_grad(fn, args, k), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn, make, wrt", _params("inputs"))
def test_gradient_leaves_inputs_untouched(fn, make, wrt):
    df = s2s_ad.grad(fn, wrt=wrt)
    for args in _points(make):
        before = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
        grads = df(*args)
        for k, (a, b) in enumerate(zip(args, before)):
            if isinstance(b, np.ndarray):
                assert a.dtype == b.dtype and np.array_equal(a, b), \
                    f"the gradient wrote into argument {k}"
                # nor may a gradient be a view of an argument: writing into it (g *= lr)
                # would change the caller's array
                for g in (grads if isinstance(grads, tuple) else (grads,)):
                    assert not (isinstance(g, np.ndarray) and np.shares_memory(g, a))
            else:
                assert a == b


@pytest.mark.parametrize("fn, make, wrt", _params("value"))
def test_value_and_grad_returns_the_function_value(fn, make, wrt):
    """The backward sweep restores overwritten variables: the value returned beside the
    gradient must still be the function's, and the gradient the same as grad's."""
    vg = s2s_ad.value_and_grad(fn, wrt=wrt)
    for args in _points(make):
        value, grads = vg(*args)
        assert value == pytest.approx(fn(*args), rel=1e-12, abs=1e-12)
        expected = s2s_ad.grad(fn, wrt=wrt)(*args)
        for got, want in zip(grads if isinstance(wrt, tuple) else [grads],
                             expected if isinstance(wrt, tuple) else [expected]):
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def _hvp_rows():
    rows = []
    for fn, make, wrt in ROWS:
        k = wrt if isinstance(wrt, int) else wrt[0]
        x = make(np.random.default_rng(0))[k]
        if isinstance(x, float) or (isinstance(x, np.ndarray) and x.dtype == float
                                    and x.size <= 6):
            rows.append(pytest.param(fn, make, k, id=_name(fn)))
    return rows


@pytest.mark.parametrize("fn, make, k", _hvp_rows())
def test_hvp_matches_differences_of_the_gradient(fn, make, k):
    """Forward over reverse through the loop: the generated gradient's own tape, counts
    and branches differentiated in forward mode."""
    args = list(make(np.random.default_rng(0)))
    x = np.asarray(args[k], dtype=float)
    grad = s2s_ad.grad(fn, wrt=k)

    def grad_at(point):
        moved = list(args)
        moved[k] = float(point) if isinstance(args[k], float) else point
        return np.asarray(grad(*moved))

    v = np.random.default_rng(1).standard_normal(x.shape)
    eps = 1e-5
    expected = (grad_at(x + eps * v) - grad_at(x - eps * v)) / (2 * eps)
    got = s2s_ad.hvp(fn, wrt=k)(*args, float(v) if isinstance(args[k], float) else v)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("fn, make, k", [row for row in _hvp_rows()
                                         if isinstance(row.values[1](
                                             np.random.default_rng(0))[row.values[2]], float)])
def test_grad_of_grad_matches_differences_of_the_gradient(fn, make, k):
    """Reverse over reverse: the generated gradient's tape pushes and pops reversed (and
    the pops of a list adjoint, for lists built by appends)."""
    args = list(make(np.random.default_rng(0)))
    grad = s2s_ad.grad(fn, wrt=k)

    def grad_at(value):
        moved = list(args)
        moved[k] = value
        return grad(*moved)

    eps = 1e-5
    expected = (grad_at(args[k] + eps) - grad_at(args[k] - eps)) / (2 * eps)
    assert s2s_ad.grad(grad, wrt=k)(*args) == pytest.approx(expected, rel=1e-4, abs=1e-5)


@pytest.mark.parametrize("fn, make, wrt", _params("deterministic"))
def test_generated_source_is_deterministic(fn, make, wrt):
    args = list(make(np.random.default_rng(0)))
    first, second = (s2s_ad.grad(_fresh_copy(fn), wrt=wrt) for _ in range(2))
    assert s2s_ad.derivative_source(first) == s2s_ad.derivative_source(second)
    general = s2s_ad.api.general_derivative(s2s_ad.grad(fn, wrt=wrt))
    assert s2s_ad.derivative_source(first) == s2s_ad.derivative_source(general)
    # the derivative specialised on these arguments' kinds, too
    assert s2s_ad.derivative_source(first, *args) == s2s_ad.derivative_source(second, *args)


# --- the tape: pushed only when the backward sweep needs an overwritten value ------------

def _decays(x, n=5):
    for _ in range(n):
        x = x * 0.9 + 0.1
    return x


def _repeated_tanh(x, n=4):
    h = x
    for _ in range(n):
        h = np.tanh(h)
    return np.sum(h)


def test_loop_that_overwrites_nothing_needed_pushes_nothing():
    # x is overwritten every pass, but x * 0.9 + 0.1 has an adjoint that reads no value
    # (the general derivative keeps x's values: its gradient is matched to x as passed)
    df = s2s_ad.grad(_decays)
    assert df(1.3) == pytest.approx(0.9 ** 5)
    assert "_tape" not in s2s_ad.derivative_source(df, 1.3)


def test_loop_that_needs_overwritten_values_pushes_them():
    df = s2s_ad.grad(_repeated_tanh)
    source = s2s_ad.derivative_source(df)
    assert "_tape" in source
    assert "_tape.append(t" in source and "_tape.pop()" in source   # the tanh values
    x = np.array([0.3, -0.7, 1.1])
    assert_grad_matches(_repeated_tanh, [x], wrt=0)
    np.testing.assert_allclose(df(x), _tanh4_derivative(x), rtol=1e-12)


def _tanh4_derivative(x):
    d = np.ones_like(x)
    h = x
    for _ in range(4):
        h = np.tanh(h)
        d = d * (1.0 - h * h)
    return d


def _scaled_copy_written(x):
    y = x * 1.0
    for i in range(2):
        z = x * 1.0
        z[0] = 5.0
        y = y + z
    y[1] = 0.0
    return np.sum(y * x)


def test_a_product_by_one_is_never_turned_into_an_alias():
    x = np.arange(1.0, 4.0)
    before = x.copy()
    g = s2s_ad.grad(_scaled_copy_written)(x)
    np.testing.assert_array_equal(x, before)
    assert_grad_matches(_scaled_copy_written, [np.arange(1.0, 4.0)], wrt=0)
    assert g.shape == (3,)


@pytest.mark.parametrize("fn, make, wrt", _params("forward"))
def test_forward_mode_matches_central_differences(fn, make, wrt):
    for args in _points(make):
        forward_check(fn, args, wrt if isinstance(wrt, tuple) else (wrt,))
