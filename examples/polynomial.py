"""A polynomial by Horner's rule over a tuple of Python floats, and its derivatives.

The gradient s2s_ad builds for floats is plain float arithmetic (no arrays, no shape
bookkeeping): print it with `s2s_ad.derivative_source(df, x, a, COEFFS)`.
"""
import s2s_ad

COEFFS = (0.5, -1.0, 2.0, 0.25, -3.0)


def horner(x, a, coeffs):
    """a * (c0 x^(n-1) + c1 x^(n-2) + ... + c_(n-1)), by Horner's rule."""
    p = 0.0
    for c in coeffs:
        p = p * x + a * c
    return p


def main():
    df = s2s_ad.grad(horner, wrt=(0, 1))
    x, a = 0.7, 1.5
    gx, ga = df(x, a, COEFFS)
    eps = 1e-6
    print(f"d/dx = {gx:.6f} (differences {(horner(x + eps, a, COEFFS) - horner(x - eps, a, COEFFS)) / (2 * eps):.6f})")
    print(f"d/da = {ga:.6f} (differences {(horner(x, a + eps, COEFFS) - horner(x, a - eps, COEFFS)) / (2 * eps):.6f})")
    print(s2s_ad.derivative_source(df, x, a, COEFFS))


if __name__ == "__main__":
    main()
