"""Found by `python -m tests.fuzz` (seed 3103970, mode grad):
rejected: a write into an array made anew earlier in its branch (the loop body after an early return) was refused as a write through a shared array
"""
import math

import numpy as np


def f(a, x, M):
    acc1 = 0.0
    for i2 in range(2):
        if np.sum(x) > 0.5:
            if a > 0.0:
                break
        else:
            if acc1 < 0.5:
                return (((a * 1.5) * 1.5) - ((acc1 if M[0, i2] < -0.5 else 1.0) + M[i2, 2]))
        v3 = np.sum([M[:, 2]], axis=0)
        acc1 = acc1 + ((acc1 + a) * 1.5)
    if np.sum(np.sqrt(1.0 + M[2] * M[2])) < 0.0:
        v4 = np.mean([(x[1] * (x - x)), np.cos((acc1 + x)), np.full_like((M[2] * 3.0), np.sqrt(1.0 + a * a))], axis=0)
    acc5 = 0.0
    for i7, r6 in enumerate(x):
        acc8 = 0.0
        for i9 in range(2):
            y10 = np.zeros((3, 3))
            for i11 in range(2):
                y10[i11] = np.cos(x)
            M = (np.full((3, 3), np.sum(y10[i9])) if np.var((acc5 - y10)) > -0.5 else y10.T)
            acc8 = acc8 + (1.0 * 0.3)
        if np.sum(np.log(1.0 + (x if np.sum(M) < -0.5 else M[:, 1]) * (x if np.sum(M) < -0.5 else M[:, 1]))) > -0.5:
            break
        acc5 = acc5 + acc5
    v12 = (np.sum((M * x) * np.full((3, 3), M[0, 2])) - ((1.0 + M[:, 2]) - x[::-1]))
    lst13 = []
    for r14 in [(((a * 0.9) / (2.0 + np.cos((2.0 * a)))) + a), np.log(1.0 + acc1 * acc1), (((a * acc5) * 0.9) * np.exp(np.tanh((acc1 * 1.5))))]:
        lst13.append(acc5)
    s15 = np.sum(lst13)
    return math.sin(np.cos(acc1))


ARGS = (-0.47344654809671455, np.array([ 0.5809534601355048, -1.3174761709889171, -0.2121794273992886]), np.array([[ 0.15024662558711696, -0.2491764452398139 ,  0.3822109068817706 ],
 [-0.11267939093113433,  0.19396818183521192,  1.2844025940832036 ],
 [-0.14403191281995947, -1.122826807337734  ,  0.37464559446623613]]),)
WRT = (0, 2)
MODE = 'grad'


