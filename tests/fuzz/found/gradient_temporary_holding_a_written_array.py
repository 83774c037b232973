"""Found by `python -m tests.fuzz` (seed 900254, mode hvp):
rejected: hvp: a write into an array a temporary of the gradient's levels form holds was refused as a shared-array write
"""
import math

import numpy as np


def helper0(p0, p1):
    v1 = np.mean([((p1[::-1] if np.sum(p1) > 0.5 else p1) * (1.5 - 0.3)), np.linspace(math.sin(0.9), 1.0, 3)], axis=0)
    return ((0.5 + p0[0]) * p1[::-1])


def f(a, x, M):
    x = (((a * x) * 2.0) * 0.9)
    v1 = np.sum([x, x], axis=0)
    if np.sum(M) < 0.5:
        x[1] = 2.0
        x[1] = 0.3
    elif np.sum(M) < -0.5:
        acc2 = 0.0
        for i3 in range(1):
            v4 = np.sum([np.var((M * 0.9), axis=1)], axis=0)
            acc2 = acc2 + (acc2 + acc2)
        for _ in range(2):
            pass
        v1 = (np.sum(np.sum(M.T, axis=1)) - x)
    else:
        a = np.sum(M[1])
        x[1] = 1.5
    v1[0] = 3.0
    lst5 = []
    for r6 in [(np.sum((M.T * M), axis=1) + x), np.log(1.0 + v1 * v1)]:
        for _ in range(3):
            pass
        lst5.append(M[:, 2])
    v7 = np.sum(lst5, axis=0)
    return math.sin((math.sin(a) if np.sum((M - M.T)) > 0.5 else (a / (2.0 + np.cos(v1[1])))))


ARGS = (0.7434353333853025, np.array([ 8.1771472086454892e-04, -3.9944982754314096e-01,  1.7332317440826817e+00]), np.array([[-1.1496764182843204 , -0.07002899948691277,  0.09674403238459776],
 [ 0.32575081085221447, -1.3709360827862276 ,  1.046436747316662  ],
 [ 0.8908652557074911 , -0.5599014280444249 ,  0.06333288003138257]]),)
