"""Which values of the levels form provably have one shape (mixed into the facts
analysis, analyses/kinds.py, which reads them off its own facts): the shape classes of
the function's straight-line statements, and the shape edges within one iteration of
each loop. They let a specialised derivative read a shape off a value it keeps anyway.

    t1_0 = x * 2.0            x ~ t1_0          (one operand besides literals)
    t2_0 = np.tanh(t1_0)      t1_0 ~ t2_0
    t3_0 = logp[rows, y]      rows ~ y ~ t3_0   (a gather by index arrays of one pattern)
"""
import operator
from collections import Counter

import gast
import numpy as np

from ..ir.primitives import operation_of
from ..ir.walk import names_stored, walk_tree
from ..signature import Num
from .shapes import is_elementwise
from .stand_ins import literal
from .union_find import root_of


class ShapeClasses:
    """Reads self.levels (the levels form) and self.facts (variable -> kind)."""

    def _shape_classes(self, counts):
        """Union the operands of elementwise operations with their results where the
        axes agree, or where there is one operand besides number literals, for variables
        assigned once (their kind is one value's). `counts`: name -> times it is bound."""
        parent = {}
        for _, target, operand in self._elementwise_edges(     # straight-line statements
                self.levels.tree.body, lambda name: counts.get(name, 0) <= 1):
            parent[root_of(parent, operand)] = root_of(parent, target)
        return {name: root_of(parent, name) for name in parent}

    def _iteration_classes(self, counts):
        """id(loop) -> (edges, bound_at): the shape edges (position, result, operand) of
        the loop body's top-level elementwise statements, between names bound once in
        the body, at its top level (`bound_at`: name -> position; such a name may also be
        bound outside the loop, as a carried state is), and names that never change
        (parameters never rebound, top-level names bound once). An edge relates the two
        values its statement saw; tape.shapes_read_within_iterations says where in the
        backward sweep those are the values the names hold."""
        top = {stmt.targets[0].id for stmt in self.levels.tree.body
               if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)}
        found = {}
        for loop in walk_tree(self.levels.tree):
            if not isinstance(loop, (gast.For, gast.While)):
                continue
            inside = Counter(n for stmt in loop.body for n in names_stored(stmt))
            bound_at = {stmt.targets[0].id: k for k, stmt in enumerate(loop.body)
                        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
                        and inside[stmt.targets[0].id] == 1}

            def eligible(name, bound_at=bound_at):
                return name in bound_at or counts.get(name, 0) == 0 \
                    or counts.get(name) == 1 and name in top
            edges = list(self._elementwise_edges(loop.body, eligible))
            if edges:
                found[id(loop)] = (edges, bound_at)
        return found

    def _elementwise_edges(self, stmts, eligible):
        """(position, result, operand) of each elementwise statement of `stmts` whose
        result has that operand's shape, both names `eligible`; and of gathers by index
        arrays (`a[i, j]` has i's shape)."""
        for position, stmt in enumerate(stmts):
            if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
                continue
            target = stmt.targets[0].id
            if not eligible(target):
                continue
            op = operation_of(stmt.value, self.levels.callees)
            for index in self._index_arrays(op):
                if eligible(index):
                    yield position, target, index
            if op.keywords or not (
                    is_elementwise(op.primitive) or op.primitive is np.where and len(op.args) == 3):
                continue
            axes = self.facts.get(target)
            names = {arg.id for arg in op.args if isinstance(arg, gast.Name)}
            # one operand (`np.tanh(x)`, `x * x`, `2.0 * x`) of a number or an array (not a
            # list: `xs * 2` repeats it): its shape, even where the facts know no axes
            alone = len(names) == 1 and all(isinstance(arg, gast.Name) or literal(arg) is not None
                                            for arg in op.args) and (
                isinstance(self.facts.get(next(iter(names))), Num)
                or isinstance(op.primitive, np.ufunc) or _no_list_result(op))
            for arg in op.args:
                if isinstance(arg, gast.Name) and eligible(arg.id) and (
                        alone or isinstance(axes, Num) and axes.axes is not None
                        and self.facts.get(arg.id) is not None
                        and getattr(self.facts[arg.id], "axes", None) == axes.axes):
                    yield position, target, arg.id

    def _index_arrays(self, op):
        """`a[i, j]` with every axis of a taken by an integer array, all of one axes
        pattern: the result has their shape (the names i, j), else ()."""
        if op.primitive is not operator.getitem or len(op.args) != 2:
            return ()
        indexed, index = self.facts.get(getattr(op.args[0], "id", None)), op.args[1]
        items = index.elts if isinstance(index, gast.Tuple) else [index]
        kinds = [self.facts.get(getattr(item, "id", None)) for item in items]
        if not (isinstance(indexed, Num) and indexed.axes is not None
                and len(items) == len(indexed.axes)) or not all(
                    isinstance(k, Num) and k.axes is not None and k.axes == kinds[0].axes
                    and str(k.dtype).startswith(("int", "uint")) for k in kinds):
            return ()
        return [item.id for item in items]


def _no_list_result(op):
    """An arithmetic of one name and float literals that no list or tuple gives a list
    for (`xs * 2` repeats xs, `xs + xs` concatenates; `xs ** 2`, `xs * xs` raise)."""
    if op.primitive in (operator.sub, operator.truediv, operator.pow, operator.neg):
        return True
    ints = any(type(literal(arg)) in (int, bool) for arg in op.args)
    names = all(isinstance(arg, gast.Name) for arg in op.args)
    return op.primitive is operator.mul and not ints or op.primitive is operator.add and not names
