"""A primitive's tuple result read item by item: its adjoint kept per item, not as a list.

numpy returns some results as named tuples (np.linalg.slogdet's `(sign, logabsdet)`,
eigh's, qr's). When the facts (analyses/kinds.py) show that a variable holds one, bound
once, its length is a fact: `logdet = t1_0[1]` then passes its adjoint to the item's slot
(`(t1_0, 1)`, as for a tuple the user builds), and the template of the call reads the
items' adjoints from a tuple written at generation time, so `d[y][1]` is that slot's
expression itself (ad/expand.py). Without the fact, the adjoint of the whole was built at
run time by `scatter_add(0.0, t1_0, 1, g)`, which reads the result only for its length,
and so kept a call alive whose value nothing else needs (a determinant's LU factorisation):

    t1_0 = np.linalg.slogdet(K)                 (gone: nothing reads it)
    t1_0_bar = scatter_add(0.0, t1_0, 1, 2.0)   ->  K_bar = np.expand_dims(2.0 * ...
    K_bar = np.expand_dims(t1_0_bar[1] * ...

Items nothing reached stand as the number 0.0, as scatter_add's list had them.
"""
from ..ir import build
from ..ir.primitives import operation_of
from .. import runtime_flow
from ..signature import named_tuple_length


class ResultItems:
    """Mixin of StatementReverser (needs self.i, self.adj, self.helpers, self.levels)."""

    def result_arity(self, variable, stmt):
        """n when `stmt` (variable's only assignment) calls a primitive that the facts show
        returns a named tuple of n fields; else None."""
        kinds = self.i.kinds
        if kinds is None or id(stmt) in self.helpers \
                or self.i.dataflow.is_overwritten(variable):
            return None
        length = named_tuple_length(kinds.of(variable))
        if length is None:
            return None
        op = operation_of(stmt.value, self.levels.callees)
        if op.primitive is None or self.i.registry.reverse(op.primitive) is None:
            return None
        return length

    def items_adjoint(self, target, stmt, whole):
        """The adjoint a template of `target = primitive(...)` reads, as a tuple of the
        items' adjoints (plus each item of `whole`, the adjoint of the whole when an item
        was also reached by a computed index), when target's length is such a fact and
        some item has a slot; else `whole` unchanged."""
        arity = self.result_arity(target, stmt)
        if not arity or self.adj.accumulates(target) \
                or all(self.adj.get((target, k)) is None for k in range(arity)):
            return whole
        items = []
        for k in range(arity):
            slot = self.adj.get((target, k))
            if whole is not None:
                part = build.call(self.adj.helper(runtime_flow.take_adjoint),
                                  [build.clone(whole), build.const(k)])
                slot = part if slot is None else build.call(
                    self.adj.helper(runtime_flow.add_adjoints), [slot, part])
            items.append(build.const(0.0) if slot is None else slot)
        return build.tuple_(items)
