"""Tangents of the runtime helpers that generated gradient code calls.

Forward-over-reverse (hvp, hessian) differentiates the generated gradient, so every
helper it may call needs a forward template (or is declared nondifferentiable). Most
helpers are linear in their adjoint argument `g`: the tangent is the same helper applied
to d[g], plus a term for each other argument the value depends on (matmul_adjoint_a(g, a,
b) is bilinear in g and b). The result parameter is called `out` because the helpers'
own parameters use `y`, `g`, `a` and `x`.

In-place helpers (add_at, scatter_add, clear_adjoint) mutate and return their first
argument; their tangents apply the same operation to a copy of its tangent, never to the
tangent itself (it may be shared). pop_adjoint is the exception: it returns the popped
item, not the list, so its tangent must pop the list's tangent in place, exactly as the
helper pops the list.
"""
import numpy as np

from s2s_ad import (runtime, runtime_checks, runtime_creation, runtime_draws, runtime_flow,
                    runtime_keywords, runtime_linalg, runtime_objects)
from s2s_ad.ad.template_dsl import d, nondifferentiable, tangent
from s2s_ad.runtime import add_at, broadcast_tangent, unbroadcast, unreduce
from s2s_ad.runtime_reductions import (_prod_others_tangent, reverse_cumsum, unreduce_extremum,
                                       unreduce_prod, unreduce_var)
from s2s_ad.runtime_shape import (reshape_like, split_array, split_concatenated, split_hstacked,
                                  split_vstacked, unrepeat, unstack, untile, untranspose)
from s2s_ad.runtime_spread import norm_power, norm_reciprocal, unreduce_norm
from s2s_ad.runtime_flow import (add_adjoints, add_lists, clear_adjoint, copy_adjoint,
                                 copy_argument, float_copy, float_gradient, match_adjoint,
                                 pop_adjoint, push_adjoint, scatter_add, spread_adjoint,
                                 sum_repeats, take_adjoint, concatenation_part)
from s2s_ad.runtime_arrays import pad_widths, signal_widths, signal_widths_nd, weights_layout
from s2s_ad.runtime_linalg import (matmul_adjoint_a, matmul_adjoint_b, as_columns,
                                   dot_adjoint_a, dot_adjoint_b, einsum_operand_adjoint,
                                   inner_adjoint_a, inner_adjoint_b, place_diagonal,
                                   spread_trace, tensordot_adjoint_a, tensordot_adjoint_b,
                                   undiag)

# mapping_keys and stop_gradient are declared in nondifferentiable.py; generated code
# rebuilds dynamic indices with slice: take_adjoint(a, slice(i, j, None))
nondifferentiable(slice)
nondifferentiable(  # counts, seeds, checks, tie shares (piecewise constant), zeros, shapes
    runtime.reduced_count, runtime.extremum_share, runtime_checks.check_scalar_output,
    runtime_checks.check_broadcast, runtime_checks.check_matmul, runtime_checks.product_like,
    runtime_checks.check_unshared, runtime_checks.check_not_method, runtime_objects.has_class,
    runtime_objects.set_attribute, runtime_objects.check_not_array,
    runtime_checks.check_unzipped, runtime_checks.zip_length, runtime_checks.check_not_sequences,
    runtime_keywords.keyword_positions,
    runtime.zero_tangent, runtime.zero_adjoint, runtime_flow.float_zeros,
    runtime_flow.float_dtype, runtime_flow.sequence_position, runtime.sequence_like,
    runtime.shape_of, runtime.placeholder, pad_widths,
    signal_widths, signal_widths_nd, weights_layout, runtime_creation.linspace_fractions, norm_power,
    runtime_linalg.einsum_operand_count, runtime_linalg.kron_layout)


# ---- runtime.py: broadcasting and reductions ---------------------------------------------
@tangent(unbroadcast)
def unbroadcast_tangent(out, g, x):
    """unbroadcast is linear in g: d unbroadcast(g, x) = unbroadcast(dg, x)"""
    d[out] = unbroadcast(d[g], x)


@tangent(unreduce)
def unreduce_tangent(out, g, x, axis=None, keepdims=False):
    """unreduce is linear in g: d unreduce(g, x) = unreduce(dg, x)"""
    d[out] = unreduce(d[g], x, axis, keepdims)


