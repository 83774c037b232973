"""The one ordered list of stages (ARCHITECTURE §2), and nothing else decides their order.

    derive(f, Request(mode="grad", wrt=("x",)))  ->  Derived(function, source, levels)

1 parse -> 2 resolve -> 3 fence -> 4 normalize (+ verify) -> 5 analyse ->
6 differentiate -> 7 optimize -> 8 emit -> 9 load.
Derivatives of the user's helper functions are derived through the same pipeline and
cached per (function, wrt, mode) in the `DerivativeCache` the caller passes in. In
reverse mode, before 5's shapes and dataflow, calls of helpers that draw random samples
get the generators' states saved before them (transforms/random_replay.py), which their
vjps' calls rewind to.
"""
import builtins
import copy
import dataclasses
from dataclasses import dataclass

import gast

from .ad.forward import ForwardGenerator
from .ad.forward_gradient import forward_gradient
from .ad.reverse import HelperAdjoint, ReverseInputs, reverse
from .ad.context import ExpansionContext
from .ad.output_seed import output_seeder, refuse_proven_array_output
from .ad.tangents import is_zero
from .ad.unpacked_records import records_checked_in_loops
from .analyses.activity import analyse_activity
from .analyses.shift_invariance import shift_cuts
from .analyses.dataflow import analyse_dataflow, is_list_or_tuple
from .analyses.call_kinds import helper_results, known_functions, result_arity
from .analyses.complex_values import complex_values_of
from .analyses.kinds import analyse_kinds
from .analyses.number_code import forward_gradient_applies
from .analyses.raising import RaisingStatements
from .analyses.shapes import analyse_shapes
from .backend.emit import to_source
from .backend.derivative_def import derivative_def, derivative_docstring, derived_name
from .backend.load import load
from . import runtime_blocks
from .frontend.fence import fence
from .frontend.parse import parse, visible_names
from .frontend.resolve import resolve
from .transforms.function_tables import inline_function_tables
from .transforms.local_objects import replace_local_objects
from .transforms.generators import generators_as_lists
from .frontend.star_params import source_function
from .ir import build
from .ir.grammar import verify
from .ir.naming import Bindings, Namer
from .ir.walk import names_stored
from .optimize.body import Body
from .optimize.float_literals import float_literals_beside_inputs
from .optimize.pass_facts import PassFacts
from .optimize.schedule import FORWARD, FORWARD_GRADIENT, REVERSE, reverse_body, run_schedule
from .transforms.aliased_writes import guard_aliased_writes
from .transforms.unzip_checks import settle_unzip_checks
from .transforms.aux_output import split_aux
from .transforms.random_replay import replay_draws
from .transforms.normalize import normalize, numpy_name_for
from .transforms.python_floats import python_float_reads
from .transforms.container_copies import container_copies
from .transforms.invariant_floats import hoist_invariant_floats
from .collector import collector_paused
from .ir.depth import recursion_room
from .helper_derivatives import HelperEnv, helper_derivative, split_calls, whole_twin
from .backend.split_pair import pair_derived
from .derivation import Derived, Request  # noqa: F401  (api reads Request here)
from .refusals import (reject_constant_output, reject_silent_zero, reject_unfollowed,
                       reject_unsupported_library_calls)
from .transforms.held_methods import guard_held_methods
from .transforms.sequence_operands import guard_sequence_operations
from .transforms.item_unrolling import unroll_item_loops


def front(func, functions=None):
    """Stages 1-4: the levels form of `func` with its namer (used by s2s_ad.normalize).
    `functions`: {parameter: the function it holds} from a signature (calls of the
    parameter are calls of that function)."""
    parsed = parse(func)
    taken = set(dir(builtins)) | set(source_function(parsed.func).__globals__)
    parsed = replace_local_objects(inline_function_tables(generators_as_lists(parsed), taken),
                                   taken)
    parsed = unroll_item_loops(parsed, functions)
    resolution = resolve(parsed)
    fence(parsed, resolution=resolution)
    namer = Namer(visible_names(parsed))
    numpy_name = numpy_name_for(resolution, namer)
    levels = normalize(parsed, resolution, namer, numpy_name, functions or {})
    verify(levels.tree)
    reject_unsupported_library_calls(levels)
    return levels, namer


def derive(func, request, registry, cache):
    func = cache.differentiable(func)
    hit = cache.get(func, request)
    if hit is not None:
        return hit
    # the parser refuses trees deeper than MAX_DEPTH: library walks (gast, astor,
    # deepcopy) that recurse per level fit in this room
    with recursion_room(), collector_paused(), cache.one_derivation():
        return _derive(func, request, registry, cache)


