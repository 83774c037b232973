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
