"""Found by `python -m tests.fuzz` (seed 228, mode gradgrad):
rejected: grad of grad: a write into an array the gradient's own tape holds was refused as a shared-array write
"""
import math

import numpy as np


def f(a, x, M):
    if ((2.0 * 3.0) + (a * 0.9)) < -0.5:
        return ((a * 0.3) + np.max(x))
    y1 = np.zeros((3, 3))
    for i2 in range(2):
        y1[i2] = np.sqrt(1.0 + ((x + x[::-1]) * a) * ((x + x[::-1]) * a))
    y1[1, 1] = 0.5
    acc3 = 0.0
    for i4 in range(2):
        y1[i4, i4] = 2.0
        acc3 = acc3 + M[i4, i4]
    if np.sum(((x if np.sum(y1[:, 1]) > 0.5 else y1[:, 1]) * (y1 ** 2))) < 0.0:
        return math.sin(0.3)
    return (np.sum((y1 if np.sum(x) < 0.5 else y1) * (y1.T * y1)) * ((acc3 * 2.0) / (2.0 + np.cos((x[1] if np.sum(y1[:, 0]) > -0.5 else 3.0)))))


ARGS = (0.8614093458417251, np.array([-0.00607823051766713, -0.1535546587934311 ,  1.0484591626732036 ]), np.array([[ 1.0403528278365424 , -0.20648204665227135, -0.9621501340145809 ],
 [-0.9153837378978533 ,  1.3386710541340607 , -0.31286950140878256],
 [-0.23162666181034458, -1.2145045071356715 ,  0.2302551690352975 ]]),)
