"""Spec rows for np.geomspace and np.logspace (templates/numpy_creation.py) and np.polyadd,
np.polysub, np.polymul and np.vander (templates/numpy_polynomials.py)."""
import numpy as np

from primitive_specs import POSITIVE, REAL, UNIT, Spec

BOTH = ("reverse", "forward")


def geomspace_of(a, b):
    return np.geomspace(a, b, 5) * np.geomspace(a, b, 4, endpoint=False)[:1]


def geomspace_axis_of(a, b):
    return np.geomspace(a, b, 3, axis=-1)


def logspace_of(a, b):
    return np.logspace(a, b, 5) + np.logspace(a, b, 4, endpoint=False, base=2.0)[1]


def logspace_base_of(a, b, base):
    return np.logspace(a, b, 4, base=base, axis=-1)


def polyadd_of(a, b):
    return np.polyadd(a, b * b)


def polysub_of(a, b):
    return np.polysub(a * a, b)


def polymul_of(a, b):
    return np.polymul(a, b) * np.polymul(a, a)[:np.size(a) + np.size(b) - 1]


def polymul_leading_zero_of(a, b):
    return np.polymul(a * np.array([0.0, 1.0, 1.0]), b)


def vander_of(x):
    return np.vander(x) * np.vander(x, 3, increasing=True)[:, :1]


SPECS = [
    Spec(np.geomspace, geomspace_of, [((), ()), ((2,), ()), ((2,), (2,))], (POSITIVE,),
         modes=BOTH),
    Spec(np.geomspace, geomspace_axis_of, [((2,), (3, 1))], (POSITIVE,), modes=BOTH),
    Spec(np.logspace, logspace_of, [((), ()), ((3,), ())], (UNIT,), modes=BOTH),
    Spec(np.logspace, logspace_base_of, [((), (), ()), ((2,), (), (2,))],
         (UNIT, UNIT, POSITIVE), modes=BOTH),
    Spec(np.polyadd, polyadd_of, [((3,), (3,)), ((2,), (4,)), ((5,), (1,))], modes=BOTH),
    Spec(np.polysub, polysub_of, [((3,), (3,)), ((2,), (4,)), ((5,), ())], modes=BOTH),
    Spec(np.polymul, polymul_of, [((3,), (2,)), ((1,), (4,)), ((4,), (4,))], modes=BOTH),
    Spec(np.polymul, polymul_leading_zero_of, [((3,), (2,))], modes=BOTH),
    Spec(np.vander, vander_of, [((4,),), ((1,),)], (REAL,), modes=BOTH),
]
