"""Spec rows for np.interp, np.trapezoid, np.gradient (templates/numpy_calculus.py) and the
polynomial functions (templates/numpy_polynomials.py), and the helpers their derivatives
call (runtime_calculus.py) for second order. Knots and sample points are made increasing
from positive samples (cumulative sums); random points fall on no knot, so interp is
smooth there. Points outside the knots check left / right and fp's ends."""
import numpy as np

from primitive_specs import POSITIVE, REAL, Spec
from s2s_ad.runtime_calculus import (as_columns_of, gradient_spacing_adjoints,
                                     trapezoid_steps, ungradient, ungradients,
                                     untrapezoid_steps)

XP = np.array([-1.5, -0.4, 0.3, 1.1, 2.0])
POINTS = np.array([-2.0, -0.7, 0.05, 0.9, 1.6, 2.5])


def interp_values(fp):
    return np.interp(POINTS, XP, fp)


def interp_points(x):
    return np.interp(x, XP, np.array([0.5, -1.0, 2.0, 0.3, 1.2]))


def interp_everything(x, steps, fp):
    return np.interp(x, np.cumsum(steps) - 2.0, fp)


def interp_ends(x, left, right):
    return np.interp(x, XP, np.array([0.5, -1.0, 2.0, 0.3, 1.2]), left, right)


def trapezoid_unit(y):
    return np.trapezoid(y)


def trapezoid_axis0_dx(y, dx):
    return np.trapezoid(y, dx=dx, axis=0)


def trapezoid_coordinates(y, steps):
    return np.trapezoid(y, np.cumsum(steps, axis=-1))


def trapezoid_grid(y, steps):
    return np.trapezoid(y, np.cumsum(steps, axis=0), axis=0)


def gradient_vector(f):
    return np.gradient(f)


def gradient_spacing(f, h):
    return np.gradient(f, h, axis=0)


def gradient_second_order_edges(f):
    return np.gradient(f, 0.5, axis=-1, edge_order=2)


def gradient_every_axis(f):
    """a matrix's two arrays, both used (each in its own way)"""
    gx, gy = np.gradient(f)
    return gx * gy + gy


def gradient_spacing_per_axis(f, h, k):
    gx, gy = np.gradient(f, h, k, edge_order=2)
    return np.sin(gx) + gy * gx


def gradient_chosen_axes(f, h):
    parts = np.gradient(f, h, axis=(2, 0))
    return parts[0] * 2.0 + parts[1] ** 2


def polyval_both(p, x):
    return np.polyval(p, x)


def polyder_once(p):
    return np.polyder(p)


def polyder_twice(p):
    return np.polyder(p, 2)


def polyint_constant(p, k):
    return np.polyint(p, 1, k)


def polyint_twice(p, k):
    return np.polyint(p, 2, k)


def polyfit_values(y):
    return np.polyfit(np.array([-1.0, -0.3, 0.2, 0.8, 1.5, 2.1]), y, 2)


def polyfit_everything(x, y, w):
    return np.polyfit(x, y, 2, w=w)


def use_trapezoid_steps(y, x):
    return trapezoid_steps(y, x, 0)


def use_untrapezoid_steps(h):
    return untrapezoid_steps(h, np.ones(4), 1)


def use_ungradient(g, h):
    return ungradient(g, h, 0, 2) + ungradient(g, h, 1)


def use_ungradients(g0, g1, h, k):
    return ungradients((g0, g1), np.ones((4, 5)), [h, k, None, None], None, 2)


def use_gradient_spacing_adjoints(g0, g1, h):
    y0, y1 = np.gradient(g0 * g1)
    return gradient_spacing_adjoints((g0, g1), (y0, y1), [h, None, None, None],
                                     np.ones((3, 4)))[0]


def use_as_columns_of(v):
    return as_columns_of(v)


SPECS = [
    Spec(np.interp, interp_values, [((5,),)]),
    Spec(np.interp, interp_points, [((),), ((6,),), ((2, 3),)]),
    Spec(np.interp, interp_everything, [((6,), (5,), (5,)), ((), (5,), (5,))],
         (REAL, POSITIVE, REAL)),
    Spec(np.interp, interp_ends, [((6,), (), ())]),
    Spec(np.trapezoid, trapezoid_unit, [((5,),), ((3, 4),)]),
    Spec(np.trapezoid, trapezoid_axis0_dx, [((4,), ()), ((4, 3), ())]),
    Spec(np.trapezoid, trapezoid_coordinates, [((5,), (5,)), ((3, 5), (5,)), ((3, 5), (3, 5))],
         (REAL, POSITIVE)),
    Spec(np.trapezoid, trapezoid_grid, [((4, 3), (4, 3))], (REAL, POSITIVE)),
    Spec(np.gradient, gradient_vector, [((5,),)]),
    Spec(np.gradient, gradient_spacing, [((5,), ()), ((4, 3), ())], (REAL, POSITIVE)),
    Spec(np.gradient, gradient_second_order_edges, [((5,),), ((3, 4),)]),
    Spec(np.gradient, gradient_every_axis, [((4, 5),), ((3, 3),)]),
    Spec(np.gradient, gradient_spacing_per_axis, [((4, 5), (), ())], (REAL, POSITIVE)),
    Spec(np.gradient, gradient_chosen_axes, [((3, 2, 4), ())], (REAL, POSITIVE)),
    Spec(np.polyval, polyval_both, [((4,), ()), ((4,), (5,)), ((3,), (2, 3))]),
    Spec(np.polyder, polyder_once, [((4,),)]),
    Spec(np.polyder, polyder_twice, [((5,),)]),
    Spec(np.polyint, polyint_constant, [((4,), ())]),
    Spec(np.polyint, polyint_twice, [((3,), (2,))]),
    Spec(np.polyfit, polyfit_values, [((6,),), ((6, 2),)]),
    Spec(np.polyfit, polyfit_everything, [((6,), (6,), (6,)), ((7,), (7, 2), (7,))],
         (REAL, REAL, POSITIVE)),
    Spec(trapezoid_steps, use_trapezoid_steps, [((4, 3), (4,)), ((4, 3), (4, 3))],
         wrt=(1,)),
    Spec(untrapezoid_steps, use_untrapezoid_steps, [((3, 4),)]),
    Spec(ungradient, use_ungradient, [((4, 5), ())], (REAL, POSITIVE)),
    Spec(ungradients, use_ungradients, [((4, 5), (4, 5), (), ())], (REAL, REAL, POSITIVE)),
    Spec(gradient_spacing_adjoints, use_gradient_spacing_adjoints, [((3, 4), (3, 4), ())],
         (REAL, REAL, POSITIVE)),
    Spec(as_columns_of, use_as_columns_of, [((4,),), ((4, 2),)]),
]
