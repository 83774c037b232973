"""What template expansion (reverse and forward) asks of the function being built: fresh
names, the names globals are bound under, which operands are active, and the facts about
shapes (analyses/shapes.py, and analyses/kinds.py for a specialised derivative).

    ctx.same_shape("t2_0", x)            True when x is shaped like the result t2_0
    ctx.reduce_to_operand(g, "t2_0", b)  np.sum(g, axis=0) when b broadcast over axis 0
"""
import gast

from ..ir import build


class ExpansionContext:
    """What template expansion (reverse and forward) needs from the function being built."""

    def __init__(self, inputs):
        self.i = inputs

    def fresh_name(self, temp):
        return self.i.namer.fresh(temp.lstrip("_"))

    def global_name(self, ident, obj):
        import numpy
        if obj is numpy:
            return self.i.levels.numpy_name
        return self.i.bindings.name_for(ident, obj)

    def is_active_operand(self, atom):
        return isinstance(atom, gast.Name) and self.i.activity.is_active(atom.id)

    elementwise = False       # set per statement: is its primitive elementwise?

    def same_shape(self, result, atom):
        """Is operand `atom` of the operation computing `result` shaped like it?"""
        if self.i.shapes.same(result, atom):
            return True
        axes = self._axes(atom)
        return axes is not None and axes == self._axes(result)

    def is_scalar(self, atom):
        return self.i.shapes.is_scalar(atom) or self._axes(atom) == ()

    def _axes(self, atom):
        return self.i.kinds.axes(atom) if self.i.kinds is not None else None

    adjoint_may_be_scalar_zero = True   # set per statement by the reverser

    def reduce_to_operand(self, contribution, result, atom):
        """`unbroadcast(contribution, atom)` written out from the facts: np.sum over the
        axes broadcasting added, or None when they are not known. A contribution that may
        still be the scalar zero of a loop keeps the general helper."""
        result_axes, axes = self._axes(result), self._axes(atom)
        if result_axes is None or axes is None or self.adjoint_may_be_scalar_zero \
                or not self.elementwise:
            return None
        lead = len(result_axes) - len(axes)
        if lead < 0 or any(a is None and r is not None
                           for a, r in zip(axes, result_axes[lead:])):
            return None
        kept = [k for k, (a, r) in enumerate(zip(axes, result_axes[lead:]))
                if a == 1 and r is None]
        total = self.i.levels.numpy_name + ".sum"
        if lead:
            axis = build.const(0) if lead == 1 else build.tuple_(
                [build.const(k) for k in range(lead)])
            contribution = build.call(total, [contribution], [("axis", axis)])
        if kept:
            axis = build.const(kept[0]) if len(kept) == 1 else build.tuple_(
                [build.const(k) for k in kept])
            contribution = build.call(total, [contribution],
                                      [("axis", axis), ("keepdims", build.const(True))])
        return contribution

    current_target = None     # set per statement by forward mode

    def tangent_shape_known(self, bound):
        """Does every operand provably have the result's shape (no broadcasting)?"""
        names = [a for a in bound.values() if isinstance(a, gast.Name)]
        return bool(names) and all(self.same_shape(self.current_target, a) for a in names)
