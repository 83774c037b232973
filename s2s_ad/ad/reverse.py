"""Reverse mode: levels form + analyses -> the forward and backward sweeps of a gradient.

The forward sweep is the levels form itself, instrumented to save what it overwrites;
the backward sweep walks it from the last statement to the first, expanding each active
statement's template (ARCHITECTURE §4, §5) and mirroring control flow: a branch replays
the forward sweep's choice, a loop runs backwards over the same range (or over the trip
count recorded on the tape). `reverse` sets up what the walk reads (the adjoints'
bookkeeping, the user functions' adjoints, reads recomputed instead of taped), runs the
walk (backward_walk.py) and resolves the tape markers both sweeps hold (tape.py).

    h = h0                         forward:  (as written, plus _tape pushes)
    for i in t1_0:          ->     backward: for i in t1_0[::-1]:
        h = np.tanh(h)                           h_bar = h_bar * (1.0 - h * h)
                                                 h = _tape.pop()
"""
from dataclasses import dataclass

import gast

from ..ir import build
from ..ir.primitives import operation_of
from ..ir.walk import all_statements, names_stored, walk_tree
from .. import runtime_mappings, runtime_shape
from ..signature import Mapping, Num
from ..analyses.call_kinds import differentiated_helper
from .adjoint_facts import (containers, distinct_index_test, fixed_float_arrays,
                            fixed_float_lists, float_arrays, integer_test)
from .adjoints import Adjoints
from .windows import integer_values
from .context import ExpansionContext
from .backward_walk import BackwardWalker
from .recompute import recomputed_reads
from .helper_calls_reverse import active_params
from .statements import StatementReverser
from .loop_invariants import fixed_length_sequences, loop_invariant_numbers
from .tape import resolve_markers, shapes_read_off_kept_values, shapes_read_within_iterations
from .output_seed import literal_seed


@dataclass
class ReverseInputs:
    levels: object
    activity: object
    shapes: object
    dataflow: object
    registry: object
    namer: object
    bindings: object
    derive_helper: object      # (function, wrt param names, statement) -> HelperAdjoint
    kinds: object = None       # analyses.kinds.Kinds: what each value is (facts)
    complex_names: frozenset = frozenset()   # values that may be complex (complex_values)
    # a loop's value read only for its shape is taped as its shape (a specialisation's
    # values of unknown shape; the general derivative tapes values)
    shape_tape: bool = False
    # id(a call that may draw random samples) -> the generators' states saved before it
    draw_states: dict = None
    specialised: bool = False  # built for a signature (else the general derivative)
    helper: bool = False       # the vjp of a function f calls (its caller reads the result)


@dataclass(frozen=True)
class HelperAdjoint:
    function: object     # vjp_helper(cotangent, *args, **kwargs) -> adjoint(s) of wrt params
    wrt: tuple
    result_arity: object  # n when the helper returns an n-tuple, else None
    name: str             # its function name: vjp_helper, or vjp_helper_a_b for some params
    # bwd_h of a split vjp (transforms/split_calls.py): called as bwd_h(pair[1], cotangent)
    # for `pair = fwd_h(...)`, whose item 0 is the helper's value
    split: bool = False


@dataclass
class ReverseResult:
    forward: list        # forward sweep statements
    backward: list       # backward sweep statements (with provenance comments)
    output: object       # the returned atom
    gradients: list      # one expression per wrt parameter
    tape: str = "_tape"  # the tape's name in both sweeps


def reverse(inputs, wrt, seed):
    """`seed(output_name)` returns (statements, expression) seeding the output's adjoint."""
    levels = inputs.levels
    body = levels.tree.body
    ret, forward = body[-1], body[:-1]
    ctx = ExpansionContext(inputs)
    helpers = _prepare_helpers(forward, inputs, ctx)
    adjoints = Adjoints(inputs.namer, inputs.bindings, levels.numpy_name, inputs.dataflow,
                        fixed_float_arrays(levels, inputs.kinds),
                        containers(forward, inputs, helpers), inputs.complex_names,
                        integer_test(inputs.kinds), float_arrays(inputs.kinds),
                        distinct_index_test(levels, inputs.kinds),
                        integer_values(inputs.kinds),
                        fixed_float_lists(levels, inputs.kinds, inputs.dataflow))
    if inputs.specialised and inputs.kinds is not None:
        adjoints.forward_value = ctx.forward_value
    if inputs.namer.is_taken("_tape"):
        tape = inputs.namer.fresh("tape")
    else:
        tape = "_tape"
        inputs.namer.reserve(tape)
    first_defs = _first_definitions(forward, set(levels.resolution.parameters))
    repeated, repeated_ids = recomputed_reads(
        forward, levels.numpy_name, levels.runtime_names.get(float),
        levels.runtime_names.get(runtime_shape.array_tolist))
    if inputs.kinds is not None:        # and numbers a loop computes alike every iteration
        repeated_ids = repeated_ids | loop_invariant_numbers(
            forward, levels.callees, inputs.kinds.is_number,
            fixed_length_sequences(levels, inputs.kinds, inputs.dataflow))
    statements = StatementReverser(inputs, ctx, adjoints, helpers, first_defs, repeated_ids)
    walker = BackwardWalker(inputs, ctx, adjoints, statements, tape, first_defs, repeated)
    seeded = walker.initialise(ret.value, seed)
    walked = walker.block(forward)
    statements.uniform.flush_all(walked)    # parameters' adjoints still held as numbers
    gradients = [walker.gradient(name) for name in wrt]
    seeded, walked, gradients = literal_seed(seeded, walked, gradients,
                                             inputs.namer.is_adjoint)
    forward = walker.instrument(forward)
    shape_helpers = _shape_helpers(inputs.bindings) if inputs.shape_tape else None
    if shape_helpers is not None and inputs.kinds is not None:
        stable = _stable_names(levels)
        same_dtype = _same_dtype(inputs.kinds)
        counts = _count_helpers(inputs.bindings)
        shapes_read_within_iterations(walker.iterations, shape_helpers[0],
                                      inputs.kinds.iteration_classes, stable, same_dtype,
                                      counts)
        shapes_read_off_kept_values(seeded + walked, shape_helpers[0],
                                    inputs.kinds.shape_class, stable,
                                    levels.resolution.parameters,
                                    (levels.numpy_name, same_dtype), counts)
    # the seed section reads final values only: it never needs anything from the tape
    forward, walked, used = resolve_markers(forward, walked, tape, levels.numpy_name,
                                            shape_helpers,
                                            _item_helpers(inputs.bindings),
                                            _mappings(inputs), _copies(inputs.kinds),
                                            gradients)
    backward = seeded + walked
    if used or walker.counted:
        forward = walker.unbound_guards(forward) + [build.assign(tape, gast.List(elts=[],
                                                                         ctx=gast.Load()))] + forward
    return ReverseResult(list(forward), backward, ret.value, gradients, tape)


