"""Found by `python -m tests.fuzz` (seed 600136, mode grad):
crash: ValueError in runtime.py:placeholder: a constant array's saved elements were never popped
"""
import math

import numpy as np


def helper0(p0, p1):
    s1 = math.sin(((0.3 * 0.3) + (0.3 * 0.9)))
    v2 = np.sin(((p0 * p0[::-1]) * 2.0))
    return (v2 * 0.5)


def helper1(p0, p1):
    lst1 = []
    for r2 in [(p0[1] * 1.0), np.cos(np.sin(1.0)), (1.0 + p0[0])]:
        s4 = np.sum(np.array([p1[0] for e3 in p1]))
        lst1.append(r2)
    s5 = np.sum(lst1)
    return (p1[1] * 0.9)


def f(a, x, M):
    y1 = np.zeros((3, 3))
    for i2 in range(3):
        y1[i2] = (np.flip((x if np.sum(x) > 0.5 else x)) if np.sum((np.roll(x, 1) * 0.3)) > 0.5 else ((M[:, i2] + x) * M[0]))
    s4 = np.sum(np.array([x[0] for e3 in x]))
    y5 = np.zeros(3)
    for i6 in range(1):
        y5[i6] = (1.5 * 2.0)
    return (np.log(1.0 + s4 * s4) - (helper1(y5, y1[0]) * (M[2, 0] + a)))


ARGS = (-1.1185142307877012, np.array([ 0.6150173362496295,  0.7636233459942927, -1.221352876960975 ]), np.array([[-0.3545967712253121 ,  0.4372857893845512 ,  1.0674408565419302 ],
 [-0.5092306734615945 , -0.6771432804981089 ,  0.4921487771688751 ],
 [ 0.6572988129746196 , -0.05300781494741767, -1.0748963495883332 ]]),)
