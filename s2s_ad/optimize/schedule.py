"""Stage 7: the one declared schedule of clean-up passes, and what they read.

pipeline.py builds the body (`reverse_body` for reverse mode, `Body.of` for a jvp) and
runs `run_schedule(body, facts, REVERSE)` (or FORWARD). Every pass has one signature,
`(body, facts) -> body`: an optimize.body.Body in, a new Body out (the one given is not
written into: statements a pass does not change are shared, those it changes are new),
`facts` the PassFacts (optimize/pass_facts.py) of the derivative being built. Each pass
keeps to what the generator left (it never re-derives a fact the generator should have
had), so their order is the declared one:

    REVERSE: clean up to a fixed point (folding, dead code), dead cycles, temporaries
             back into their use, in-place sums in the backward sweep, quotients
             such as sinh(u) / cosh(u) read as one call (tanh(u)), the two branches'
             adjoints of an np.where summed as one np.where, closed forms (where
             shapes are proved), the gradients' types (casts of a float argument's
             gradient that may be a numpy scalar, and of gradients that may hold
             integers), and, last, a specialisation's solves reading an inverse it
             computes anyway, a cholesky adjoint's products with L^T that cancel a
             solve's with inv(L)^T, and its arithmetic in buffers, batched tapes and item
             loops
    FORWARD: clean up to a fixed point, repeated pure calls made once, loops over a
             sequence's items
    FORWARD_GRADIENT (a gradient of number code in forward mode, ad/forward_gradient.py):
             clean up, dead cycles, repeated pure calls made once, temporaries (tangents'
             too) back into their use, tangents as short linear forms, loops over a
             sequence's items, the gradients' types (a float argument's gradient that may
             be a numpy scalar or a list's int)

`run_schedule` returns the body before the first pass that writes into arrays (what a
derivative of this derivative differentiates) and the final one; `facts.trace(name,
before, after)`, when given, sees every pass (tests/test_passes.py holds each pass's
before and after).
"""
import builtins
import functools
import itertools
from dataclasses import dataclass

import gast

from .. import runtime_flow, runtime_pieces
from ..ir import build
from ..signature import Num
from ..ir.walk import names_stored
from .body import Body
from .buffers import schedule_in_place
from .cholesky_products import cancel_cholesky_products
from .closed_forms import closed_form_adjoints
from .dce import (drop_empty_comments, eliminate_dead_code, remove_dead_cycles,
                  remove_unread_assignments)
from .float_gradients import float_gradients
from .number_gradients import loose_lists, python_float_casts
from .fold import fold_constants
from .inplace import accumulate_in_place
from .item_loops import iterate_items
from .quotients import read_quotients
from .where_sums import adjoints_masked_outward, merge_where_sums
from .shared_calls import share_repeated_calls
from .sign_products import signs_as_copysign
from .shared_inverses import share_inverses
from .tape_batches import batch_loop_tapes
from .tangent_forms import linear_tangent_forms
from .unit_copies import share_unit_copies
from .temporaries import inline_temporaries

MAX_ROUNDS = 10


# ---- the passes ---------------------------------------------------------------------------
def clean_up(body, facts):
    """Folding and dead code (keeping what may raise) to a fixed point. (Adjoint zeros
    are symbolic while the backward sweep is generated: ad/adjoints.py.)"""
    passes = (fold_constants,
              functools.partial(eliminate_dead_code, raising=facts.raising),
              functools.partial(remove_unread_assignments, raising=facts.raising),
              drop_empty_comments)
    statements = body.statements()
    quiet = 0       # passes run since the last change: all of them in a row, a fixed point
    for run in itertools.islice(itertools.cycle(passes), MAX_ROUNDS * len(passes)):
        statements, changed = run(statements)
        quiet = 0 if changed else quiet + 1
        if quiet == len(passes):
            break
    return Body.of(statements)


def accumulate(body, facts):
    """`N = N + e` -> `N += e` in the backward sweep (its sums are adjoints, never a user's
    own code) where no other name can see N's array."""
    returned = [body.returned] if body.returned is not None else []
    return body.with_backward(accumulate_in_place(list(body.backward), returned)[0])


def dead_cycles(body, facts):
    """Loop-carried values nothing outside their own cycle reads."""
    return Body.of(remove_dead_cycles(body.statements(), facts.pure_call, facts.raising)[0])


def temporaries(body, facts):
    """Single-use temporaries back into their use, then the negations that now meet."""
    statements, changed = inline_temporaries(body.statements(), facts.value_call,
                                             is_adjoint=facts.namer.is_adjoint)
    return Body.of(fold_constants(statements)[0] if changed else statements)


def shared_calls(body, facts):
    """A pure call made again with the same operands reads the first one's value
    (optimize/shared_calls.py)."""
    return Body.of(share_repeated_calls(body.statements(), facts.number_call,
                                        facts.namer.fresh)[0])


def item_loops(body, facts):
    """A forward-mode gradient's loops over a tuple's or list's positions iterate its
    items (optimize/item_loops.py)."""
    return Body.of(iterate_items(body.statements(), facts.kinds, facts.resolve,
                                 facts.tape)[0])


