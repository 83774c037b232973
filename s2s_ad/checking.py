"""check_grads: compare s2s_ad's derivatives with central finite differences.

    >>> s2s_ad.check_grads(loss, w, X, y, wrt=0)          # passes silently
    >>> s2s_ad.check_grads(broken, w)
    GradientCheckError: largest discrepancy 0.31 in argument 'w' at index (2,):
    s2s_ad gives 1.2, finite differences give 0.89

Scalar-valued f: every element of each `wrt` argument is perturbed (a fixed random
sample of at most `max_elements` of them for large arrays). Array-valued f: the vjp is
checked by the inner-product test <v, J^T u> = d/de <u, f(x + e v)> for random u, v.
With order=2 (scalar f), the first derivatives are checked, then for each `wrt` argument
the Hessian-vector product along a random v against central differences of the gradient.
"""
from typing import Callable

import numpy as np

from .errors import ADError, APIUsageError, function_location
from .wrt import Wrt, wrt_names


class GradientCheckError(ADError, AssertionError):
    """s2s_ad's derivative disagrees with finite differences."""


def check_grads(f: Callable, *args, wrt: Wrt = 0, order: int = 1, eps: float = 1e-6,
                rtol: float = 1e-5, atol: float = 1e-7, max_elements: int = 200,
                seed: int = 0, **kwargs) -> None:
    """Raise GradientCheckError with the largest discrepancy and where it is; else None.
    order=2 also checks second derivatives (Hessian-vector products) of a scalar f."""
    from .api import grad, vjp
    if order not in (1, 2):
        raise APIUsageError(f"check_grads(order={order}): first (order=1) and second "
                            f"(order=2) derivatives can be checked")
    if order == 2:
        check_grads(f, *args, wrt=wrt, eps=eps, rtol=rtol, atol=atol,
                    max_elements=max_elements, seed=seed, **kwargs)
        return _check_second_order(f, args, kwargs, wrt, eps, rtol, atol, seed)
    names, single = wrt_names(f, wrt)
    positions = _positions(f, names)
    rng = np.random.default_rng(seed)
    value = f(*args, **kwargs)
    if np.ndim(value) == 0:
        got = grad(f, wrt=wrt)(*args, **kwargs)
        got = (got,) if single else got
        worst = None
        for name, k, g in zip(names, positions, got):
            for index, analytic, numeric in _elementwise(f, args, kwargs, k, g, eps, rng,
                                                         max_elements):
                excess = abs(analytic - numeric) - (atol + rtol * abs(numeric))
                if worst is None or excess > worst[0]:
                    worst = (excess, name, index, analytic, numeric)
        if worst is not None and worst[0] > 0:
            _, name, index, analytic, numeric = worst
            raise GradientCheckError(
                f"largest discrepancy {abs(analytic - numeric):.3g} in argument {name!r}"
                f"{f' at index {index}' if index != () else ''}: s2s_ad gives {analytic!r}, "
                f"finite differences give {numeric!r}", function_location(f))
        return None
    u = rng.standard_normal(np.shape(value))
    got = vjp(f, wrt=wrt)(*args, u, **kwargs)
    got = (got,) if single else got
    directions = [rng.standard_normal(np.shape(args[k])) for k in positions]
    analytic = sum(float(np.sum(v * g)) for v, g in zip(directions, got))
    numeric = (_inner(u, f(*_moved(args, positions, directions, eps), **kwargs))
               - _inner(u, f(*_moved(args, positions, directions, -eps), **kwargs))) / (2 * eps)
    if abs(analytic - numeric) > atol + rtol * max(1.0, abs(numeric)):
        raise GradientCheckError(
            f"inner-product test failed for argument(s) {', '.join(map(repr, names))}: "
            f"<v, J^T u> = {analytic!r} but finite differences give {numeric!r}",
            function_location(f))
    return None


def _check_second_order(f, args, kwargs, wrt, eps, rtol, atol, seed):
    """hvp(f)(*args, v) against central differences of grad(f) along v, per argument."""
    from .api import grad
    from .higher_order import hvp
    if np.ndim(f(*args, **kwargs)) != 0:
        raise APIUsageError("check_grads(order=2) checks second derivatives of a "
                            "scalar-valued function", function_location(f))
    rng = np.random.default_rng(seed + 1)
    names, _ = wrt_names(f, wrt)
    # central differences of a gradient: a larger step than for values
    step = max(eps, 1e-4)
    for name, k in zip(names, _positions(f, names)):
        v = rng.standard_normal(np.shape(args[k]))
        v = float(v) if np.ndim(args[k]) == 0 and not isinstance(args[k], np.ndarray) else v
        analytic = np.asarray(hvp(f, wrt=name)(*args, v, **kwargs), dtype=float)
        gradient = grad(f, wrt=name)
        numeric = (np.asarray(gradient(*_moved(args, [k], [v], step), **kwargs), dtype=float)
                   - np.asarray(gradient(*_moved(args, [k], [v], -step), **kwargs),
                                dtype=float)) / (2 * step)
        error = np.abs(analytic - numeric)
        allowed = 10 * atol + 100 * rtol * np.abs(numeric)
        if np.any(error > allowed):
            index = np.unravel_index(int(np.argmax(error - allowed)), np.shape(error)) \
                if np.ndim(error) else ()
            raise GradientCheckError(
                f"second derivatives: largest discrepancy {float(np.max(error)):.3g} in "
                f"the Hessian-vector product for argument {name!r}"
                f"{f' at index {index}' if index != () else ''}: s2s_ad gives "
                f"{float(analytic[index])!r}, finite differences of the gradient give "
                f"{float(numeric[index])!r}", function_location(f))
    return None


def _positions(f, names):
    import inspect
    params = list(inspect.signature(f).parameters)
    return [params.index(n) for n in names]


def _elementwise(f, args, kwargs, k, g, eps, rng, max_elements):
    x = np.asarray(args[k], dtype=float)
    indices = list(np.ndindex(x.shape))
    if len(indices) > max_elements:
        picked = rng.choice(len(indices), size=max_elements, replace=False)
        indices = [indices[i] for i in sorted(picked)]
    scalar = np.ndim(args[k]) == 0 and not isinstance(args[k], np.ndarray)
    for index in indices:
        values = []
        for sign in (1.0, -1.0):
            moved = x.copy()
            moved[index] += sign * eps
            call = list(args)
            call[k] = float(moved) if scalar else moved
            values.append(f(*call, **kwargs))
        yield index, float(np.asarray(g, dtype=float)[index]), (values[0] - values[1]) / (2 * eps)


def _moved(args, positions, directions, scale):
    out = list(args)
    for k, v in zip(positions, directions):
        out[k] = np.asarray(args[k], dtype=float) + scale * v
        if np.ndim(args[k]) == 0 and not isinstance(args[k], np.ndarray):
            out[k] = float(out[k])
    return out


def _inner(a, b):
    return float(np.sum(np.asarray(a, dtype=float) * np.asarray(b, dtype=float)))
