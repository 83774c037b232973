"""Found by `python -m tests.fuzz` (seed 3102477, mode grad):
crash: UnboundLocalError: a dead statement's check read the values a rebound argument took later, in a branch
"""
import math

import numpy as np


def f(a, x, M):
    v1 = (x / (2.0 + np.cos(np.cos((x * 1.5)))))
    if 3.0 > 0.5:
        if a > 0.5:
            return (a + np.mean(M))
    x = ((x * 1.0) + (M[2, 0] * (x - a)))
    return np.mean(M.T)


ARGS = (-0.520651155910363, np.array([-0.2189563283378339 , -1.3415661262924088 , -0.35941075937044586]), np.array([[-0.4522287258538036 ,  0.03028568340015233,  0.7144411230168293 ],
 [-0.44359358891018424, -0.9048836514937466 ,  0.2653831495981768 ],
 [ 0.652780909963874  , -0.9273653039725643 ,  0.8053708508068418 ]]),)
WRT = 0
MODE = 'grad'