@tangent(broadcast_tangent)
def broadcast_tangent_tangent(out, t, y):
    """broadcast_tangent is linear in t: d broadcast_tangent(t, y) = broadcast_tangent(dt, y)"""
    d[out] = broadcast_tangent(d[t], y)


@tangent(add_at)
def add_at_tangent(out, a, index, g):
    """d (a[index] += g) = (da[index] += dg), on a copy of da (it may be shared)"""
    d[out] = add_at(copy_adjoint(d[a]), index, d[g])


@tangent(matmul_adjoint_a)
def matmul_adjoint_a_tangent(out, g, a, b):
    """bilinear in g and b (a only gives the shape)"""
    d[out] = matmul_adjoint_a(d[g], a, b) + matmul_adjoint_a(g, a, d[b])


@tangent(matmul_adjoint_b)
def matmul_adjoint_b_tangent(out, g, a, b):
    """bilinear in g and a (b only gives the shape)"""
    d[out] = matmul_adjoint_b(d[g], a, b) + matmul_adjoint_b(g, d[a], b)


@tangent(unreduce_extremum)
def unreduce_extremum_tangent(out, g, x, y, axis=None, keepdims=False):
    """linear in g; where x attains y is piecewise constant in x and y"""
    d[out] = unreduce_extremum(d[g], x, y, axis, keepdims)


# exact in g always; in x and y only when x has no zeros (then y != 0): a zero factor
# needs a zero-safe runtime helper
@tangent(unreduce_prod)
def unreduce_prod_tangent(out, g, x, y, axis=None, keepdims=False):
    """d (g prod_{j != i} x_j), without dividing by x (exact when x has zeros); y is
    prod(x), so its tangent adds nothing beyond d[x]'s"""
    d[out] = _prod_others_tangent(g, d[g], x, d[x], axis, keepdims)


@tangent(reverse_cumsum)
def reverse_cumsum_tangent(out, g, x, axis=None):
    """reverse_cumsum is linear in g"""
    d[out] = reverse_cumsum(d[g], x, axis)


@tangent(unreduce_var)
def unreduce_var_tangent(out, g, x, axis=None, ddof=0, keepdims=False):
    """(x - mean(x)) g 2 / (N - ddof) is bilinear in g and x"""
    d[out] = unreduce_var(d[g], x, axis, ddof, keepdims) \
        + unreduce_var(g, d[x], axis, ddof, keepdims)


# spread = sign(x) (|x|/y)**(p-1) g, with p = 2 for None / 'fro' and p = 1 for +-inf (then
# the spread is piecewise constant in x and y, like p = 1). Its y-term is -(p-1) spread
# dy / y = -(p-1) spread(g dy / y), its x-term (p-1) (|x|/y)**(p-2) g dx / y. For p = 1 the
# power is taken as **0 (its factor p - 1 is 0), so zeros of x give 0 rather than 0 * inf;
# terms of operands without a tangent simplify away (no 0 * inf either).
@tangent(unreduce_norm)
def unreduce_norm_tangent(out, g, x, y, ord=None, axis=None, keepdims=False):
    """d spread = spread(dg - (p-1) g dy / y) + (p-1) (|x|/y)**(p-2) g dx / y (1 / y taken
    as 0 where y = 0, as the spread itself is 0 there)"""
    _p = norm_power(ord, x, axis)
    _r = norm_reciprocal(y)
    _power = (np.abs(x) * unreduce(_r, x, axis, keepdims)) ** (_p - 2.0 + (_p == 1.0))
    d[out] = unreduce_norm(d[g] - (_p - 1.0) * g * d[y] * _r, x, y, ord, axis, keepdims) \
        + (_p - 1.0) * _power * unreduce(g * _r, x, axis, keepdims) * d[x]


@tangent(norm_reciprocal)
def norm_reciprocal_tangent(out, y):
    """d (1 / y) = -dy / y**2 (0 at a zero norm)"""
    d[out] = -d[y] * out * out


# ---- runtime.py: shape manipulation (all linear in g) -------------------------------------
@tangent(reshape_like)
def reshape_like_tangent(out, g, x, order="C"):
    """d reshape_like(g, x) = reshape_like(dg, x)"""
    d[out] = reshape_like(d[g], x, order)


