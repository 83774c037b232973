"""Scalar workloads of user_workloads.py (session 26): a Kalman filter over a list of floats
and a secant solve to a tolerance in a while loop, each with the gradient an expert writes
by hand."""
import math

import numpy as np


# The local-level model (a random walk observed with noise): its negative log-likelihood
# by the Kalman filter, the two variances by their logs, as a user fits them.
def kalman_level_nll(log_q, log_r, ys):
    """Negative log-likelihood (up to a constant) of the observations ys under a random
    walk of step variance exp(log_q) observed with noise of variance exp(log_r)."""
    q = math.exp(log_q)
    r = math.exp(log_r)
    m = ys[0]
    p = r
    nll = 0.0
    for y in ys[1:]:
        p = p + q
        s = p + r
        e = y - m
        nll = nll + 0.5 * (math.log(s) + e * e / s)
        k = p / s
        m = m + k * e
        p = p - k * p
    return nll


def kalman_level_nll_grad(log_q, log_r, ys):
    # the filter's sensitivities to log q (a) and log r (b) carried beside its state
    q = math.exp(log_q)
    r = math.exp(log_r)
    m = ys[0]
    p = r
    ma = mb = pa = 0.0
    pb = r
    ga = gb = 0.0
    for y in ys[1:]:
        p += q
        pa += q
        sb = pb + r
        inv_s = 1.0 / (p + r)
        e = y - m
        c = 0.5 * inv_s * (1.0 - e * e * inv_s)
        ga += c * pa - e * ma * inv_s
        gb += c * sb - e * mb * inv_s
        k = p * inv_s
        ka = (pa - k * pa) * inv_s
        kb = (pb - k * sb) * inv_s
        m += k * e
        ma += ka * e - k * ma
        mb += kb * e - k * mb
        pa = (1.0 - k) * pa - ka * p
        pb = (1.0 - k) * pb - kb * p
        p = p - k * p
    return ga, gb


def make_kalman_level(small=False):
    n = 30 if small else 400
    rng = np.random.default_rng(61)
    level = np.cumsum(0.3 * rng.standard_normal(n))
    ys = (level + 0.7 * rng.standard_normal(n)).tolist()
    return (math.log(0.1), math.log(0.5), ys)


# Each target's root of x + a sin x + b x^3 = t by secant steps until a step is below
# 1e-10 (a while loop whose number of iterations depends on the data).
def secant_roots_loss(a, b, targets):
    """Sum of the squared roots over the targets."""
    total = 0.0
    for t in targets:
        x0 = 0.0
        x1 = t
        f0 = x0 + a * math.sin(x0) + b * x0 ** 3 - t
        f1 = x1 + a * math.sin(x1) + b * x1 ** 3 - t
        while abs(x1 - x0) > 1e-10:
            x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
            x0 = x1
            f0 = f1
            x1 = x2
            f1 = x1 + a * math.sin(x1) + b * x1 ** 3 - t
        total = total + x1 * x1
    return total


def secant_roots_loss_grad(a, b, targets):
    # at a root g(x) = x + a sin x + b x^3 - t = 0: dx/da = -sin x / g'(x),
    # dx/db = -x^3 / g'(x) (implicit function theorem); the secant steps converge
    # superlinearly, so the last iterate is the root to rounding
    sin, cos = math.sin, math.cos
    ga = gb = 0.0
    for t in targets:
        x0, x1 = 0.0, t
        f0 = -t
        f1 = x1 + a * sin(x1) + b * x1 ** 3 - t
        while abs(x1 - x0) > 1e-10:
            x0, x1 = x1, x1 - f1 * (x1 - x0) / (f1 - f0)
            f0, f1 = f1, x1 + a * sin(x1) + b * x1 ** 3 - t
        w = -2.0 * x1 / (1.0 + a * cos(x1) + 3.0 * b * x1 * x1)
        ga += w * sin(x1)
        gb += w * x1 ** 3
    return ga, gb


def make_secant_roots(small=False):
    n = 10 if small else 100
    return (0.5, 0.1, [float(v) for v in np.linspace(0.2, 3.0, n)])
