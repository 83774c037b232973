"""Reverse mode: levels form + analyses -> the body of a gradient function.

The forward sweep is the levels form itself; the backward sweep walks it from the last
statement to the first and, for each active statement, expands its primitive's template
(ARCHITECTURE §4, §5). Calls to the user's own functions use their generated adjoints.

    t1_0 = np.tanh(x)              t1_0 = np.tanh(x)
    y = np.sum(t1_0)         ->    y = np.sum(t1_0)
    return y                       y_bar = scalar_seed(y)
                                   # grad of: y = np.sum(np.tanh(x))
                                   t1_0_bar = unreduce(y_bar, t1_0, None, False)
                                   x_bar = t1_0_bar * (1.0 - t1_0 * t1_0)
                                   return x_bar
"""
import inspect
from dataclasses import dataclass

import gast

from ..errors import MissingDerivativeError
from ..ir import build
from ..ir.primitives import identity, operation_of
from .adjoints import Adjoints
from .expand import BindingError, bind_operands, expand


@dataclass
class ReverseInputs:
    levels: object
    activity: object
    shapes: object
    registry: object
    namer: object
    bindings: object
    derive_helper: object      # (function, wrt param names) -> HelperAdjoint


@dataclass(frozen=True)
class HelperAdjoint:
    function: object     # vjp_helper(cotangent, *args, **kwargs) -> adjoint(s) of wrt params
    wrt: tuple
    result_arity: object  # n when the helper returns an n-tuple, else None


@dataclass
class ReverseResult:
    forward: list        # forward sweep statements
    backward: list       # backward sweep statements (with provenance comments)
    output: object       # the returned atom
    gradients: list      # one expression per wrt parameter


def tuple_arity(levels, variable, helper_arity):
    """n when `variable` is an n-tuple built in the function, else None."""
    for stmt in levels.tree.body:
        if isinstance(stmt, gast.Assign) and stmt.targets[0].id == variable:
            if isinstance(stmt.value, (gast.Tuple, gast.List)):
                return len(stmt.value.elts)
            return helper_arity.get(variable)
    return None


class _Context:
    """What template expansion needs from this generated function."""

    def __init__(self, inputs):
        self.i = inputs

    def fresh_name(self, temp):
        return self.i.namer.fresh(temp.lstrip("_"))

    def global_name(self, ident, obj):
        if obj is _numpy_module():
            return self.i.levels.numpy_name
        return self.i.bindings.name_for(ident, obj)

    def is_active_operand(self, atom):
        return isinstance(atom, gast.Name) and self.i.activity.is_active(atom.id)

    def same_shape(self, result, atom):
        return self.i.shapes.same(result, atom)


def _numpy_module():
    import numpy
    return numpy


def reverse(inputs, wrt, seed):
    """`seed(output_name)` returns (statements, expression) seeding the output's adjoint."""
    levels = inputs.levels
    body = levels.tree.body
    ret = body[-1]
    forward = body[:-1]
    adjoints = Adjoints(inputs.namer, inputs.bindings, levels.numpy_name)
    ctx = _Context(inputs)
    helpers = _prepare_helpers(forward, inputs, ctx)
    helper_arity = {t: h.result_arity for t, h in helpers.items() if h.result_arity}
    backward = []
    out_atom = ret.value
    if isinstance(out_atom, gast.Name) and inputs.activity.is_active(out_atom.id):
        seed_stmts, seed_value = seed(out_atom.id)
        _contribute(out_atom.id, seed_value, inputs, adjoints, helper_arity, seed_stmts)
        backward.extend(seed_stmts)
    last_line = None
    for stmt in reversed(forward):
        if not isinstance(stmt, gast.Assign):
            continue
        target = stmt.targets[0].id
        if not inputs.activity.is_active(target):
            continue
        block = []
        op = operation_of(stmt.value, levels.callees)
        arity = tuple_arity(levels, target, helper_arity)
        has_adjoint = adjoints.has(target) or (
            arity and any(adjoints.has((target, k)) for k in range(arity)))
        if not has_adjoint:
            continue
        _differentiate(stmt, op, target, inputs, ctx, adjoints, block, helper_arity, helpers)
        if not block:
            continue
        if stmt.lineno != last_line:
            text = levels.parsed.source_map.line_text(stmt)
            backward.append(build.comment(f"grad of: {text}"))
            last_line = stmt.lineno
        backward.extend(block)
    gradients = []
    for name in wrt:
        grad = adjoints.get(name)
        if grad is None:
            from ..runtime import zero_adjoint
            helper = inputs.bindings.name_for("zero_adjoint", zero_adjoint)
            grad = build.call(build.name(helper), [build.name(name)])
        gradients.append(grad)
    return ReverseResult(list(forward), backward, out_atom, gradients)


def _prepare_helpers(forward, inputs, ctx):
    """The adjoint of every user function called on active values, by call target."""
    helpers = {}
    for stmt in forward:
        if not isinstance(stmt, gast.Assign):
            continue
        target = stmt.targets[0].id
        op = operation_of(stmt.value, inputs.levels.callees)
        if not inputs.activity.is_active(target) or not inspect.isfunction(op.primitive) \
                or inputs.registry.reverse(op.primitive) is not None:
            continue
        active = _active_params(op, ctx)
        if active:
            wrt = tuple(p for p, _ in active)
            helpers[target] = inputs.derive_helper(op.primitive, wrt, stmt)
    return helpers


