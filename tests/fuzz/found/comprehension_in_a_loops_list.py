"""Found by `python -m tests.fuzz`: `for r in [<an item built by a comprehension>, ...]`
gave `NameError: index` in generated code: the comprehension's own loop variable was
taken for the enclosing loop's."""
import numpy as np


def f(a, x, M):
    acc = 0.0
    for r in [np.array([e * a for e in x]), x * M[0]]:
        acc = acc + np.sum(r * r) * a
    return acc


ARGS = (0.7, np.array([0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
