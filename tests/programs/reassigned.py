"""Values overwritten before they are read, found in review: a value read after a loop or
branch that reassigned it (the adjoint of `x` in `y * x` was passed on lazily as `y` and
read after the backward sweep had restored `y`), list items overwritten, and elements
written twice through a repeated index (only the last write stays)."""
import numpy as np


def product_after_loop(x):
    y = x
    for _ in range(3):
        y = y * 1.1
    return y * x


def product_after_branch(x, flag):
    y = x
    if flag:
        y = y * 1.1
    return y * x


def product_after_break(x):
    y = x
    for _ in range(100):
        y = y * 1.1
        if y > 10.0:
            break
    return y * x


def product_after_while(a, x):
    y = a
    while y < 5.0:
        y = y * x
    return y * a


def sum_then_product_after_loop(x):
    y = x
    for _ in range(2):
        y = np.sin(y) + y
    return y * x + y


def dot_after_loop_of_arrays(x):
    y = x
    for _ in range(2):
        y = np.tanh(y) * 2.0
    return np.dot(y, x)


def list_item_overwritten(x):
    vals = [x[0], x[1]]
    vals[0] = vals[0] * 3.0
    return vals[0] + vals[1]


def preallocated_list_filled_in_loop(x):
    vals = [0.0] * 3
    for i in range(3):
        vals[i] = x[i] ** 2
    return sum(vals)


def preallocated_list_to_array(x):
    vals = [0.0, 0.0, 0.0]
    for i in range(3):
        vals[i] = np.sin(x[i]) * x[i]
    return np.sum(np.array(vals) ** 2)


def add_at_repeated_index(x):
    y = np.zeros(2)
    idx = np.array([0, 0, 1])
    y[idx] += x                    # numpy: the last write of y[0] wins
    return np.sum(y * y)


def rows_written_twice(x, W):
    Y = np.ones((3, 2))
    rows = [2, 0, 2]
    Y[rows] = x[:, None] * W
    return np.sum(Y ** 2)


# arrays held by lists: writes before the append, or into a copy, are fine
def fresh_row_each_iteration(x):
    rows = []
    for i in range(3):
        row = np.zeros(2)
        row[0] = x * (i + 1)
        row[1] = x * x
        rows.append(row)
    return np.sum(np.stack(rows) ** 2)


def copy_appended(x):
    rows = []
    row = np.zeros(2)
    for i in range(3):
        row[0] = x * (i + 1)
        rows.append(row.copy())
    return np.sum(np.stack(rows) ** 2)


def loop_over_rows_read_only(X):
    total = 0.0
    for row in X:
        total = total + np.sum(row ** 2)
    return total


def list_of_arrays_then_sum(x):
    parts = [x, x * 2.0]
    parts[0] = parts[0] * 3.0
    return np.sum(parts[0] * parts[1])
