"""Loops that leave early or repeat until the data says stop, comprehensions and lists.

Differentiated by tests/test_control_flow_suite.py. The suite's test points keep every
stopping test and threshold well away from equality.
"""
import numpy as np

THRESHOLD = 3.0


def _weight(v, scale=1.0):
    return scale * np.exp(-v * v)


# --- while loops ------------------------------------------------------------------------

def halve_until_small(x):
    while x > 1.0:
        x = x / 2.0
    return x * x


def double_until_large(x):
    n = 0
    while x < 10.0:
        x = x * 2.0
        n = n + 1
    return x + n


def while_counter(x, n=4):
    k = 0
    while k < n:
        x = np.sin(x) + x
        k = k + 1
    return x


def while_index_accumulate(x):
    s = 0.0
    i = 0
    while i < len(x):
        s = s + np.exp(x[i])
        i += 1
    return s


def shrink_vector_until_small(x):
    y = x
    while np.sum(y * y) > 0.5:
        y = 0.7 * y
    return np.sum(y) + np.sum(y ** 2)


def while_two_conditions(x):
    k = 0
    while x > 0.3 and k < 10:
        x = x * 0.8 - 0.01
        k = k + 1
    return x * k


def while_true_break(x):
    y = x
    while True:
        y = y * 1.5
        if y > 20.0:
            break
    return np.sqrt(y)


def while_with_continue(x):
    s = 0.0
    i = 0
    while i < len(x):
        i = i + 1
        if x[i - 1] < 0.0:
            continue
        s = s + x[i - 1] ** 2
    return s


def newton_until_converged(a):
    x = a
    step = 1.0
    while step > 1e-3:
        new = 0.5 * (x + a / x)
        step = abs(new - x)
        x = new
    return x


# --- break / continue / for-else / early return -----------------------------------------

def break_on_threshold(x):
    s = 0.0
    for v in x:
        s = s + v * v
        if s > THRESHOLD:
            break
    return s


def break_keeps_last_value(x):
    last = 0.0
    for i in range(len(x)):
        last = x[i] * 2.0
        if x[i] > 1.0:
            break
    return last * np.sum(x)


def continue_skip_negative(x):
    s = 0.0
    for v in x:
        if v < 0.0:
            continue
        s = s + v ** 3
    return s


def continue_and_break(x):
    s = 0.0
    for v in x:
        if v < -0.5:
            continue
        if v > 1.8:
            break
        s = s + np.sin(v)
    return s


def for_else_no_break(x):
    s = 0.0
    for v in x:
        if v > 100.0:
            s = s + v
            break
    else:
        s = s + np.sum(x ** 2)
    return s


def for_else_with_break(x):
    s = 0.0
    for v in x:
        s = s + v
        if v > 0.5:
            s = s * v
            break
    else:
        s = -s
    return s


def early_return_in_loop(x):
    for i in range(len(x)):
        if x[i] > 1.5:
            return x[i] * np.sum(x)
    return np.sum(x ** 2)


def early_return_from_nested(X):
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            if X[i, j] > 1.2:
                return X[i, j] ** 2 + np.sum(X[i])
    return np.sum(X)


def nested_inner_break(X):
    s = 0.0
    for row in X:
        for v in row:
            if v < -1.0:
                break
            s = s + v * v
    return s


def nested_inner_continue(X):
    s = 0.0
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            if i == j:
                continue
            s = s + X[i, j] * X[j, i]
    return s


def first_positive_index_scaled(x):
    idx = 0
    for i, v in enumerate(x):
        if v > 0.0:
            idx = i
            break
    return x[idx] * (idx + 1.0)


# --- comprehensions ---------------------------------------------------------------------

def list_comprehension_sum(x):
    return sum([v ** 2 for v in x])


def generator_in_sum(x):
    return sum(np.sin(v) for v in x)


def generator_with_filter(x):
    return sum(v * v for v in x if v > 0.0)


