"""The running example y = e^(2 x1) + x1 x2^2 + cos(x2): its levels form and gradient.

    python examples/seed_example.py
"""
import numpy as np

import s2s_ad


def f(x1, x2):
    y = np.exp(2 * x1) + x1 * x2 ** 2 + np.cos(x2)
    return y


def main():
    print("levels form:\n" + s2s_ad.normalize(f))
    df = s2s_ad.grad(f, wrt=(0, 1))
    print("generated gradient:\n" + s2s_ad.derivative_source(df))
    d1, d2 = df(1.0, 2.0)
    print(f"df/dx1(1, 2) = {d1:.6f}   (2e^2 + 4 = {2 * np.e ** 2 + 4:.6f})")
    print(f"df/dx2(1, 2) = {d2:.6f}   (4 - sin 2 = {4 - np.sin(2):.6f})")


if __name__ == "__main__":
    main()
