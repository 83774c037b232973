"""Found by `python -m tests.fuzz`: a helper whose parameter is read only in a test made
grad fail ("the gradient would be zero everywhere", pointing into the helper) although
the output depends on the argument differentiably through another statement."""
import numpy as np


def scaled(u, c):
    if c > 0.0:
        return u * 2.0
    return u * 3.0


def f(a, x, M):
    return scaled(a * a, a) + np.sum(scaled(x * M[0], a)) + np.sum(scaled(M, x[0]))


ARGS = (0.7, np.array([0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
