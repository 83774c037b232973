"""The seed of reverse mode: what the output's adjoint starts as, and the check that the
output is a scalar where the facts do not prove it one.

`output_seeder(...)` returns seed(output) -> (statements, seed expression), which
ad.reverse.reverse calls once for the returned value:

    grad, output a float (facts)      ->  [], 1.0
    grad, output of unknown shape     ->  [if type(y) is not float: check_scalar_output(y)], 1.0
    vjp (the user's)                  ->  [cotangent = check_cotangent(cotangent, y)], cotangent
    vjp of a helper                   ->  [], cotangent   (its caller passes the right shape)

`literal_seed(...)` reads a seed `loss_bar = 1.0` that the backward sweep never binds again
(the output a loop adds to: `s = s + e` passes s's adjoint back unchanged), and any other
adjoint bound once to a float literal, as the literal itself, after the walk, so that
stage 7's folding sees `1.0 * 2.0 * t9_0`:

    loss_bar = 1.0                              for t in t1_0[::-1]:
    for t in t1_0[::-1]:                ->          t9_0_bar = 1.0 * 2.0 * t9_0
        t9_0_bar = loss_bar * 2.0 * t9_0
"""
import os

import gast

from ..analyses.shapes import scalar_output_leaves
from ..errors import NonScalarOutputError
from ..ir import build
from ..ir.walk import names_stored
from .. import runtime_checks


def output_seeder(request, levels, kinds, bindings, complex_names, cotangent):
    """seed(output) for this request: `cotangent` is the vjp's cotangent parameter (None
    for grad), `complex_names` the values that may hold complex numbers."""
    def seed(output):
        if request.mode == "vjp":
            if request.helper:      # our own adjoints call helpers with the right shapes
                return [], build.name(cotangent)
            check = bindings.name_for("check_cotangent", runtime_checks.check_cotangent)
            return [build.assign(cotangent, build.call(build.name(check), [
                build.name(cotangent), build.name(output)]))], build.name(cotangent)
        if output in complex_names:
            # its shape may be known, but it may hold a complex number: check the value
            check = bindings.name_for("check_scalar_output", runtime_checks.check_scalar_output)
            return [build.expr_stmt(build.call(build.name(check), [build.name(output)]))], \
                build.const(1.0)
        leaves = scalar_output_leaves(levels, output)
        if not leaves or kinds.axes(output) == ():
            return [], build.const(1.0)
        check = bindings.name_for("check_scalar_output", runtime_checks.check_scalar_output)
        call = build.expr_stmt(build.call(build.name(check), [build.name(v) for v in leaves]))
        # Python floats are scalars: skip the call for them (it costs more than the math).
        # `type` and `float` are bound like the helpers: closure cells load faster than
        # builtins, and a module that rebinds either name cannot change the test
        type_name = bindings.name_for("type", type)
        float_name = bindings.name_for("float", float)
        floats = [gast.Compare(left=build.call(build.name(type_name), [build.name(v)]),
                               ops=[gast.Is()], comparators=[build.name(float_name)])
                  for v in leaves]
        if len(floats) == 1:
            floats[0].ops = [gast.IsNot()]
            test = floats[0]
        else:
            test = gast.UnaryOp(op=gast.Not(), operand=gast.BoolOp(op=gast.And(), values=floats))
        guard = gast.If(test=test, body=[call], orelse=[])
        return [guard], build.const(1.0)
    return seed


def refuse_proven_array_output(levels, request, kinds):
    """grad of a function the facts prove returns an array (a signature gave its rank): the
    located error at its return statement, when the derivative is built (called after the
    backward walk, so a missing derivative inside f is named first). Where the facts do
    not decide, the generated check of output_seeder raises when the code runs."""
    ret = levels.tree.body[-1]
    if request.mode == "vjp" or request.signature is None \
            or not isinstance(ret.value, gast.Name) or not kinds.axes(ret.value.id):
        return
    func = levels.parsed.func
    rank = len(kinds.axes(ret.value.id))
    where = f"{os.path.basename(func.__code__.co_filename)}:{func.__code__.co_firstlineno}"
    raise NonScalarOutputError(
        f"grad needs a function with a real scalar output, but {func.__qualname__} "
        f"({where}) returns an array of {rank} dimension{'s' if rank > 1 else ''} here",
        levels.parsed.source_map.locate(ret),
        "use s2s_ad.vjp(f) (or jacobian) for array outputs, or reduce the output to a "
        "scalar (e.g. np.sum)")


def literal_seed(seeded, walked, gradients, is_adjoint):
    """(seeded, walked, gradients) with the adjoints bound once, at the top level, to a
    float literal (the accumulated output's seed; `l2_bar = 0.001` of `l2 * np.sum(w * w)`)
    read as that literal: their statements go, and their reads in `walked` (the
    generator's own statements, edited where they stand, as tape.py edits them after)
    and in `gradients` become the literal. A name bound once at the top level is read
    only after that (it is bound nowhere before)."""
    stores = {}
    for stmt in seeded + walked:
        for name in names_stored(stmt):
            stores[name] = stores.get(name, 0) + 1
    seeds = {s.targets[0].id: s.value.value for s in seeded + walked
             if build.assigned_name(s) is not None and isinstance(s.value, gast.Constant)
             and type(s.value.value) is float and is_adjoint(s.targets[0].id)
             and stores[s.targets[0].id] == 1}
    if not seeds:
        return seeded, walked, gradients
    literals = _Literals(seeds)
    seeded, walked = ([literals.visit(s) for s in part if build.assigned_name(s) not in seeds]
                      for part in (seeded, walked))
    return seeded, walked, [literals.visit(g) for g in gradients]


class _Literals(gast.NodeTransformer):
    def __init__(self, seeds):
        self.seeds = seeds

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load) and node.id in self.seeds:
            return build.const(self.seeds[node.id])
        return node
