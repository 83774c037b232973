"""Attribute reads of objects (dataclasses, namedtuples, plain objects): `y = p.w`.

An object is differentiated as the structure of its attributes (s2s_ad/runtime_objects.py):
its adjoint accumulates attribute by attribute, as a dict's does key by key, and becomes
an object of its type in the returned gradient.
"""
from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime_objects import attribute_of, attribute_tangent


@adjoint(attribute_of)
def attribute_of_adjoint(y, x, name):
    """y = x.name: the adjoint lands on that attribute (repeated reads accumulate)"""
    d[x][name] += d[y]


@tangent(attribute_of)
def attribute_of_tangent(y, x, name):
    """reading an attribute is linear: d x.name = (dx).name"""
    d[y] = attribute_tangent(d[x], name)


@adjoint(attribute_tangent)
def attribute_tangent_adjoint(y, t, name):
    """y = t.name (a tangent's attribute): the adjoint lands on that attribute"""
    d[t][name] += d[y]


@tangent(attribute_tangent)
def attribute_tangent_tangent(y, t, name):
    """linear in the tangent t"""
    d[y] = attribute_tangent(d[t], name)
