"""Spec rows for runtime_reductions._prod_others_tangent (templates/runtime_products.py): np.prod's
second-order helper, whose templates give third derivatives through np.prod. Each row
reduces like the prod it serves: all axes, one axis, keepdims, several axes, and an x
with a zero factor (the helpers never divide by x)."""
import numpy as np

from primitive_specs import Spec
from s2s_ad.runtime_reductions import _prod_others_tangent

MODES = ("reverse", "forward")


def others_all(g, dg, x, dx):
    return _prod_others_tangent(g, dg, x, dx)


def others_axis1(g, dg, x, dx):
    return _prod_others_tangent(g, dg, x, dx, 1, False)


def others_axis0_keepdims(g, dg, x, dx):
    return _prod_others_tangent(g, dg, x, dx, 0, True)


def others_axes(g, dg, x, dx):
    return _prod_others_tangent(g, dg, x, dx, (0, 2), False)


def others_with_zero(g, dg, x, dx):
    """x[1] is zero: P, Q and S are taken without dividing"""
    return _prod_others_tangent(g, dg, x * np.array([1.0, 0.0, 1.0, 1.0]), dx)


def others_broadcast_dx(g, dg, x, dx):
    """dx broadcast against x: its adjoint reduced back"""
    return _prod_others_tangent(g, dg, x, dx, 1, False)


SPECS = [
    Spec(_prod_others_tangent, others_all, [((), (), (4,), (4,)), ((), (), (2, 3), (2, 3))],
         modes=MODES),
    Spec(_prod_others_tangent, others_axis1, [((2,), (2,), (2, 3), (2, 3))], modes=MODES),
    Spec(_prod_others_tangent, others_axis0_keepdims, [((1, 3), (1, 3), (2, 3), (2, 3))],
         modes=MODES),
    Spec(_prod_others_tangent, others_axes, [((3,), (3,), (2, 3, 2), (2, 3, 2))],
         modes=MODES),
    Spec(_prod_others_tangent, others_with_zero, [((), (), (4,), (4,))], modes=MODES),
    Spec(_prod_others_tangent, others_broadcast_dx, [((2,), (2,), (2, 3), (3,))],
         modes=MODES),
]