def _active_params(op, ctx):
    """(parameter name, operand variable) for each active operand of a helper call."""
    params = list(inspect.signature(op.primitive).parameters)
    active = []
    for position, atom in enumerate(op.args):
        if ctx.is_active_operand(atom) and position < len(params):
            active.append((params[position], atom.id))
    for key, atom in op.keywords.items():
        if ctx.is_active_operand(atom):
            active.append((key, atom.id))
    return active


def _differentiate(stmt, op, target, inputs, ctx, adjoints, out, helper_arity, helpers):
    levels = inputs.levels
    result_adjoint = adjoints.get(target)
    if op.primitive is identity:
        if ctx.is_active_operand(op.args[0]):
            _contribute(op.args[0].id, result_adjoint, inputs, adjoints, helper_arity, out)
        return
    if op.primitive in (tuple, list):
        for k, elt in enumerate(op.args):
            slot = adjoints.get((target, k))
            if slot is not None and ctx.is_active_operand(elt):
                _contribute(elt.id, slot, inputs, adjoints, helper_arity, out)
        return
    if _is_tuple_item(op, levels, helper_arity):
        source, k = op.args[0].id, op.args[1].value
        adjoints.contribute((source, k), result_adjoint, out)
        return
    template = inputs.registry.reverse(op.primitive) if op.primitive is not None else None
    if template is None and target in helpers:
        _differentiate_helper(op, target, helpers[target], inputs, ctx, adjoints, out)
        return
    if template is None:
        raise MissingDerivativeError(
            f"no derivative is known for `{_describe(op)}`", _locate(levels, stmt),
            "register one with @s2s_ad.adjoint, or wrap the value in a differentiable "
            "numpy expression")
    try:
        bound = bind_operands(template, op.args, op.keywords)
        expansion = expand(template, bound, target, result_adjoint, ctx)
    except BindingError as exc:
        raise MissingDerivativeError(f"`{_describe(op)}`: {exc}", _locate(levels, stmt),
                                     "call it with the arguments s2s_ad supports") from None
    out.extend(expansion.statements)
    for param, index, value in expansion.contributions:
        operand = bound[param]
        if index is None:
            _contribute(operand.id, value, inputs, adjoints, helper_arity, out)
        else:
            adjoints.contribute_at(operand.id, operand, index, value, out)


def _contribute(variable, value, inputs, adjoints, helper_arity, out):
    """A whole-value contribution; a sequence's adjoint is kept item by item."""
    arity = tuple_arity(inputs.levels, variable, helper_arity)
    if not arity:
        adjoints.contribute(variable, value, out)
        return
    if not isinstance(value, gast.Name):
        whole = inputs.namer.fresh(f"{variable}_bar")
        out.append(build.assign(whole, value))
        value = build.name(whole)
    for k in range(arity):
        item = build.subscript(build.clone(value), build.const(k))
        adjoints.contribute((variable, k), item, out)


def _is_tuple_item(op, levels, helper_arity):
    import operator
    if op.primitive is not operator.getitem or not isinstance(op.args[0], gast.Name):
        return False
    index = op.args[1]
    if not (isinstance(index, gast.Constant) and isinstance(index.value, int)):
        return False
    return tuple_arity(levels, op.args[0].id, helper_arity) is not None


def _differentiate_helper(op, target, helper, inputs, ctx, adjoints, out):
    """t = helper(a, b)  ->  a_bar_1, b_bar_1 = vjp_helper(t_bar, a, b)."""
    function = op.primitive
    active = _active_params(op, ctx)
    cotangent = _cotangent(target, helper, adjoints, inputs)
    vjp_name = inputs.bindings.name_for(f"vjp_{function.__name__}", helper.function)
    call = build.call(build.name(vjp_name), [cotangent] + [a for a in op.args],
                      list(op.keywords.items()))
    parts = []
    for _, var in active:
        fresh = not adjoints.has(var) and adjoints.name_of(var) not in parts
        parts.append(adjoints.name_of(var) if fresh else inputs.namer.fresh(f"{var}_bar"))
    if len(parts) == 1:
        out.append(build.assign(parts[0], call))
    else:
        out.append(build.assign_tuple(parts, call))
    for part, (_, var) in zip(parts, active):
        _contribute(var, build.name(part), inputs, adjoints, {}, out)


def _cotangent(target, helper, adjoints, inputs):
    if not helper.result_arity:
        return adjoints.get(target)
    from ..runtime import zero_adjoint
    items = []
    for k in range(helper.result_arity):
        slot = adjoints.get((target, k))
        if slot is None:
            zero = inputs.bindings.name_for("zero_adjoint", zero_adjoint)
            slot = build.call(build.name(zero), [build.subscript(build.name(target),
                                                                 build.const(k))])
        items.append(slot)
    return build.tuple_(items)


def _describe(op):
    if op.callee:
        return f"{op.callee}(...)"
    return getattr(op.primitive, "__name__", repr(op.primitive))


def _locate(levels, stmt):
    node = stmt.value if hasattr(stmt.value, "lineno") else stmt
    return levels.parsed.source_map.locate(node)
