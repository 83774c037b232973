"""Spec rows for constructors with a differentiated argument: np.full / np.full_like (the
fill value, broadcast into the shape) and np.linspace (start and stop, with endpoint=,
num=1 and array endpoints laid along axis)."""
import numpy as np

from primitive_specs import Spec
from s2s_ad.runtime_creation import through_cast


def full_of(v):
    return np.full((3, 4), v)


def full_like_of(a, v):
    return np.full_like(a, v)


def linspace_to(start, stop):
    return np.linspace(start, stop, 5)


def linspace_open(start, stop):
    return np.linspace(start, stop, 4, endpoint=False)


def linspace_single(start, stop):
    return np.linspace(start, stop, 1)


def linspace_last_axis(start, stop):
    return np.linspace(start, stop, 3, axis=-1)


def cast_to_float(g):
    return through_cast(g, np.zeros(np.shape(g)), float)


def cast_to_integers(g):
    return through_cast(g, np.zeros(np.shape(g), dtype=int), int)


FILLS = [((),), ((4,),), ((1, 4),), ((3, 1),)]
ENDPOINTS = [((), ()), ((4,), (4,)), ((), (4,)), ((3, 1), (4,))]

SPECS = [
    Spec(through_cast, cast_to_float, [((),), ((3, 4),)]),
    Spec(through_cast, cast_to_integers, [((),), ((3, 4),)]),
    Spec(np.full, full_of, FILLS),
    Spec(np.full_like, full_like_of, [((3, 4), ()), ((3, 4), (4,)), ((4,), ())], wrt=(1,)),
    Spec(np.linspace, linspace_to, ENDPOINTS),
    Spec(np.linspace, linspace_open, ENDPOINTS),
    Spec(np.linspace, linspace_single, ENDPOINTS[:2]),
    Spec(np.linspace, linspace_last_axis, ENDPOINTS),
]
