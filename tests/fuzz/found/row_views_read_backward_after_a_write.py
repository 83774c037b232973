"""Found by `python -m tests.fuzz` (seed 3108626, mode grad):
wrong: the rows a comprehension read from y6 (views) were read by the backward sweep after y6[0] = 0.3 changed them
"""
import numpy as np

def f(a, x, M):
    y6 = np.zeros((3, 3))
    s9 = sum([e8 @ M[:, 1] for e8 in y6])
    y6[0] = 0.3
    return s9


ARGS = (1.1700109553308362, np.array([ 0.7151608728540945 , -0.41831726259501817,  0.09638382003312564]), np.array([[-0.30925001264184776,  0.49259491425684454,  0.4100691530458771 ],
 [ 0.760258539376439  , -0.2547714417412577 ,  0.9495040859753018 ],
 [ 0.08986412507536025, -0.6337328312790244 , -0.4949357116771806 ]]),)
WRT = 2
MODE = 'grad'
