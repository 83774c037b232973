"""Two small simulations that fill arrays in place inside time-stepping loops, and their
sensitivities from s2s_ad checked against central finite differences.

  landing_distance   a projectile under quadratic air drag: `traj[t + 1] = position`
                     each step, then the landing point found by a loop with an early
                     return; gradient w.r.t. launch angle, speed and drag coefficient,
                     and gradient ascent on the angle for the longest throw
  american_put       a Cox-Ross-Rubinstein binomial tree with backward induction
                     `values[:n + 1] = ...` and early exercise; delta, vega, rho and
                     the sensitivity to maturity

    python examples/simulation.py
"""
import numpy as np

import s2s_ad

GRAVITY = np.array([0.0, -9.81])


def trajectory(angle, speed, drag, dt, steps):
    """Positions (steps + 1, 2) of a projectile launched from the origin (explicit Euler)."""
    traj = np.zeros((steps + 1, 2))
    velocity = speed * np.array([np.cos(angle), np.sin(angle)])
    position = np.zeros(2)
    for t in range(steps):
        acceleration = GRAVITY - drag * np.linalg.norm(velocity) * velocity
        velocity = velocity + dt * acceleration
        position = position + dt * velocity
        traj[t + 1] = position
    return traj


def landing_distance(angle, speed, drag, dt=0.01, steps=500):
    """Horizontal distance where the projectile comes back to the ground."""
    traj = trajectory(angle, speed, drag, dt, steps)
    for t in range(1, steps + 1):
        if traj[t, 1] < 0.0:
            # linear interpolation between the last point above and the first below
            frac = traj[t - 1, 1] / (traj[t - 1, 1] - traj[t, 1])
            return traj[t - 1, 0] + frac * (traj[t, 0] - traj[t - 1, 0])
    return traj[steps, 0]


def american_put(spot, volatility, rate, maturity, strike=100.0, steps=51):
    """Price of an American put on a recombining binomial tree."""
    dt = maturity / steps
    up = np.exp(volatility * np.sqrt(dt))
    down = 1.0 / up
    p = (np.exp(rate * dt) - down) / (up - down)
    discount = np.exp(-rate * dt)
    j = np.arange(steps + 1)
    values = np.maximum(strike - spot * up ** j * down ** (steps - j), 0.0)
    for n in range(steps - 1, -1, -1):
        j = np.arange(n + 1)
        continuation = discount * (p * values[1:n + 2] + (1.0 - p) * values[:n + 1])
        exercise = strike - spot * up ** j * down ** (n - j)
        values[:n + 1] = np.maximum(continuation, exercise)
    return values[0]


def central_difference(f, args, k, eps):
    up, down = list(args), list(args)
    up[k] = args[k] + eps
    down[k] = args[k] - eps
    return (f(*up) - f(*down)) / (2 * eps)


def make_problem():
    """(projectile arguments, option arguments)."""
    return [0.6, 30.0, 0.01], [97.3, 0.2, 0.05, 1.0]


def best_angle(speed, drag, iterations=20, learning_rate=0.004, verbose=True):
    """Gradient ascent on the launch angle, starting at 45 degrees."""
    d_angle = s2s_ad.grad(landing_distance, wrt=0)
    angle = np.pi / 4
    for it in range(iterations):
        angle = angle + learning_rate * d_angle(angle, speed, drag)
        if verbose and it in (0, 1, 2, 4, iterations - 1):
            print(f"  iteration {it + 1:2d}  angle {np.degrees(angle):5.2f} deg  "
                  f"distance {landing_distance(angle, speed, drag):7.3f} m")
    return angle


def main():
    projectile, option = make_problem()

    d_landing = s2s_ad.grad(landing_distance, wrt=(0, 1, 2))
    print(s2s_ad.derivative_source(d_landing))
    print(f"projectile: angle {projectile[0]} rad, speed {projectile[1]} m/s, "
          f"drag {projectile[2]} 1/m -> lands at {landing_distance(*projectile):.4f} m")
    print("  d distance / d      s2s_ad        finite difference")
    for name, g, k, eps in zip(("angle", "speed", "drag"), d_landing(*projectile), range(3),
                               (1e-6, 1e-5, 1e-8)):
        fd = central_difference(landing_distance, projectile, k, eps)
        print(f"  {name:16s}  {g:14.6f}  {fd:14.6f}")
    print("longest throw at this speed and drag:")
    angle = best_angle(projectile[1], projectile[2])
    print(f"  best angle {np.degrees(angle):.2f} deg (45 deg without drag)")

    d_put = s2s_ad.grad(american_put, wrt=(0, 1, 2, 3))
    print(f"\nAmerican put: spot {option[0]}, volatility {option[1]}, rate {option[2]}, "
          f"maturity {option[3]} y, strike 100 -> price {american_put(*option):.6f}")
    print("  sensitivity               s2s_ad        finite difference")
    for name, g, k in zip(("delta (spot)", "vega (volatility)", "rho (rate)",
                           "d/d maturity"), d_put(*option), range(4)):
        fd = central_difference(american_put, option, k, 1e-6)
        print(f"  {name:20s}  {g:14.6f}  {fd:14.6f}")


if __name__ == "__main__":
    main()