@tangent(untranspose)
def untranspose_tangent(out, g, axes=None):
    """d untranspose(g) = untranspose(dg)"""
    d[out] = untranspose(d[g], axes)


@tangent(split_concatenated)
def split_concatenated_tangent(out, g, arrays, axis=0):
    """d split_concatenated(g) = split_concatenated(dg): one tangent per piece"""
    d[out] = split_concatenated(d[g], arrays, axis)


@tangent(split_hstacked)
def split_hstacked_tangent(out, g, arrays):
    """d split_hstacked(g) = split_hstacked(dg)"""
    d[out] = split_hstacked(d[g], arrays)


@tangent(split_vstacked)
def split_vstacked_tangent(out, g, arrays):
    """d split_vstacked(g) = split_vstacked(dg)"""
    d[out] = split_vstacked(d[g], arrays)


@tangent(unstack)
def unstack_tangent(out, g, arrays, axis=0):
    """d unstack(g) = unstack(dg)"""
    d[out] = unstack(d[g], arrays, axis)


@tangent(split_array)
def split_array_tangent(out, g, obj):
    """d split_array(g) = split_array(dg)"""
    d[out] = split_array(d[g], obj)


@tangent(untile)
def untile_tangent(out, g, x, reps):
    """d untile(g) = untile(dg)"""
    d[out] = untile(d[g], x, reps)


@tangent(unrepeat)
def unrepeat_tangent(out, g, x, repeats, axis=None):
    """d unrepeat(g) = unrepeat(dg)"""
    d[out] = unrepeat(d[g], x, repeats, axis)


# ---- runtime_flow.py: adjoints in control flow, lists and in-place writes -----------------
@tangent(add_adjoints)
def add_adjoints_tangent(out, a, b):
    """add_adjoints is linear: d (a + b) = da + db, structure by structure"""
    d[out] = add_adjoints(d[a], d[b])


# add_adjoints(0.0, da) copies arrays, lists and dicts alike; copy_adjoint would share a dict
@tangent(scatter_add)
def scatter_add_tangent(out, a, x, index, g):
    """d (a[index] += g) = (da[index] += dg), on a fresh copy of da (it may be shared)"""
    d[out] = scatter_add(add_adjoints(0.0, d[a]), x, index, d[g])


@tangent(take_adjoint)
def take_adjoint_tangent(out, a, index):
    """d a[index] = da[index]"""
    d[out] = take_adjoint(d[a], index)


@tangent(copy_adjoint)
def copy_adjoint_tangent(out, a):
    """d copy(a) = copy(da)"""
    d[out] = copy_adjoint(d[a])


@tangent(float_copy)
def float_copy_tangent(out, a):
    """d copy(a) = copy(da)"""
    d[out] = float_copy(d[a])


@tangent(copy_argument)
def copy_argument_tangent(out, x):
    """d copy(x) = copy(dx)"""
    d[out] = copy_argument(d[x])


@tangent(clear_adjoint)
def clear_adjoint_tangent(out, a, index):
    """d (a[index] = 0) = (da[index] = 0), on a copy of da (it may be shared)"""
    d[out] = clear_adjoint(copy_adjoint(d[a]), index)


@tangent(add_lists)
def add_lists_tangent(out, a, b):
    """add_lists is linear: d (a + b) = da + db, item by item"""
    d[out] = add_lists(d[a], d[b])


@tangent(float_gradient)
def float_gradient_tangent(out, g):
    """float_gradient is the identity on values"""
    d[out] = float_gradient(d[g])


@tangent(match_adjoint)
def match_adjoint_tangent(out, a, x):
    """match_adjoint is linear in a"""
    d[out] = match_adjoint(d[a], x)


@tangent(sum_repeats)
def sum_repeats_tangent(out, g, items):
    """sum_repeats is linear in g"""
    d[out] = sum_repeats(d[g], items)


@tangent(concatenation_part)
def concatenation_part_tangent(out, g, before, items):
    """concatenation_part is linear in g"""
    d[out] = concatenation_part(d[g], before, items)


@tangent(spread_adjoint)
def spread_adjoint_tangent(out, g, items):
    """spread_adjoint is linear in g"""
    d[out] = spread_adjoint(d[g], items)


