"""Two loops as users write them: a periodic rod cooling by explicit Euler steps (a
vector time-stepped with number parameters), and Holt's trend smoothing over a list of
floats started from its first items.

The rod's gradient sums the state's adjoint in place and tapes no rolled array; the
smoothing's is plain float code. Print them with
`s2s_ad.derivative_source(df, *ROD)` and `s2s_ad.derivative_source(dg, *SERIES)`.
"""
import numpy as np

import s2s_ad

ROD = (np.linspace(0.2, 1.0, 8), 0.2, 0.05, 0.3, 4, np.full(8, 0.5))
SERIES = (0.4, 0.2, [10.0, 10.6, 10.9, 11.8, 12.1, 12.9, 13.2])


def rod_misfit(T0, kappa, h, T_env, n_steps, target):
    """Squared error of the final profile; each step diffuses and cools to T_env."""
    T = T0
    for step in range(n_steps):
        T = T + 0.5 * (kappa * (np.roll(T, 1) - 2.0 * T + np.roll(T, -1)) - h * (T - T_env))
    return np.sum((T - target) ** 2)


def forecast_errors(alpha, beta, ys):
    """Sum of squared one-step forecast errors of Holt's level and trend smoothing."""
    level, trend = ys[0], ys[1] - ys[0]
    sse = 0.0
    for k in range(1, len(ys)):
        forecast = level + trend
        sse = sse + (ys[k] - forecast) ** 2
        new_level = alpha * ys[k] + (1.0 - alpha) * forecast
        trend = beta * (new_level - level) + (1.0 - beta) * trend
        level = new_level
    return sse


def main():
    eps = 1e-6
    for f, wrt, args in ((rod_misfit, (1, 2), ROD), (forecast_errors, (0, 1), SERIES)):
        df = s2s_ad.grad(f, wrt=wrt)
        for k, g in zip(wrt, df(*args)):
            up, down = list(args), list(args)
            up[k] += eps
            down[k] -= eps
            print(f"{f.__name__}: d/d(argument {k}) = {g:.6f} "
                  f"(differences {(f(*up) - f(*down)) / (2 * eps):.6f})")
        print(s2s_ad.derivative_source(df, *args))


if __name__ == "__main__":
    main()
