"""Forward mode: levels form -> a function computing the value and a directional derivative.

Each active statement is followed by its tangent, from the primitive's @tangent template
(ad.tangents). Control flow keeps its shape and needs no tape: tangents are computed
alongside the values they belong to. Calls of the user's helpers use the helpers' own
generated forward derivatives.

    def f(x, w):                       def jvp_f(tangent, x, w):
        h = np.tanh(x * w)                 x_dot = tangent
        return np.sum(h)           ->      t1_0 = x * w
                                           t1_0_dot = x_dot * w
                                           h = np.tanh(t1_0)
                                           h_dot = t1_0_dot * (1.0 - h * h)
                                           t2_0 = np.sum(h)
                                           t2_0_dot = np.sum(h_dot)
                                           return t2_0, t2_0_dot
"""
import inspect
import operator

import gast

from ..ir.walk import walk_tree
from ..analyses.complex_values import raise_not_for_complex, reads_complex, template_primitive
from ..errors import MissingDerivativeError
from ..ir import build
from ..ir.primitives import (missing_derivative_hint, appended_list, identity, is_conversion, operation_of,
                             popped_list)
from .. import runtime, runtime_flow
from ..backend.sources import is_generated
from ..analyses.dataflow import is_sequence_operand
from .adjoint_facts import repeated_list
from .binding import BindingError, bind_operands, reject_undifferentiated
from .tangents import ZERO, expand_tangent, is_zero, zero_of


