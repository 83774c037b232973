"""Spec rows for objects (templates/objects.py): an attribute read `p.w`, a dataclass or
namedtuple made in f (`make_object`), an item known as an instance of its class (`as_instance`), and the runtime helpers their derivatives call
(`attribute_tangent` in forward mode, `field_adjoints` in reverse, `fields_adjoint` in
grad of grad), over scalars, vectors,
matrices and broadcasting shapes."""
import collections
import dataclasses

import numpy as np

from primitive_specs import BINARY, Spec
from s2s_ad.runtime_objects import (as_instance, attribute_of, attribute_tangent, copied,
                                    field_adjoints, fields_adjoint, make_object)

BOTH = ("reverse", "forward")


@dataclasses.dataclass
class Fields:
    w: object
    b: object


Pair = collections.namedtuple("Pair", "w b")


def dataclass_fields(a, b):
    p = Fields(a, b=b * 2.0)
    return p.w * p.b + np.sin(p.w)


def namedtuple_fields(a, b):
    p = Pair(np.tanh(a), b)
    return p.b * p.w + p.w * p.w


def instance_fields(a, b):
    p = as_instance(Fields(a, b * 2.0), Fields)
    return p.w * p.b + np.sin(p.w)


def copies_written(a, b):
    c = copied(a * b, True)
    d = copied({"a": a, "b": b}, False)
    return c * d["a"] + np.sin(d["b"]) * c


def tangent_attribute(a, b):
    return attribute_tangent(Pair(a, b * b), "b") * a


def adjoints_of_fields(a, b):
    w, b2 = field_adjoints(Fields(a * b, b), Fields, (a, b))
    return w * b2 + w


def adjoint_of_fields(a, b):
    laid = fields_adjoint({}, Fields, (a * b, np.sin(b)))
    listed = fields_adjoint([0.0, 0.0], Pair, (a, b * b))
    return laid["w"] * laid["b"] + listed[0] * listed[1]


SPECS = [
    Spec(attribute_of, dataclass_fields, BINARY, modes=BOTH),
    Spec(make_object, namedtuple_fields, BINARY, modes=BOTH),
    Spec(as_instance, instance_fields, BINARY, modes=BOTH),
    Spec(copied, copies_written, BINARY, modes=BOTH),
    Spec(attribute_tangent, tangent_attribute, BINARY, modes=BOTH),
    Spec(field_adjoints, adjoints_of_fields, BINARY, modes=BOTH),
    Spec(fields_adjoint, adjoint_of_fields, BINARY, modes=BOTH),
]
