"""Found by `python -m tests.fuzz` (seed 3300747, mode grad):
crash: ValueError in place_diagonal: np.dot(0.0, x) for a number times a vector, where the item's adjoint taken off a list's was the 0.0 nothing reached
"""
import math

import numpy as np


def f(a, x, M):
    m1 = (np.sum((M.T if M[2, 0] < 0.5 else M.T), axis=1, keepdims=True) * M ** 2)
    k2 = 0
    while k2 < 1:
        s4 = np.sum([(0.9 if np.sum((M[:, 1] if e3 > -0.5 else m1[:, 0])) > 0.0 else e3) for e3 in x])
        k2 += 1
    lst5 = []
    for r6 in [((x * 0.3) + np.exp(np.tanh((x[1] - x[1])))), (x * (np.var(M) - np.trace(M.T))), np.linspace(0.3, 1.0, 3)]:
        if 2.0 > -0.5:
            return np.tanh(math.sin(r6[2]))
        lst5.append(np.cumsum(r6))
    v7 = np.sum(lst5, axis=0)
    s8 = sum([np.max(M[:, 1])])
    acc9 = 0.0
    for r10, i11 in zip(v7, v7):
        k12 = 0
        while k12 < 3:
            y13 = np.zeros(3)
            for i14 in range(2):
                y13[i14] = ((s8 * (acc9 - r10)) + ((3.0 * 0.9) - (1.5 if acc9 > 0.0 else acc9)))
            s16 = sum([((a * a) / (2.0 + np.cos((r10 * 0.3)))) for e15 in m1])
            k12 += 1
        acc9 = acc9 + (np.sum(m1 * M) * 1.5)
    return math.sin(a)


ARGS = (1.115245572252359, np.array([ 1.2603700394343669e-02, -3.1365294397992749e-01, -1.3441019456055577e-04]), np.array([[ 0.40459490424978567,  0.4482658909971061 , -1.0301722042717623 ],
 [-0.18087722002504664,  1.707205008195842  , -0.5584902214711914 ],
 [ 0.43767217945998815,  0.3701253614162039 , -1.4014571905989655 ]]),)
WRT = 2
MODE = 'grad'
