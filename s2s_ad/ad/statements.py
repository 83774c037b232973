"""The reverse of one levels-form statement: assignments, in-place writes, appends.

    t2_0 = a * t1_0        ->  t1_0_bar = t2_0_bar * a           (template expansion)
    u = helper(x, w)       ->  x_bar, w_bar = vjp_helper(u_bar, x, w)
    y[i] = v               ->  v_bar = v_bar + unbroadcast(take_adjoint(y_bar, i), v)
                               y_bar = clear_adjoint(y_bar, i)
    items.append(v)        ->  v_bar = items_bar.pop()

An accumulated variable's adjoint is reset when its definition is passed (its earlier
versions are different values); see ad.adjoints. Calls of the user's helpers are reversed
in helper_calls_reverse.py, index writes, appends and pops in list_statements.py (mixins
of StatementReverser).
"""
import operator

import gast
import numpy as np

from ..ir.walk import all_statements, walk_tree
from ..errors import MissingDerivativeError
from ..ir import build
from ..ir.primitives import (identity, is_conversion, missing_derivative_hint, names_in,
                             operation_of)
from .. import runtime_flow, runtime_linalg
from ..analyses.complex_values import (raise_not_for_complex, takes_real_part,
                                       template_primitive)
from ..analyses.shapes import is_elementwise
from ..signature import UNKNOWN, Items, SequenceOf
from ..analyses.dataflow import is_sequence_operand
from .adjoint_facts import repeated_list
from .carried_sums import SumAdjoints, carried_sums
from .binding import BindingError, bind_operands
from .expand import expand
from .held_calls import held_calls
from .held_copies import HeldCopies
from .helper_calls_reverse import HelperCallReverser
from .list_statements import ListStatementReverser
from .composites import composite_operations
from .maybe_zero import MaybeZeroAdjoints
from .result_items import ResultItems
from .tape import RESTORE, marker, pair_key
from .block_seeds import block_seeds
from .uniform import UniformAdjoints


# templates that index, rearrange or solve with the adjoint: the 0.0 standing for a zero
# adjoint of any shape (a loop or branch that never contributed) fails in them or comes
# out with no shape, so it is made an array of the result's shape first
_NEED_A_SHAPE = {np.flip, np.fliplr, np.flipud, np.tril, np.triu, np.transpose, np.swapaxes,
                 np.moveaxis, np.reshape, np.ravel, np.roll, np.cumsum, np.cumprod,
                 np.tensordot, np.einsum, np.kron, np.linalg.solve, np.linalg.inv,
                 np.linalg.cholesky, np.linalg.matrix_power, np.linalg.det, np.linalg.slogdet,
                 # the products' adjoint helpers, differentiated again (grad of grad):
                 # np.dot(a, 0.0) is an array of a's shape, not the zero of a number
                 runtime_linalg.dot_adjoint_a, runtime_linalg.dot_adjoint_b,
                 runtime_linalg.inner_adjoint_a, runtime_linalg.inner_adjoint_b,
                 runtime_linalg.matmul_adjoint_a, runtime_linalg.matmul_adjoint_b,
                 runtime_linalg.tensordot_adjoint_a, runtime_linalg.tensordot_adjoint_b}

_SHAPE_KEEPING = {np.roll, np.flip, np.fliplr, np.flipud}     # result shaped as operand 0


def _no_number(name):
    return False


