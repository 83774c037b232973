"""Adjoints that may still be the shapeless 0.0 (mixed into ad.statements'
StatementReverser): an accumulated adjoint starts from 0.0, and a loop or branch that
never contributed leaves it so, standing for zeros of any shape. These methods say which
adjoints may be that number, and make one an array where a template needs a shape:

    y_bar = 0.0 (a branch not taken)   np.flip(y)'s adjoint:
                                       y_bar_1 = match_adjoint(y_bar, y); np.flip(y_bar_1)
"""
import gast

from ..ir import build
from .. import runtime, runtime_flow


class MaybeZeroAdjoints:
    """Reads self.i (inputs), self.adj (ad.adjoints), self.ctx, self.uniform and the sets
    self._maybe_zero / self._held_zero that StatementReverser keeps."""

    def _shaped_adjoint(self, adjoint, target, out, like=None):
        """The adjoint as an array of the result's shape (read off `like`, a value of its
        shape and dtype, when given): the 0.0 a loop or a branch that never contributed
        leaves has no shape, and templates that rearrange, index or multiply the adjoint
        (np.flip, np.tril, matmul, solve, ...) need one."""
        like = like or target
        shaped = self.i.namer.fresh(f"{target}_bar")
        out.append(build.assign(shaped, build.call(self.adj.helper(runtime_flow.match_adjoint),
                                                   [build.clone(adjoint), build.name(like)])))
        self.ctx.adjoint_may_be_scalar_zero = False
        return build.name(shaped)

    def may_still_be_zero(self, variable):
        """Can `variable`'s adjoint be the shapeless 0.0 of a loop or branch that never
        contributed (a rebound argument used only on a branch not taken)?"""
        return self.adj.name_of(variable) in self._held_zero

    def same_object(self, held, source):
        """`held` (a copy no longer written) and `source` name one object: what may be
        the shapeless 0.0 under the one may be under the other."""
        for names in (self._maybe_zero, self._held_zero):
            if held in names:
                names.add(source)

    def adjoint_may_be_zero(self, adjoint):
        """Can this adjoint still be the 0.0 an accumulated adjoint starts from (a loop or
        branch that never contributed)? Then it has no shape to reduce from."""
        if not isinstance(adjoint, gast.Name):
            return True
        return adjoint.id in self._maybe_zero

    def _seed_of_a_number(self, adjoint, target):
        """A nonzero number literal as the adjoint of a value the facts say is a number
        (the 1.0 seeding `return r @ r`): a number, not 0.0 standing for an array."""
        return isinstance(adjoint, gast.Constant) and type(adjoint.value) in (int, float) \
            and adjoint.value != 0 and self.i.kinds is not None \
            and self.i.kinds.axes(target) == ()

    def _note_maybe_zero(self, operand, value, target):
        """A contribution computed from a possibly-zero adjoint is possibly zero too,
        unless it multiplies in a value shaped like the result (then it has that shape)."""
        if not self.ctx.adjoint_may_be_scalar_zero or self.i.kinds is None \
                or self.i.kinds.axes(operand) == () or self._reduced_to(value, operand) \
                or self.sums.holds_array(operand):      # array + a possible 0.0: an array
            return
        axes = self.i.kinds.axes(target)
        if axes is None or not self.uniform.shaped_like(value, axes):
            self._maybe_zero.add(self.adj.name_of(operand))
            if self._from_held:
                self._held_zero.add(self.adj.name_of(operand))

    def _is_array(self, value, variable):
        """Is this contribution to `variable` no possibly-zero adjoint: a name not noted as
        one, `unbroadcast(g, variable)`, or a product with a factor of its shape?"""
        if isinstance(value, gast.Name):
            return not self.adjoint_may_be_zero(value)
        axes = self.i.kinds.axes(variable) if self.i.kinds is not None else None
        if axes is None and self.i.kinds is not None and self.i.kinds.decided_lengths(variable):
            # no axes known, but a shape class (lengths proved equal: kinds.py)
            return self._reduced_to(value, variable) or self.uniform.shaped_like(
                value, None, variable=variable)
        return self._reduced_to(value, variable) or bool(axes) and self.uniform.shaped_like(
            value, axes)

    def _reduced_to(self, value, operand):
        """Is `value` the call `unbroadcast(g, operand)`? It has operand's shape whatever
        g is (a loop's 0.0 comes out as zeros of that shape), as in `total = total + t`,
        where t's length is no fact: `t_bar = unbroadcast(total_bar, t)`."""
        return isinstance(value, gast.Call) and len(value.args) == 2 \
            and isinstance(value.func, gast.Name) \
            and self.i.bindings.names.get(value.func.id) is runtime.unbroadcast \
            and isinstance(value.args[1], gast.Name) and value.args[1].id == operand
