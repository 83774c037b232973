"""z = x*x + x*y at (3, 10): dz/dx = 2x + y = 16, dz/dy = x = 3.

    python examples/tutorial_xy.py
"""
import s2s_ad


def z(x, y):
    return x * x + x * y


def main():
    dz = s2s_ad.grad(z, wrt=(0, 1))
    print(s2s_ad.derivative_source(dz))
    print("(dz/dx, dz/dy) at (3, 10):", tuple(float(v) for v in dz(3.0, 10.0)))


if __name__ == "__main__":
    main()
