"""Found by `python -m tests.fuzz` (seed 3100816, mode vjp):
wrong: vjp of an array argument returned the number 0.0 (its adjoint passed on from a value read only on a branch not taken)
"""
import numpy as np

def f(a, x, M):
    x = x + (a if 3.0 < 0.5 else M[1, 2])
    return M[:, 1] if np.sum(M[:, 2]) > 0.5 else x


ARGS = (0.8941422873184244, np.array([-1.1628186213179603 , -0.23338266244995615,  0.8023528497898259 ]), np.array([[ 0.2634149974548837 , -0.0224330338183677 , -0.7271318202124056 ],
 [ 0.08869313091805439,  0.27268355916604015,  1.1725039272969426 ],
 [ 0.42393423617886417, -0.07898628314027335,  0.13918891230883032]]),)
WRT = 1
MODE = 'vjp'
