"""Newton's method with an s2s_ad Hessian: minimise a smooth 2-D test function.

Each step solves H(x) dx = -g(x) with the exact gradient and Hessian that s2s_ad generates
(the Hessian by forward-over-reverse), and converges quadratically near the minimum.

    python examples/newton.py
"""
import numpy as np

import s2s_ad


def objective(x):
    """A tilted, curved valley (Rosenbrock-like, but strictly convex near the minimum)."""
    return (x[0] - 1.0) ** 2 + 5.0 * (x[1] - x[0] ** 2) ** 2 + 0.1 * np.exp(x[0] + x[1])


def newton(x0, steps=12, verbose=True):
    gradient = s2s_ad.grad(objective)
    hessian = s2s_ad.hessian(objective)
    x = np.array(x0, dtype=float)
    history = [objective(x)]
    for step in range(steps):
        g = gradient(x)
        x = x - np.linalg.solve(hessian(x), g)
        history.append(objective(x))
        if verbose:
            print(f"step {step + 1:2d}  f = {history[-1]:.12f}  |g| = {np.linalg.norm(g):.2e}")
        if np.linalg.norm(g) < 1e-12:
            break
    return x, history


def main():
    x, _ = newton([-0.5, 1.0])
    print("minimum at", x, "gradient there", s2s_ad.grad(objective)(x))


if __name__ == "__main__":
    main()
