"""Loops as users write them: recurrences, running sums, time stepping, iterations.

Differentiated by tests/test_control_flow_suite.py. Every function is smooth at the
points the suite evaluates it at (no ties at a branch or stopping boundary).
"""
import math

import numpy as np

DT = 0.05


def _step(h, w):
    return np.tanh(w * h + 0.1)


def _damp(v, rate=0.5, bias=0.0):
    return v * rate + bias


def _sq(v):
    return v * v


# --- scalar recurrences -----------------------------------------------------------------

def running_sum_of_squares(x):
    s = 0.0
    for i in range(len(x)):
        s = s + x[i] ** 2
    return s


def running_product(x):
    p = 1.0
    for v in x:
        p = p * v
    return p


def horner(coeffs, x):
    y = 0.0
    for c in coeffs:
        y = y * x + c
    return y


def horner_by_index_reversed(coeffs, x):
    y = 0.0
    for i in range(len(coeffs) - 1, -1, -1):
        y = y * x + coeffs[i]
    return y


def power_sum(coeffs, x):
    total = 0.0
    p = 1.0
    for k in range(len(coeffs)):
        total = total + coeffs[k] * p
        p = p * x
    return total


def logistic_map(a, x0, n=5):
    x = x0
    for _ in range(n):
        x = a * x * (1.0 - x)
    return x


def newton_sqrt(a, n=6):
    x = a
    for _ in range(n):
        x = 0.5 * (x + a / x)
    return x


def exp_series(x, n=12):
    term = 1.0
    s = 1.0
    for k in range(1, n):
        term = term * x / k
        s = s + term
    return s


def cosine_fixed_point(x0, n=8):
    x = x0
    for _ in range(n):
        x = math.cos(x)
    return x


def chebyshev(x, n=6):
    t_prev = 1.0
    t = x
    for _ in range(n - 1):
        t_next = 2.0 * x * t - t_prev
        t_prev = t
        t = t_next
    return t


def fibonacci_like(x, n=6):
    a = 1.0
    b = x
    for _ in range(n):
        a, b = b, a + b * x
    return b


def continued_fraction(x, n=6):
    v = x
    for _ in range(n):
        v = x + 1.0 / (1.0 + v)
    return v


def ema_overwrite(x):
    m = 0.0
    for v in x:
        m = m * 0.9 + 0.1 * v
    return m * m


def augmented_ops(x, y):
    s = 1.0
    for v in x:
        s += v * y
        s *= 0.9
        s -= 0.1 * v
        s /= 1.1
    return s


def loop_index_as_float(x):
    s = 0.0
    for i in range(5):
        s = s + np.sin(x * (i * 0.5 + 1.0))
    return s


def range_with_step(x):
    s = 0.0
    for i in range(1, len(x), 2):
        s = s + x[i] * x[i - 1]
    return s


def loop_reads_len_shape(X):
    s = 0.0
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            s = s + np.exp(0.3 * X[i, j])
    return s


# --- time stepping ----------------------------------------------------------------------

def euler_decay(y0, k, steps=10):
    y = y0
    for _ in range(steps):
        y = y - DT * k * y
    return y


def oscillator_semi_implicit(x0, v0, omega):
    x = x0
    v = v0
    for _ in range(20):
        v = v - DT * omega ** 2 * x
        x = x + DT * v
    return x * x + v * v


def leapfrog_vectors(q, p):
    for _ in range(6):
        p = p - 0.5 * DT * np.sin(q)
        q = q + DT * p
        p = p - 0.5 * DT * np.sin(q)
    return np.sum(q ** 2) + np.sum(p ** 2)


def rk2_logistic(y0, r):
    y = y0
    for _ in range(8):
        k1 = r * y * (1.0 - y)
        mid = y + 0.5 * DT * k1
        k2 = r * mid * (1.0 - mid)
        y = y + DT * k2
    return y


def gradient_descent_unrolled(x0, target):
    x = x0
    for _ in range(5):
        g = 2.0 * (x - target) + np.cos(x)
        x = x - 0.1 * g
    return np.sum(x ** 2)


def predator_prey(a, b):
    u = 1.0
    v = 0.5
    for _ in range(10):
        du = a * u - u * v
        dv = u * v - b * v
        u = u + DT * du
        v = v + DT * dv
    return u + 2.0 * v


# --- loops over arrays ------------------------------------------------------------------

def rnn_over_rows(W, h0, xs):
    h = h0
    for x in xs:
        h = np.tanh(W @ h + x)
    return np.sum(h ** 2)


def rows_dot_weights(X, w):
    total = 0.0
    for row in X:
        total = total + np.dot(row, w) ** 2
    return total


