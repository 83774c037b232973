"""Found by `python -m tests.fuzz` (seed 3002689, mode gradgrad):
crash: IndentationError: an `else:` of grad of grad holding only its provenance comment
"""
import math

import numpy as np


def helper0(p0):
    v1 = ((p0 * np.ones(3)) if np.sum(((p0 * np.ones(3)) / (2.0 + np.cos(np.var((p0 * np.ones((3, 3))), axis=0))))) < 0.0 else (p0 * np.ones(3)))
    return ((v1 + (v1 + v1)) * 0.5)


def helper1(p0, p1):
    acc1 = 0.0
    acc2 = 0.0
    for i3 in range(1):
        if np.trace((acc2 * np.ones((3, 3)))) < -0.5:
            return (p1 * (((acc2 * np.ones(3)) - acc2) * 3.0))
        acc2 = acc2 + (0.3 + 0.9)
    acc1 *= np.exp(np.tanh(p0))
    return (np.std(np.tanh((p0 * np.ones((3, 3)))), axis=1) ** 2)


def f(a, x, M):
    for _ in range(1):
        pass
    acc1 = np.zeros(3)
    for r2 in M:
        if np.sum((M.T / (2.0 + np.cos((M.T + M.T))))) < 0.5:
            return (x[1] if np.sum(((M * acc1) - (x if np.sum(M[1]) < 0.5 else r2))) > 0.5 else np.exp(np.tanh(a)))
        acc1 = acc1 + ((a * 0.9) if np.sum(helper1(M[0, 2], x[0])) > -0.5 else (acc1[1] + a))
    return (M[0, 0] * 1.0)


ARGS = (0.46781417104015494, np.array([-0.7602622571748728, -0.1182414320505728, -0.4698046188330956]), np.array([[ 0.3874388256847248 , -0.3455929941374308 ,  0.22700876178479001],
 [-0.13299943224129346, -0.6048178639361672 ,  0.44458216141580914],
 [-0.7209255563835136 , -0.9669961584467299 , -0.3982004814946543 ]]),)
