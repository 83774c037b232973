"""grad(grad(f)) through values swapped inside loops (`a, b = b, a * x`): issue 14 reported
it wrong where hvp was right; not reproduced. These variants (tuples, arrays, three
names, a while loop, a helper returning the pair, branches, nested loops) hold it
against second differences of f on both derivative paths."""
import numpy as np
import pytest

import s2s_ad
from paths import fresh


def swap_for(x):
    a, b = 1.0, x
    for i in range(3):
        a, b = b, a * x
    return a * b
def swap_for_sin(x):
    a, b = x, 2.0
    for i in range(4):
        a, b = b * np.sin(x), a + x
    return a + b * b
def swap_tuple(x):
    t = (x, 1.0)
    for i in range(3):
        t = (t[1] * x, t[0] + x)
    return t[0] * t[1]
def swap_while(x):
    a, b = 1.0, x
    i = 0
    while i < 3:
        a, b = b, a * x + b
        i += 1
    return a * b
def helper(a, b, x):
    return b, a * x
def swap_helper(x):
    a, b = 0.5, x
    for i in range(3):
        a, b = helper(a, b, x)
    return a + b ** 2
def swap_arrays(x):
    a, b = np.array([1.0, x]), np.array([x, 2.0])
    for i in range(2):
        a, b = b, a * x
    return np.sum(a * b)
def swap_three(x):
    a, b, c = x, 1.0, 2.0
    for i in range(4):
        a, b, c = c, a * x, b + a
    return a * b * c
def swap_branch(x):
    a, b = 1.0, x
    for i in range(4):
        if i % 2 == 0:
            a, b = b, a * x
        else:
            b, a = a, b + x
    return a * b
def swap_nested(x):
    a, b = 1.0, x
    for i in range(2):
        for j in range(2):
            a, b = b, a * x
        a, b = b * b, a
    return a + b


SWAPS = [swap_for, swap_for_sin, swap_tuple, swap_while, swap_helper, swap_arrays, swap_three,
         swap_branch, swap_nested]


@pytest.mark.parametrize("f", SWAPS, ids=[f.__name__ for f in SWAPS])
def test_grad_of_grad_through_a_swap_in_a_loop(both_paths, f):
    x, h = 0.7, 1e-4
    second_difference = (f(x + h) - 2.0 * f(x) + f(x - h)) / h ** 2
    assert s2s_ad.grad(s2s_ad.grad(fresh(f)))(x) == pytest.approx(second_difference, rel=1e-5)
    assert s2s_ad.hvp(fresh(f))(x, 1.0) == pytest.approx(second_difference, rel=1e-5)