@tangent(pop_adjoint)
def pop_adjoint_tangent(out, a):
    """the popped item's tangent is popped from da in place, as the helper pops a"""
    d[out] = pop_adjoint(d[a])


@tangent(push_adjoint)
def push_adjoint_tangent(out, a, items, g):
    """push_adjoint is linear in a and g: d push(a, g) = push(da, dg)"""
    d[out] = push_adjoint(d[a], items, d[g])


# ---- runtime_linalg.py -------------------------------------------------------------------
@tangent(dot_adjoint_a)
def dot_adjoint_a_tangent(out, g, a, b):
    """bilinear in g and b"""
    d[out] = dot_adjoint_a(d[g], a, b) + dot_adjoint_a(g, a, d[b])


@tangent(dot_adjoint_b)
def dot_adjoint_b_tangent(out, g, a, b):
    """bilinear in g and a"""
    d[out] = dot_adjoint_b(d[g], a, b) + dot_adjoint_b(g, d[a], b)


@tangent(inner_adjoint_a)
def inner_adjoint_a_tangent(out, g, a, b):
    """bilinear in g and b"""
    d[out] = inner_adjoint_a(d[g], a, b) + inner_adjoint_a(g, a, d[b])


@tangent(inner_adjoint_b)
def inner_adjoint_b_tangent(out, g, a, b):
    """bilinear in g and a"""
    d[out] = inner_adjoint_b(d[g], a, b) + inner_adjoint_b(g, d[a], b)


@tangent(tensordot_adjoint_a)
def tensordot_adjoint_a_tangent(out, g, a, b, axes=2):
    """bilinear in g and b"""
    d[out] = tensordot_adjoint_a(d[g], a, b, axes) + tensordot_adjoint_a(g, a, d[b], axes)


@tangent(tensordot_adjoint_b)
def tensordot_adjoint_b_tangent(out, g, a, b, axes=2):
    """bilinear in g and a"""
    d[out] = tensordot_adjoint_b(d[g], a, b, axes) + tensordot_adjoint_b(g, d[a], b, axes)


@tangent(place_diagonal)
def place_diagonal_tangent(out, g, x, offset=0, axis1=0, axis2=1):
    """place_diagonal is linear in g"""
    d[out] = place_diagonal(d[g], x, offset, axis1, axis2)


@tangent(spread_trace)
def spread_trace_tangent(out, g, x, offset=0, axis1=0, axis2=1):
    """spread_trace is linear in g"""
    d[out] = spread_trace(d[g], x, offset, axis1, axis2)


@tangent(undiag)
def undiag_tangent(out, g, v, k=0):
    """undiag is linear in g"""
    d[out] = undiag(d[g], v, k)


# multilinear in g and the operands other than k (operand k only gives the shape): one
# term per operand j != k with operand j replaced by its tangent. The terms of j == k and
# of absent operands (operands is the None-padded (a, b, c); the first n = commas + 1
# exist) evaluate to `out` and are masked to zero.
@tangent(einsum_operand_adjoint)
def einsum_operand_adjoint_tangent(out, g, subscripts, operands, k):
    """d einsum_operand_adjoint = the same of dg + sum over j != k of the same with d op_j"""
    _n = subscripts.count(",") + 1
    d[out] = einsum_operand_adjoint(d[g], subscripts, operands, k) \
        + (k != 0) * einsum_operand_adjoint(
            g, subscripts, (d[operands][0], operands[1], operands[2])[:_n], k) \
        + (k != 1) * (_n > 1) * einsum_operand_adjoint(
            g, subscripts, (operands[0], d[operands][1], operands[2])[:_n], k) \
        + (k != 2) * (_n > 2) * einsum_operand_adjoint(
            g, subscripts, (operands[0], operands[1], d[operands][2])[:_n], k)


@tangent(as_columns)
def as_columns_tangent(out, v, a, x):
    """as_columns is linear in v (a and x only give the layout)"""
    d[out] = as_columns(d[v], a, x)


# ---- runtime_draws.py: generators' states saved and rewound around a helper's vjp --------
# states are not values of f: no derivative flows through them
nondifferentiable(runtime_draws.random_states, runtime_draws.rewind_random_states)