def comprehension_stack(x):
    rows = [x * (k + 1.0) for k in range(3)]
    return np.sum(np.stack(rows) ** 2)


def comprehension_enumerate(x):
    return sum([i * np.exp(v) for i, v in enumerate(x)])


def comprehension_zip_array(x, y):
    vals = np.array([a * b for a, b in zip(x, y)])
    return np.sum(vals ** 2)


def comprehension_over_rows(X):
    norms = [np.sqrt(np.sum(row ** 2)) for row in X]
    return sum(norms)


def comprehension_ternary(x):
    return sum([v if v > 0.0 else 0.1 * v for v in x])


def comprehension_calls_helper(x):
    return sum(_weight(v, scale=2.0) for v in x)


# --- lists ------------------------------------------------------------------------------

def append_then_stack(x):
    outs = []
    h = x
    for _ in range(3):
        h = np.tanh(h)
        outs.append(h)
    H = np.stack(outs)
    return np.sum(H * H)


def append_then_array(x):
    vals = []
    for v in x:
        vals.append(v ** 2)
    w = np.array(vals)
    return np.sum(w * np.arange(len(vals)))


def append_then_sum(X):
    parts = []
    for row in X:
        parts.append(np.sum(row) ** 2)
    return sum(parts)


def list_index_first_last(x):
    vals = []
    for k in range(4):
        vals.append(x ** (k + 1))
    return np.sum(vals[0] * vals[-1] + vals[2])


def list_unpacking(x):
    a, b, c = [x * 2.0, np.sin(x), x ** 2]
    return np.sum(a * b + c)


def list_of_scalars_literal(x, y):
    pts = [x, y, x * y]
    s = 0.0
    for p in pts:
        s = s + p ** 2
    return s


def trajectory_list(x0, v0):
    xs = []
    x = x0
    v = v0
    for _ in range(5):
        v = v - 0.1 * x
        x = x + 0.1 * v
        xs.append(x)
    return np.sum(np.array(xs) ** 2)


def append_in_branch(x):
    kept = []
    for v in x:
        if v > 0.0:
            kept.append(v * v)
        else:
            kept.append(0.5 * v)
    return sum(kept)


# --- more loop shapes -------------------------------------------------------------------

def _inner_loop(v, n=3):
    for _ in range(n):
        v = np.sin(v) + 0.5 * v
    return v


def helper_with_loop_in_loop(x):
    s = 0.0
    for i in range(len(x)):
        s = s + _inner_loop(x[i], n=2)
    return s


def reversed_range(x):
    s = 0.0
    for i in reversed(range(len(x))):
        s = s * 0.5 + x[i] ** 2
    return s


def loop_over_slice(x):
    s = 0.0
    for v in x[1:]:
        s = s + v * x[0]
    return s


def rows_of_column_slice(X):
    s = 0.0
    for row in X[:, :2]:
        s = s + np.prod(row)
    return s


def stack_columns(x):
    cols = []
    for k in range(3):
        cols.append(x ** (k + 1))
    return np.sum(np.stack(cols, axis=1) ** 2)


def generator_over_range(x, w):
    return sum(x[i] * w[i] for i in range(len(x)))


def return_inside_while(x):
    k = 0
    while k < 10:
        x = x * 1.3
        if x > 5.0:
            return x * k
        k = k + 1
    return x


def while_else(x):
    k = 0
    while k < 4:
        x = np.sin(x) * 1.5
        k = k + 1
        if x > 100.0:
            break
    else:
        x = x * 2.0
    return x


def nested_comprehension(x):
    M = np.array([[a * b for a in x] for b in x])
    return np.sum(M ** 2)


def append_rows_of_scalars(X):
    rows = []
    for row in X:
        rows.append([np.sum(row), np.sum(row ** 2)])
    return np.sum(np.array(rows) ** 2)


def list_of_states(x):
    hs = [x]
    for _ in range(3):
        hs.append(np.tanh(hs[-1]) + hs[0])
    return np.sum(hs[-1] ** 2)
