"""Found by `python -m tests.fuzz` (seed 131, mode grad):
crash: AxisError in runtime._expand: a loop's scalar zero adjoint reached np.var's adjoint along an axis
"""
import math

import numpy as np


def f(a, x, M):
    acc1 = 0.0
    for i2 in range(3):
        x = np.var(((M if 0.9 < 0.0 else M) + M), axis=1)
        s4 = sum([(0.3 * (acc1 + M[i2, 1])) for e3 in x])
        acc1 = acc1 + (s4 - x[i2])
    v5 = (x + (x * 1.0))
    acc6 = 0.0
    for i7 in range(1):
        s9 = np.sum(np.array([np.sqrt(1.0 + np.max(M[:, i7]) * np.max(M[:, i7])) for e8 in M]))
        s10 = np.std(((x - 0.3) * 3.0))
        acc6 = acc6 + math.sin((s10 * v5[i7]))
    y11 = np.zeros(3)
    for i12 in range(2):
        y11[i12] = (1.0 - (np.sum(v5) if acc6 < 0.5 else np.mean(M)))
    return np.tanh((math.sin(0.3) if np.sum((acc6 * M)) < 0.5 else (acc6 * 1.5)))


ARGS = (-0.8464635302465335, np.array([-0.4258727938623303, -0.296234843164939 ,  1.3867986115201638]), np.array([[ 0.6598917425201725 , -0.21134979718419628,  0.5618163151903635 ],
 [-0.05988896275876872,  0.05359585694673349,  0.2827324717805715 ],
 [-0.8974326248941001 , -0.9656454038087969 , -0.03538295668157523]]),)
