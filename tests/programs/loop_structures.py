"""Lists and tuples the function builds: read inside a loop, the adjoints of their items
accumulate over the iterations (they were kept per item and lost at the end of the loop
body: a zero gradient); a list repeated (`2 * xs`) sums its copies' adjoints (crashed)."""
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


# found in review: an adjoint still the scalar zero 0.0 (its use under an `if` not taken
# yet) reached a helper that reshapes it; and a false alias error for M += x between
# index updates of M
def cumsum_under_branch_in_loop(x):
    s = 0.0
    for k in range(3):
        c = np.cumsum(x * (k + 1.0))
        if k > 0:
            s = s + np.sum(c * c)
    return s


def stacked_under_branch_in_loop(x):
    s = 0.0
    for k in range(3):
        m = np.stack([x, x * k])
        if k > 1:
            s = s + np.sum(np.tanh(m) @ np.ones(3))
    return s


def index_and_whole_updates(x):
    M = np.zeros(3)
    M[0] += x[0]
    M += x
    M[1] += x[1]
    return np.sum(M ** 2)


def repeated_list(x):
    xs = [x, np.sin(x)]
    ys = 2 * xs + xs * 1
    return np.sum(np.stack(ys) * np.arange(1.0, 7.0)[:, None])


def concatenated_lists(x):
    head = [x * x]
    tail = [np.sin(x), x]
    ys = head + tail + head
    return np.sum(np.stack(ys) * np.arange(1.0, 5.0)[:, None])


def diff_under_branch_in_loop(x):
    s = 0.0
    for i in range(3):
        y = np.diff(x * (i + 1.0))
        if i == 0:
            s = s + np.sum(y ** 2)
    return s
