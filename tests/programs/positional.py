"""numpy reductions called with positional arguments past the first few."""
import numpy as np


def variance_with_positional_ddof(x):
    # np.var(a, axis, dtype, out, ddof): the fifth positional argument is ddof
    return np.var(x, 0, None, None, 1)


def average_with_positional_weights(x):
    return np.average(x, 0, np.array([1.0, 2.0, 3.0]))


def average_returning_weights(x):
    return np.average(x, 0, None, True)[0]
