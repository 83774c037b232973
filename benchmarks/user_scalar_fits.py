"""Scalar fitting workloads of user_workloads.py: a pendulum integrated with math.sin, a
Newton iteration for a root that depends on a parameter, a running average over a list,
and a decay fitted by a Cauchy loss to a list of (t, y, sigma) records, each on Python
floats with the gradient an expert writes by hand."""
import math

import numpy as np


# A damped pendulum theta'' = -(g / L) sin(theta) - c theta', 1000 semi-implicit Euler
# steps, fitted to observed angles by its length L and damping c.
def pendulum_misfit(length, damping, theta0, observed, dt):
    """Sum of squared differences between the simulated and the observed angles."""
    theta, omega = theta0, 0.0
    loss = 0.0
    for target in observed:
        omega = omega - dt * (9.81 / length * math.sin(theta) + damping * omega)
        theta = theta + dt * omega
        loss = loss + (theta - target) ** 2
    return loss


def pendulum_misfit_grad(length, damping, theta0, observed, dt):
    # sensitivities of (theta, omega) to L and c carried along the steps (forward)
    sin, cos = math.sin, math.cos
    g = 9.81 / length
    theta, omega = theta0, 0.0
    th_L = om_L = th_c = om_c = 0.0
    gL = gc = 0.0
    keep = 1.0 - dt * damping
    for target in observed:
        s = sin(theta)
        gcos = g * cos(theta)
        om_L = keep * om_L - dt * (gcos * th_L - g / length * s)
        om_c = keep * om_c - dt * (gcos * th_c + omega)
        omega = keep * omega - dt * g * s
        th_L += dt * om_L
        th_c += dt * om_c
        theta += dt * omega
        r = 2.0 * (theta - target)
        gL += r * th_L
        gc += r * th_c
    return gL, gc


def make_pendulum(small=False):
    n = 50 if small else 1000
    t = np.arange(1, n + 1) * 0.01
    observed = [float(v) for v in 0.5 * np.cos(2.9 * t) * np.exp(-0.05 * t)]
    return (1.15, 0.08, 0.5, observed, 0.01)


# The positive root of x**3 + p x = t by eight Newton steps, for each t of a list; the
# objective sums the roots.
def cubic_roots_sum(p, targets):
    """Sum over t of the root of x**3 + p * x - t, eight Newton steps from x = 1."""
    total = 0.0
    for t in targets:
        x = 1.0
        for _ in range(8):
            x = x - (x * x * x + p * x - t) / (3.0 * x * x + p)
        total = total + x
    return total


def cubic_roots_sum_grad(p, targets):
    # at the root, dx/dp = -x / (3 x**2 + p) (implicit function theorem); eight steps
    # converge to machine precision for these targets, and so does the derivative
    g = 0.0
    for t in targets:
        x = 1.0
        for _ in range(8):
            x = x - (x * x * x + p * x - t) / (3.0 * x * x + p)
        g -= x / (3.0 * x * x + p)
    return g


def make_cubic_roots(small=False):
    n = 10 if small else 100
    return (1.5, [float(v) for v in np.linspace(0.5, 3.0, n)])


# An exponential running average of a list of floats with a smoothing factor and an
# offset, its squared one-step prediction errors summed.
def running_average_errors(alpha, offset, xs):
    """Sum of (x_k - m_(k-1))**2 for m_k = alpha m_(k-1) + (1 - alpha) x_k + offset."""
    m = xs[0]
    sse = 0.0
    for x in xs:
        sse = sse + (x - m) ** 2
        m = alpha * m + (1.0 - alpha) * x + offset
    return sse


def running_average_errors_grad(alpha, offset, xs):
    # dm/dalpha and dm/doffset carried along (forward)
    m = xs[0]
    m_a = m_o = 0.0
    g_a = g_o = 0.0
    for x in xs:
        r = 2.0 * (m - x)
        g_a += r * m_a
        g_o += r * m_o
        m_a = alpha * m_a + m - x
        m_o = alpha * m_o + 1.0
        m = alpha * m + (1.0 - alpha) * x + offset
    return g_a, g_o


def make_running_average(small=False):
    n = 30 if small else 500
    rng = np.random.default_rng(13)
    return (0.8, 0.01, [float(v) for v in np.cumsum(rng.standard_normal(n)) * 0.1])


