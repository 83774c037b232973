"""The backward walk of reverse mode: a levels-form block -> its backward-sweep statements.

`BackwardWalker.block(stmts)` visits the statements from last to first: each active
assignment expands its primitive's template (through statements.StatementReverser), a
branch replays the forward sweep's choice, a loop runs backwards over the same range (or
over the trip count it taped); a provenance comment precedes each user line's adjoint.
`initialise` seeds the output's adjoint, `gradient(name)` is the expression a parameter's
gradient is returned as. Its ForwardInstrumentation half (forward_sweep.py) writes the
forward sweep's saves. The levels form it reads is not changed (it clones what it keeps).

    for i in t1_0:                  for i in t1_0[::-1]:
        h = np.tanh(h)      ->          # grad of: h = np.tanh(h)
                                        h_bar = h_bar * (1.0 - h * h)
                                        (marker: restore h)
"""
import warnings

import numpy

import gast

from ..ir import build
from ..ir.primitives import appended_list
from ..ir.walk import all_statements, walk_tree
from .. import runtime_blocks, runtime_flow
from ..signature import UNKNOWN, Attributes, Num
from .adjoint_facts import narrow_dtype
from .forward_sweep import ForwardInstrumentation
from .loop_zeros import iteration_local
from .tape import RESTORE_ITEM, _marker_of, marker, pop


