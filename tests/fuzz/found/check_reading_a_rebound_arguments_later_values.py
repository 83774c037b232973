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


def central_difference(f, args, k, direction, weight, step=1e-6):
    """d/de <weight, f(args with args[k] + e * direction)>."""
    def at(e):
        moved = list(args)
        moved[k] = args[k] + e * direction
        return float(np.sum(weight * np.asarray(f(*moved))))
    return (at(step) - at(-step)) / (2 * step)


if __name__ == "__main__":
    import s2s_ad
    rng = np.random.default_rng(0)
    k = WRT if isinstance(WRT, int) else WRT[0]
    direction = rng.standard_normal(np.shape(ARGS[k]))
    direction = direction if np.ndim(direction) else float(direction)
    weight = rng.standard_normal(np.shape(f(*ARGS)))
    if MODE == "grad":
        got = s2s_ad.grad(f, wrt=k)(*ARGS)
        print("s2s_ad:", float(np.sum(got * direction)))
    elif MODE == "vjp":
        got = s2s_ad.vjp(f, wrt=k)(*ARGS, weight if np.ndim(weight) else float(weight))
        print("s2s_ad:", float(np.sum(got * direction)))
    elif MODE == "gradgrad":
        got = s2s_ad.grad(s2s_ad.grad(f, wrt=0), wrt=0)(*ARGS)
        step, moved = 1e-4, [list(ARGS), list(ARGS)]
        moved[0][0], moved[1][0] = ARGS[0] + step, ARGS[0] - step
        first = s2s_ad.grad(f, wrt=0)
        print("s2s_ad:", got)
        print("differences of the gradient:", (first(*moved[0]) - first(*moved[1])) / (2 * step))
        raise SystemExit
    elif MODE == "jvp":
        got = s2s_ad.jvp(f, wrt=k)(*ARGS, direction)[1]
        print("s2s_ad:", float(np.sum(weight * got)))
    else:
        got = s2s_ad.hvp(f, wrt=k)(*ARGS, direction)
        grad = s2s_ad.grad(f, wrt=k)
        moved = [list(ARGS), list(ARGS)]
        moved[0][k], moved[1][k] = ARGS[k] + 1e-5 * direction, ARGS[k] - 1e-5 * direction
        print("s2s_ad:", got)
        print("differences of the gradient:", (grad(*moved[0]) - grad(*moved[1])) / 2e-5)
        raise SystemExit
    print("central differences:", central_difference(f, ARGS, k, direction, weight))
