"""Two more loop workloads of user_workloads.py, with the gradients an expert writes by hand:
a vector time-stepped with number parameters (a cooling rod), and a Python-number loop
over a list of floats (Holt's trend smoothing)."""
import numpy as np


# A periodic rod cooling towards its surroundings: diffusion (kappa) and Newton cooling (h),
# explicit Euler over a vector; squared error of the final profile against a measurement.
def cooling_rod_loss(T0, kappa, h, T_env, dt, n_steps, target):
    """sum((T_n - target)^2), T_(k+1) = T_k + dt (kappa lap(T_k) - h (T_k - T_env))."""
    T = T0
    for _ in range(n_steps):
        T = T + dt * (kappa * (np.roll(T, 1) - 2.0 * T + np.roll(T, -1)) - h * (T - T_env))
    return np.sum((T - target) ** 2)


def cooling_rod_grad(T0, kappa, h, T_env, dt, n_steps, target):
    # keep each state and its Laplacian; the stencil is symmetric, so its adjoint is itself
    states, laps = [], []
    T = T0
    for _ in range(n_steps):
        lap = np.roll(T, 1) - 2.0 * T + np.roll(T, -1)
        states.append(T)
        laps.append(lap)
        T = T + dt * (kappa * lap - h * (T - T_env))
    Tb = 2.0 * (T - target)
    kappa_bar = h_bar = 0.0
    for k in range(n_steps - 1, -1, -1):
        kappa_bar += dt * np.dot(Tb, laps[k])
        h_bar -= dt * np.dot(Tb, states[k] - T_env)
        lap_b = np.roll(Tb, 1) - 2.0 * Tb + np.roll(Tb, -1)
        Tb = Tb + dt * (kappa * lap_b - h * Tb)
    return Tb, float(kappa_bar), float(h_bar)


def make_cooling_rod(small=False):
    n, steps = (12, 6) if small else (2000, 200)
    rng = np.random.default_rng(31)
    x = np.linspace(0.0, 1.0, n, endpoint=False)
    T0 = 1.0 + 0.5 * np.sin(2 * np.pi * x) + 0.05 * rng.standard_normal(n)
    target = 0.8 + 0.2 * np.sin(2 * np.pi * x)
    return (T0, 0.2, 0.05, 0.3, 0.5, steps, target)


# Holt's linear-trend exponential smoothing, one-step-ahead squared forecast errors over a
# series kept as a Python list of floats; fitted smoothing constants alpha and beta.
def holt_sse(alpha, beta, ys):
    """Sum of squared one-step forecast errors of Holt's level + trend smoothing."""
    level, trend = ys[0], ys[1] - ys[0]
    sse = 0.0
    for k in range(1, len(ys)):
        y = ys[k]
        forecast = level + trend
        err = y - forecast
        sse = sse + err * err
        new_level = alpha * y + (1.0 - alpha) * forecast
        trend = beta * (new_level - level) + (1.0 - beta) * trend
        level = new_level
    return sse


def holt_sse_grad(alpha, beta, ys):
    # two parameters: carry d(level)/d(alpha, beta) and d(trend)/d(alpha, beta) forward
    level, trend = ys[0], ys[1] - ys[0]
    la = lb = ta = tb = 0.0
    ga = gb = 0.0
    for y in ys[1:]:
        forecast = level + trend
        fa, fb = la + ta, lb + tb
        err = y - forecast
        ga -= 2.0 * err * fa
        gb -= 2.0 * err * fb
        new_level = alpha * y + (1.0 - alpha) * forecast
        nla = err + (1.0 - alpha) * fa
        nlb = (1.0 - alpha) * fb
        step = new_level - level
        ta, tb = beta * (nla - la) + (1.0 - beta) * ta, \
            step - trend + beta * (nlb - lb) + (1.0 - beta) * tb
        trend = beta * step + (1.0 - beta) * trend
        level, la, lb = new_level, nla, nlb
    return ga, gb


def make_holt(small=False):
    n = 10 if small else 200
    rng = np.random.default_rng(37)
    ys = (10.0 + 0.3 * np.arange(n) + rng.standard_normal(n)).tolist()
    return (0.4, 0.2, ys)
