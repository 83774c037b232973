"""Branches as users write them: piecewise functions, clipping, modes, default None.

Differentiated by tests/test_control_flow_suite.py. The suite's test points stay away
from every branch boundary, so each function is smooth where it is checked.
"""
import math

import numpy as np

LO = -1.0
HI = 1.0


def _piece(v):
    if v > 0.0:
        return v * v
    return -0.5 * v


def _soft_threshold(v, lam=0.3):
    if v > lam:
        return v - lam
    elif v < -lam:
        return v + lam
    else:
        return 0.0 * v


# --- scalar piecewise -------------------------------------------------------------------

def piecewise_two(x):
    if x < 0.0:
        y = x ** 2
    else:
        y = np.sin(x)
    return y * 3.0


def piecewise_three(x):
    if x < -1.0:
        y = -x
    elif x < 1.0:
        y = 0.5 * (x * x + 1.0)
    else:
        y = x
    return y


def clip_branches(x):
    if x > HI:
        x = HI + 0.1 * (x - HI)
    elif x < LO:
        x = LO
    return x * np.exp(x)


def ternary_scalar(x):
    y = x ** 2 if x > 0.5 else np.cos(x)
    return y + x


def ternary_on_reduction(x):
    scale = 2.0 if np.mean(x) > 0.0 else 0.5
    return np.sum(scale * x ** 2)


def and_condition(x, y):
    if x > 0.0 and y > 0.0:
        return x * y
    return x + y


def or_condition(x):
    if x < -1.0 or x > 1.0:
        return x ** 3
    return x


def not_condition(x):
    if not x > 0.0:
        x = -x
    return np.log(x)


def chained_comparison(x):
    if 0.0 < x < 1.0:
        return x * (1.0 - x)
    return 0.25 * np.tanh(x)


def nested_ifs(x, y):
    if x > 0.0:
        if y > 0.0:
            z = x * y
        else:
            z = x - y
    else:
        if y > 0.0:
            z = y * y
        else:
            z = x * x + y
    return z


def branch_without_else(x):
    y = x * 2.0
    if x > 0.3:
        y = y * x
    return y + 1.0


def return_in_both_branches(x):
    if np.sum(x) > 0.0:
        return np.sum(x ** 2)
    else:
        return np.sum(np.exp(x))


def early_return_guard(x):
    if x < 0.0:
        return 0.1 * x
    y = np.sqrt(x)
    z = y * np.log(1.0 + x)
    return z


def max_of_two(x, y):
    if x > y:
        return x * 2.0
    return y * y


def abs_via_branch(x):
    a = x if x >= 0.0 else -x
    return a * np.cos(x)


def sign_multiply(x, y):
    s = 1.0 if x > 0.0 else -1.0
    return s * x * y


def math_functions_in_branches(x):
    if x > 1.0:
        return math.log(x) + math.sqrt(x)
    return math.exp(x) - 1.0


def branch_on_integer_mode(x, mode=1):
    if mode == 0:
        return np.sum(x)
    elif mode == 1:
        return np.sum(x ** 2)
    else:
        return np.sum(np.abs(x))


def branch_on_flag(x, normalize=True):
    if normalize:
        x = x / np.sum(x ** 2)
    return np.sum(np.sin(x))


def default_none_weights(x, w=None):
    if w is None:
        w = np.ones_like(x)
    return np.sum(w * x ** 2)


def optional_offset(x, offset=None):
    if offset is not None:
        x = x - offset
    return np.sum(np.tanh(x) ** 2)


def branch_on_length(x):
    if len(x) > 3:
        return np.sum(x[:3] ** 2) + x[3]
    return np.sum(x)


def parity_of_int(x, n=3):
    if n % 2 == 1:
        return x ** n
    return -x ** n


def branch_leaves_values_alone(x):
    count = 0
    if x > 0.0:
        count = count + 1
    return x * x + count


def branch_assigns_two_names(x):
    if x > 0.2:
        a = x
        b = x * x
    else:
        a = -x
        b = np.sin(x)
    return a * b


