"""Found by `python -m tests.fuzz` (seed 3200363, mode gradgrad):
crash: IndexError: pop from empty list: the second-order sweep did not put back a while loop's trip count popped in a branch
"""
import math

import numpy as np


def helper0(p0):
    v1 = ((p0 * np.ones(3)) - (((p0 * np.ones(3)) if np.sum((0.9 * np.ones(3))) > -0.5 else (p0 * np.ones(3))) / (2.0 + np.cos(np.linspace(p0, 1.0, 3)))))
    lst2 = []
    for r3 in [np.log(1.0 + v1 * v1)]:
        if (p0 * r3[2]) > 0.5:
            return (np.full_like(v1, (p0 * p0)) * 2.0)
        lst2.append(((r3 + r3[::-1]) - v1))
    v4 = np.sum(lst2, axis=0)
    return (v1 + v4)


def helper1(p0):
    lst1 = []
    for r2 in [(((p0 - (p0 * np.ones(3))) * 3.0) / (2.0 + np.cos(np.sqrt(1.0 + (p0 * np.ones(3)) * (p0 * np.ones(3)))))), (np.prod(((p0 * np.ones(3)) * 2.0)) * ((p0 * np.ones(3)) - (p0 * np.ones(3))))]:
        lst1.append(((r2 + r2) + r2))
    v3 = np.sum(lst1, axis=0)
    return ((p0 + v3[0]) * np.sin(v3[1]))


def f(a, x, M):
    if np.mean((M.T * x)) > -0.5:
        if np.linalg.norm(x) > 0.5:
            M = np.log(1.0 + np.linalg.solve(np.eye(3) * 4.0 + (M - x[0]) * 0.1, M.T) * np.linalg.solve(np.eye(3) * 4.0 + (M - x[0]) * 0.1, M.T))
            v1 = ((x[::-1] + x[2]) * (helper0(a) * (x if np.sum(M) < 0.5 else x)))
            v2 = np.full_like(np.sin(x), np.prod(v1))
        else:
            s3 = sum([M[1, 0], math.sin((a + a))])
            if np.sum(M.T) > 0.0:
                return np.exp(np.tanh(np.max((M[:, 2] - x))))
        k4 = 0
        while k4 < 3:
            v5 = np.sum([(x + x[::-1])], axis=0)
            k4 += 1
    else:
        lst6 = []
        for r7 in [np.where(np.sum(np.tril(M), axis=1) > 0.0, x, M[2]), np.sqrt(1.0 + (x * x) * (x * x))]:
            lst6.append(r7)
        v8 = np.sum(lst6, axis=0)
    return np.max(((M[1, 1] + x) + (a + a)))


ARGS = (0.43935462121296215, np.array([ 0.31069709857937766, -0.5857079981253784 ,  0.6691611475890876 ]), np.array([[-0.6977705986242501 ,  0.5254451116034186 ,  0.07656590474913498],
 [ 1.017549064448583  , -0.5786355518705287 ,  1.7227264522319699 ],
 [ 0.16603752990128226, -0.02769668538405898,  0.581786924955038  ]]),)
WRT = 0
MODE = 'gradgrad'
