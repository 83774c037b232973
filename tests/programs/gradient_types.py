"""Functions whose gradient could come out as integers or as (a view of) an argument:
each with `expected`, its gradient in the first argument written out by hand."""
import numpy as np


def seed_example(x1, x2):
    y = np.exp(2 * x1) + x1 * x2 ** 2 + np.cos(x2)
    return y


def square(x):
    return x * x


def product(a, b):
    return a * b


def floor_times(x):
    return int(x) * x


def quadratic_in_b(b, x):
    return 3.0 * x ** 2 + b * x + 1.0


def sum_of_doubles(x):
    return np.sum(x + x)


def times_transpose(x, W):
    return np.sum(x * W.T)


def times_column(v, W):
    return np.sum(v * W[:, 0])


def times_reshaped_column(v, W):
    return np.sum(v.reshape(3, 1) * W[:, :1])


def times_arange(v, W):
    return np.sum(v * np.arange(3))


def times_integer_list(v, W):
    return np.sum(v * np.array([1, 2, 3]))


def linear_in_b(b, W):
    return np.sum(b * W[:, 1])


times_transpose.expected = lambda x, W: W.T
times_column.expected = lambda v, W: W[:, 0]
times_reshaped_column.expected = lambda v, W: W[:, 0]
times_arange.expected = lambda v, W: np.arange(3.0)
times_integer_list.expected = lambda v, W: np.array([1.0, 2.0, 3.0])
linear_in_b.expected = lambda b, W: W[:, 1]