# --- branches in loops ------------------------------------------------------------------

def relu_sum_loop(x):
    s = 0.0
    for v in x:
        if v > 0.0:
            s = s + v
    return s * s


def leaky_relu_loop(x):
    s = 0.0
    for v in x:
        if v > 0.0:
            s = s + v ** 2
        else:
            s = s + 0.01 * v
    return s


def huber_loop(r, delta=1.0):
    s = 0.0
    for v in r:
        a = abs(v)
        if a <= delta:
            s = s + 0.5 * v * v
        else:
            s = s + delta * (a - 0.5 * delta)
    return s


def running_max(x):
    m = x[0]
    for v in x:
        if v > m:
            m = v
    return m * np.sum(x)


def argmin_tracking(x):
    best = x[0]
    idx = 0
    for i in range(len(x)):
        if x[i] < best:
            best = x[i]
            idx = i
    return best ** 2 + idx * x[0]


def ternary_in_loop(x):
    s = 0.0
    for v in x:
        s = s + (v * v if v > 0.0 else np.exp(v))
    return s


def two_accumulators(x):
    pos = 0.0
    neg = 0.0
    for v in x:
        if v > 0.0:
            pos = pos + v
        else:
            neg = neg + v * v
    return pos * neg + pos


def boundary_conditions_stencil(u):
    e = 0.0
    n = len(u)
    for i in range(n):
        if i == 0:
            d = u[1] - u[0]
        elif i == n - 1:
            d = u[n - 1] - u[n - 2]
        else:
            d = 0.5 * (u[i + 1] - u[i - 1])
        e = e + d * d
    return e


def branch_inside_while(x):
    k = 0
    while k < 6:
        if x > 0.0:
            x = x - 0.3 * x * x
        else:
            x = x + 0.2
        k = k + 1
    return x


def spline_lookup(x):
    knots = [0.0, 1.0, 2.0, 3.0]
    for i in range(3):
        if knots[i] <= x < knots[i + 1]:
            t = x - knots[i]
            return (i + 1.0) * t * t + t
    return x


def helper_with_branch_in_loop(x):
    s = 0.0
    for v in x:
        s = s + _piece(v)
    return s


def soft_threshold_loop(x):
    s = 0.0
    for v in x:
        s = s + _soft_threshold(v) ** 2 + _soft_threshold(v, lam=0.1)
    return s


def branch_on_row_norm(X):
    s = 0.0
    for row in X:
        nrm = np.sqrt(np.sum(row ** 2))
        if nrm > 1.5:
            s = s + nrm
        else:
            s = s + 0.5 * nrm ** 2
    return s


def branch_on_loop_index(x):
    s = 0.0
    for i in range(len(x)):
        if i % 2 == 0:
            s = s + x[i] ** 2
        else:
            s = s + np.sin(x[i])
    return s


def and_in_loop(x):
    s = 0.0
    for v in x:
        if v > -0.5 and v < 0.5:
            s = s + v * v
        else:
            s = s + 0.1 * v
    return s


def or_in_loop(x):
    s = 0.0
    for v in x:
        if v < -1.0 or v > 1.0:
            s = s + v
    return s * s


def chained_in_loop(x):
    s = 0.0
    for v in x:
        if -0.5 < v < 0.5:
            s = s + np.sin(v)
    return s


def not_in_loop(x):
    s = 0.0
    for v in x:
        if not v > 0.0:
            s = s + v * v
    return s


def min_max_builtins(x, y):
    return max(x, y) * min(x, y) ** 2


def ternary_and_in_loop(x):
    s = 0.0
    for v in x:
        s = s + (v if v > 0.0 and v < 1.0 else 0.5 * v)
    return s


def running_max_ternary(x):
    m = -1e9
    for v in x:
        m = v if v > m else m
    return m ** 2 + np.sum(x)


def loop_only_in_one_branch(x):
    if x > 0.0:
        for _ in range(3):
            x = x * x + 0.1
        return x
    return -x
