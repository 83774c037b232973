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