def _front(cache, func, functions=None, read_only=False):
    """front(func, functions), run once per derivation under way and shared (the checks,
    the facts of calls, the helpers' derivatives; grad()'s checks and the first call):
    each caller gets a copy, a `read_only` one (grad()'s checks) only its own namer."""
    levels, namer = _shared_front(cache, func, functions)
    return (levels if read_only else levels.copy()), copy.deepcopy(namer)


def _shared_front(cache, func, functions=None):
    key = ("front", func, tuple(sorted((functions or {}).items())))
    try:
        hash(key)
    except TypeError:
        return front(func, functions)
    return cache.front(key, lambda: front(func, functions))


def _read_levels(cache):
    """A helper's shared levels form, for stages that only read it (kinds, arity, draws,
    split worth): copying tree and namer for each was 40 clones in a model's first call."""
    return lambda helper: _shared_front(cache, helper)[0]


@dataclass(frozen=True)
class _Checked:
    """f in levels form with its facts and activity, every check on its source passed."""
    levels: object
    namer: object
    func: object
    aux: object
    kinds: object
    outputs: list
    activity: object


def outline(func, request, registry, cache):
    """Run every check `derive` makes of f's source (stages 1-5: a located error here is
    one about f) without differentiating; returns (the derivative's name, the def it
    leads to, its docstring). grad() calls this and builds the general derivative only
    when a call needs it."""
    with recursion_room(), collector_paused():
        checked = _checks(func, request, registry, cache, outline=True)
    name = checked.namer.fresh(derived_name(checked.func, request))
    return name, checked.func, derivative_docstring(checked.func, request).value.value


def _checks(func, request, registry, cache, outline=False):
    """f's levels form, facts and activity (stages 1-5), every check on f's source made:
    of f's output too, except for a helper's jvp (whatever it returns has a tangent)."""
    # the outline only reads the shared form (tests/test_stages_keep_inputs.py holds that)
    levels, namer = _front(cache, func, known_functions(request.signature), read_only=outline)
    func = levels.parsed.func           # the def a C-level wrapper (lru_cache) leads to
    aux = None
    if request.has_aux:
        levels, aux = split_aux(levels, namer)
    out_atom = levels.tree.body[-1].value
    forward_helper = request.helper and request.mode == "jvp"
    if not forward_helper:
        reject_constant_output(func, out_atom)
    levels, kinds = _facts(levels, namer, request, cache)
    levels = guard_aliased_writes(settle_unzip_checks(levels, kinds), kinds, namer,
                                  visible_names(levels.parsed),
                                  generated=cache.derived_of(func) is not None)
    outputs = [out_atom.id] if isinstance(out_atom, gast.Name) else []
    activity = analyse_activity(levels, request.wrt, outputs, registry,
                                shift_cuts(levels, outputs, kinds))
    # a derivative differentiated again may be piecewise constant in an argument (the
    # gradient of s(x) * y with s = sign(x), of 2 ** trips for a loop run while x < 10):
    # its zero is the answer
    if not (cache.derived_of(func) is not None or request.zero_allowed or forward_helper):
        reject_silent_zero(levels, request.wrt, outputs, registry)
    reject_unfollowed(levels, request, activity, registry)
    if not outline:
        generated = cache.derived_of(func) is not None
        levels = guard_held_methods(levels, activity, namer, generated=generated)
        levels = guard_sequence_operations(levels, kinds, activity, namer, generated)
    return _Checked(levels, namer, func, aux, kinds, outputs, activity)


