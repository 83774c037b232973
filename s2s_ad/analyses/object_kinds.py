"""Facts about objects for the kinds analysis (kinds.py): what an attribute read and an
object made in f are, from the kinds of their operands.

    t1_0 = self.W             self: Model(W: float64[n,n], ...)  ->  t1_0: float64[n,n]
    p = make_object(P, t2_0)  t2_0: tuple[float64[n], float]     ->  p: P(w: float64[n], b: float)
    q = copied(p, True)       p: P(w: float64[n])                ->  q: P(w: float64[n])
    l = as_instance(t3_0, L)  t3_0: any (an item of [L(...), M(...)])  ->  l: L()
"""
from ..runtime_objects import as_instance, attribute_of, copied, field_names, make_object
from ..signature import UNKNOWN, Attributes, Items
from .item_kinds import OneOf
from .stand_ins import stand_ins

PRIMITIVES = (attribute_of, make_object, as_instance, copied)


def object_result(primitive, op, atom):
    """(kind, stand-ins) of `op` applying one of PRIMITIVES; `atom(a)` gives an operand's
    (kind, stand-ins). An object has no stand-ins: only its attributes' kinds are facts."""
    if primitive is copied:                 # copy.deepcopy(params): what it copies
        kind, _ = atom(op.args[0])
        return kind, stand_ins(kind)
    if primitive is as_instance:
        # the item known as an object of that class: the join of the list's items of it
        kind, _ = atom(op.args[0])
        _, classes = atom(op.args[1])
        if classes is None:
            return UNKNOWN, None
        if isinstance(kind, OneOf):
            kind = kind.member(classes[0])
        if isinstance(kind, Attributes) and kind.type is classes[0]:
            return kind, None
        return Attributes(classes[0], ()), None     # its class, no attribute's kind
    if primitive is attribute_of:
        kind, _ = atom(op.args[0])
        entries = dict(kind.entries) if isinstance(kind, Attributes) else {}
        item = entries.get(op.args[1].value, UNKNOWN)
        return item, stand_ins(item)
    _, classes = atom(op.args[0])
    values, _ = atom(op.args[1])
    if classes is None or not isinstance(values, Items):
        return UNKNOWN, None
    names = field_names(classes[0])
    if len(values.items) != len(names):
        return UNKNOWN, None
    return Attributes(classes[0], tuple(zip(names, values.items))), None
