"""Running sums a loop carries (`u = u + e`), whose adjoint is never a loop's bare 0.0.

The backward sweep holds an accumulated variable's adjoint at each of its definitions and
resets it; what it held may be the number 0.0 that stands for "nothing reached it yet",
so templates must not reduce it by shape (statements.py's maybe-zero names). For a
variable whose only definition inside a loop adds to its old value,

    for _ in range(50):
        u = u + r * (np.roll(u, 1) - 2.0 * u + np.roll(u, -1))

the adjoint held at that definition is the one reaching u after the loop (last
iteration), or the one the same definition passed to the old u an iteration later (its
`unbroadcast(held, u)`, an array when held is one). So when an array (not a possibly-zero
adjoint) reached u unconditionally after the loop, it holds an array at every iteration:
`r_bar += np.dot(u_bar, t3_0)`, not `unbroadcast(u_bar * t3_0, r)`.

This module finds those definitions (`carried_sums`) and follows, during the backward
walk, which of those variables an array reached unconditionally (`SumAdjoints`).
"""
import operator

import gast

from ..ir.primitives import operation_of
from ..ir.walk import all_statements, walk_tree


def carried_sums(body, callees):
    """{id(outermost loop): {variable: ids of its definitions there}} for the variables
    defined exactly once inside that loop as `v = v + e`, `v = e + v` or `v = v - e`, or
    through temporaries defined once there (`t = v + e; v = t`, the levels form of
    `v = v + e` in a loop; `t = v + e1; v = t + e2`)."""
    found = {}
    for loop in body:
        if isinstance(loop, (gast.For, gast.While)):
            found[id(loop)] = _sums_in(loop, callees)
        elif isinstance(loop, gast.If):
            found.update(carried_sums(loop.body + loop.orelse, callees))
    return {k: v for k, v in found.items() if v}


def _sums_in(loop, callees):
    definitions = {}
    for stmt in all_statements(loop.body + loop.orelse):
        for target in _names_bound(stmt):
            definitions.setdefault(target, []).append(stmt)
    single = {name: stmts[0] for name, stmts in definitions.items() if len(stmts) == 1}
    sums = {}
    for name, stmt in single.items():
        chain = _add_chain(stmt, name, single, callees)
        if chain:
            sums[name] = chain
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Name) \
                and stmt.value.id in single and stmt.value.id != name:
            chain = _add_chain(single[stmt.value.id], name, single, callees)
            if chain:
                sums[name] = {id(stmt)} | chain
    return sums


def _add_chain(stmt, name, single, callees, depth=0):
    """ids of the statements by which `stmt` adds to `name`'s old value: `name + e`, or
    `t + e` with t defined once in the loop as such a sum (`t = u + 0.1 * lap; u = t +
    r * u * (1 - u)`, as levels form writes one long update), else None."""
    if _adds_to(stmt, name, callees):
        return {id(stmt)}
    if depth > 4 or not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
        return None
    op = operation_of(stmt.value, callees)
    if op.keywords or len(op.args) != 2 or op.primitive not in (operator.add, operator.sub):
        return None
    kept = op.args if op.primitive is operator.add else op.args[:1]
    for arg in kept:
        if isinstance(arg, gast.Name) and arg.id in single and arg.id != name \
                and not any(isinstance(a, gast.Name) and a.id == name for a in op.args):
            inner = _add_chain(single[arg.id], name, single, callees, depth + 1)
            if inner:
                return {id(stmt)} | inner
    return None


def _names_bound(stmt):
    if isinstance(stmt, gast.Assign):
        return [n.id for t in stmt.targets for n in walk_tree(t)
                if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)]
    if isinstance(stmt, gast.For):
        return [n.id for n in walk_tree(stmt.target) if isinstance(n, gast.Name)]
    if isinstance(stmt, gast.With):
        return [item.optional_vars.id for item in stmt.items
                if isinstance(item.optional_vars, gast.Name)]
    return []


def _adds_to(stmt, name, callees):
    """Is `stmt` an assignment of `name + e`, `e + name` or `name - e` (e not name)?"""
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)):
        return False
    op = operation_of(stmt.value, callees)
    if op.keywords or len(op.args) != 2 or op.primitive not in (operator.add, operator.sub):
        return False
    left, right = (isinstance(a, gast.Name) and a.id == name for a in op.args)
    return left != right and (left or op.primitive is operator.add)


class SumAdjoints:
    """Which carried sums an array reached, unconditionally, since their last reset."""

    def __init__(self, sums):
        self._sums = sums                   # carried_sums(...)
        self._reached = set()               # variables an array reached at depth 0
        self._entered = {}                  # id(definition) -> held adjoint is an array
        self.depth = 0                      # loops and branches the walk is inside
        self._blocks, self._serial = [0], 0  # the blocks the walk is inside, by serial
        self._arrays = {}                   # variable -> block where an array reached it
        self._frames = []                   # per block: (arrays before a loop, resets)

    def reached(self, variable, is_array):
        """A contribution to `variable`'s adjoint was written (`is_array`: it is no
        possibly-zero adjoint)."""
        if self.depth == 0 and is_array:
            self._reached.add(variable)
        if is_array and self._arrays.get(variable) not in self._blocks:
            self._arrays[variable] = self._blocks[-1]

    def holds_array(self, variable):
        """Does `variable`'s adjoint hold an array here, whatever the branches and trips
        before: an array reached it since its last reset, in this block or one the walk
        is still inside? (Adding a possibly-zero number to it leaves an array.) Entering
        a loop forgets this: its body may reset the adjoint before the point the walk
        saw first, on the next trip."""
        return self._arrays.get(variable) in self._blocks

    def reset(self, variable):
        """Its adjoint was reset (a definition reversed) or replaced: anything again."""
        self._reached.discard(variable)
        self._arrays.pop(variable, None)
        if self._frames:
            self._frames[-1][1].add(variable)

    def enter(self, stmt):
        """The backward walk enters `stmt` (a loop or a branch)."""
        for name, definitions in self._sums.get(id(stmt), {}).items():
            for definition in definitions:
                self._entered[definition] = name in self._reached
        self.depth += 1
        loop = isinstance(stmt, (gast.For, gast.While))
        arrays_before = {v for v in self._arrays if self.holds_array(v)} if loop else None
        self._frames.append((arrays_before, set()))
        if loop:
            self._arrays = {}
        self._serial += 1
        self._blocks.append(self._serial)

    def next_branch(self):
        """The walk moves from a branch to the other: what reached an adjoint on one
        branch did not on the other."""
        self._serial += 1
        self._blocks[-1] = self._serial

    def leave(self):
        """After a loop, an adjoint that held an array before it (no trips) and holds one
        at the end of its body, or is never reset in it, holds one still."""
        self.depth -= 1
        block = self._blocks.pop()
        arrays_before, resets = self._frames.pop()
        if self._frames:
            self._frames[-1][1].update(resets)
        for v in arrays_before or ():
            if v not in resets or self._arrays.get(v) == block:
                self._arrays[v] = self._blocks[-1]

    def definition_holds_array(self, stmt):
        """Does the adjoint held at this definition always hold an array?"""
        return self._entered.get(id(stmt), False)
