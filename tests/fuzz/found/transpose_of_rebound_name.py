"""Found by `python -m tests.fuzz`: `.T` of a name assigned twice (`W = W * 3.0`, then
`W.T`) was refused with "`W_1` is not defined when the derivative is built": the
attribute was lowered on the name's second version, which is no user name."""
import numpy as np


def f(a, x, M):
    W = M * a
    W = W * 3.0
    V = (W * x).T
    return np.sum(W.T @ x) + np.sum(V * V)


ARGS = (0.7, np.array([0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
