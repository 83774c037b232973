"""Functions whose results carry no derivative: constructors, shapes, indices, rounding,
predicates and comparisons (their derivative is zero or undefined)."""
import numpy as np

from s2s_ad import (runtime_arrays, runtime_blocks, runtime_creation, runtime_flow,
                    runtime_mappings, runtime_pieces, runtime_spread, runtime_statistics)
from s2s_ad.ad.template_dsl import nondifferentiable

nondifferentiable(  # constructors (np.full, np.full_like, np.linspace: numpy_creation.py)
    np.zeros_like, np.ones_like, np.empty_like, np.zeros, np.ones, np.empty, np.arange,
    np.eye, np.identity)

nondifferentiable(  # shapes and indices
    np.shape, np.size, np.ndim, np.argmax, np.argmin, np.argsort, np.nonzero,
    np.count_nonzero, np.searchsorted, np.digitize)

nondifferentiable(  # piecewise constant
    np.sign, np.heaviside, np.floor, np.ceil, np.round, np.around, np.rint, np.trunc,
    np.fix, np.floor_divide)

nondifferentiable(  # predicates and comparisons
    np.isnan, np.isinf, np.isfinite, np.any, np.all, np.logical_and, np.logical_or,
    np.logical_not, np.logical_xor, np.equal, np.not_equal, np.less, np.less_equal,
    np.greater, np.greater_equal, np.isclose, np.allclose, np.array_equal, np.array_equiv,
    np.isposinf, np.isneginf, np.signbit, np.isin, np.isreal, np.iscomplex)

nondifferentiable(len, range, int, bool, isinstance, round)  # builtins

nondifferentiable(  # integer and boolean scalar types called on a value (`np.int64(w[:, -1])`
    # as indices): piecewise constant, as int(x) is
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.bool_)


nondifferentiable(runtime_flow.mapping_keys, runtime_flow.stop_gradient,
                  runtime_flow.extremum_index, runtime_flow.sorted_order,
                  runtime_mappings.saved_entry, runtime_mappings.restore_entry)

nondifferentiable(runtime_blocks.body_completes,   # the test of a `try` with a fallback
                  runtime_blocks.context_bound)    # what `with ... as w` binds

nondifferentiable(format)   # f-strings: text, no derivative

nondifferentiable(runtime_spread.vector_norm_layout,   # axes, shapes, slices
                  runtime_pieces.trimmed_region)

# why an argument is refused (a message, or None): text, no derivative
nondifferentiable(runtime_arrays.pad_mode_problem, runtime_creation.linspace_retstep_problem,
                  runtime_statistics.quantile_method_problem)
