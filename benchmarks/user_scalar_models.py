"""Scalar model workloads of user_workloads.py: a discrete logistic population model
fitted to counts, a Huber-loss line fit written with if/else on floats, and a damped
oscillator stepped by a while loop; each on Python floats, with the gradient an expert
writes by hand."""
import math

import numpy as np


# Discrete logistic growth N <- N + r N (1 - N / K), fitted to yearly counts by its
# growth rate r and carrying capacity K.
def logistic_growth_sse(r, K, N0, counts):
    """Sum of squared differences between the model's populations and the counts."""
    N = N0
    sse = 0.0
    for y in counts:
        N = N + r * N * (1.0 - N / K)
        sse = sse + (N - y) ** 2
    return sse


def logistic_growth_sse_grad(r, K, N0, counts):
    # sensitivities of N to r and K carried along the steps (forward): with
    # g(N) = N + r N (1 - N/K), dN' = g_N dN + N (1 - N/K) dr + r (N/K)^2 dK
    N, N_r, N_K, g_r, g_K = N0, 0.0, 0.0, 0.0, 0.0
    for y in counts:
        q = N / K
        slope = 1.0 + r * (1.0 - 2.0 * q)
        N_r, N_K = slope * N_r + N * (1.0 - q), slope * N_K + r * q * q
        N = N + r * N * (1.0 - q)
        e = 2.0 * (N - y)
        g_r += e * N_r
        g_K += e * N_K
    return g_r, g_K


def make_logistic_growth(small=False):
    n = 40 if small else 400
    rng = np.random.default_rng(17)
    N, counts = 12.0, []
    for _ in range(n):
        N = N + 0.3 * N * (1.0 - N / 500.0)
        counts.append(float(N * (1.0 + 0.05 * rng.standard_normal())))
    return (0.28, 480.0, 12.0, counts)


# A straight line fitted with the Huber loss, the kink written as an if/else on floats.
def huber_line_fit(a, b, xs, ys, delta):
    """Sum of Huber losses of the residuals a x + b - y."""
    loss = 0.0
    for k in range(len(xs)):
        r = a * xs[k] + b - ys[k]
        if abs(r) <= delta:
            loss = loss + 0.5 * r * r
        else:
            loss = loss + delta * (abs(r) - 0.5 * delta)
    return loss


def huber_line_fit_grad(a, b, xs, ys, delta):
    # the Huber loss's derivative is the residual clipped to [-delta, delta]
    ga = gb = 0.0
    for x, y in zip(xs, ys):
        r = a * x + b - y
        psi = r if -delta <= r <= delta else (delta if r > 0.0 else -delta)
        ga += psi * x
        gb += psi
    return ga, gb


def make_huber_line(small=False):
    n = 30 if small else 500
    rng = np.random.default_rng(23)
    xs = rng.uniform(-2.0, 2.0, n)
    ys = 1.5 * xs - 0.5 + 0.3 * rng.standard_normal(n)
    ys[::7] += 4.0 * rng.standard_normal(len(ys[::7]))          # outliers
    return (1.3, -0.2, xs.tolist(), ys.tolist(), 0.5)


# A damped oscillator x'' = -k x - c x', stepped (semi-implicit Euler) by a while loop
# until t_end; the objective is the squared final displacement from a target.
def damped_oscillator_miss(k, c, x0, target, t_end, dt):
    """(x(t_end) - target)^2 for x'' = -k x - c x', x(0) = x0, x'(0) = 0."""
    t = 0.0
    x, v = x0, 0.0
    while t < t_end:
        v = v + dt * (-k * x - c * v)
        x = x + dt * v
        t = t + dt
    return (x - target) ** 2


def damped_oscillator_miss_grad(k, c, x0, target, t_end, dt):
    # sensitivities of (x, v) to k and c carried along the steps (forward)
    t = 0.0
    x, v = x0, 0.0
    x_k = v_k = x_c = v_c = 0.0
    keep = 1.0 - dt * c
    while t < t_end:
        v_k = keep * v_k - dt * (x + k * x_k)
        v_c = keep * v_c - dt * (k * x_c + v)
        v = keep * v - dt * k * x
        x_k += dt * v_k
        x_c += dt * v_c
        x += dt * v
        t += dt
    e = 2.0 * (x - target)
    return e * x_k, e * x_c


def make_damped_oscillator(small=False):
    return (4.0, 0.3, 1.0, 0.2, 2.0 if small else 20.0, 0.01)
