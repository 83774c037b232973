"""The reverse of index writes, appends and pops of the levels form.

    y[i] = v               ->  v_bar = v_bar + unbroadcast(take_adjoint(y_bar, i), v)
                               y_bar = clear_adjoint(y_bar, i)
                               (no unbroadcast where the facts prove v a number written
                               into one element)
    items.append(v)        ->  v_bar = pop_adjoint(items_bar)
    x = items.pop()        ->  items_bar = push_adjoint(items_bar, items, x_bar)
                               items.append(x)

A mixin of ad.statements.StatementReverser (it reads the reverser's adjoints and context).
"""
import gast
import numpy as np

from .. import runtime, runtime_flow
from ..ir import build
from ..ir.primitives import operation_of
from ..signature import Num
from .tape import RESTORE_ITEM, UNDO_APPEND, marker


class ListStatementReverser:
    def index_write(self, stmt, out):
        """y[index] = v: v receives y_bar[index]; the overwritten elements' adjoint is 0."""
        target = stmt.targets[0]
        base, index, value = target.value.id, target.slice, stmt.value
        self.adj.materialize({base}, out)       # cleared by name below
        y_bar = self.adj.get(base)
        if self.ctx.is_active_operand(value):
            taken = build.call(self.adj.helper(runtime_flow.take_adjoint),
                               [y_bar, build.index_value(build.clone(index))])
            if not self._one_element(base, index, value):
                # what the write broadcast v to is summed back to v's shape
                taken = build.call(self.adj.helper(runtime.unbroadcast),
                                   [taken, build.clone(value)])
            if value.id == base:
                # `y[i] = y`: y's adjoint at i is taken before it is cleared, then added
                held = self.i.namer.fresh(f"{base}_bar")
                out.append(build.assign(held, taken))
                taken = build.name(held)
                out.append(build.assign(self.adj.name_of(base), build.call(
                    self.adj.helper(runtime_flow.clear_adjoint),
                    [build.clone(y_bar), build.index_value(build.clone(index))])))
                self.contribute(value.id, taken, out)
                out.append(marker(RESTORE_ITEM, build.name(base), build.clone(index)))
                return
            self.contribute(value.id, taken, out)
        cleared = build.call(self.adj.helper(runtime_flow.clear_adjoint),
                             [build.clone(y_bar), build.index_value(build.clone(index))])
        out.append(build.assign(self.adj.name_of(base), cleared))
        out.append(marker(RESTORE_ITEM, build.name(base), build.clone(index)))

    def _one_element(self, base, index, value):
        """Do the facts prove `base[index] = value` writes one number into one element
        (a number, an integer per axis of an array)? Then the element's adjoint is the
        number's, with no shape to reduce to."""
        kinds = self.i.kinds
        if kinds is None or kinds.axes(value.id) != ():
            return False
        axes = kinds.axes(base)
        parts = index.elts if isinstance(index, gast.Tuple) else [index]
        return axes is not None and len(parts) == len(axes) and all(
            _integer(part, kinds) for part in parts)

    def append(self, stmt, out):
        call = stmt.value
        lst = call.func.value.id
        popped = build.call(self.adj.helper(runtime_flow.pop_adjoint), [self.adj.get(lst)])
        arg = call.args[0]
        if self.ctx.is_active_operand(arg):
            self.contribute(arg.id, popped, out)
        else:
            out.append(build.expr_stmt(popped))
        out.append(marker(UNDO_APPEND, build.name(lst)))

    def undo_inactive_pop(self, stmt, out):
        op = self.pop_of_active_list(stmt)
        if op is not None:
            self._pop(op, stmt.targets[0].id, build.const(0.0), out)

    def pop_of_active_list(self, stmt):
        """The pop operation of `t = items.pop()` when items is active, else None: such a
        statement has a reverse (the item goes back) even when t has no adjoint."""
        op = operation_of(stmt.value, self.levels.callees)
        if (op.primitive is list.pop or op.primitive is runtime_flow.pop_adjoint) \
                and isinstance(op.args[0], gast.Name) \
                and self.i.activity.is_active(op.args[0].id):
            return op
        return None

    def _pop(self, op, target, result_adjoint, out):
        """x = items.pop(): the item goes back on the list, its adjoint on the list's.
        So for `x = pop_adjoint(items)` in a gradient differentiated again, where items
        may still be the scalar zero (nothing was popped, nothing goes back):

            items_bar = push_adjoint(items_bar, items, x_bar)
            if isinstance(items, list): items.append(x)
        """
        items = op.args[0].id
        if self.ctx.is_active_operand(op.args[0]):
            self.adj.materialize({items}, out)
            pushed = build.call(self.adj.helper(runtime_flow.push_adjoint),
                                [self.adj.get(items), build.name(items), result_adjoint])
            out.append(build.assign(self.adj.name_of(items), pushed))
        put_back = build.expr_stmt(build.call(build.attribute(build.name(items), "append"),
                                              [build.name(target)]))
        if op.primitive is runtime_flow.pop_adjoint:
            put_back = gast.If(test=build.call(self.adj.helper(isinstance), [
                build.name(items), self.adj.helper(list)]), body=[put_back], orelse=[])
        out.append(put_back)


def _integer(atom, kinds):
    """An integer index: a literal or a number the facts prove integral (not a bool)."""
    if isinstance(atom, gast.Constant):
        return type(atom.value) is int
    kind = kinds.of(atom) if isinstance(atom, gast.Name) else None
    return isinstance(kind, Num) and kind.axes == () and kind.dtype is not None \
        and np.dtype(kind.dtype).kind in "iu"