def number_temporaries(body, facts):
    """A forward-mode gradient's single-use temporaries back into their use, copies
    (`sse = t8_0`) included where the temporary is a number."""
    def is_number(name):
        return facts.namer.is_tangent(name) or facts.kinds.is_number(name)
    statements, changed = inline_temporaries(body.statements(), facts.pure_call, is_number)
    return Body.of(fold_constants(statements)[0] if changed else statements)


def tangent_forms(body, facts):
    """A forward-mode gradient's tangents of numbers as the short linear forms a person
    writes (optimize/tangent_forms.py)."""
    return Body.of(linear_tangent_forms(body.statements(), facts.namer.is_tangent,
                                        facts.kinds.is_number)[0])


def quotients(body, facts):
    """`a / cosh(u) * sinh(u)` read as `a * tanh(u)` (and the other quotients of
    optimize/quotients.py); the forward values nothing reads any more dropped."""
    statements, changed = read_quotients(body.statements(), facts.resolve)
    if not changed:
        return body
    return Body.of(eliminate_dead_code(statements, raising=facts.raising)[0])


def where_sums(body, facts):
    """The two branches' adjoints of one np.where added into one adjoint, written as one
    np.where of the two, and a lone branch's `np.where(c, g, 0.0) * h` as `np.where(c, g *
    h, 0.0)` (optimize/where_sums.py): no nan from the branch not taken."""
    statements, changed = merge_where_sums(body.statements(), facts.resolve)
    if changed:
        # the `# grad of` comment of a statement whose contribution moved up goes with it
        # (and a seed of 1.0 that stood in the np.where now multiplies: folded away)
        statements = drop_empty_comments(fold_constants(statements)[0])[0]
    # an np.where's adjoint that no other branch's joined: its mask outside the product
    # and `np.where(c, g, -g)` as a product with +-1
    statements, masked = adjoints_masked_outward(
        statements, facts.resolve, facts.namer.is_adjoint,
        lambda: facts.bindings.name_for("where_negated", runtime_pieces.where_negated))
    return Body.of(statements) if changed or masked else body


def closed_forms(body, facts):
    """Closed-form adjoints of straight-line elementwise code where one shape is proved
    (by a specialisation's facts, or by construction)."""
    same_shapes = facts.kinds.same_shapes if facts.specialised else None
    is_number = facts.kinds.is_number if facts.specialised else None
    return Body.of(closed_form_adjoints(
        body.statements(), facts.namer.is_adjoint, facts.resolve, facts.pure_call,
        facts.elementwise_call, same_shapes, facts.raising, is_number))


def gradient_types(body, facts, integers=True):
    """Casts of the returned gradients (not in a helper's adjoint: it is summed into its
    caller's): a specialisation's Python float argument's to a Python float where the code
    does not prove it one (optimize/number_gradients.py), and, with `integers`, one that
    may hold integers through float_gradient (optimize/float_gradients.py)."""
    request = facts.request
    if request.helper:
        return body
    params = _param_names(facts.levels.tree)
    python_float = None
    if facts.specialised and request.mode in ("grad", "value_and_grad"):
        python_float = python_float_casts(
            body.statements(), request, params, facts.resolve, facts.kinds,
            lambda: facts.bindings.name_for("float", builtins.float))
    if python_float is None and not integers:
        return body
    known_float = _holds_floats(facts.kinds) if facts.specialised \
        and not loose_lists(request) else None
    return Body.of(float_gradients(
        body.statements(), request, params, facts.resolve,
        lambda: facts.bindings.name_for("float_gradient", runtime_flow.float_gradient),
        known_float, python_float, integers))


def number_gradient_types(body, facts):
    """gradient_types of a forward-mode gradient: integers only where they can reach a
    returned gradient, through a list of floats whose guard lets ints in (every other
    value carrying a derivative is a float computed from float seeds)."""
    return gradient_types(body, facts, integers=loose_lists(facts.request))


def in_place_arithmetic(body, facts):
    """A specialisation's abs adjoints as np.copysign where proved equal (sign_products.py),
    its elementwise arithmetic in arrays nothing reads again (buffers.py),
    its loops' saves pushed as one tuple per iteration (tape_batches.py), its loops over a
    tuple's positions iterating the tuple (item_loops.py); `body` itself when nothing
    changed. (Float arrays a loop reads item by item are read from a list by the levels
    form already: transforms/python_floats.py.)"""
    if not facts.specialised:
        return body
    # first abs's `g * np.sign(x)` as `np.copysign(g, x)` where the facts prove them equal
    # (sign_products.py), so that copysign may write into g's array
    statements, signs = signs_as_copysign(body.statements(), facts.kinds,
                                          facts.resolve, facts.levels.numpy_name,
                                          facts.pure_call, facts.request.positive,
                                          facts.signs_read)
    if signs:
        # a clipped form (`np.clip(x, -c, c)`) leaves the abs and minimum it replaced unread
        statements = eliminate_dead_code(statements, raising=facts.raising)[0]
    statements, in_place = schedule_in_place(
        statements, facts.kinds, facts.resolve, facts.levels.numpy_name,
        facts.namer.fresh, facts.generated_name, facts.namer.variable_of_adjoint)
    statements, batched = batch_loop_tapes(statements, facts.tape, facts.namer.fresh)
    statements, direct = iterate_items(statements, facts.kinds, facts.resolve, facts.tape)
    changed = signs or in_place or batched or direct
    body = Body.of(statements) if changed else body
    # last: every write into an array is now written out, so `y = float_copy(x)` at x's
    # last read can alias
    statements, shared = share_unit_copies(body.statements(), facts.kinds, facts.resolve)
    return Body.of(statements) if shared else body


