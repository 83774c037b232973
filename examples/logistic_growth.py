"""Logistic growth by explicit Euler steps on Python floats, fitted to observations.

The loop saves several values per step for the backward sweep; the gradient s2s_ad
builds for floats pushes them as one tuple per step and pops them at once: print it with
`s2s_ad.derivative_source(df, *PROBLEM)`.
"""
import math

import s2s_ad

OBSERVED = (0.12, 0.15, 0.19, 0.24, 0.29, 0.35, 0.42, 0.48, 0.55, 0.61)
PROBLEM = (0.8, 2.0, 0.1, OBSERVED, 0.25)


def misfit(rate, capacity, p0, observed, dt):
    """Sum of squared differences between Euler steps of p' = r p (1 - p/K) and data."""
    p = p0
    loss = 0.0
    for target in observed:
        growth = rate * p * (1.0 - p / capacity)
        p = p + dt * growth
        loss = loss + (p - target) ** 2
    return math.sqrt(loss)


def main():
    df = s2s_ad.grad(misfit, wrt=(0, 1, 2))
    grads = df(*PROBLEM)
    eps = 1e-6
    for k, g in enumerate(grads):
        up, down = list(PROBLEM), list(PROBLEM)
        up[k] += eps
        down[k] -= eps
        print(f"d/d{['rate', 'capacity', 'p0'][k]} = {g:.6f} "
              f"(differences {(misfit(*up) - misfit(*down)) / (2 * eps):.6f})")
    print(s2s_ad.derivative_source(df, *PROBLEM))


if __name__ == "__main__":
    main()