class ForwardGenerator:
    def __init__(self, inputs, context, derive_jvp):
        self.i = inputs
        self.ctx = context
        self.derive_jvp = derive_jvp      # (function, wrt names, statement) -> (fn, name)
        self._names = {}

    def tangent_name(self, variable):
        if variable not in self._names:
            self._names[variable] = self.i.namer.fresh(f"{variable}_dot")
        return self._names[variable]

    def tangent_of(self, atom):
        if isinstance(atom, gast.Name) and self.i.activity.is_active(atom.id):
            return build.name(self.tangent_name(atom.id))
        if isinstance(atom, gast.Tuple):            # a literal index or axis tuple
            return zero_of(atom)
        return zero_of(atom)

    def zero_tangent(self, atom):
        kind = self.i.kinds.of(atom) if self.i.kinds is not None else None
        if getattr(kind, "type", None) is float:
            return build.const(0.0)        # a Python float's: no call
        if isinstance(atom, gast.Name) and atom.id in self.i.dataflow.list_valued:
            # a list appended to or popped from: its tangent grows and shrinks with it, a
            # list too (zero_tangent gives a list of numbers one array; match_adjoint
            # zeros item by item, and leaves a value that is no list yet a number zero)
            match = self.i.bindings.name_for("match_adjoint", runtime_flow.match_adjoint)
            return build.call(build.name(match), [build.const(0.0), build.clone(atom)])
        helper = self.i.bindings.name_for("zero_tangent", runtime.zero_tangent)
        return build.call(build.name(helper), [build.clone(atom)])

    # ---- walk -------------------------------------------------------------------------------
    def block(self, stmts):
        out = []
        for stmt in stmts:
            out.extend(self.statement(stmt))
        return out

    def statement(self, stmt):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
            return self.index_write(stmt)
        if isinstance(stmt, gast.Assign):
            return self.assignment(stmt)
        if appended_list(stmt):
            return self.append(stmt)
        if isinstance(stmt, gast.If):
            if stmt.body and isinstance(stmt.body[0], gast.Break):
                return [stmt]
            return [gast.If(test=stmt.test, body=self.block(stmt.body) or [gast.Pass()],
                            orelse=self.block(stmt.orelse))]
        if isinstance(stmt, gast.For):
            return [gast.For(target=stmt.target, iter=stmt.iter, body=self.block(stmt.body),
                             orelse=[], type_comment=None)]
        if isinstance(stmt, gast.While):
            return [gast.While(test=stmt.test, body=self.block(stmt.body), orelse=[])]
        if isinstance(stmt, gast.With):
            return []                  # insert_grad_of blocks belong to the backward sweep
        if isinstance(stmt, gast.Expr) and self._pops_adjoint(stmt):
            # pop_adjoint(items_bar) for an inactive item: pop the tangent list in step
            items = stmt.value.args[0]
            return [stmt, build.expr_stmt(build.call(build.clone(stmt.value.func),
                                                     [self.tangent_of(items)]))]
        return [stmt]

    def _pops_adjoint(self, stmt):
        from ..runtime_flow import pop_adjoint
        call = stmt.value
        return isinstance(call, gast.Call) and call.args \
            and isinstance(call.args[0], gast.Name) \
            and self.i.activity.is_active(call.args[0].id) \
            and self.i.levels.callees.get(getattr(call.func, "id", None)) is pop_adjoint

    def assignment(self, stmt):
        target = stmt.targets[0].id
        base = popped_list(stmt.value)
        if not self.i.activity.is_active(target):
            if base is not None and self.i.activity.is_active(base):
                # the list's tangent list got an item for this one: drop it in step
                return [stmt, build.expr_stmt(self._tangent_pop(base))]
            return [stmt]
        op = operation_of(stmt.value, self.i.levels.callees)
        name = self.tangent_name(target)
        out = []
        if base is not None:
            return [stmt, build.assign(name, self._tangent_pop(base))]
        if op.callee is not None and inspect.isfunction(op.primitive) \
                and self.i.registry.tangent(op.primitive) is None \
                and self.i.registry.reverse(op.primitive) is None \
                and not self.i.registry.is_nondifferentiable(op.primitive):
            return self.helper_call(stmt, op, target)
        out.append(stmt)
        active = [a for a in _operand_atoms(op) if self.ctx.is_active_operand(a)]
        if is_conversion(op):
            # t = list(s) / tuple(s): t's tangent is s's, converted the same way
            tangent = self._concrete(self.tangent_of(op.args[0]), op.args[0])
            out.append(build.assign(name, build.call(build.dotted(op.callee), [tangent])))
            return [self._concretize(s) for s in out]
        if op.primitive is list and target in self.i.dataflow.list_valued:
            items = [self._concrete(self.tangent_of(a), a) for a in op.args]
            out.append(build.assign(name, gast.List(elts=items, ctx=gast.Load())))
            return [self._concretize(s) for s in out]     # e.g. the tape: `_tape = []`
        if not active or (op.primitive is not None
                          and self.i.registry.is_nondifferentiable(op.primitive)):
            # e.g. `y = np.zeros_like(x)` for an array filled in later: its tangent is zero
            out.append(build.assign(name, self.zero_tangent(build.name(target))))
            return out
        if op.primitive is identity:
            out.append(build.assign(name, self.tangent_of(op.args[0])))
        elif op.primitive in (tuple, list):
            items = [self._concrete(self.tangent_of(a), a) for a in op.args]
            value = build.tuple_(items) if op.primitive is tuple else \
                gast.List(elts=items, ctx=gast.Load())
            out.append(build.assign(name, value))
        elif self._sequence_operation(op):
            # `(x,) + (y,)`, `2 * xs`: the tangents, item by item, concatenate and repeat
            # as the values do
            left, right = (self._sequence_tangent(a) for a in op.args)
            out.append(build.assign(name, build.binop(left, type(stmt.value.op).__name__,
                                                      right)))
        else:
            out.extend(self.template(stmt, op, target, name))
            if self._aliases_a_written_tangent(out[-1].value, active):
                # `y = q + w` with q constant: y's tangent is w's own array, which a later
                # `w[0] = ...` writes into (y, a new array, keeps its value)
                copy = self.i.bindings.name_for("copy_adjoint", _copy_adjoint())
                out[-1].value = build.call(build.name(copy), [out[-1].value])
        if target in self.i.dataflow.subscripted and target in self.i.dataflow.accumulated:
            copy = self.i.bindings.name_for("copy_adjoint", _copy_adjoint())
            out.append(build.assign(name, build.call(build.name(copy), [build.name(name)])))
        return [self._concretize(s) for s in out]

    def _aliases_a_written_tangent(self, value, operands):
        """Is `value` the tangent of an operand whose array is written in place (or
        broadcast_tangent of it, which is that array where nothing broadcasts)?"""
        dataflow = self.i.dataflow
        if isinstance(value, gast.Call) and isinstance(value.func, gast.Name) \
                and value.func.id == "broadcast_tangent" and value.args:
            value = value.args[0]
        return isinstance(value, gast.Name) and any(
            isinstance(a, gast.Name) and a.id in dataflow.subscripted
            and a.id in dataflow.accumulated
            and value.id == getattr(self.tangent_of(a), "id", None) for a in operands)

    def template(self, stmt, op, target, name):
        primitive = template_primitive(op, self.i.complex_names, self.i.registry)
        if primitive is None and op.primitive is not None:   # a complex operand
            raise_not_for_complex(op, _describe(op), self.i.levels.parsed.source_map.locate(
                stmt.value if hasattr(stmt.value, "lineno") else stmt))
        template = self.i.registry.tangent(primitive) if primitive is not None else None
        if template is None:
            where = self.i.levels.parsed.source_map.locate(
                stmt.value if hasattr(stmt.value, "lineno") else stmt)
            mine = primitive is not None and self.i.registry.has_own_adjoint(primitive)
            if mine and is_generated(self.i.levels.parsed.func):
                # (a statement of the gradient hvp differentiates: where your adjoint is)
                where = self.i.registry.reverse(primitive).location
            raise MissingDerivativeError(
                f"no forward-mode derivative is known for `{_describe(op)}`" + (
                    ": it has an @s2s_ad.adjoint of yours, and jvp, hvp, hessian and "
                    "jacobian need an @s2s_ad.tangent too" if mine else ""), where,
                missing_derivative_hint(
                    op, "register one with @s2s_ad.tangent (next to its @s2s_ad.adjoint)"))
        try:
            bound = bind_operands(template, op.args, op.keywords, op.primitive)
            reverse = self.i.registry.reverse(primitive)
            if reverse is not None:      # its undifferentiated parameters (binding.py)
                reject_undifferentiated(reverse, bind_operands(reverse, op.args, op.keywords,
                                                               op.primitive),
                                        self.ctx.is_active_operand)
        except BindingError as exc:
            raise MissingDerivativeError(f"`{_describe(op)}`: {exc}",
                                         self.i.levels.parsed.source_map.locate(stmt)) from None
        self.ctx.elementwise = False
        self.ctx.current_target = target
        temps, value = expand_tangent(template, bound, target,
                                      lambda atom: self._operand_tangent(atom), self.ctx)
        if value is None:
            value = self.zero_tangent(build.name(target))
        return temps + [build.assign(name, value)]

    def _sequence_operation(self, op):
        """`a + b` of lists or tuples the user built, `n * xs` / `xs * n`."""
        if op.primitive is operator.add:
            return all(is_sequence_operand(a, self.i.dataflow, self.i.kinds)
                       for a in op.args)
        return repeated_list(op, self.i.dataflow.user_lists, self.i.kinds,
                             lambda atom: not is_zero(self.tangent_of(atom))) is not None

    def _sequence_tangent(self, atom):
        """A list/tuple operand's tangent (zeros item by item when it has none); a
        repetition count as it is."""
        if not is_sequence_operand(atom, self.i.dataflow, self.i.kinds):
            return build.clone(atom)
        tangent = self.tangent_of(atom)
        if not is_zero(tangent):
            return tangent
        match = self.i.bindings.name_for("match_adjoint", runtime_flow.match_adjoint)
        return build.call(build.name(match), [build.const(0.0), build.clone(atom)])

    def _operand_tangent(self, atom):
        if isinstance(atom, (gast.List, gast.Tuple)) and any(
                isinstance(e, gast.Name) for e in atom.elts):
            items = [self._concrete(self.tangent_of(e), e) for e in atom.elts]
            return build.tuple_(items)
        return self.tangent_of(atom)

    def _concrete(self, tangent, atom):
        return self.zero_tangent(atom) if is_zero(tangent) else tangent

    def _concretize(self, stmt):
        """Zeros that survived simplification become zero_tangent(operand)."""
        for node in walk_tree(stmt):
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                    and node.func.id == ZERO:
                node.func = build.name(self.i.bindings.name_for("zero_tangent",
                                                                runtime.zero_tangent))
        return stmt

    def helper_call(self, stmt, op, target):
        """t = h(a, b)  ->  t, t_dot = jvp_h(tangents, a, b)."""
        if reads_complex(op, self.i.complex_names):
            raise_not_for_complex(op, _describe(op),
                                  self.i.levels.parsed.source_map.locate(stmt.value))
        params = list(inspect.signature(op.primitive).parameters)
        active = [(params[k], a) for k, a in enumerate(op.args)
                  if k < len(params) and self.ctx.is_active_operand(a)]
        active += [(key, a) for key, a in op.keywords.items() if self.ctx.is_active_operand(a)]
        if not active:
            return [stmt, build.assign(self.tangent_name(target),
                                       self.zero_tangent(build.name(target)))]
        function, name = self.derive_jvp(op.primitive, tuple(p for p, _ in active), stmt)
        bound = self.i.bindings.name_for(name, function)
        tangents = [build.name(self.tangent_name(a.id)) for _, a in active]
        tangent = tangents[0] if len(tangents) == 1 else build.tuple_(tangents)
        call = build.call(build.name(bound), [tangent] + list(op.args), list(op.keywords.items()))
        return [build.with_location(build.assign_tuple([target, self.tangent_name(target)], call),
                                    stmt)]

    def index_write(self, stmt):
        base = stmt.targets[0].value.id
        if not self.i.activity.is_active(base):
            return [stmt]
        value = stmt.value
        tangent = self._concrete(self.tangent_of(value), value)
        store = build.store_subscript(build.name(self.tangent_name(base)),
                                      build.clone(stmt.targets[0].slice))
        return [stmt, self._concretize(build.assign(store, tangent))]

    def _tangent_pop(self, base):
        return build.call(build.attribute(build.name(self.tangent_name(base)), "pop"))

    def append(self, stmt):
        base = appended_list(stmt)
        if not self.i.activity.is_active(base):
            return [stmt]
        item = stmt.value.args[0]
        tangent = self._concrete(self.tangent_of(item), item)
        method = build.attribute(build.name(self.tangent_name(base)), "append")
        return [stmt, self._concretize(build.expr_stmt(build.call(method, [tangent])))]


def _copy_adjoint():
    from ..runtime_flow import copy_adjoint
    return copy_adjoint


def _operand_atoms(op):
    atoms = []
    for a in list(op.args) + list(op.keywords.values()):
        atoms.extend(n for n in walk_tree(a) if isinstance(n, gast.Name))
    return atoms


def _describe(op):
    if op.callee:
        return f"{op.callee}(...)"
    return getattr(op.primitive, "__name__", repr(op.primitive))
