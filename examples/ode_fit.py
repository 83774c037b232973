"""Fitting the four rates of a Lotka-Volterra predator-prey model to noisy observations by
gradient descent through an explicit-Euler integrator written as a plain Python loop.

    dx/dt = alpha x - beta x y        (x: prey)
    dy/dt = delta x y - gamma y       (y: predators)

    python examples/ode_fit.py
"""
import numpy as np

import s2s_ad

TRUE_PARAMS = np.array([1.0, 0.5, 0.4, 0.8])     # alpha, beta, delta, gamma
NAMES = ("alpha", "beta", "delta", "gamma")


def rates(x, y, params):
    """The right-hand side of the Lotka-Volterra equations."""
    alpha, beta, delta, gamma = params
    return alpha * x - beta * x * y, delta * x * y - gamma * y


def simulate(params, x0, y0, dt, steps):
    """Explicit Euler from (x0, y0); returns the prey and predator series, steps + 1 each."""
    x, y = x0, y0
    prey = [x]
    predators = [y]
    for _ in range(steps):
        dx, dy = rates(x, y, params)
        x = x + dt * dx
        y = y + dt * dy
        prey.append(x)
        predators.append(y)
    return np.stack(prey), np.stack(predators)


def fit_loss(params, x0, y0, dt, steps, observed_prey, observed_predators):
    """Mean squared distance between the simulated and the observed populations."""
    prey, predators = simulate(params, x0, y0, dt, steps)
    return np.mean((prey - observed_prey) ** 2 + (predators - observed_predators) ** 2)


def make_problem(noise=0.05, dt=0.1, steps=100, seed=0):
    """(initial guess, x0, y0, dt, steps, observed prey, observed predators)."""
    rng = np.random.default_rng(seed)
    x0, y0 = 2.0, 1.0
    prey, predators = simulate(TRUE_PARAMS, x0, y0, dt, steps)
    observed_prey = prey + noise * rng.standard_normal(prey.shape)
    observed_predators = predators + noise * rng.standard_normal(predators.shape)
    initial_guess = np.array([0.8, 0.6, 0.3, 0.6])
    return initial_guess, x0, y0, dt, steps, observed_prey, observed_predators


def fit(iterations=200, learning_rate=0.005, verbose=True, **problem):
    """Gradient descent on the rates; returns the fitted rates and the loss history."""
    params, *data = make_problem(**problem)
    grad_loss = s2s_ad.grad(fit_loss, wrt=0)
    losses = []
    for it in range(iterations + 1):
        losses.append(fit_loss(params, *data))
        if verbose and it % 25 == 0:
            print(f"iteration {it:3d}  loss {losses[-1]:.5f}  rates {np.round(params, 3)}")
        if it < iterations:
            params = params - learning_rate * grad_loss(params, *data)
    return params, losses


def main():
    print(s2s_ad.derivative_source(s2s_ad.grad(fit_loss, wrt=0)))
    # grad_fit_loss calls this generated adjoint of the integrator (backward through the loop)
    print(s2s_ad.derivative_source(s2s_ad.vjp(simulate, wrt=0)))
    params, losses = fit()
    print(f"loss fell from {losses[0]:.4f} to {losses[-1]:.4f}")
    print("rate     true   fitted")
    for name, true, fitted in zip(NAMES, TRUE_PARAMS, params):
        print(f"{name:6s}  {true:5.3f}   {fitted:5.3f}")


if __name__ == "__main__":
    main()
