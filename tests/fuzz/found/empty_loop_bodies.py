"""Found by `python -m tests.fuzz`: a loop whose body has nothing to differentiate (here
a `for` that only passes and a `while` that only counts) left an empty block in the
generated code, which did not compile (IndentationError)."""
import numpy as np


def f(a, x, M):
    for _ in range(2):
        pass
    k = 0
    while k < 3:
        k += 1
    return np.sum(np.sin(x) * a) + np.sum(M @ x)


ARGS = (0.7, np.array([0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
