"""Found by `python -m tests.fuzz`: `np.sum([... for ...])` inside a loop crashed the
gradient with "'numpy.ndarray' object has no attribute 'pop'": the comprehension's list,
rebuilt each iteration, was taped as its shape, and the backward sweep popped items off
the placeholder array that came back."""
import numpy as np


def f(a, x, M):
    acc = 0.0
    for i in range(2):
        acc = acc + np.sum([e * a for e in x]) * M[i, i]
    for r in M:
        acc = acc + np.sum([np.sin(e * r[0]) for e in x])
    return acc


ARGS = (0.7, np.array([0.3, -0.5, 0.2]), np.array([[0.1, 0.4, -0.3], [0.2, -0.6, 0.5], [0.9, 0.1, -0.2]]))
