"""Number-code workloads of user_workloads.py written for issue 13's scalar targets: a
Runge-Kutta 4 integration on Python floats fitted to observations, a fixed-point
iteration per data point, and a Poisson log-likelihood over a list of (x, y) pairs.

The hand-written gradients carry sensitivities the way a numerical person writes them
(no identity the function does not state: no implicit-function shortcut at the fixed
point), so a change that only helps the older workloads' shapes shows up here."""
import math

import numpy as np


# y' = -k y + a sin(t), integrated by classical RK4 with step h; misfit to observations
# taken after every step.
def rk4_decay_misfit(k, a, y0, h, obs):
    """Sum of squared differences between the RK4 states and the observations."""
    y = y0
    t = 0.0
    sse = 0.0
    for y_obs in obs:
        k1 = -k * y + a * math.sin(t)
        k2 = -k * (y + 0.5 * h * k1) + a * math.sin(t + 0.5 * h)
        k3 = -k * (y + 0.5 * h * k2) + a * math.sin(t + 0.5 * h)
        k4 = -k * (y + h * k3) + a * math.sin(t + h)
        y = y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        t = t + h
        sse = sse + (y - y_obs) ** 2
    return sse


def rk4_decay_misfit_grad(k, a, y0, h, obs):
    # forward sensitivities of the RK4 state to k and a; the right-hand side is linear in
    # y, so each stage's sensitivity is -k times the stage state's plus its own term
    sin = math.sin
    y, t, yk, ya, gk, ga = y0, 0.0, 0.0, 0.0, 0.0, 0.0
    hh, h6 = 0.5 * h, h / 6.0
    for y_obs in obs:
        s0, s1, s2 = sin(t), sin(t + hh), sin(t + h)
        k1 = -k * y + a * s0
        k1k, k1a = -y - k * yk, s0 - k * ya
        u2 = y + hh * k1
        k2 = -k * u2 + a * s1
        k2k, k2a = -u2 - k * (yk + hh * k1k), s1 - k * (ya + hh * k1a)
        u3 = y + hh * k2
        k3 = -k * u3 + a * s1
        k3k, k3a = -u3 - k * (yk + hh * k2k), s1 - k * (ya + hh * k2a)
        u4 = y + h * k3
        k4 = -k * u4 + a * s2
        k4k, k4a = -u4 - k * (yk + h * k3k), s2 - k * (ya + h * k3a)
        y += h6 * (k1 + 2.0 * (k2 + k3) + k4)
        yk += h6 * (k1k + 2.0 * (k2k + k3k) + k4k)
        ya += h6 * (k1a + 2.0 * (k2a + k3a) + k4a)
        t += h
        e = 2.0 * (y - y_obs)
        gk += e * yk
        ga += e * ya
    return gk, ga


def make_rk4_decay(small=False):
    n = 20 if small else 200
    rng = np.random.default_rng(41)
    y, t, h, obs = 1.0, 0.0, 0.05, []
    for _ in range(n):
        y = y + h * (-0.7 * y + 0.4 * math.sin(t))
        t = t + h
        obs.append(float(y + 0.01 * rng.standard_normal()))
    return (0.8, 0.5, 1.0, h, obs)


# An equilibrium x = s b + c cos(x) per data point, found by fixed-point iteration (a
# contraction for |c| < 1), fitted to the observed equilibria.
def fixed_point_fit(s, c, bs, ys):
    """Sum over the points of (x - y)^2, x after 30 iterations of x <- s b + c cos(x)."""
    loss = 0.0
    for i in range(len(bs)):
        b = bs[i]
        x = b
        for _ in range(30):
            x = s * b + c * math.cos(x)
        loss = loss + (x - ys[i]) ** 2
    return loss


def fixed_point_fit_grad(s, c, bs, ys):
    # sensitivities of the iterate to s and c carried along the iteration (forward)
    cos, sin = math.cos, math.sin
    gs = gc = 0.0
    for b, y in zip(bs, ys):
        x, xs, xc = b, 0.0, 0.0
        for _ in range(30):
            cx = cos(x)
            slope = -c * sin(x)
            xs, xc = b + slope * xs, cx + slope * xc
            x = s * b + c * cx
        e = 2.0 * (x - y)
        gs += e * xs
        gc += e * xc
    return gs, gc


def make_fixed_point(small=False):
    n = 6 if small else 60
    rng = np.random.default_rng(43)
    bs = rng.uniform(-1.0, 1.0, n).tolist()
    ys = []
    for b in bs:
        x = b
        for _ in range(60):
            x = 0.9 * b + 0.35 * math.cos(x)
        ys.append(float(x + 0.01 * rng.standard_normal()))
    return (1.0, 0.3, bs, ys)


# Poisson regression log-likelihood over a list of (x, count) pairs.
def poisson_pairs_nll(a, b, pairs):
    """Negative Poisson log-likelihood of counts with log-rate a + b x."""
    ll = 0.0
    for x, y in pairs:
        eta = a + b * x
        ll = ll + y * eta - math.exp(eta) - math.lgamma(y + 1.0)
    return -ll


def poisson_pairs_nll_grad(a, b, pairs):
    exp = math.exp
    ga = gb = 0.0
    for x, y in pairs:
        r = exp(a + b * x) - y
        ga += r
        gb += r * x
    return ga, gb


def make_poisson_pairs(small=False):
    n = 30 if small else 500
    rng = np.random.default_rng(47)
    xs = rng.uniform(-1.0, 2.0, n)
    counts = rng.poisson(np.exp(0.3 + 0.8 * xs))
    return (0.2, 0.7, [(float(x), float(y)) for x, y in zip(xs, counts)])
