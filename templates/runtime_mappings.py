"""Templates of the dict builders (runtime_mappings.py). Both are linear in the values and
each other's transpose: building a dict passes each key's adjoint back to its value;
reading the values out of an adjoint dict passes a dict of them on."""
from s2s_ad.ad.template_dsl import adjoint, tangent, d
from s2s_ad.runtime_mappings import make_mapping, mapping_values


@adjoint(make_mapping)
def make_mapping_adjoint(y, keys, values):
    """each value's adjoint is its key's entry of the dict's adjoint"""
    d[values] += mapping_values(d[y], keys)


@tangent(make_mapping)
def make_mapping_tangent(y, keys, values):
    """the dict of the values' tangents"""
    d[y] = make_mapping(keys, d[values])


@adjoint(mapping_values)
def mapping_values_adjoint(out, a, keys):
    """the dict of the items' adjoints"""
    d[a] += make_mapping(keys, d[out])


@tangent(mapping_values)
def mapping_values_tangent(out, a, keys):
    """mapping_values is linear in a"""
    d[out] = mapping_values(d[a], keys)
