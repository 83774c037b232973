"""Calls of helpers that draw random samples: the generators' states are saved before
each call, so the helper's vjp (which runs its body again in the backward sweep) can
draw the very same samples (runtime_draws.py says how the backward sweep uses them).

    z = sample(mu, rs)        ->    draw_state = random_states(mu, rs)
                                    z = sample(mu, rs)

The samples are constants of the derivative, drawn once per call of the gradient in the
order f draws them. A helper draws when its body (or a helper it calls) calls a method
of a RandomState or Generator it receives as an argument, an np.random function (numpy's
global generator), or a method of a module-level generator (bound here under a name the
generated code reads); a function chosen when the code runs (`call_function`) may draw
anything, so the states are kept around its calls too. A generator the saved states cannot reach (read from an object's
attribute, made without a seed inside the helper) is a located error: its vjp would draw
other samples. Reverse mode only: jvp calls each helper's jvp once. Returns a new levels
form and {id(calling statement): the state's name}; never writes into its input.
"""
import copy
import dataclasses
import inspect

import gast
import numpy

from .. import runtime_draws
from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.primitives import is_random_draw, operation_of
from ..ir.walk import all_statements
from ..runtime_functions import call_function

_GLOBAL_GENERATOR = numpy.random.mtrand._rand
_CONSTRUCTORS = (numpy.random.RandomState, numpy.random.default_rng, numpy.random.Generator)


def replay_draws(levels, kinds, namer, bind, front, split=frozenset()):
    """`bind(name, obj)` names an object for generated code; `front(helper)` gives a
    helper's levels form (made once per derivation); `kinds` (the facts, or None) tells
    which arguments are numbers or arrays, never generators. `split`: the fwd_h of the
    helpers called through their split vjps (transforms/split_calls.py): they run once,
    in the forward sweep, so their draws need no replay."""
    found = {}                          # id(statement) -> (statement, sources)
    seen = {}
    for stmt in all_statements(levels.tree.body):
        helper, call = _helper_call(stmt, levels.callees)
        if helper is None or helper in split:
            continue
        # a function chosen when the code runs may draw: its states are kept in any case
        draws = [] if helper is call_function else _draws_of(helper, front, seen)
        if draws is None:
            continue
        if isinstance(draws, str):
            raise UnsupportedSyntaxError(
                f"`{getattr(helper, '__name__', 'this helper')}(...)` draws random samples "
                f"{draws}, and its derivative would run it again and draw other ones",
                levels.parsed.source_map.locate(call),
                "pass the generator to the helper as an argument (or use np.random's "
                "functions): its draws are then replayed")
        names = [a for a in _names(call) if kinds is None or kinds.axes(a) is None]
        names += [bind("generator", g) for g in draws]
        found[id(stmt)] = (stmt, list(dict.fromkeys(names)))
    if not found:
        return levels, {}
    helper_name = namer.fresh("random_states")
    states, saves = {}, {}
    for key, (stmt, names) in found.items():
        states[key] = namer.fresh("draw_state")
        saves[key] = build.with_location(build.assign(states[key], build.call(
            build.name(helper_name), [build.name(n) for n in names])), stmt)
    tree = copy.copy(levels.tree)
    tree.body = build.with_statements_before(
        levels.tree.body, lambda stmt: [saves[id(stmt)]] if id(stmt) in saves else [])
    callees = dict(levels.callees, **{helper_name: runtime_draws.random_states})
    runtime_names = dict(levels.runtime_names)
    runtime_names[runtime_draws.random_states] = helper_name
    return dataclasses.replace(levels, tree=tree, callees=callees,
                               runtime_names=runtime_names), states


def _helper_call(stmt, callees):
    """(the user function, the call) when `stmt` calls one, else (None, None)."""
    if not isinstance(stmt, (gast.Assign, gast.Expr)) or not isinstance(stmt.value, gast.Call):
        return None, None
    primitive = operation_of(stmt.value, callees).primitive
    if primitive is call_function:
        return primitive, stmt.value
    home = getattr(primitive, "__module__", None) or ""
    if not inspect.isfunction(primitive) or home.split(".")[0] in ("numpy", "s2s_ad"):
        return None, None
    return primitive, stmt.value


def draws_of(helper, front):
    """Does `helper` (or a helper it calls) draw random samples? (front: as replay_draws')"""
    return _draws_of(helper, front, {}) is not None


def _draws_of(helper, front, seen):
    """None when `helper` draws nothing; else the module-level generators it draws from
    (a list, maybe empty), or a string saying which draw cannot be replayed."""
    if helper in seen:
        return seen[helper]
    seen[helper] = None                 # recursion: the first visit decides
    try:
        levels = front(helper)
    except Exception:                   # not ours to report here: its derivative will
        return None
    params = set(levels.resolution.parameters)
    seeded = set()                      # locals made by a constructor given a seed
    draws, objects = False, []
    for stmt in all_statements(levels.tree.body):
        value = stmt.value if isinstance(stmt, (gast.Assign, gast.Expr)) else None
        if not isinstance(value, gast.Call):
            continue
        op = operation_of(value, levels.callees)
        if op.primitive in _CONSTRUCTORS:
            if not (op.args or op.keywords):
                seen[helper] = "from a generator made without a seed"
                return seen[helper]
            if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
                seeded.add(stmt.targets[0].id)
            continue
        inner, call = _helper_call(stmt, levels.callees)
        if inner is not None:
            found = [] if inner is call_function else _draws_of(inner, front, seen)
            if isinstance(found, str):
                seen[helper] = found
                return found
            if found is not None:
                # generators it hands on from its closure or module: the call site of
                # `helper` does not pass them
                draws = True
                handed = [_generator_named(levels, a) for a in _names(call)]
                objects += found + [g for g in handed if g is not None]
            continue
        if not is_random_draw(op):
            continue
        draws = True
        owner = getattr(op.primitive, "__self__", None)
        if owner is _GLOBAL_GENERATOR or owner is numpy.random:
            continue
        if isinstance(owner, (numpy.random.RandomState, numpy.random.Generator)):
            objects.append(owner)
            continue
        root = (op.callee or "").split(".")[0]
        if op.primitive is None and (root in params or root in seeded):
            continue
        if op.primitive is None and _generator_named(levels, root) is not None:
            objects.append(_generator_named(levels, root))
            continue
        if op.primitive is not None and owner is None:
            continue                    # a function of np.random (the global generator)
        seen[helper] = ("from a generator it does not receive as an argument (an object's "
                        "attribute, a container's item)")
        return seen[helper]
    seen[helper] = objects if draws else None
    return seen[helper]


def _names(call):
    return [a.id for a in list(call.args) + [k.value for k in call.keywords]
            if isinstance(a, gast.Name)]


def _generator_named(levels, name):
    """The RandomState or Generator a closure or module name holds, else None."""
    if levels.resolution.is_value(name):
        return None
    value = levels.resolution.lookup(name)
    return value if isinstance(value, (numpy.random.RandomState, numpy.random.Generator)) \
        else None