def shared_inverses(body, facts):
    """A specialisation's solves against a matrix whose inverse it computes anyway read that
    inverse, computed once (optimize/shared_inverses.py); `plain` (what a derivative of
    this one differentiates) keeps its solves."""
    if not facts.specialised:
        return body
    statements, changed = share_inverses(
        body.statements(), facts._callee, facts.kinds, facts.levels.numpy_name,
        facts.bindings.name_for, facts.namer.fresh)
    return Body.of(statements) if changed else body


def cholesky_products(body, facts):
    """A specialisation's cholesky adjoint takes a solve's share of L^T L_bar without the two
    products with L^T and inv(L)^T that cancel (optimize/cholesky_products.py)."""
    if not facts.specialised:
        return body
    statements, changed = cancel_cholesky_products(
        body.statements(), facts._callee, facts.levels.numpy_name,
        facts.namer.fresh, facts.bindings.name_for)
    return Body.of(statements) if changed else body


@dataclass(frozen=True)
class Pass:
    name: str
    run: object               # (Body, PassFacts) -> Body
    writes_arrays: bool = False   # its code is not differentiated again (see run_schedule)


REVERSE = (
    Pass("clean up", clean_up),
    Pass("dead cycles", dead_cycles),
    Pass("inline temporaries", temporaries),
    Pass("accumulate in place", accumulate),
    Pass("quotients", quotients),
    Pass("where sums", where_sums),
    Pass("closed forms", closed_forms),
    Pass("gradient types", gradient_types),
    # writes_arrays: a derivative of this derivative differentiates the solves themselves
    Pass("shared inverses", shared_inverses, writes_arrays=True),
    Pass("cholesky products", cholesky_products, writes_arrays=True),
    Pass("in-place arithmetic", in_place_arithmetic, writes_arrays=True),
)
FORWARD = (
    Pass("clean up", clean_up),
    Pass("shared calls", shared_calls),
    Pass("item loops", item_loops),
)
FORWARD_GRADIENT = (
    Pass("clean up", clean_up),
    Pass("dead cycles", dead_cycles),
    Pass("shared calls", shared_calls),
    Pass("inline number temporaries", number_temporaries),
    Pass("tangent forms", tangent_forms),
    Pass("item loops", item_loops),
    Pass("gradient types", number_gradient_types),
)


def run_schedule(body, facts, schedule):
    """(plain, final): the body after the passes up to the first that writes into arrays
    (what differentiating this derivative again reads), and after all of them. No pass
    writes into the body it is given (each returns a new one, sharing the statements it
    did not change; tests/test_passes.py checks every pass's input after the pass), so
    neither does the stage, and no copy is made: `plain` is the body the first pass that
    writes arrays was given."""
    plain = None
    for step in schedule:
        if step.writes_arrays and plain is None:
            plain = body
        after = step.run(body, facts)
        if facts.trace is not None:
            facts.trace(step.name, body, after)
        body = after
    return (plain if plain is not None else body), body


# ---- building the body --------------------------------------------------------------------
def reverse_body(result, request, namer, aux=None):
    """Forward sweep, backward sweep, and the return: the gradient; (value, gradient) for
    value_and_grad and preserve_result; with an aux value, (gradient, aux) and ((value,
    aux), gradient)."""
    grads = result.gradients
    grad_value = grads[0] if request.single else build.tuple_(grads)
    forward = list(result.forward)
    values = [result.output] if request.mode == "value_and_grad" or \
        request.preserve_result else []
    values += [build.name(aux)] if aux is not None else []
    for k, value in enumerate(values):
        if isinstance(value, gast.Name) \
                and any(value.id in names_stored(s) for s in result.backward):
            # the backward sweep restores the variable to earlier values: keep the result
            kept = namer.fresh(f"{value.id}_value")
            forward.append(build.assign(kept, build.clone(value)))
            values[k] = build.name(kept)
    if request.mode == "value_and_grad" or request.preserve_result:
        value = build.tuple_(values) if aux is not None else values[0]
        returned = build.tuple_([value, grad_value])
    elif aux is not None:
        returned = build.tuple_([grad_value, values[0]])
    else:
        returned = grad_value
    return Body(tuple(forward), tuple(result.backward), build.ret(returned))


def _holds_floats(kinds):
    def known(name):
        kind = kinds.of(name)
        return isinstance(kind, Num) and kind.dtype in ("float64", "float32")
    return known


def _param_names(tree):
    args = tree.args
    return [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
