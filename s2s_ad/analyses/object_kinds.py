"""Facts about objects for the kinds analysis (kinds.py): what an attribute read and an
object made in f are, from the kinds of their operands.

    t1_0 = self.W             self: Model(W: float64[n,n], ...)  ->  t1_0: float64[n,n]
    p = make_object(P, t2_0)  t2_0: tuple[float64[n], float]     ->  p: P(w: float64[n], b: float)
"""
from ..runtime_objects import attribute_of, field_names, make_object
from ..signature import UNKNOWN, Attributes, Items
from .stand_ins import stand_ins

PRIMITIVES = (attribute_of, make_object)


def object_result(primitive, op, atom):
    """(kind, stand-ins) of `op` applying one of PRIMITIVES; `atom(a)` gives an operand's
    (kind, stand-ins). An object has no stand-ins: only its attributes' kinds are facts."""
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
