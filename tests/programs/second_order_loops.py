"""Loops whose gradients are differentiated again (reverse over reverse, and hvp/hessian).

Each program writes into a fresh array in a loop or keeps a running value whose old
value the gradient reads only for its shape: the first gradient then tapes shapes, and
its own gradient brackets the first gradient's top-level adjoint sums with shape pushes
and placeholder restores. Differentiated by tests/test_second_order_loops.py; every
program takes (u, a) with u an array of 3 (or 4) floats and a a float, and
fresh_array_counted its loop count after them.
"""
import numpy as np


def fresh_array_tail(u, a):
    """The program of the review report: lap[1:] written into a fresh array."""
    for _ in range(2):
        lap = np.zeros(3)
        lap[1:] = u[1:]
        u = u + a * lap
    return np.sum(u)


def fresh_array_head(u, a):
    for _ in range(3):
        lap = np.zeros(3)
        lap[:-1] = u[:-1]
        u = u + a * lap
    return np.sum(u)


def fresh_array_laplacian(u, a):
    for _ in range(3):
        lap = np.zeros(4)
        lap[1:-1] = u[:-2] - 2.0 * u[1:-1] + u[2:]
        u = u + a * lap
    return np.sum(u * u)


def two_fresh_arrays(u, a):
    for _ in range(2):
        left = np.zeros(3)
        right = np.zeros(3)
        left[1:] = u[:-1]
        right[:-1] = u[1:]
        u = u + a * (left - right) * u
    return np.sum(u)


def fresh_array_while(u, a):
    k = 0
    while k < 3:
        lap = np.zeros(3)
        lap[1:] = u[1:]
        u = u + a * lap
        k = k + 1
    return np.sum(u)


def fresh_array_branch(u, a):
    for i in range(4):
        lap = np.zeros(3)
        if i % 2 == 0:
            lap[1:] = u[1:]
        else:
            lap[:-1] = np.sin(u[:-1])
        u = u + a * lap
    return np.sum(u)


def fresh_array_sum_of_squares(u, a):
    for _ in range(2):
        lap = np.zeros(3)
        lap[1:] = u[1:] * u[1:]
        u = u + a * lap
    return np.sum(np.tanh(u))


def running_value_then_scale(u, a):
    """No index write: the running value's old value is read only for its shape."""
    y = u * 1.0
    for _ in range(2):
        y = y + a * np.sin(y)
    y = y * a
    return np.sum(y)


def fresh_array_nested_loops(u, a):
    for _ in range(2):
        for _ in range(2):
            lap = np.zeros(3)
            lap[1:] = u[1:]
            u = u + a * lap
    return np.sum(u)


def fresh_array_break(u, a):
    for i in range(5):
        lap = np.zeros(3)
        lap[1:] = u[1:]
        u = u + a * lap
        if i >= 2:
            break
    return np.sum(u)


def fresh_array_counted(u, a, n=3):
    """The loop count is an argument: the tests pass 1, 3 and 5."""
    for _ in range(n):
        lap = np.zeros(3)
        lap[1:] = a * u[1:]
        u = u + lap
    return np.sum(u * u)


def fresh_arrays_two_loops(u, a):
    for _ in range(2):
        lap = np.zeros(3)
        lap[1:] = u[1:]
        u = u + a * lap
    for _ in range(2):
        lap = np.zeros(3)
        lap[:-1] = u[:-1]
        u = u * a + lap
    return np.sum(u)


PROGRAMS = [fresh_array_tail, fresh_array_head, fresh_array_laplacian, two_fresh_arrays,
            fresh_array_while, fresh_array_branch, fresh_array_sum_of_squares,
            running_value_then_scale, fresh_array_nested_loops, fresh_array_break,
            fresh_array_counted, fresh_arrays_two_loops]
# (program, arguments after u and a): loop counts other than the default
CASES = [(fn, ()) for fn in PROGRAMS] + [(fresh_array_counted, (1,)),
                                         (fresh_array_counted, (5,))]


# --- the same fault in a first-order gradient ---------------------------------------------
# c is carried through the first loop, rebound between the loops (its old value is taped
# as a shape, since the second loop reads c only for its shape), and its restore after
# the rebinding's adjoint is dead: the second loop's backward sweep has read c already,
# the first one never reads it.

def rebound_between_loops(u, a):
    y = u * 1.0
    c = u * 0.0
    for _ in range(2):
        y = y * a
        c = c + 1.0
    c = a * u
    for _ in range(2):
        y = y + c
    return np.sum(y)


FIRST_ORDER = [rebound_between_loops]


def arguments(fn, rng):
    """A test point for fn: u's length follows the fresh arrays the program allocates."""
    n = 4 if fn is fresh_array_laplacian else 3
    return rng.uniform(-1.0, 1.0, n), float(rng.uniform(0.1, 0.4))