def _derive(func, request, registry, cache):
    if request.mode == "jvp":
        return _derive_forward(func, request, registry, cache)
    checked = _checks(func, request, registry, cache)
    levels, namer, func, aux = checked.levels, checked.namer, checked.func, checked.aux
    kinds, outputs, activity = checked.kinds, checked.outputs, checked.activity
    if forward_gradient_applies(request, levels, kinds, activity, registry):
        return _derive_forward_gradient(checked, request, registry, cache)
    bindings = Bindings(namer, _user_object(levels.resolution))
    env = HelperEnv(request, levels, kinds, outputs, registry, cache,
                    lambda helper, r: derive(helper, r, registry, cache),
                    _read_levels(cache))
    levels, kinds, activity, env, pairs = split_calls(env, activity, namer, bindings.name_for,
                                                      cache.derived_of(func) is not None)
    # a helper's vjp runs its body again: the draws it makes are replayed from these
    levels, draw_states = replay_draws(levels, kinds, namer, bindings.name_for,
                                       _read_levels(cache), set(pairs))
    shapes = analyse_shapes(levels, outputs if request.mode != "vjp" else ())
    import numpy
    bindings.name_for(levels.numpy_name, numpy, exact=True)
    bindings.bind_all(levels.runtime_names, levels.resolution.imported)
    fname = namer.fresh(derived_name(func, request))
    cotangent = namer.fresh("cotangent") if request.mode == "vjp" else None

    def derive_helper(helper, wrt, stmt):
        if helper in pairs:
            backward, split_wrt, arity = pairs[helper]
            return HelperAdjoint(backward, split_wrt, (arity or 1) + 1, backward.__name__,
                                 split=True)
        found = helper_derivative(env, "vjp", helper, wrt, stmt)
        return HelperAdjoint(found.function, wrt, found.result_arity, found.name)

    complex_names = complex_values_of(levels, request.helper, levels.tree.body[-1].value)

    seed = output_seeder(request, levels, kinds, bindings, complex_names, cotangent)

    tree = copy.copy(levels.tree)       # float literals beside the arguments: a new body
    tree.body = float_literals_beside_inputs(
        levels.tree.body, _unrebound(levels, request.wrt, kinds), activity.is_active)
    levels = dataclasses.replace(levels, tree=tree)
    dataflow = analyse_dataflow(levels)
    inputs = ReverseInputs(levels, activity, shapes, dataflow, registry, namer, bindings,
                           derive_helper, kinds, complex_names,
                           shape_tape=request.signature is not None, draw_states=draw_states,
                           specialised=request.signature is not None, helper=request.helper)
    result = reverse(inputs, request.wrt, seed)
    refuse_proven_array_output(levels, request, kinds)
    facts = PassFacts(request, levels, namer, bindings, func.__globals__, kinds,
                      RaisingStatements(levels, kinds, bindings, activity), request.trace,
                      result.tape)
    plain, final = run_schedule(reverse_body(result, request, namer, aux), facts, REVERSE)
    plain_body, body, in_place = plain.statements(), final.statements(), final is not plain

    def written(statements, name=fname, extra=cotangent, tree=levels.tree):
        tree = derivative_def(tree, name, [derivative_docstring(
            func, request, () if statements is plain_body else facts.signs_read)] + statements,
                              extra, last=not request.helper, markers=_context_markers(levels),
                              tape=result.tape)
        source = to_source(tree)
        return load(source, name, func, bindings.names), source
    if request.pair:
        return pair_derived(final, written, levels, namer, cotangent, request, func,
                            bindings.names, cache)
    function, source = written(body)
    if pairs:
        # differentiated again, f's derivative is read with its helpers' vjps called whole
        plain_twin = (lambda: whole_twin(lambda r: derive(func, r, registry, cache), request,
                                         cache))
    else:
        plain_twin = (lambda: written(plain_body)) if in_place else None
    derived = Derived(function, source, levels.tree, request, func, dict(bindings.names),
                      result_arity(levels), plain_twin, signs_read=tuple(sorted(facts.signs_read)))
    cache.put(func, request, derived)
    return derived


def _derive_forward(func, request, registry, cache):
    """Forward mode: jvp_f(tangent, *params) -> (value, directional derivative)."""
    import numpy
    checked = _checks(func, request, registry, cache)
    levels, namer, func, kinds = checked.levels, checked.namer, checked.func, checked.kinds
    outputs, activity = checked.outputs, checked.activity
    out_atom = levels.tree.body[-1].value
    bindings = Bindings(namer, _user_object(levels.resolution))
    bindings.name_for(levels.numpy_name, numpy, exact=True)
    bindings.bind_all(levels.runtime_names, levels.resolution.imported)
    fname = namer.fresh(derived_name(func, request))
    tangent = namer.fresh("tangent")

    env = HelperEnv(request, levels, kinds, outputs, registry, cache,
                    lambda helper, r: derive(helper, r, registry, cache),
                    _read_levels(cache))

    def derive_jvp(helper, wrt, stmt):
        found = helper_derivative(env, "jvp", helper, wrt, stmt)
        return found.function, found.name

    inputs = ReverseInputs(levels, activity, analyse_shapes(levels), analyse_dataflow(levels),
                           registry, namer, bindings, None, kinds=kinds,
                           complex_names=complex_values_of(levels, request.helper))
    generator = ForwardGenerator(inputs, ExpansionContext(inputs), derive_jvp)
    seeds = []
    for k, name in enumerate(request.wrt):
        value = build.name(tangent) if request.single else \
            build.subscript(build.name(tangent), build.const(k))
        seeds.append(build.assign(generator.tangent_name(name), value))
    for name in levels.resolution.parameters:
        if name not in request.wrt and activity.is_active(name):
            # not differentiated, but a loop later gives the name values that are: the
            # first iteration reads its tangent, zero for the argument itself
            seeds.append(build.assign(generator.tangent_name(name),
                                      generator.zero_tangent(build.name(name))))
    body = seeds + generator.block(levels.tree.body[:-1])
    result = generator.tangent_of(out_atom)
    result = generator.zero_tangent(out_atom) if is_zero(result) else result
    returned = result if request.tangent_only else build.tuple_([build.clone(out_atom), result])
    body.append(build.ret(returned))
    facts = PassFacts(request, levels, namer, bindings, func.__globals__, kinds,
                      RaisingStatements(levels, kinds, bindings, activity), request.trace)
    body = run_schedule(Body.of(body), facts, FORWARD)[1].statements()
    tree = derivative_def(levels.tree, fname, [derivative_docstring(func, request)] + body, tangent,
                         last=not request.helper, markers=_context_markers(levels))
    return _loaded(tree, fname, func, bindings, levels, request, cache)


