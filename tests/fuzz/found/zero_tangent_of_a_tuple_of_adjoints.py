"""Found by `python -m tests.fuzz` (seed 3002731, mode hvp):
crash: ValueError: the zero tangent of a helper's vjp result, a tuple of an array and a
float (inhomogeneous shape)
"""
import numpy as np

def helper1(p0, p1):
    return 2.0

def f(a, x, M):
    y1 = np.zeros(3)
    for i2 in range(3):
        y1[i2] = helper1(x, x[0])
    y7 = np.zeros(3)
    return np.sum([y1, M[:, 0], y7])


ARGS = (-0.6255015228446315, np.array([-0.765735969257788  ,  0.08644543687298886, -0.9527683195696736 ]), np.array([[-0.3593493224409641 , -0.5882452644461432 ,  0.3772622863852226 ],
 [ 0.15217444052974566, -0.11770332806227483, -0.7145107675500088 ],
 [ 0.5524046928384116 , -0.15015925606697134,  0.8650374430705264 ]]),)
