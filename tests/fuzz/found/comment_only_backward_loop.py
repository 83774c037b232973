"""Found by `python -m tests.fuzz` (seed 500025, mode grad):
crash: IndentationError: a backward loop holding only its provenance comment (expected an indented block)
"""
import math

import numpy as np


def helper0(p0, p1):
    return (p1 + np.linspace(p0, 1.0, 3))


def helper1(p0):
    lst1 = []
    for r2 in [np.log(1.0 + p0 * p0), np.tanh(np.log(1.0 + p0 * p0))]:
        m3 = (((r2 * np.ones(3))[:, None] * np.dot((p0 * np.ones(3)), (r2 * np.ones((3, 3))))[None, :]) + (((p0 * np.ones((3, 3))) * 0.5) + (r2 / (2.0 + np.cos(r2)))))
        lst1.append((np.dot((r2 * np.ones(3)), (p0 * np.ones(3))) * 0.3))
    s4 = np.sum(lst1)
    k5 = 0
    while k5 < 1:
        p0 += np.dot(np.std((2.0 * np.ones((3, 3))), axis=1), (s4 * np.ones(3)))
        v6 = (helper0(1.0, (p0 * np.ones(3))) * 0.5)
        k5 += 1
    return ((np.sqrt(1.0 + p0 * p0) + math.sin(p0)) * 0.3)


def f(a, x, M):
    s1 = np.sum([(helper1(a) * 1.5)])
    y2 = np.zeros((3, 3))
    for i3 in range(1):
        y2[i3] = (x / (2.0 + np.cos(x)))
    for _ in range(3):
        pass
    s5 = sum([s1 for e4 in y2])
    acc6 = 0.0
    for r7, i8 in zip(M, M):
        a -= ((acc6 * a) ** 2)
        if np.sum((y2.T + helper0(r7[0], y2[:, 0]))) < -0.5:
            return np.sum((M @ M.T) * M.T)
        acc6 = acc6 + math.sin(np.max(y2[2]))
    return np.sqrt(1.0 + s5 * s5)


ARGS = (-0.4214562603351178, np.array([-0.7709185581393693 ,  0.22540834589002798, -1.1868823977333895 ]), np.array([[ 0.23532863158693954, -1.4647013166972154 , -2.2292395304950543 ],
 [ 0.00272320724929904, -0.4374970350587953 ,  0.3529102336927516 ],
 [-1.3005508745052639 , -0.10722215948278113,  1.7404869299942192 ]]),)