# An exponential decay A exp(-k t) fitted by a robust Cauchy loss to measurements kept as a
# list of (t, y, sigma) records, each with its own uncertainty.
def decay_cauchy_fit(A, k, records):
    """Sum of log(1 + r**2) over the records, r the residual in units of its sigma."""
    loss = 0.0
    for t, y, sigma in records:
        r = (y - A * math.exp(-k * t)) / sigma
        loss = loss + math.log1p(r * r)
    return loss


def decay_cauchy_fit_grad(A, k, records):
    # d log1p(r^2) = 2 r / (1 + r^2) dr,  dr/dA = -e / sigma,  dr/dk = A t e / sigma
    exp = math.exp
    gA = gk = 0.0
    for t, y, sigma in records:
        e = exp(-k * t)
        r = (y - A * e) / sigma
        w = 2.0 * r / (1.0 + r * r) * e / sigma
        gA -= w
        gk += w * A * t
    return gA, gk


def make_decay_cauchy(small=False):
    n = 20 if small else 400
    rng = np.random.default_rng(61)
    ts = np.sort(rng.uniform(0.0, 5.0, n))
    sigmas = rng.uniform(0.05, 0.3, n)
    ys = 2.0 * np.exp(-0.7 * ts) + sigmas * rng.standard_cauchy(n) * 0.5
    return (1.8, 0.6, [(float(t), float(y), float(s)) for t, y, s in zip(ts, ys, sigmas)])


# Logistic regression on grouped counts (k successes of n trials at covariates u, v), as a
# list of (u, v, k, n) records, three weights: each record's log-likelihood reads the
# linear predictor once, so its partial is the one expression every weight's derivative
# shares (session 23).
def grouped_logistic_nll(w0, w1, w2, groups):
    """Binomial negative log-likelihood with logit w0 + w1 u + w2 v."""
    nll = 0.0
    for u, v, k, n in groups:
        z = w0 + w1 * u + w2 * v
        nll = nll + n * math.log1p(math.exp(z)) - k * z
    return nll


def grouped_logistic_nll_grad(w0, w1, w2, groups):
    # d/dz [n log(1 + e^z) - k z] = n sigmoid(z) - k, times (1, u, v)
    exp = math.exp
    g0 = g1 = g2 = 0.0
    for u, v, k, n in groups:
        r = n / (1.0 + exp(-(w0 + w1 * u + w2 * v))) - k
        g0 += r
        g1 += r * u
        g2 += r * v
    return g0, g1, g2


def make_grouped_logistic(small=False):
    m = 25 if small else 400
    rng = np.random.default_rng(67)
    u, v = rng.normal(0.0, 1.0, m), rng.uniform(-1.0, 1.0, m)
    n = rng.integers(1, 30, m)
    k = rng.binomial(n, 1.0 / (1.0 + np.exp(-(0.3 + 0.8 * u - 0.5 * v))))
    return (0.1, 0.5, -0.2, [(float(a), float(b), float(c), float(d))
                             for a, b, c, d in zip(u, v, k, n)])


# list of (x, y) pairs, a mean and a log-scale each linear in x: four parameters read
# from each pair unpacked by the loop (session 24: its records tested where the loop
# unpacks them, the guard only that it is a list).
def heteroscedastic_nll(m0, m1, s0, s1, points):
    """Gaussian negative log-likelihood whose mean and log standard deviation are both
    linear in x."""
    nll = 0.0
    for x, y in points:
        log_sd = s0 + s1 * x
        z = (y - (m0 + m1 * x)) * math.exp(-log_sd)
        nll = nll + log_sd + 0.5 * z * z
    return nll


def heteroscedastic_nll_grad(m0, m1, s0, s1, points):
    # z = (y - mu) / sd: d/dmu = -z / sd, d/dlog_sd = 1 - z^2
    exp = math.exp
    g0 = g1 = g2 = g3 = 0.0
    for x, y in points:
        inv_sd = exp(-(s0 + s1 * x))
        z = (y - m0 - m1 * x) * inv_sd
        a = z * inv_sd
        c = 1.0 - z * z
        g0 -= a
        g1 -= a * x
        g2 += c
        g3 += c * x
    return g0, g1, g2, g3


def make_heteroscedastic(small=False):
    m = 30 if small else 400
    rng = np.random.default_rng(71)
    x = rng.uniform(-2.0, 2.0, m)
    y = 0.5 + 1.2 * x + np.exp(-0.7 + 0.3 * x) * rng.standard_normal(m)
    return (0.3, 1.0, -0.5, 0.2, [(float(a), float(b)) for a, b in zip(x, y)])
