"""The silent half of helpers_assigning_one_result.py, without the crash that hid it:
`mul(a, b)` on one branch and `mul(b, a)` on the other (issue 14's peers' case) used the
adjoint built for the last call site at both, and returned the wrong argument's value."""
import numpy as np


def mul(p, q):
    return p * q


def f(a, x, M):
    if a > 0.0:
        return mul(a, x[1] * M[1, 1])
    return mul(x[1] * M[1, 1], a)


ARGS = (0.7, np.array([-0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
