"""Spec rows for np.pad in the modes other than 'constant' (those are in specs_rearrange):
edge, wrap, reflect and symmetric (even and odd), linear_ramp (also differentiated in its
end values), mean (whole axis and stat_length), with pads wider than the array; and the
helpers their derivatives call (unpad, pad_linear, unpad_end_values) for second order."""
import numpy as np

from primitive_specs import Spec
from s2s_ad.runtime_arrays import pad_linear, unpad, unpad_end_values


def pad_edge(x):
    return np.pad(x, (2, 1), mode="edge")


def pad_wrap_wide(x):
    return np.pad(x, (5, 1), "wrap")


def pad_reflect(x):
    return np.pad(x, 2, mode="reflect")


def pad_reflect_odd(x):
    return np.pad(x, (3, 1), mode="reflect", reflect_type="odd")


def pad_symmetric_wide(x):
    return np.pad(x, (6, 2), mode="symmetric")


def pad_symmetric_odd(x):
    return np.pad(x, 1, mode="symmetric", reflect_type="odd")


def pad_ramp(x):
    return np.pad(x, (2, 1), "linear_ramp", end_values=(0.5, -1.0))


def pad_ramp_to(x, e):
    return np.pad(x, (2, 3), "linear_ramp", end_values=e)


def pad_mean(x):
    return np.pad(x, (1, 2), "mean")


def pad_mean_window(x):
    return np.pad(x, 2, "mean", stat_length=2)


WIDTHS = np.array([[2, 1], [1, 3]])


def use_unpad_reflect(g):
    return unpad(g, WIDTHS, "reflect", None, "odd")


def use_unpad_mean(g):
    return unpad(g, WIDTHS, "mean", 2)


def use_pad_linear_edge(g):
    return pad_linear(g, WIDTHS, "edge")


def use_pad_linear_ramp(g, e):
    return pad_linear(g, WIDTHS, "linear_ramp", 0.0, e)


def use_unpad_end_values(g):
    return unpad_end_values(g, WIDTHS, np.zeros((2, 2)))


VECTORS = [((4,),), ((3, 4),)]

SPECS = [
    Spec(np.pad, pad_edge, VECTORS),
    Spec(np.pad, pad_wrap_wide, [((3,),), ((2, 3),)]),
    Spec(np.pad, pad_reflect, VECTORS),
    Spec(np.pad, pad_reflect_odd, VECTORS),
    Spec(np.pad, pad_symmetric_wide, [((3,),), ((2, 3),)]),
    Spec(np.pad, pad_symmetric_odd, VECTORS),
    Spec(np.pad, pad_ramp, VECTORS),
    Spec(np.pad, pad_ramp_to, [((4,), ()), ((4,), (2,)), ((3, 4), (2, 1))]),
    Spec(np.pad, pad_mean, VECTORS),
    Spec(np.pad, pad_mean_window, VECTORS),
    Spec(unpad, use_unpad_reflect, [((6, 8),)]),
    Spec(unpad, use_unpad_mean, [((6, 8),)]),
    Spec(pad_linear, use_pad_linear_edge, [((3, 4),)]),
    Spec(pad_linear, use_pad_linear_ramp, [((3, 4), ()), ((3, 4), (2, 2))]),
    Spec(unpad_end_values, use_unpad_end_values, [((6, 8),)]),
]


def pad_maximum(x):
    return np.pad(x, (2, 1), mode="maximum")


def pad_minimum_window(x):
    return np.pad(x, 2, "minimum", stat_length=2)


def pad_median(x):
    return np.pad(x, ((1, 2),), "median")


def pad_median_window(x):
    return np.pad(x, (2, 1), "median", stat_length=((2, 3),))


def use_unpad_maximum(g, x):
    return unpad(g, WIDTHS, "maximum", None, "even", x)


def use_pad_linear_median(g, x):
    return pad_linear(g, WIDTHS, "median", 0.0, 0.0, 2, "even", x)


SPECS += [
    Spec(np.pad, pad_maximum, [((4,),), ((3, 4),)]),
    Spec(np.pad, pad_minimum_window, [((5,),), ((3, 4),)]),
    Spec(np.pad, pad_median, [((4,),), ((5,),), ((3, 4),)]),
    Spec(np.pad, pad_median_window, [((5,),), ((4, 5),)]),
    Spec(unpad, use_unpad_maximum, [((6, 8), (3, 4))], wrt=(0,)),
    Spec(pad_linear, use_pad_linear_median, [((3, 4), (3, 4))], wrt=(0,)),
]
