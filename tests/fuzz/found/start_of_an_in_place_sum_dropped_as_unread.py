"""Found by `python -m tests.fuzz` (seed 3200387, mode gradgrad):
crash: UnboundLocalError: the clean-up dropped the start of an adjoint added to in place (`x += e` reads x)
"""
import math

import numpy as np


def f(a, x, M):
    acc1 = 0.0
    for i2 in range(2):
        acc1 = acc1 + (M[1, i2] / (2.0 + np.cos(np.sin(a))))
    acc3 = 0.0
    for i4 in range(3):
        a = np.sqrt(1.0 + ((x[0] + acc3) * (acc1 * 0.5)) * ((x[0] + acc3) * (acc1 * 0.5)))
        acc3 *= np.sum(np.tril(M) * np.sqrt(1.0 + M.T * M.T))
        acc3 = acc3 + acc3
    a += ((a * acc1) - (acc1 * 3.0))
    return (acc1 * 0.5)


ARGS = (-0.5082812342244196, np.array([ 0.45159225677066195,  0.13781856996178357, -1.4188337248255614 ]), np.array([[ 0.02449771891210754, -0.09264774430899797, -1.349124802431599  ],
 [-0.58277100914244   , -0.4641409844895577 ,  0.0803257439140382 ],
 [-0.41457225130250486,  0.3150600706746441 , -0.9688258612113966 ]]),)
WRT = 0
MODE = 'gradgrad'
