"""Runtime helpers for adjoints inside control flow, of lists, and of in-place writes.

Inside loops and branches an adjoint may still be the scalar zero 0.0 it was initialised
to; these helpers give it the right shape the first time it needs one.

    scatter_add(a, x, index, g)   a[index] += g, allocating zeros shaped like x if a is 0.0
    take_adjoint(a, index)        a copy of a[index] (0.0 while a is still the scalar zero)
    copy_adjoint(a)               a copy of an adjoint that will be updated in place
    clear_adjoint(a, index)       a[index] = 0 after an in-place write overwrote x[index]
    add_lists(a, b)               elementwise sum of two lists of adjoints
    match_adjoint(a, x)           a as x's gradient: zeros of x's shape when a is still 0.0
"""
import numpy as np


def _has_integer_array(index):
    parts = index if isinstance(index, tuple) else (index,)
    for part in parts:
        if isinstance(part, (list, np.ndarray)) and np.asarray(part).dtype != bool:
            return True
    return False


def scatter_add(a, x, index, g):
    """The adjoint `a` of x after adding g at x[index] (repeated indices accumulate)."""
    if isinstance(x, list):
        if not isinstance(a, list):
            a = [0.0] * len(x)
        a[index] = a[index] + g
        return a
    if type(a) is not np.ndarray or a.shape != np.shape(x):
        a = np.zeros(np.shape(x)) + a
    if _has_integer_array(index):
        np.add.at(a, index, g)
    else:
        a[index] += g
    return a


def take_adjoint(a, index):
    """A copy of a[index], or 0.0 while the adjoint `a` is still the scalar zero."""
    if isinstance(a, (np.ndarray, list)):
        item = a[index]
        return np.array(item, dtype=float) if isinstance(item, np.ndarray) else item
    return a


def copy_adjoint(a):
    """A copy of an adjoint that is about to be updated in place."""
    if isinstance(a, np.ndarray):
        return np.array(a, dtype=float)
    if isinstance(a, list):
        return list(a)
    return a


def clear_adjoint(a, index):
    """a with a[index] set to zero (nothing to do while a is the scalar zero)."""
    if isinstance(a, np.ndarray):
        a[index] = 0.0
    return a


def add_lists(a, b):
    """Elementwise sum of two lists (or tuples) of adjoints; 0.0 stands for all zeros."""
    if not isinstance(a, (list, tuple, np.ndarray)):      # still the scalar zero
        return list(b)
    if not isinstance(b, (list, tuple, np.ndarray)):
        return a
    return [p + q for p, q in zip(a, b)]


def match_adjoint(a, x):
    """The gradient for argument x from its adjoint a (0.0 becomes zeros of x's shape)."""
    if isinstance(x, np.ndarray) and np.shape(a) != x.shape:
        return np.zeros(x.shape) + a
    return a
