"""Found by `python -m tests.fuzz`: the adjoints of helper calls were looked up by the
name they assign, and early returns assign one name (`result`) on every path. A later
`return a` (an identity) took the place of `return helper1(...)`'s adjoint, which then
crashed (`vjp_identity() takes 2 positional arguments but 3 were given`); two helpers,
or one helper with its arguments swapped, on two branches gave a silently wrong
gradient (the adjoint of the last call for both)."""
import numpy as np


def first(p, q):
    return p


def mul(p, q):
    return p * q


def square(u):
    return u * u


def f(a, x, M):
    if x[0] > 0.0:
        return first(np.sum(x * M[1]) * a, a)
    if a > 0.0:
        return mul(a, x[1] * M[1, 1])
    if a < -1.0:
        return square(np.sum(M[0] * x) * a)
    return mul(x[1] * M[1, 1], a)
    for r in [x]:
        return a


ARGS = (0.7, np.array([-0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
