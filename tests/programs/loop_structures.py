"""Lists and tuples built before a loop and read inside it: the adjoints of their items
accumulate over the iterations (they were kept per item and lost at the end of the
loop body: a zero gradient)."""
import numpy as np


def stack_read_in_loop(x):
    parts = [x * 1.0, x * 2.0]
    s = 0.0
    for i in range(2):
        s = s + np.sum(np.stack(parts) ** 2) * (i + 1)
    return s


def tuple_unpacked_in_loop(x):
    pair = (x, x * 2.0)
    s = 0.0
    for _ in range(3):
        a, b = pair
        s = s + np.sum(a * b)
    return s


def list_indexed_in_loop(x):
    parts = [x, np.sin(x)]
    s = 0.0
    for i in range(2):
        s = s + np.sum(parts[i] * parts[1 - i])
    return s


def concatenated_in_loop(x):
    pieces = [x, x ** 2]
    s = 0.0
    for k in range(2):
        s = s + np.sum(np.concatenate(pieces) * (k + 1.0))
    return s


def summed_list_in_loop(x):
    terms = [x, x * x, np.exp(x)]
    s = 0.0
    for _ in range(2):
        s = s + np.sum(sum(terms))
    return s
