"""Attribute reads of objects (dataclasses, namedtuples, plain objects): `y = p.w`.

An object is differentiated as the structure of its attributes (s2s_ad/runtime_objects.py):
its adjoint accumulates attribute by attribute, as a dict's does key by key, and becomes
an object of its type in the returned gradient. A dataclass or namedtuple made in f,
`P(w, b)`, is `make_object(P, (w, b))`: each value's adjoint is its field's.
"""
from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_flow import sequence_position
from s2s_ad.runtime_objects import (as_instance, attribute_of, attribute_tangent, copied,
                                    field_adjoints, fields_adjoint, make_object)


@adjoint(attribute_of)
def attribute_of_adjoint(y, x, name):
    """y = x.name: the adjoint lands on that attribute (repeated reads accumulate)"""
    d[x][name] += d[y]


@tangent(attribute_of)
def attribute_of_tangent(y, x, name):
    """reading an attribute is linear: d x.name = (dx).name (a namedtuple's tangent may be
    a plain tuple: read by position)"""
    d[y] = attribute_tangent(d[x], sequence_position(x, name))


@adjoint(attribute_tangent)
def attribute_tangent_adjoint(y, t, name):
    """y = t.name (a tangent's attribute): the adjoint lands on that attribute"""
    d[t][name] += d[y]


@tangent(attribute_tangent)
def attribute_tangent_tangent(y, t, name):
    """linear in the tangent t"""
    d[y] = attribute_tangent(d[t], name)


@adjoint(make_object)
def make_object_adjoint(y, cls, values):
    """y = cls(*values): each value's adjoint is the adjoint of the field it fills"""
    d[values] += field_adjoints(d[y], cls, values)


@tangent(make_object)
def make_object_tangent(y, cls, values):
    """making an object is linear in its values: d cls(*v) = cls(*dv)"""
    d[y] = make_object(cls, field_adjoints(d[values], cls, values))


@adjoint(field_adjoints)
def field_adjoints_adjoint(y, a, cls, values):
    """y = the field adjoints of a: linear in a, field by field (the adjoint of a has a's
    structure: a dict by attribute name, or a namedtuple's list)"""
    d[a] += fields_adjoint(a, cls, field_adjoints(d[y], cls, values))


@tangent(field_adjoints)
def field_adjoints_tangent(y, a, cls, values):
    """linear in a"""
    d[y] = field_adjoints(d[a], cls, values)


@adjoint(fields_adjoint)
def fields_adjoint_adjoint(y, a, cls, items):
    """y = items laid out by field: linear in items"""
    d[items] += field_adjoints(d[y], cls, items)


@tangent(fields_adjoint)
def fields_adjoint_tangent(y, a, cls, items):
    """linear in items"""
    d[y] = fields_adjoint(a, cls, d[items])


@adjoint(as_instance)
def as_instance_adjoint(y, value, cls):
    """y = value, known as an instance of cls: the identity"""
    d[value] += d[y]


@tangent(as_instance)
def as_instance_tangent(y, value, cls):
    """the identity"""
    d[y] = d[value]


@adjoint(copied)
def copied_adjoint(y, value, deep):
    """y = a copy of value: the identity"""
    d[value] += d[y]


@tangent(copied)
def copied_tangent(y, value, deep):
    """the identity; the tangent is copied too, as later writes into y must not reach
    value's tangent"""
    d[y] = copied(d[value], True)
