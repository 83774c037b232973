"""Spec rows for np.cumprod and the functions that rearrange an array's elements: np.roll,
np.sort, np.diff, np.tril / np.triu and np.pad (constant mode).

Part of specs_arrays.SPECS, like specs_linalg; each fn bakes one combination of options
(axis, shift, n, k, widths) into a call. Zeros in cumprod's input and ties in sort's are
checked in tests/test_more_primitives.py (random inputs have neither).
"""
import numpy as np

from primitive_specs import Spec


def cumprod_flat(x):
    return np.cumprod(x)


def cumprod_axis0(x):
    return np.cumprod(x, axis=0)


def cumprod_axis_last(x):
    return np.cumprod(x, axis=-1)


def roll_flat(x):
    return np.roll(x, 2)


def roll_axis1_back(x):
    return np.roll(x, -1, axis=1)


def roll_last(x):
    return np.roll(x, 5, axis=-1)


def roll_two_axes(x):
    return np.roll(x, (1, -2), axis=(0, -1))


def sort_last(x):
    return np.sort(x)


def sort_axis0(x):
    return np.sort(x, axis=0)


def sort_flat(x):
    return np.sort(x, axis=None)


def sort_stable_middle(x):
    return np.sort(x, axis=-2, kind="stable")


def diff_once(x):
    return np.diff(x)


def diff_twice(x):
    return np.diff(x, n=2)


def diff_axis0(x):
    return np.diff(x, axis=0)


def diff_thrice_middle(x):
    return np.diff(x, 3, axis=-2)


def tril_main(x):
    return np.tril(x)


def tril_above(x):
    return np.tril(x, 1)


def tril_below(x):
    return np.tril(x, k=-1)


def triu_main(x):
    return np.triu(x)


def triu_above(x):
    return np.triu(x, 2)


def triu_below(x):
    return np.triu(x, k=-1)


def pad_one(x):
    return np.pad(x, 1)


def pad_before_after(x):
    return np.pad(x, (2, 1), mode="constant")


def pad_per_axis(x):
    return np.pad(x, ((1, 2), (0, 3)), "constant")


def pad_with_value(x, c):
    return np.pad(x, ((1, 0), (2, 1)), constant_values=c)


def pad_with_values(x, c):
    return np.pad(x, 1, constant_values=c)


ARRAYS = [((4,),), ((3, 4),), ((2, 3, 4),)]
ROWS = [((3, 4),), ((2, 3, 4),)]
SQUARE = [((4, 4),), ((3, 5),), ((5, 3),), ((2, 3, 4),), ((4,),)]   # (4,): a 1-D m

SPECS = [
    Spec(np.cumprod, cumprod_flat, [((),), ((4,),), ((3, 4),), ((2, 3, 4),)]),
    Spec(np.cumprod, cumprod_axis0, ARRAYS),
    Spec(np.cumprod, cumprod_axis_last, ARRAYS + [((3, 9),)]),
    Spec(np.roll, roll_flat, ARRAYS),
    Spec(np.roll, roll_axis1_back, ROWS),
    Spec(np.roll, roll_last, ARRAYS),
    Spec(np.roll, roll_two_axes, ROWS),
    Spec(np.sort, sort_last, ARRAYS),
    Spec(np.sort, sort_axis0, ROWS),
    Spec(np.sort, sort_flat, ARRAYS),
    Spec(np.sort, sort_stable_middle, [((2, 3, 4),)]),
    Spec(np.diff, diff_once, ARRAYS),
    Spec(np.diff, diff_twice, ARRAYS),
    Spec(np.diff, diff_axis0, ROWS),
    Spec(np.diff, diff_thrice_middle, [((2, 5, 3),), ((6, 2),)]),
    Spec(np.tril, tril_main, SQUARE),
    Spec(np.tril, tril_above, SQUARE),
    Spec(np.tril, tril_below, SQUARE),
    Spec(np.triu, triu_main, SQUARE),
    Spec(np.triu, triu_above, SQUARE),
    Spec(np.triu, triu_below, SQUARE),
    Spec(np.pad, pad_one, ARRAYS),
    Spec(np.pad, pad_before_after, ARRAYS),
    Spec(np.pad, pad_per_axis, [((3, 4),)]),
    Spec(np.pad, pad_with_value, [((3, 4), ()), ((2, 3), ())]),
    Spec(np.pad, pad_with_value, [((3, 4), ())], wrt=(0,)),
    Spec(np.pad, pad_with_values, [((3, 4), ()), ((3, 4), (2,)), ((3, 4), (2, 2)),
                                   ((2, 3, 4), (3, 1)), ((4,), (1, 2))]),
]
