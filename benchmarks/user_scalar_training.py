"""Scalar workloads of user_workloads.py (session 25): a driven, damped oscillator fitted to a
list of observations by a `for` loop of 1000 steps, an online (SGD) logistic regression
over a list of (x, y) pairs differentiated by its starting weights and learning rate, and
a polynomial least-squares fit written with a `for` over the coefficients; each on Python
floats, with the gradient an expert writes by hand."""
import math

import numpy as np


# x'' + 2 zeta omega x' + omega^2 x = cos(t), semi-implicit Euler, one step per observation.
def driven_oscillator_misfit(omega, zeta, observed, dt):
    """Sum of squared misses of the displacement, one Euler step per observation."""
    x, v, t = 1.0, 0.0, 0.0
    loss = 0.0
    for y in observed:
        a = math.cos(t) - 2.0 * zeta * omega * v - omega * omega * x
        v = v + dt * a
        x = x + dt * v
        t = t + dt
        loss = loss + (x - y) ** 2
    return loss


def driven_oscillator_misfit_grad(omega, zeta, observed, dt):
    # sensitivities of (x, v) to omega and zeta carried along the steps (forward):
    # da = -2 zeta omega dv - omega^2 dx - 2 (zeta v + omega x) domega - 2 omega v dzeta
    cos = math.cos
    x, v, t = 1.0, 0.0, 0.0
    x_w = v_w = x_z = v_z = 0.0
    g_w = g_z = 0.0
    damp = 2.0 * zeta * omega
    stiff = omega * omega
    for y in observed:
        a = cos(t) - damp * v - stiff * x
        v_w += dt * (-damp * v_w - stiff * x_w - 2.0 * (zeta * v + omega * x))
        v_z += dt * (-damp * v_z - stiff * x_z - 2.0 * omega * v)
        v += dt * a
        x_w += dt * v_w
        x_z += dt * v_z
        x += dt * v
        t += dt
        e = 2.0 * (x - y)
        g_w += e * x_w
        g_z += e * x_z
    return g_w, g_z


def make_driven_oscillator(small=False):
    n = 50 if small else 1000
    dt = 0.01
    rng = np.random.default_rng(83)
    x, v, t, observed = 1.0, 0.0, 0.0, []
    for _ in range(n):
        v = v + dt * (math.cos(t) - 2.0 * 0.1 * 3.0 * v - 9.0 * x)
        x = x + dt * v
        t = t + dt
        observed.append(x + 0.02 * float(rng.standard_normal()))
    return (2.8, 0.15, observed, dt)


# One pass of stochastic gradient descent for a logistic regression on one feature; the
# objective is the online (prequential) log-loss, each pair scored before its update, and
# its gradient is taken by the starting weights and the learning rate.
def sgd_logistic_online_loss(w, b, lr, pairs):
    """Log-loss of each pair under the weights before the step that pair makes."""
    loss = 0.0
    for x, y in pairs:
        p = 1.0 / (1.0 + math.exp(-(w * x + b)))
        loss = loss - (y * math.log(p) + (1.0 - y) * math.log(1.0 - p))
        w = w - lr * (p - y) * x
        b = b - lr * (p - y)
    return loss


def sgd_logistic_online_loss_grad(w, b, lr, pairs):
    # dloss/dz = p - y; dp/dz = p (1 - p); the weights' sensitivities to (w0, b0, lr)
    # carried forward: dw' = dw - lr x p(1-p) dz - [lr] (p - y) x, the same for b
    exp = math.exp
    w_w, w_b, w_l = 1.0, 0.0, 0.0
    b_w, b_b, b_l = 0.0, 1.0, 0.0
    g_w = g_b = g_l = 0.0
    for x, y in pairs:
        p = 1.0 / (1.0 + exp(-(w * x + b)))
        r = p - y
        z_w = w_w * x + b_w
        z_b = w_b * x + b_b
        z_l = w_l * x + b_l
        g_w += r * z_w
        g_b += r * z_b
        g_l += r * z_l
        q = lr * p * (1.0 - p)
        w_w -= q * x * z_w
        b_w -= q * z_w
        w_b -= q * x * z_b
        b_b -= q * z_b
        w_l -= q * x * z_l + r * x
        b_l -= q * z_l + r
        w -= lr * r * x
        b -= lr * r
    return g_w, g_b, g_l


def make_sgd_logistic(small=False):
    n = 30 if small else 400
    rng = np.random.default_rng(89)
    xs = rng.standard_normal(n)
    ys = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-(1.5 * xs - 0.3)))).astype(float)
    return (0.1, 0.0, 0.05, [(float(x), float(y)) for x, y in zip(xs, ys)])


# A polynomial fitted by least squares, evaluated with a `for` over its coefficients
# (lowest degree first), the powers of x built up along the way.
def polynomial_sse(coeffs, xs, ys):
    """Sum of squared residuals of sum_k c_k x^k at the points."""
    sse = 0.0
    for x, y in zip(xs, ys):
        p = 0.0
        power = 1.0
        for c in coeffs:
            p = p + c * power
            power = power * x
        sse = sse + (p - y) ** 2
    return sse


def polynomial_sse_grad(coeffs, xs, ys):
    # d sse / d c_k = sum 2 (p - y) x^k: the residuals first, then one pass per power
    n = len(coeffs)
    grads = [0.0] * n
    for x, y in zip(xs, ys):
        p = 0.0
        for c in reversed(coeffs):
            p = p * x + c
        e = 2.0 * (p - y)
        for k in range(n):
            grads[k] += e
            e *= x
    return grads


def make_polynomial_fit(small=False):
    n = 20 if small else 200
    rng = np.random.default_rng(97)
    xs = rng.uniform(-1.0, 1.0, n)
    ys = 0.5 - 1.2 * xs + 0.8 * xs ** 3 + 0.05 * rng.standard_normal(n)
    return ([0.4, -1.0, 0.1, 0.6, 0.0], xs.tolist(), ys.tolist())
