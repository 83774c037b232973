"""Piecewise functions written with if/elif/else, early returns and a loop, differentiated
by s2s_ad at several points and compared with central finite differences.

  income_tax   a banded income-tax schedule whose tax-free allowance is tapered away
               above an income threshold (so the marginal rate is 0, 20, 40, 60 or 45 %)
  huber_loss   the Huber loss written branch by branch over the residuals
  soft_clip    x - x^3/3 inside [-1, 1], constant outside

    python examples/piecewise.py
"""
import numpy as np

import s2s_ad

TAPER_START = 100000.0     # above this, the allowance shrinks by 1 for every 2 earned
BASIC_BAND = 37700.0       # taxable income taxed at 20 %
HIGHER_BAND = 125140.0     # taxable income up to here taxed at 40 %, above at 45 %


def income_tax(income, allowance):
    """Tax owed on `income` with a tax-free `allowance`."""
    if income > TAPER_START:
        allowance = allowance - 0.5 * (income - TAPER_START)
        if allowance < 0.0:
            allowance = 0.0
    taxable = income - allowance
    if taxable <= 0.0:
        return 0.0
    elif taxable <= BASIC_BAND:
        return 0.2 * taxable
    elif taxable <= HIGHER_BAND:
        return 0.2 * BASIC_BAND + 0.4 * (taxable - BASIC_BAND)
    else:
        return 0.2 * BASIC_BAND + 0.4 * (HIGHER_BAND - BASIC_BAND) \
            + 0.45 * (taxable - HIGHER_BAND)


def huber_loss(residuals, delta):
    """Mean Huber loss: quadratic for |r| <= delta, linear beyond."""
    total = 0.0
    for r in residuals:
        if abs(r) <= delta:
            total = total + 0.5 * r ** 2
        else:
            total = total + delta * (abs(r) - 0.5 * delta)
    return total / len(residuals)


def soft_clip(x):
    """A smooth saturating nonlinearity with a continuous first derivative."""
    if x < -1.0:
        return -2.0 / 3.0
    elif x > 1.0:
        return 2.0 / 3.0
    else:
        return x - x ** 3 / 3.0


def central_difference(f, args, k, eps):
    """(f(.., a_k + eps, ..) - f(.., a_k - eps, ..)) / 2 eps, elementwise for arrays."""
    x = np.asarray(args[k], dtype=float)
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[idx] += eps
        minus[idx] -= eps
        up = list(args)
        down = list(args)
        up[k] = plus if x.ndim else float(plus)
        down[k] = minus if x.ndim else float(minus)
        grad[idx] = (f(*up) - f(*down)) / (2 * eps)
    return grad if x.ndim else float(grad)


def make_problem(seed=0):
    """Evaluation points away from the kinks: incomes, residual vectors, clip inputs."""
    rng = np.random.default_rng(seed)
    incomes = [8000.0, 30000.0, 60000.0, 110000.0, 130000.0, 200000.0]
    residual_sets = [rng.standard_normal(6) * 1.5 for _ in range(3)]
    clip_points = [-1.7, -0.6, 0.2, 0.9, 2.5]
    return incomes, residual_sets, clip_points


def main():
    incomes, residual_sets, clip_points = make_problem()
    allowance = 12570.0

    d_tax = s2s_ad.grad(income_tax, wrt=(0, 1))
    print(s2s_ad.derivative_source(d_tax))
    print("income_tax(income, allowance=12570): marginal rates")
    print("    income        tax   d/d income  (finite diff)   d/d allowance  (finite diff)")
    for income in incomes:
        args = [income, allowance]
        g_income, g_allowance = d_tax(*args)
        fd_income = central_difference(income_tax, args, 0, 1e-2)
        fd_allowance = central_difference(income_tax, args, 1, 1e-2)
        print(f"  {income:8.0f}  {income_tax(*args):9.2f}   {g_income:9.4f}  ({fd_income:9.4f})"
              f"     {g_allowance:9.4f}   ({fd_allowance:9.4f})")

    d_huber = s2s_ad.grad(huber_loss, wrt=(0, 1))
    print("\nhuber_loss(residuals, delta=1.0)")
    for residuals in residual_sets:
        g_r, g_delta = d_huber(residuals, 1.0)
        fd_r = central_difference(huber_loss, [residuals, 1.0], 0, 1e-6)
        fd_delta = central_difference(huber_loss, [residuals, 1.0], 1, 1e-6)
        print(f"  residuals     {np.array2string(residuals, precision=3)}")
        print(f"  d/d residuals {np.array2string(g_r, precision=4)}")
        print(f"  finite diff   {np.array2string(fd_r, precision=4)}")
        print(f"  d/d delta {g_delta:.6f}   finite diff {fd_delta:.6f}")

    d_clip = s2s_ad.grad(soft_clip)
    print("\nsoft_clip(x)")
    print("       x    value  derivative  (finite diff)")
    for x in clip_points:
        fd = central_difference(soft_clip, [x], 0, 1e-6)
        print(f"  {x:6.2f}  {soft_clip(x):7.4f}  {d_clip(x):10.6f}  ({fd:10.6f})")


if __name__ == "__main__":
    main()