def _same_dtype(kinds):
    """Are a and b values of one type and dtype (np.zeros_like, unreduce, ... of either
    give the same dtype)?"""
    def same(a, b):
        ka, kb = kinds.of(a), kinds.of(b)
        return isinstance(ka, Num) and isinstance(kb, Num) and ka.type is kb.type \
            and ka.dtype is not None and ka.dtype == kb.dtype
    return same


def _stable_names(levels):
    """Parameters never rebound and names bound once, by a top-level assignment."""
    counts = {}
    for name in names_stored(levels.tree):
        counts[name] = counts.get(name, 0) + 1
    top = {stmt.targets[0].id for stmt in levels.tree.body
           if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)}
    return {p for p in levels.resolution.parameters if p not in counts} | {
        name for name in top if counts[name] == 1}


def _copies(kinds):
    """name -> do the facts prove it a number (x[i] of a vector: no memory shared)?"""
    if kinds is None:
        return None
    return kinds.is_number


def _mappings(inputs):
    """Names holding dicts (built in f, or a dict argument): their entries' writes may
    create a key, so their saves and restores go through runtime_mappings."""
    found = set()
    for stmt in all_statements(inputs.levels.tree.body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            op = operation_of(stmt.value, inputs.levels.callees)
            if op.primitive in (runtime_mappings.make_mapping, dict):
                found.add(stmt.targets[0].id)
    return found | {name for name, kind in (inputs.kinds.facts if inputs.kinds else {}).items()
                    if isinstance(kind, Mapping)}


def _item_helpers(bindings):
    """bind(helper) -> its name: a dict entry an index write creates is saved and
    restored by runtime_mappings.saved_entry / restore_entry (it may not exist before)."""
    return lambda helper: bindings.name_for(helper.__name__, helper)


def _count_helpers(bindings):
    """The names reduced_count is bound to: it reads a shape and no dtype."""
    from .. import runtime
    return frozenset(name for name, obj in bindings.names.items()
                     if obj is runtime.reduced_count)


def _shape_helpers(bindings):
    """Which runtime-helper arguments are read for their shape only, and the names of the
    helpers that tape a shape and restore a placeholder of it."""
    from .. import runtime
    reads = {"unbroadcast": {1}, "unreduce": {1}, "reduced_count": {0}}
    positions = {name: reads[obj.__name__] for name, obj in bindings.names.items()
                 if getattr(obj, "__module__", None) == "s2s_ad.runtime"
                 and obj.__name__ in reads}
    if not positions:
        return None
    return (positions, bindings.name_for("shape_of", runtime.shape_of),
            bindings.name_for("placeholder", runtime.placeholder))


def _prepare_helpers(forward, inputs, ctx):
    """The adjoint of every user function called on active values, by the id of the
    calling statement: two calls may bind one name (`r = mul(a, b)` on one branch,
    `r = mul(b, a)` on the other) with different parameters active."""
    helpers = {}
    for stmt in all_statements(forward):
        if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
            continue
        target = stmt.targets[0].id
        op = operation_of(stmt.value, inputs.levels.callees)
        if not inputs.activity.is_active(target) or not differentiated_helper(op, inputs.registry):
            continue          # a run-time function's vjp: a located error, not a helper
        active = active_params(op, ctx)
        if active:
            wrt = tuple(p for p, _ in active)
            helpers[id(stmt)] = inputs.derive_helper(op.primitive, wrt, stmt)
    return helpers


def _first_definitions(top_level, params):
    """ids of top-level assignments that bind a name for the first time: nothing to save."""
    defined, first = set(params), set()
    for stmt in top_level:
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            if stmt.targets[0].id not in defined:
                first.add(id(stmt))
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                defined.add(node.id)
    return first