def _derive_forward_gradient(checked, request, registry, cache):
    """grad / value_and_grad of number code in forward mode (analyses/number_code.py
    decides when): the output's tangents along each differentiated input."""
    import numpy
    levels, namer, func = checked.levels, checked.namer, checked.func
    tree = copy.copy(levels.tree)       # float literals beside the arguments: a new body
    tree.body = float_literals_beside_inputs(
        levels.tree.body, _unrebound(levels, request.wrt, checked.kinds), checked.activity.is_active)
    levels = dataclasses.replace(levels, tree=tree)
    bindings = Bindings(namer, _user_object(levels.resolution))
    bindings.name_for(levels.numpy_name, numpy, exact=True)
    bindings.bind_all(levels.runtime_names, levels.resolution.imported)
    fname = namer.fresh(derived_name(func, request))
    inputs = ReverseInputs(levels, checked.activity, analyse_shapes(levels),
                           analyse_dataflow(levels), registry, namer, bindings, None,
                           kinds=checked.kinds)
    body, grads = forward_gradient(inputs, request.wrt, checked.outputs, registry, None)
    grad_value = grads[0] if request.single else build.tuple_(grads)
    out_atom = levels.tree.body[-1].value
    if request.mode == "value_and_grad" or request.preserve_result:
        grad_value = build.tuple_([build.clone(out_atom), grad_value])
    body.append(build.ret(grad_value))
    facts = PassFacts(request, levels, namer, bindings, func.__globals__, checked.kinds,
                      RaisingStatements(levels, checked.kinds, bindings, checked.activity),
                      request.trace)
    body = run_schedule(Body.of(body), facts, FORWARD_GRADIENT)[1].statements()
    body, checked = records_checked_in_loops(body, request, levels.resolution.parameters,
                                             bindings.names, func.__globals__,
                                             bindings.name_for)
    docstring = derivative_docstring(func, request)
    docstring.value.value = docstring.value.value.replace(
        " Generated by", f" Forward mode: the derivatives along {', '.join(request.wrt)} are "
        f"carried along with the values. Generated by")
    tree = derivative_def(levels.tree, fname, [docstring] + body, None, last=True,
                          markers=_context_markers(levels))
    return _loaded(tree, fname, func, bindings, levels, request, cache, checked)


def _context_markers(levels):
    """The names normalize gave the markers of `with` and `try` blocks
    (transforms/contexts.py)."""
    return tuple(levels.runtime_names.get(marker) for marker in (
        runtime_blocks.context_enter, runtime_blocks.context_exit, runtime_blocks.guard_enter,
        runtime_blocks.guard_exit, runtime_blocks.finally_enter, runtime_blocks.finally_exit,
        runtime_blocks.body_completes, runtime_blocks.context_bound))


def _loaded(tree, fname, func, bindings, levels, request, cache, checked=()):
    """Stages 8-9 for a forward-mode derivative: its source, loaded, cached."""
    source = to_source(tree)
    function = load(source, fname, func, bindings.names)
    derived = Derived(function, source, levels.tree, request, func,
                      dict(bindings.names), result_arity(levels), records_checked=checked)
    cache.put(func, request, derived)
    return derived


def _facts(levels, namer, request, cache):
    """The kinds of every variable for the request's signature, and the levels form the
    specialisation computes (float64 numbers read from arrays as Python floats, float
    arithmetic a loop repeats on values it never changes done once before it)."""
    results = helper_results(lambda helper, functions=None: _shared_front(cache, helper,
                                                                          functions),
                             exact=cache.derivation_memo("helper kinds"))

    def analyse(form):
        return analyse_kinds(form, dict(request.signature or ()), results)
    levels, kinds = container_copies(levels, analyse(levels), namer, analyse)
    if request.signature is None:
        return levels, kinds
    levels, kinds = python_float_reads(levels, kinds, namer, analyse, request.wrt)
    return hoist_invariant_floats(levels, kinds, analyse)


def _user_object(resolution):
    """The object a bare global/builtin name denotes for the user (None for locals)."""
    return lambda ident: None if resolution.is_value(ident) else resolution.lookup(ident)


def _unrebound(levels, wrt, kinds):
    """The differentiated parameters never assigned to, but lists and tuples (`xs * 2`)."""
    return {name for name in set(wrt) - set(names_stored(levels.tree))
            if not is_list_or_tuple(kinds.of(name))}