class StatementReverser(HelperCallReverser, ListStatementReverser, MaybeZeroAdjoints,
                        ResultItems, HeldCopies):
    def __init__(self, inputs, context, adjoints, helpers, first_defs=frozenset(),
                 repeated_ids=frozenset()):
        self.first_defs = first_defs
        # statements whose overwrite destroys nothing the backward sweep reads: item
        # reads the backward loop repeats, numbers a loop computes alike every iteration
        self.repeated_ids = repeated_ids
        self.i = inputs
        self.ctx = context
        self.adj = adjoints
        self.helpers = helpers             # id(calling statement) -> HelperAdjoint
        self.levels = inputs.levels
        self.arity = {stmt.targets[0].id: helpers[id(stmt)].result_arity
                      for stmt in all_statements(self.levels.tree.body)
                      if id(stmt) in helpers and helpers[id(stmt)].result_arity}
        self._maybe_zero = set()   # adjoint names that may still hold a loop's scalar 0.0
        self._held_zero, self._from_held = set(), False   # ... as accumulated ones they read
        self.uniform = UniformAdjoints(inputs, adjoints, context, self._maybe_zero)
        # id(a reduction in a loop or branch) -> its operand, that block's value (block_seeds.py)
        self.block_seeds = block_seeds(self.levels.tree.body,
                                               inputs.dataflow.definitions) \
            if inputs.specialised else {}
        self.sums = SumAdjoints(carried_sums(self.levels.tree.body, self.levels.callees))
        self.composites = composite_operations(self.levels.tree, self.levels.callees,
                                               inputs.complex_names)   # (ad/composites.py)
        self._first_assignment = None       # name -> its first assignment (tuple_arity)
        kinds = inputs.kinds
        self._held_calls = held_calls(self.levels.tree.body, self.levels.callees,
                                      kinds.is_number if kinds is not None else _no_number)

    def tuple_arity(self, variable):
        """n when `variable` is an n-tuple built once in the function, else None."""
        if self.i.dataflow.definitions.get(variable, 0) != 1:
            return None
        if self._first_assignment is None:      # once: this is asked for every statement
            self._first_assignment = {}
            for stmt in all_statements(self.levels.tree.body):
                if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
                    self._first_assignment.setdefault(stmt.targets[0].id, stmt)
        stmt = self._first_assignment.get(variable)
        if stmt is None:
            return None
        if isinstance(stmt.value, (gast.Tuple, gast.List)) \
                and variable not in self.i.dataflow.list_valued:
            return len(stmt.value.elts)
        op = operation_of(stmt.value, self.levels.callees)
        if is_conversion(op) and not self.adj.accumulates(op.args[0].id):
            return self.tuple_arity(op.args[0].id)     # list(s): s's items
        return self.arity.get(variable) or self.result_arity(variable, stmt)

    def contribute(self, variable, value, out):
        """A whole-value contribution; a tuple's adjoint is kept item by item, unless it
        accumulates (read in a loop: item adjoints would not outlive the iteration)."""
        self.sums.reached(variable, self._is_array(value, variable))
        combined = self.uniform.combine(variable, value)
        if combined is not None:
            self.adj.contribute(variable, combined, out)
            return
        spread = self.uniform.spread_into(variable, value)
        if spread is not None:
            self.adj.contribute(variable, spread, out)
            return
        self.uniform.flush(variable, out)
        arity = self.tuple_arity(variable)
        if not arity or self.adj.accumulates(variable):
            self.adj.contribute(variable, value, out)
            return
        if not isinstance(value, gast.Name):
            whole = self.i.namer.fresh(f"{variable}_bar")
            out.append(build.assign(whole, value))
            value = build.name(whole)
        for k in range(arity):
            if variable in self.i.dataflow.in_loops:
                # popped off a list's adjoint: the number 0.0 while nothing reached it
                item = build.call(self.adj.helper(runtime_flow.take_adjoint),
                                  [build.clone(value), build.const(k)])
            else:
                item = build.subscript(build.clone(value), build.const(k))
            self.adj.contribute((variable, k), item, out)

    def _note_taken(self, variable):
        """An item's adjoint taken off its list's (take_adjoint) is the number 0.0 when
        nothing reached that item: unless the item is a number, its shape is not known
        from the adjoint (`np.dot(g, x)` for a number times a vector would give a vector)."""
        if self.i.kinds is None or self.i.kinds.axes(variable) != ():
            self._maybe_zero.add(self.adj.name_of(variable))

    def has_adjoint(self, target):
        arity = self.tuple_arity(target)
        return self.adj.has(target) or target in self.uniform.pending or bool(
            arity and any(self.adj.has((target, k)) for k in range(arity)))

    # ---- assignments -----------------------------------------------------------------------
    def assignment(self, stmt, out):
        # what the templates of this statement may read instead of calling again
        self.ctx.held_calls = self._held_calls.get(id(stmt), {})
        try:
            self._assignment(stmt, out)
        finally:
            self.ctx.held_calls = {}

    def _assignment(self, stmt, out):
        target = stmt.targets[0].id
        op = self.composites.get(id(stmt)) \
            or operation_of(stmt.value, self.levels.callees)   # a whole reversed as one
        accumulated = self.adj.accumulates(target)
        if accumulated:
            # hold the adjoint under its own name: the canonical one is reset below, and
            # whatever the template passes straight on must not see that reset
            held = self.i.namer.fresh(f"{target}_bar")
            # a number's 0.0 is no shape lost; a float array bound once starts as
            # zeros_like (adjoints.py) and is reset only here, where it is bound: its
            # adjoint is never the 0.0 of no shape
            if (self.i.kinds is None or self.i.kinds.axes(target) != ()) \
                    and target not in self.adj.fixed_arrays \
                    and not self.sums.definition_holds_array(stmt) \
                    and not self.sums.holds_array(target):
                self._maybe_zero.add(held)
                self._held_zero.add(held)
            current = self.adj.get(target)
            self.adj.copied(out, build.assign(held, current))
            result_adjoint = build.name(held)
            self.adj.reset(target)
            self.sums.reset(target)
        elif target in self.uniform.pending:
            # (or the only definition of a loop's or branch's own value: block_seeds.py)
            first_def = id(stmt) in self.first_defs or target in self.block_seeds.values()
            if self.uniform.pass_on(stmt, op, target, out, first_def, self.contribute) \
                    or self.uniform.pass_on_to_elements(op, target, out, first_def):
                return
            self.uniform.flush(target, out)
            result_adjoint = self.adj.get(target)
        else:
            result_adjoint = self.adj.get(target)
        if accumulated:
            self.adj.hold(target, held, unchanged=isinstance(current, gast.Name))
        try:
            self._operation(stmt, op, target, result_adjoint, out)
        finally:
            self.adj.hold(target, None)

    def restore(self, stmt, out):
        """After reversing an overwritten variable's definition, bring back its old value."""
        target = stmt.targets[0].id
        if self.i.dataflow.is_overwritten(target) and id(stmt) not in self.first_defs \
                and id(stmt) not in self.repeated_ids:
            out.append(marker(RESTORE, build.name(target), pair_key(stmt)))

    def _operation(self, stmt, op, target, result_adjoint, out):
        if op.primitive is list.pop or op.primitive is runtime_flow.pop_adjoint:
            self._pop(op, target, result_adjoint, out)
            return
        if not any(self.ctx.is_active_operand(a) for a in _operand_atoms(op)):
            return      # e.g. `y = np.zeros(n)` for an array filled in later: nothing flows
        if op.primitive is not None and self.i.registry.is_nondifferentiable(op.primitive):
            return      # e.g. `x = np.zeros_like(b)`: x's value does not depend on b's
        if op.primitive is identity:
            if self.ctx.is_active_operand(op.args[0]):
                self.contribute(op.args[0].id, result_adjoint, out)
            return
        if is_conversion(op):
            self._conversion(op.args[0].id, target, out)
            return
        if op.primitive in (tuple, list):
            # the adjoint arrives item by item (slots) and/or as a whole list
            whole = self.adj.get(target) if self.adj.has(target) else None
            for k, elt in enumerate(op.args):
                if not self.ctx.is_active_operand(elt):
                    continue
                slot = self.adj.get((target, k))
                if slot is not None:
                    self.contribute(elt.id, slot, out)
                if whole is not None:
                    item = build.call(self.adj.helper(runtime_flow.take_adjoint),
                                      [build.clone(whole), build.const(k)])
                    self.contribute(elt.id, item, out)
                    self._note_taken(elt.id)
            return
        repeated = self._repeated_list(op)
        if repeated is not None:
            # ys = n * xs repeats the list: each item's adjoint sums over its copies
            if self.ctx.is_active_operand(repeated):
                call = build.call(self.adj.helper(runtime_flow.sum_repeats),
                                  [result_adjoint, build.clone(repeated)])
                self.contribute(repeated.id, call, out)
            return
        if op.primitive is operator.add and all(
                is_sequence_operand(a, self.i.dataflow, self.i.kinds) for a in op.args):
            # ys = a + b concatenates lists: each part's adjoint is its slice of ys's
            for before, part in ((gast.Tuple(elts=[], ctx=gast.Load()), op.args[0]),
                                 (op.args[0], op.args[1])):
                if self.ctx.is_active_operand(part):
                    call = build.call(self.adj.helper(runtime_flow.concatenation_part),
                                      [build.clone(result_adjoint), build.clone(before),
                                       build.clone(part)])
                    self.contribute(part.id, call, out)
            return
        if self._is_tuple_item(op):
            source, k = op.args[0].id, op.args[1].value
            self.adj.contribute((source, k), result_adjoint, out)
            return
        primitive = template_primitive(op, self.i.complex_names, self.i.registry)
        if primitive is None and op.primitive is not None:   # a complex operand
            raise_not_for_complex(op, _describe(op), self._locate(stmt))
        template = self.i.registry.reverse(primitive) if primitive is not None else None
        if template is None and id(stmt) in self.helpers:
            now = self._rewind_draws(stmt, out)
            self._helper_call(op, target, self.helpers[id(stmt)], out)
            self._forward_draws(now, out)
            return
        if template is None:
            raise MissingDerivativeError(
                f"no derivative is known for `{_describe(op)}`", self._locate(stmt),
                missing_derivative_hint(op, "register one with @s2s_ad.adjoint, or wrap "
                                        "the value in a differentiable numpy expression"))
        whole = result_adjoint
        result_adjoint = self.items_adjoint(target, stmt, whole)
        # a tuple of the items' adjoints is no scalar zero (its items are as the list
        # scatter_add built, which was not taken for one either)
        may_be_zero = result_adjoint is whole and self.adjoint_may_be_zero(result_adjoint)
        try:
            bound = bind_operands(template, op.args, op.keywords, op.primitive)
            self.ctx.elementwise = is_elementwise(op.primitive) and not op.keywords
            self.ctx.adjoint_may_be_scalar_zero = may_be_zero \
                and not self._seed_of_a_number(result_adjoint, target)
            if may_be_zero and op.primitive in _NEED_A_SHAPE:
                # (an adjoint that is no name, `cotangent[0]` of a helper's tuple, may be
                # the 0.0 its caller passes for an item it did not use)
                # a rearrangement keeps its operand's shape and dtype: the operand (read by
                # the backward sweep anyway, or taped in the result's place) shows them
                like = op.args[0].id if op.primitive in _SHAPE_KEEPING and op.args \
                    and isinstance(op.args[0], gast.Name) else target
                result_adjoint = self._shaped_adjoint(result_adjoint, target, out, like)
            self._from_held = getattr(result_adjoint, "id", None) in self._held_zero
            expansion = expand(template, bound, target, result_adjoint, self.ctx)
        except BindingError as exc:
            raise MissingDerivativeError(f"`{_describe(op)}`: {exc}", self._locate(stmt),
                                         "call it with the arguments s2s_ad supports") from None
        now = self._rewind_draws(stmt, out)     # call_function's vjp runs it again
        out.extend(expansion.statements)
        for param, index, value in expansion.contributions:
            operand = bound[param]
            if takes_real_part(op, target, operand.id, self.i.complex_names):
                value = build.call(build.attribute(build.name(self.i.levels.numpy_name),
                                                   "real"), [value])
            if isinstance(index, gast.Tuple) and not index.elts or isinstance(
                    index, gast.Constant) and index.value is Ellipsis:
                index = None    # x[()] and x[...] are all of x (a number of a 0-d array)
            if not (operand.id in self.adj.fixed_arrays and (
                    index is not None or self.i.dataflow.is_accumulated(operand.id))):
                self._note_maybe_zero(operand.id, value, target)   # (else added to zeros_like)
            number = self.uniform.spread_number(value, operand.id) if index is None else None
            if number is not None and id(stmt) in self.first_defs \
                    and (self.i.kinds.axes(target) == () or self.i.kinds.of(target) == UNKNOWN) \
                    and self.uniform.eligible(operand.id) \
                    or number is not None and self.block_seeds.get(id(stmt)) == operand.id \
                    and self.uniform.eligible(operand.id, within_block=True):
                self.uniform.hold(operand.id, number)      # built when it is needed
                continue
            view = self.uniform.spread_view(value, operand.id) \
                if index is None and number is None else None
            if view is not None and id(stmt) in self.first_defs \
                    and self.uniform.eligible(operand.id):
                self.uniform.hold(operand.id, view[0], view=view[1])
                continue
            if index is not None:
                self.uniform.flush(operand.id, out)
            if index is None:
                self.contribute(operand.id, value, out)
            else:
                self.adj.contribute_at(operand.id, operand, index, value, out,
                                       self.adj.name_of(operand.id) in self._maybe_zero)
        self._forward_draws(now, out)

    def _repeated_list(self, op):
        """The list operand of `n * xs` / `xs * n` (list repetition), else None."""
        return repeated_list(op, self.i.dataflow.user_lists, self.i.kinds,
                             self.ctx.is_active_operand)

    def _conversion(self, source, target, out):
        """target = list(source) / tuple(source): source's adjoint is target's, as a whole
        and item by item (an item's slot goes to the same item of source)."""
        if self.adj.has(target):
            whole = self.adj.get(target)
            if not self._is_sequence(source):
                # list(x) of an array: the items' adjoints become x's rows
                whole = build.call(self.adj.helper(runtime_flow.match_adjoint),
                                   [whole, build.name(source)])
            self.contribute(source, whole, out)
        arity = self.tuple_arity(target) if not self.adj.accumulates(target) else None
        for k in range(arity or 0):     # then source has the arity and takes slots too
            if self.adj.get((target, k)) is not None:
                self.adj.contribute((source, k), self.adj.get((target, k)), out)

    def _is_sequence(self, variable):
        """Is `variable` known to hold a list or tuple (not an array)?"""
        kind = self.i.kinds.of(variable) if self.i.kinds is not None else None
        return isinstance(kind, (Items, SequenceOf)) or variable in self.i.dataflow.user_lists

    def _is_tuple_item(self, op):
        if op.primitive is not operator.getitem or not isinstance(op.args[0], gast.Name):
            return False
        index = op.args[1]
        if not (isinstance(index, gast.Constant) and isinstance(index.value, int)):
            return False
        # an accumulated tuple (read in a loop) takes its items' adjoints as a whole
        return self.tuple_arity(op.args[0].id) is not None \
            and not self.adj.accumulates(op.args[0].id)

    def _locate(self, stmt):
        node = stmt.value if hasattr(stmt.value, "lineno") else stmt
        return self.levels.parsed.source_map.locate(node)


def _operand_atoms(op):
    atoms = []
    for a in list(op.args) + list(op.keywords.values()):
        atoms.extend(n for n in walk_tree(a) if isinstance(n, gast.Name))
    return atoms


def _operand_names(op):
    return {n for a in op.args for n in names_in(a)} | \
        {n for v in op.keywords.values() for n in names_in(v)}


def _describe(op):
    if op.callee:
        return f"{op.callee}(...)"
    return getattr(op.primitive, "__name__", repr(op.primitive))