def columns_via_transpose(X):
    s = 0.0
    for col in X.T:
        s = s + np.log(1.0 + np.sum(col ** 2))
    return s


def accumulate_vector(X):
    acc = np.zeros(X.shape[1])
    for row in X:
        acc = acc + row ** 2
    return np.sum(np.sqrt(acc + 1.0))


def power_iteration(A, v0):
    v = v0
    for _ in range(4):
        w = A @ v
        v = w / np.sqrt(np.sum(w * w))
    return v @ A @ v


def power_iteration_norm(A, v0):
    v = v0
    for _ in range(3):
        w = A @ v
        v = w / np.linalg.norm(w)
    return np.sum(v * (A @ v))


def jacobi_iterations(A, b):
    d = np.diag(A)
    R = A - np.diag(d)
    x = np.zeros_like(b)
    for _ in range(6):
        x = (b - R @ x) / d
    return np.sum(x ** 2)


def moving_average(x):
    s = 0.0
    for i in range(2, len(x)):
        avg = (x[i - 2] + x[i - 1] + x[i]) / 3.0
        s = s + avg ** 2
    return s


def stencil_energy(u):
    e = 0.0
    for i in range(1, len(u) - 1):
        lap = u[i - 1] - 2.0 * u[i] + u[i + 1]
        e = e + lap * lap
    return e


def pairwise_distances(X):
    s = 0.0
    n = X.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            d = X[i] - X[j]
            s = s + np.sqrt(np.sum(d * d))
    return s


# --- nested loops -----------------------------------------------------------------------

def nested_quadratic_form(A, x):
    s = 0.0
    for i in range(len(x)):
        for j in range(len(x)):
            s = s + A[i, j] * x[i] * x[j]
    return s


def nested_transpose_product(A):
    s = 0.0
    n = A.shape[0]
    for i in range(n):
        for j in range(n):
            s = s + A[i, j] * A[j, i]
    return s


def triangular_sum(x):
    s = 0.0
    for i in range(len(x)):
        for j in range(i):
            s = s + x[i] * np.cos(x[j])
    return s


def nested_rows_and_elements(X):
    total = 0.0
    for row in X:
        inner = 0.0
        for v in row:
            inner = inner + v * v
        total = total + np.sqrt(inner)
    return total


def nested_time_and_space(u0):
    u = u0
    for _ in range(3):
        e = 0.0
        for i in range(len(u)):
            e = e + u[i] ** 2
        u = u * (1.0 - 0.1 * e / len(u))
    return np.sum(u)


# --- enumerate / zip --------------------------------------------------------------------

def enumerate_weights(x):
    s = 0.0
    for i, v in enumerate(x):
        s = s + (i + 1) * v ** 2
    return s


def enumerate_rows(X):
    s = 0.0
    for i, row in enumerate(X):
        s = s + (i + 0.5) * np.sum(np.sin(row))
    return s


def zip_dot(x, y):
    s = 0.0
    for a, b in zip(x, y):
        s = s + a * b
    return s


def zip_rows(X, Y):
    s = 0.0
    for a, b in zip(X, Y):
        s = s + np.sum(a * np.exp(b))
    return s


def enumerate_zip(xs, ws):
    total = 0.0
    for i, (x, w) in enumerate(zip(xs, ws), 1):
        total += w * np.sin(x) * i
    return total


def zip_three(x, y, z):
    s = 0.0
    for a, b, c in zip(x, y, z):
        s = s + a * b + np.tanh(c)
    return s


def enumerate_start(x):
    s = 0.0
    for k, v in enumerate(x, 1):
        s = s + v / k
    return s * s


# --- helpers called in loops -------------------------------------------------------------

def helper_step_loop(h0, w):
    h = h0
    for _ in range(4):
        h = _step(h, w)
    return np.sum(h)


def helper_keyword_args(x):
    v = x
    for _ in range(3):
        v = _damp(v, rate=0.8, bias=0.1)
    return np.sum(v ** 2)


def helper_called_twice(x, y):
    s = 0.0
    for i in range(len(x)):
        s = s + _sq(x[i]) * _sq(y[i])
    return s


def helper_default_and_positional(x):
    s = 0.0
    for v in x:
        s = s + _damp(v) + _damp(v, 2.0)
    return s * s



def scale_from_shape_in_loop(x):
    # found in review: a value computed from x.shape (no derivative) read inside a loop
    # was taken as varied, and its adjoint accumulated without a start (UnboundLocalError)
    scale = 1.0 / x.shape[0]
    total = 0.0
    for j in range(x.shape[0]):
        total = total + scale * x[j] * x[j]
    return total
