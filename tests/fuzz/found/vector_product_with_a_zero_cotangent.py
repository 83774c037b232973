"""Found by `python -m tests.fuzz` (seed 3103662, mode grad):
crash: IndexError: the adjoint of p0 in p0[::-1] @ p0 with a zero cotangent (s4 - s4) came back as the number 0.0
"""
import math

import numpy as np


def helper0(p0):
    acc1 = 0.0
    for i2 in range(1):
        s3 = np.sum([np.std(p0), np.logaddexp(0.0, acc1)])
        acc1 = acc1 + (np.sin(acc1) + 3.0)
    s4 = math.sin(((p0[::-1] @ p0) * 3.0))
    return math.sin(math.sin((s4 - s4)))


def f(a, x, M):
    v1 = (np.cos((x * x)) - helper0((a * M[2])))
    a *= np.tanh(x[0])
    return helper0((np.log(1.0 + M * M) @ (x * v1)))


ARGS = (-0.5262677795811921, np.array([-0.2447428404051076,  0.7793719981546526,  0.2767036917901658]), np.array([[ 0.264063219054269  ,  0.14026361641894056, -0.25303325877901195],
 [ 0.4638961420626508 , -0.2858127647877007 ,  0.16223733450681938],
 [-0.5261860927006997 , -0.7226884680308405 , -0.7029984086029685 ]]),)
WRT = (0, 2)
MODE = 'grad'
