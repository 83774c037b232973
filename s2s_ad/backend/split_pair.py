"""A helper's reverse derivative cut in two where its forward sweep ends.

The vjp of a helper h runs h's forward sweep and then its backward sweep. Called from f's
backward sweep, that forward sweep is work f's forward sweep has already done. Split, f
calls the two halves where it would run them by hand:

    def vjp_h(cotangent, x):         def fwd_h(x):                def bwd_h(saved, cotangent):
        t = np.exp(x)          ->        t = np.exp(x)                t, x = saved
        u = t * x                        u = t * x                    x_bar = cotangent * ...
                                         return u, (t, x)             return x_bar
        x_bar = cotangent * ...
        return u, x_bar              (the vjp built with preserve_result: it returns h's value)

`saved` holds the names the backward sweep reads that the forward sweep binds (or h's
parameters), nothing more: h's tape, the intermediates its adjoints read. A name the
forward sweep binds only on some paths starts as None in fwd_h, as it would be unread in
bwd_h on the other paths. No split (None) when the value returned is not all computed by
the end of the forward sweep.
"""
import copy
import dataclasses

import gast

from ..analyses.call_kinds import result_arity
from ..derivation import Derived
from ..ir import build
from ..ir.walk import walk_tree
from .derivative_def import derived_name


def pair_derived(body, written, levels, namer, cotangent, request, func, bindings, cache):
    """A helper's vjp (request.pair) as fwd_h and bwd_h, each written and loaded by
    `written(statements, name, extra parameter, def)` and cached; the Derived of fwd_h
    holds bwd_h's as `backward`. The vjp whole (no `backward`) when it cannot be cut."""
    fname = derived_name(func, dataclasses.replace(request, preserve_result=False))
    saved = namer.fresh("saved")
    arity = result_arity(levels)
    # a list returned would reach f as a tuple of its items: that vjp stays whole
    split = None if arity and _returns_list(levels) else \
        split_pair(body, levels.resolution.parameters, cotangent, saved, arity)
    if split is None:
        function, source = written(body.statements())
        derived = Derived(function, source, levels.tree, request, func, dict(bindings),
                          result_arity(levels))
        cache.put(func, request, derived)
        return derived
    fwd, bwd = split
    fwd_name, bwd_name = (namer.fresh(fname.replace("vjp_", prefix, 1))
                          for prefix in ("fwd_", "bwd_"))
    bwd_def = copy.copy(levels.tree)
    bwd_def.args = gast.arguments(args=[build.name(saved), build.name(cotangent)],
                                  posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                  kwarg=None, defaults=[])
    for arg in bwd_def.args.args:
        arg.ctx = gast.Param()
    backward_function, backward_source = written(bwd, bwd_name, None, bwd_def)
    function, source = written(fwd, fwd_name, None)
    backward = Derived(backward_function, backward_source, levels.tree, request, func,
                       dict(bindings), None)
    derived = Derived(function, source, levels.tree, request, func, dict(bindings),
                      result_arity(levels), backward=backward)
    cache.put(func, request, derived)
    cache.by_function[backward_function] = backward
    return derived


def split_pair(body, parameters, cotangent, saved, arity=None):
    """Body (forward, backward, returned (value, gradients)) of a helper's vjp ->
    (fwd_h's statements, bwd_h's statements) or None. `saved`: the name of bwd_h's
    parameter holding what fwd_h saved. A helper returning n-tuples (arity n): fwd_h
    returns (v0, ..., v(n-1), saved)."""
    returned = body.returned
    if returned is None or not isinstance(returned.value, gast.Tuple) \
            or len(returned.value.elts) != 2:
        return None
    value, gradients = returned.value.elts
    forward_bound = _stored(body.forward)
    known = forward_bound | set(parameters)
    backward_bound = _stored(body.backward)
    if (_loaded([value]) & backward_bound) - known:
        return None               # the value is computed in the backward sweep
    read = _loaded(list(body.backward) + [gradients])
    live = sorted((read & known) - {cotangent})
    top = set(parameters) | {s.targets[0].id for s in body.forward
                             if isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Name)}
    unbound = [build.assign(n, build.const(None)) for n in live if n not in top]
    values = [value] if not arity else list(value.elts) \
        if isinstance(value, gast.Tuple) and len(value.elts) == arity \
        else [build.subscript(build.clone(value), build.const(k)) for k in range(arity)]
    fwd = unbound + list(body.forward) + [build.ret(build.tuple_(
        values + [build.tuple_([build.name(n) for n in live])]))]
    unpack = [build.assign(gast.Tuple(elts=[build.name(n, store=True) for n in live],
                                      ctx=gast.Store()), build.name(saved))] if live else []
    bwd = unpack + list(body.backward) + [build.ret(gradients)]
    return fwd, bwd


def _returns_list(levels):
    ret = levels.tree.body[-1].value
    return any(isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Name)
               and isinstance(ret, gast.Name) and s.targets[0].id == ret.id
               and isinstance(s.value, gast.List) for s in levels.tree.body)


def _stored(statements):
    return {n.id for s in statements for n in walk_tree(s)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}


def _loaded(nodes):
    return {n.id for s in nodes for n in walk_tree(s)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