class BackwardWalker(ForwardInstrumentation):
    def __init__(self, inputs, ctx, adjoints, statements, tape, first_defs, repeated):
        self.repeated = repeated    # id(loop) -> item reads repeated, not taped
        self._tape = tape
        self.first_defs = first_defs
        self.i = inputs
        self.ctx = ctx
        self.adj = adjoints
        self.stmts = statements
        self.counted = {}        # id(loop) -> trip counter name, for loops replayed by count
        self.saved = set()       # variables saved on the tape (may need a binding first)
        self.iterations = []     # (loop, [(position in its body, backward chunk)]) per loop

    # ---- setup and results --------------------------------------------------------------
    def initialise(self, out_atom, seed):
        out = []
        output = out_atom.id if isinstance(out_atom, gast.Name) else None
        seed_stmts, seed_value = seed(output) if output else ([], None)
        if output and not self.i.activity.is_active(output):
            seed_value = None   # no adjoint; grad still checks that the output is a scalar
        out.extend(seed_stmts)
        for name in sorted(self.i.dataflow.accumulated):
            if not self.i.activity.is_active(name):
                continue
            value = self.adj.owned_value(name, seed_value) if name == output else \
                self.adj.initial_value(name, build.name(name))
            if isinstance(value, gast.Constant) and value.value == 0.0:
                self.adj.set_zero(name)     # written where first needed (adjoints.py)
                continue
            out.append(build.assign(self.adj.name_of(name), value))
        if seed_value is not None and not self.adj.accumulates(output):
            self.stmts.contribute(output, seed_value, out)
        return out

    def gradient(self, name):
        # an argument the output does not depend on (in a derivative differentiated again,
        # only through a loop's trip count) has no adjoint at all, not even a zero one
        grad = self.adj.get(name) if self.i.activity.is_active(name) else None
        if self._kept_as_attributes(name):
            return grad if grad is not None else build.const(0.0)
        if grad is None:
            from ..runtime import zero_adjoint
            helper = self.i.bindings.name_for("zero_adjoint", zero_adjoint)
            return build.call(build.name(helper), [build.name(name)])
        number = self.i.kinds is not None and self.i.kinds.is_number(name)
        if number and self.i.kinds.of(name).dtype == "float32" and self.adj.accumulates(name):
            # its adjoint started as the Python 0.0 (a branch not taken adds nothing to it)
            return build.call(self.adj.helper(runtime_flow.match_adjoint),
                              [grad, build.name(name)])
        # a fixed array's gradient passed on from a value whose adjoint starts as 0.0 (x_1 =
        # x + c, x_1 read only on a branch not taken) may still be that number
        from_zero = isinstance(grad, gast.Name) and grad.id != self.adj.name_of(name) \
            and self.stmts.adjoint_may_be_zero(grad)
        if name in self.adj.fixed_lists and isinstance(grad, gast.Name) and not from_zero \
                and not self._zero_d_arrays:        # (a list of floats this code made)
            return self.adj.list_gradient(grad, self.i.kinds.of(name).container)
        if ((self.adj.accumulates(name) or name in self.i.dataflow.indexed_only
                or self.adj.is_container(name) or self.stmts.may_still_be_zero(name))
                and name not in self.adj.fixed_arrays or from_zero) and not number \
                or number and self._zero_d_arrays or self._zero_d_array(name) \
                or self._undecided(name):
            # (those start as zeros_like); a number's adjoint from np.where(c, a, b) of
            # numbers is a 0-d array: match_adjoint makes it a number again, as it does an
            # argument of no known kind (general derivative) that may be a 0-d array
            return build.call(self.adj.helper(runtime_flow.match_adjoint),
                              [grad, build.name(name)])
        return self._kept_dtype(name, grad)

    def _kept_as_attributes(self, name):
        """Is `name` an object parameter (not a namedtuple) of a helper's vjp? Its adjoint
        is returned as the attributes' adjoints accumulated (a dict, or 0.0), which the
        caller adds into its own; only the derivative the user called builds the object."""
        kind = self.i.kinds.of(name) if self.i.helper and self.i.kinds is not None else None
        return isinstance(kind, Attributes) and not issubclass(kind.type, tuple)

    def _kept_dtype(self, name, grad):
        """A float32 argument's gradient cast back to float32 where the function holds
        wider floats too (adjoint_facts.narrow_dtype): `x_bar.astype(np.float32,
        copy=False)` for an array (no copy when it is float32 already), match_adjoint's
        cast for a numpy number (np.float32(g) would have no derivative of its own, for
        a derivative of this one)."""
        dtype = narrow_dtype(self.i.kinds, name)
        if dtype is None:
            return grad
        if self.i.kinds.of(name).type is not numpy.ndarray:
            return build.call(self.adj.helper(runtime_flow.match_adjoint),
                              [grad, build.name(name)])
        cast = build.attribute(build.name(self.i.levels.numpy_name), dtype)
        return build.call(build.attribute(grad, "astype"), [cast],
                          [("copy", build.const(False))])

    def _undecided(self, name):
        """Is nothing known of what `name` holds (the general derivative's arguments)?"""
        return self.i.kinds is None or self.i.kinds.of(name) is UNKNOWN

    def _zero_d_array(self, name):
        """Is `name` a 0-d array? Arithmetic on it gives numpy numbers, its gradient must
        be a 0-d array again (match_adjoint makes it one)."""
        kind = self.i.kinds.of(name) if self.i.kinds is not None else None
        return isinstance(kind, Num) and kind.type is numpy.ndarray and kind.axes == ()

    @property
    def _zero_d_arrays(self):
        """Do the facts have 0-d arrays (np.where of numbers) that adjoints may become?"""
        return any(isinstance(kind, Num) and kind.type is numpy.ndarray and kind.axes == ()
                   for kind in self.i.kinds.facts.values())

    # ---- the backward walk --------------------------------------------------------------
    def block(self, stmts, loop=None):
        """`loop`: the loop whose body `stmts` is; each statement's backward chunk is then
        recorded by its position (`iterations`, for tape.shapes_read_within_iterations)."""
        out, last_line, chunks = [], None, []
        outer, self.adj.copies = self.adj.copies, []
        if loop is not None:
            self.iterations.append((loop, chunks))
        for position in range(len(stmts) - 1, -1, -1):
            stmt = stmts[position]
            chunk, marker = self.statement(stmt), self._context_marker(stmt)
            if chunk and marker is not None and marker == self._enter_marker:
                # the block's backward sweep begins here: the warning filters its forward
                # sweep set first are set again (warnings.catch_warnings starts clean)
                chunk = chunk + self._block_filters(stmts, position)
            if not chunk:
                continue
            chunks.append((position, chunk))
            if all(_is_marker(s) for s in chunk) or marker is not None:
                out.extend(chunk)
                continue
            if not isinstance(stmt, (gast.If, gast.For, gast.While)) and stmt.lineno != last_line:
                text = self.i.levels.parsed.source_map.line_text(stmt)
                out.append(build.comment(f"grad of: {text}"))
                last_line = stmt.lineno
            elif isinstance(stmt, (gast.If, gast.For, gast.While)):
                last_line = None
            out.extend(chunk)
        return self.stmts.without_held_copies(out, outer, stmts)

    def statement(self, stmt):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
            return self._statement(stmt)
        self.stmts.uniform.flush_all(built := [])   # loops, branches, writes: arrays from here
        return built + self.adj.apart(self._statement, stmt)     # (ad/windows.py)

    def _statement(self, stmt):
        out = []
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
            if self.i.activity.is_active(stmt.targets[0].value.id):
                self.stmts.index_write(stmt, out)
            else:   # a constant array's old elements, for the backward sweep before
                target = stmt.targets[0]
                out.append(marker(RESTORE_ITEM, build.name(target.value.id),
                                  build.clone(target.slice)))
        elif isinstance(stmt, gast.Assign):
            target = stmt.targets[0].id
            if self.i.activity.is_active(target) and self.stmts.has_adjoint(target):
                self.stmts.assignment(stmt, out)
            else:
                # `t = xs.pop()` with no adjoint for t still shortened xs, which the
                # reversed appends before it will pop again: put the item back
                self.stmts.undo_inactive_pop(stmt, out)
            self.stmts.restore(stmt, out)
        elif appended_list(stmt):
            if self.i.activity.is_active(stmt.value.func.value.id):
                self.stmts.append(stmt, out)
        elif isinstance(stmt, (gast.If, gast.For, gast.While)):
            out = self.compound(stmt)
        elif isinstance(stmt, gast.With):
            out = self.grad_of_block(stmt)
        elif self._context_marker(stmt) is not None:
            # a value-preserving `with` block (transforms/contexts.py): its backward sweep
            # runs under the same manager, between the markers swapped
            call = build.clone(stmt.value)
            call.func.id = self._context_marker(stmt)
            out = [build.expr_stmt(call)]
        return out

    @property
    def _enter_marker(self):
        return self.i.levels.runtime_names.get(runtime_blocks.context_enter)

    def _block_filters(self, stmts, end):
        """Copies of the warnings.simplefilter / filterwarnings calls that open the `with`
        block whose end marker is stmts[end]."""
        depth, start = 0, end
        while start > 0:
            start -= 1
            marker = self._context_marker(stmts[start])
            if marker == self._enter_marker:        # an inner block's end, going back
                depth += 1
            elif marker is not None:
                if depth == 0:
                    break
                depth -= 1
        filters = []
        bound = self.i.levels.runtime_names.get(runtime_blocks.context_bound)
        for stmt in stmts[start + 1:end]:
            if isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Call) \
                    and getattr(stmt.value.func, "id", None) == bound is not None:
                continue            # `as w` (transforms/contexts.py), bound in the forward sweep
            call = stmt.value if isinstance(stmt, gast.Expr) else None
            if not (isinstance(call, gast.Call) and self.i.levels.callees.get(
                    build.dotted_path(call.func)) in (warnings.simplefilter,
                                                      warnings.filterwarnings)):
                break
            filters.append(build.clone(stmt))
        return filters

    def _context_marker(self, stmt):
        """The marker a context marker statement becomes in the backward sweep, else None."""
        call = stmt.value if isinstance(stmt, gast.Expr) else None
        if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Name)):
            return None             # most statements: the markers' table is not built
        names = self.i.levels.runtime_names
        swapped = {names.get(runtime_blocks.context_enter): names.get(runtime_blocks.context_exit),
                   names.get(runtime_blocks.context_exit): names.get(runtime_blocks.context_enter)}
        return None if None in swapped else swapped.get(call.func.id)

    def grad_of_block(self, stmt):
        """insert_grad_of: g = x's adjoint here; the user's block; x's adjoint = g."""
        item = stmt.items[0]
        variable = item.context_expr.args[0].id
        adjoint = item.optional_vars.id
        if not (self.i.activity.is_active(variable) and self.adj.has(variable)):
            return []
        out = [build.assign(adjoint, self.adj.get(variable))]
        out.extend(build.clone(s) for s in stmt.body)
        self.adj.replace(variable, build.name(adjoint), out)
        self.stmts.sums.reset(variable)
        return out

    def compound(self, stmt):
        if not self._has_active(stmt):
            return []
        self.stmts.sums.enter(stmt)
        try:
            return self._compound(stmt)
        finally:
            self.stmts.sums.leave()

    def _compound(self, stmt):
        out = []
        self.adj.force(self._contributed_inside(stmt), build.name, out)
        self.adj.forget_unchanged()
        if isinstance(stmt, gast.If):
            return self._branches(stmt, out)
        body = self._loop_body(stmt, out, iteration_local(stmt, self.i.levels.tree.body))
        if body and id(stmt) in self.repeated:
            read = {n.id for s in body for n in walk_tree(s)
                    if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
            needed = []
            for s in reversed(self.repeated[id(stmt)]):     # a read a needed one reads too
                if s.targets[0].id in read:
                    needed.append(s)
                    read |= {n.id for n in walk_tree(s.value) if isinstance(n, gast.Name)}
            body = [build.clone(s) for s in reversed(needed)] + body
        if isinstance(stmt, gast.While) or _has_break(stmt):
            self.counted.setdefault(id(stmt), self.i.namer.fresh("trips"))
            count = pop(self._tape)
        if isinstance(stmt, gast.While):
            loop = gast.For(target=build.name("_", store=True),
                            iter=build.call(build.name("range"), [count]),
                            body=body or [gast.Pass()], orelse=[], type_comment=None)
        else:
            rng = build.clone(stmt.iter)
            if _has_break(stmt):
                rng = build.subscript(rng, gast.Slice(lower=None, upper=count, step=None))
            backwards = build.subscript(rng, gast.Slice(lower=None, upper=None,
                                                        step=build.literal(-1)))
            loop = gast.For(target=build.name(stmt.target.id, store=True), iter=backwards,
                            body=body or [gast.Pass()], orelse=[], type_comment=None)
        out.append(build.with_location(loop, stmt))
        return out

    def _loop_body(self, stmt, out, local):
        """The backward body of a loop. A symbolic zero the body may add to is written
        before the loop, unless it is zero again at each backward iteration's start
        (`local`: loop_zeros.py); a zero the body leaves symbolic is written at its end
        for the next iteration. Should the body not leave a kept one zero after all,
        the body is walked again with that zero written first (no code relies on it)."""
        inside = {n.id for n in walk_tree(stmt) if isinstance(n, gast.Name)}
        kept = self.adj.zeroed() & local
        before, initial = len(out), self.adj.snapshot()
        initial_zeros = self.adj.zeroed()
        self.adj.materialize(inside - kept, out)
        # (a value first forced to accumulate inside the body starts afresh each time)
        carried = {name for name in inside - kept if self.adj.accumulates(name)}
        state, walked = self.adj.snapshot(), len(self.iterations)
        body = self.block(stmt.body, loop=stmt)
        if not kept <= self.adj.zeroed():
            self.adj.restore(initial)
            del self.iterations[walked:]
            del out[before:]
            return self._loop_body(stmt, out, frozenset())
        # a zero written before the loop that its backward body never names stays
        # symbolic (the body reads and writes other adjoints only)
        named = {n.id for s in body for n in walk_tree(s) if isinstance(n, gast.Name)}
        idle = {v for v in (inside - kept) & initial_zeros
                if self.adj.name_of(v) not in named}
        self.adj.materialize(carried - idle, body)     # zero again for the next iteration
        self.adj.restore(state)
        written = {self.adj.name_of(v) for v in idle}
        out[before:] = [s for s in out[before:] if not (
            isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Name)
            and s.targets[0].id in written)]
        for variable in idle:
            self.adj.set_zero(variable)
        return body

    def _branches(self, stmt, out):
        """An `if`: each branch walked from the same adjoints; a zero still symbolic at
        the end of one branch but not the other is written at the end of that one."""
        if stmt.body and isinstance(stmt.body[0], gast.Break):
            return []
        state = self.adj.snapshot()
        body = self.block(stmt.body)
        after_body = self.adj.zeroed()
        self.adj.restore(state)
        self.stmts.sums.next_branch()
        orelse = self.block(stmt.orelse)
        after_else = self.adj.zeroed()
        self.adj.restore(state)
        kept = after_body & after_else
        self.adj.keep_zeroed(after_body)
        self.adj.materialize(after_body - kept, body)
        self.adj.keep_zeroed(after_else)
        self.adj.materialize(after_else - kept, orelse)
        self.adj.keep_zeroed(kept)
        if not body and not orelse:
            return out
        out.append(gast.If(test=build.clone(stmt.test), body=body or [gast.Pass()],
                           orelse=orelse))
        return out

    def _has_active(self, stmt):
        if any(isinstance(n, gast.Assign) and isinstance(n.targets[0], gast.Name)
               and self.i.dataflow.is_overwritten(n.targets[0].id)
               for n in all_statements(stmt.body + stmt.orelse)):
            return True     # values to restore for the backward sweep of what came before
        for node in all_statements(stmt.body + stmt.orelse):
            if isinstance(node, gast.Assign):
                target = node.targets[0]
                if isinstance(target, gast.Subscript):
                    return True     # elements to restore, active or not (see _statement)
                if self.i.activity.is_active(target.id) \
                        or self.stmts.pop_of_active_list(node) is not None:
                    return True     # (a pop from an active list is put back, see _statement)
            elif appended_list(node) \
                    and self.i.activity.is_active(node.value.func.value.id):
                return True
        return False

    def _contributed_inside(self, stmt):
        """Active straight-line values defined outside `stmt` and read inside it."""
        inside_defs = {n.id for s in stmt.body + stmt.orelse for n in walk_tree(s)
                       if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        reads = {n.id for s in stmt.body + stmt.orelse for n in walk_tree(s)
                 if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
        return {v for v in reads - inside_defs
                if self.i.activity.is_active(v) and not self.adj.accumulates(v)}


def _is_marker(stmt):
    return _marker_of(stmt)[0] is not None


def _has_break(loop):
    return bool(loop.body) and isinstance(loop.body[-1], gast.If) and loop.body[-1].body \
        and isinstance(loop.body[-1].body[0], gast.Break)
