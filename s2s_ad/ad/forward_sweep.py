"""The forward sweep of a reverse-mode derivative: the levels form's statements with the
tape pushes the backward sweep pops (values about to be overwritten, elements an index
write replaces, loop trip counts).

    x = x * 2.0          ->   _tape.append(x)          (x's old value, read backward)
                              x = x * 2.0
    for i in r: ...      ->   trips = 0
                              for i in r: ...; trips = trips + 1
                              _tape.append(trips)

A mixin of ad.backward_walk.BackwardWalker; it copies what it keeps (the levels form is not
changed).
"""
import copy

import gast

from ..ir import build
from ..ir.walk import walk_tree
from .tape import SAVE, SAVE_ITEM, marker, pair_key, push


class ForwardInstrumentation:
    def instrument(self, stmts):
        return self._instrument(stmts)

    def _instrument(self, stmts):
        out = []
        for stmt in stmts:
            if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
                target = stmt.targets[0]
                out.append(marker(SAVE_ITEM, build.name(target.value.id),
                                  build.clone(target.slice)))
            elif isinstance(stmt, gast.Assign) and id(stmt) not in self.first_defs \
                    and id(stmt) not in self.stmts.repeated_ids \
                    and self.i.dataflow.is_overwritten(stmt.targets[0].id):
                self.saved.add(stmt.targets[0].id)
                out.append(marker(SAVE, build.name(stmt.targets[0].id), pair_key(stmt)))
            elif isinstance(stmt, (gast.If, gast.For, gast.While)):
                out.extend(self._instrument_compound(stmt))
                continue
            elif isinstance(stmt, gast.With):
                continue            # insert_grad_of blocks run in the backward sweep only
            out.append(build.clone(stmt))   # the passes that follow edit it; not the input
        return out

    def _instrument_compound(self, original):
        stmt = copy.copy(original)          # the levels form's own loop keeps its body
        stmt.body = self._instrument(original.body)
        stmt.orelse = self._instrument(original.orelse)
        counter = self.counted.get(id(original))
        if counter is None:
            return [stmt]
        step = build.assign(counter, build.binop(build.name(counter), "Add", build.const(1)))
        stmt.body = _before_break(stmt.body, [step])
        return [build.assign(counter, build.const(0)), stmt, push(self._tape, build.name(counter))]

    def unbound_guards(self, forward):
        """Variables saved before their first assignment need a value to save (those
        whose push survived: a push nothing pops was dropped)."""
        assigned = set(self.i.levels.resolution.parameters)
        unbound = set()
        for stmt in forward:          # in order: a push before any assignment needs one
            for node in walk_tree(stmt):
                if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                        and node.func.attr == "append" \
                        and isinstance(node.func.value, gast.Name) \
                        and node.func.value.id == self._tape:
                    unbound |= {n.id for a in node.args for n in walk_tree(a)
                                if isinstance(n, gast.Name)} - assigned
            if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
                assigned.add(stmt.targets[0].id)
        return [build.assign(v, build.const(None)) for v in sorted(self.saved & unbound)]


def _before_break(body, stmts):
    """`stmts` at the end of a loop body, before the test that breaks out of it."""
    if bool(body) and isinstance(body[-1], gast.If) and body[-1].body \
            and isinstance(body[-1].body[0], gast.Break):
        return body[:-1] + stmts + body[-1:]
    return body + stmts
