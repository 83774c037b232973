"""Calls of a function read off an object that carries the derivative, `m.act(x)`, where
the derivative is built without knowing m's class (the general one): a method of m
would be differentiated without m's part (refusals.held_methods_of_varied_objects); a
function m holds (`m.act = np.tanh`) is differentiated through. Which one it is is known
when the call runs: a check before the call raises the located error for a method.

    t1_0 = m.act                        t1_0 = m.act
    t2_0 = (x,)                  ->     t2_0 = (x,)
    t3_0 = call_function(t1_0, t2_0)    check_not_method(t1_0, "<the error>")
                                        t3_0 = call_function(t1_0, t2_0)

Takes the levels form and its activity; returns a levels form (the same one when there
is no such call), never writing into its input.
"""
import copy
import dataclasses

from ..ir import build
from ..refusals import held_methods_of_varied_objects
from .. import runtime_checks


def guard_held_methods(levels, activity, namer, generated=False):
    found = held_methods_of_varied_objects(levels, activity, generated)
    if not found:
        return levels
    name = namer.fresh("check_not_method")
    checks = {id(stmt): build.with_location(build.expr_stmt(build.call(
        build.name(name), [build.name(held), build.const(str(error))]
        + ([build.const(True)] if always else []))),
        stmt) for stmt, held, error, always in found}
    return with_checks(levels, checks, name, runtime_checks.check_not_method)


def with_checks(levels, checks, name, check):
    """A new levels form with the statement checks[id(stmt)] before each such stmt, the
    runtime `check` bound under `name` (also for transforms/sequence_operands.py)."""
    tree = copy.copy(levels.tree)
    tree.body = build.with_statements_before(
        levels.tree.body, lambda stmt: [checks[id(stmt)]] if id(stmt) in checks else [])
    callees = dict(levels.callees, **{name: check})
    runtime_names = dict(levels.runtime_names)
    runtime_names[check] = name
    return dataclasses.replace(levels, tree=tree, callees=callees, runtime_names=runtime_names)
