"""y = a x^2 + b x + c: the levels form (x**2 and b*x at level 1, a*t1_0 at level 2)
and the four partial derivatives.

    python examples/quadratic.py
"""
import s2s_ad


def quadratic(a, b, c, x):
    y = a * x ** 2 + b * x + c
    return y


def main():
    print(s2s_ad.normalize(quadratic))
    grads = s2s_ad.grad(quadratic, wrt=("a", "b", "c", "x"))(1.0, 2.0, 3.0, 4.0)
    print("dy/da, dy/db, dy/dc, dy/dx at (1, 2, 3, 4):", tuple(float(g) for g in grads))


if __name__ == "__main__":
    main()
