"""Stage 7 for reverse mode: from the expanded sweeps to the final function body.

`finish_reverse_body` assembles forward sweep, backward sweep and return, then runs the
clean-up passes in an order where each one's facts still hold: the fixed-point passes
(folding, zeros, dead code, shape proxies, seed folding), in-place accumulation in the
backward sweep, shape tape pairs without a reader, dead cycles, temporaries written back
into their use (then folded again), the branch for Python-number arguments (it copies
the finished body), and last a cast of each returned gradient that may hold integers.

    forward ... ; backward ... ; return g     ->     the body `emit` writes out
"""
import builtins
import math
import re

import gast
import numpy

from ..ir.walk import walk_tree
from .. import runtime, runtime_flow
from ..analyses.shapes import is_elementwise
from ..ir.build import dotted_path
from ..ir import build
from . import PASSES, optimize, with_raising
from .buffers import schedule_in_place
from .closed_forms import closed_form_adjoints
from .dce import remove_dead_cycles
from .float_gradients import float_gradients
from .fold import float_literals_in_adjoints, fold_constants
from .temporaries import inline_temporaries
from .inplace import accumulate_in_place
from .seeds import make_seed_folding_pass
from .shape_proxies import make_shape_proxy_pass
from .shape_tape import drop_unread_shape_tape

_TEMPORARY = re.compile(r"t\d+_\d+$")


def finish_reverse_body(result, request, levels, namer, bindings, user_globals, kinds=None,
                        aux=None, raising=None):
    """The generated function's body (without its docstring). `aux`: the variable holding
    f's aux value (has_aux), returned beside the gradient; `raising`: which statements of
    f may raise (analyses/raising.py), kept by dead-code elimination."""
    body = _assemble(result, request, namer, aux, raising,
                     shape_proxy_pass(levels, bindings), _seed_folding_pass(levels, bindings))
    resolve = _resolver(bindings, user_globals)
    drop_unread_shape_tape(body, resolve)
    body = remove_dead_cycles(body, _pure_call(levels), raising)[0]
    if inline_temporaries(body, _pure_call(levels))[1]:
        body = fold_constants(body)[0]          # e.g. negations that now meet
    float_literals_in_adjoints(body, namer.is_adjoint, resolve)
    body = closed_form_adjoints(
        body, namer.is_adjoint, resolve, _pure_call(levels), _elementwise_call(levels),
        kinds.same_shapes if kinds is not None and request.signature is not None else None,
        raising)
    if request.helper:
        return body           # a helper's adjoints are summed into its caller's
    return float_gradients(body, request, _param_names(levels.tree), resolve,
                           lambda: bindings.name_for("float_gradient",
                                                     runtime_flow.float_gradient))


def in_place_schedule(body, request, levels, namer, bindings, user_globals, kinds):
    """(body, changed): a specialisation's elementwise arithmetic done in arrays nothing
    reads again (optimize/buffers.py). Code written so is not differentiated again (it
    writes into arrays): the pipeline keeps `body` as it was for that."""
    if request.signature is None or kinds is None:
        return body, False
    return schedule_in_place(body, kinds, _resolver(bindings, user_globals),
                             levels.numpy_name, namer.fresh, _generated_name(namer))


def shape_proxy_pass(levels, bindings, nested=False):
    """optimize/shape_proxies.py's pass, bound to this function's names."""
    def helpers():
        return {name: obj.__name__ for name, obj in bindings.names.items()
                if getattr(obj, "__module__", None) == "s2s_ad.runtime"}

    def shaped():
        return bindings.name_for("shaped_like", runtime.shaped_like)
    return make_shape_proxy_pass(helpers, _elementwise_call(levels), shaped, nested)


def _seed_folding_pass(levels, bindings):
    def bound(helper):
        return lambda: next((name for name, obj in bindings.names.items() if obj is helper),
                            None)
    placeholder = bound(runtime.placeholder)
    return make_seed_folding_pass(bound(runtime.unreduce),
                                  lambda: [n for n in [placeholder()] if n],
                                  _elementwise_call(levels))


def _elementwise_call(levels):
    def elementwise(call):
        return not call.keywords and is_elementwise(levels.callees.get(dotted_path(call.func)))
    return elementwise


def _assemble(result, request, namer, aux, raising, *extra_passes):
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
        if isinstance(value, gast.Name) and value.id in _stored_names(result.backward):
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
    body = forward + [build.blank_line()] + result.backward + [build.ret(returned)]
    body = optimize(body, passes=with_raising(raising, extra_passes + PASSES))
    # only the backward sweep: its `N = N + e` are adjoint sums, never a user's own code
    split = next(k for k, stmt in enumerate(body) if build.is_blank_line(stmt)) + 1
    return body[:split] + accumulate_in_place(body[split:])[0]


def _stored_names(statements):
    return {n.id for stmt in statements for n in walk_tree(stmt)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}


def _pure_call(levels):
    """Calls without effects: numpy's and math's functions (not writing into `out=`, not
    drawing random numbers)."""
    def pure(call):
        if any(k.arg == "out" for k in call.keywords):
            return False
        callee = levels.callees.get(dotted_path(call.func))
        home = getattr(callee, "__module__", None) or ""
        if "random" in home:
            return False
        return isinstance(callee, numpy.ufunc) or home == "math" or home.startswith("numpy") \
            or getattr(math, getattr(callee, "__name__", ""), None) is callee is not None
    return pure


def _generated_name(namer):
    """Is a name one s2s_ad made: a temporary `t2_0` or an adjoint `x_bar`?"""
    def generated(name):
        return namer.is_adjoint(name) or _TEMPORARY.match(name) is not None
    return generated


def _param_names(tree):
    args = tree.args
    return [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]


def _resolver(bindings, user_globals):
    """What a free name of the generated code denotes: a binding, a user global, a builtin."""
    def resolve(name):
        for space in (bindings.names, user_globals, vars(builtins)):
            if name in space:
                return space[name]
        return None
    return resolve
