"""Spec rows for reductions, shape manipulation, indexing and linear algebra."""
import operator

import numpy as np

from primitive_specs import Spec


def get_item(x):
    return x[1]


def get_slice(x):
    return x[1:3]


def get_column(x):
    return x[:, 0]


def get_element(x):
    return x[1, 2]


def get_every_other(x):
    return x[::2]


def get_ellipsis(x):
    return x[..., 0]


def get_last(x):
    return x[-1]


def get_int_array(x):
    return x[np.array([0, 2, 0, 3])]


def get_mask(x):
    return x[x > 0.0]


def get_pair_index(x, i, j):
    return x[i, j]


SPECS = [
    Spec(operator.getitem, get_item, [((4,),), ((4, 3),)]),
    Spec(operator.getitem, get_slice, [((4,),), ((4, 3),)]),
    Spec(operator.getitem, get_column, [((4, 3),)]),
    Spec(operator.getitem, get_element, [((4, 3),)]),
    Spec(operator.getitem, get_every_other, [((5,),), ((5, 2),)]),
    Spec(operator.getitem, get_ellipsis, [((4, 3),), ((2, 4, 3),)]),
    Spec(operator.getitem, get_last, [((4,),), ((4, 3),)]),
    Spec(operator.getitem, get_int_array, [((4,),), ((5, 2),)]),
    Spec(operator.getitem, get_mask, [((6,),), ((3, 4),)]),
]
