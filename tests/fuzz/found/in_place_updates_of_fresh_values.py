"""Found by `python -m tests.fuzz`: in-place updates refused as writes into a shared
array although nothing else held what they wrote: an item of the iterated vector
(`for r in x: r += a`, the next iteration reads another item; when x itself is read
after the loop, the update writes into x exactly when x has two axes, and the general
derivative, built before any argument is seen, still refuses it) and the fresh result of a
conditional expression in a loop (`y = (x * a) if ... else (x * 2.0)`, then `y += 1.0`:
each branch gives y a new array)."""
import numpy as np


def f(a, x, M):
    acc = 0.0
    z = x * a
    for i in range(2):
        y = (z * a) if acc > 0.0 else (z * 2.0)
        y += M[i]
        acc = acc + np.sum(y * y)
    for r in x:
        r += a
        acc = acc + r * r
    for r in M:
        r += a
        acc = acc + np.sum(r * r)
    return acc


ARGS = (0.7, np.array([0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
