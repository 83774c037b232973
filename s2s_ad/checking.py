"""check_grads: compare s2s_ad's derivatives with central finite differences.

    >>> s2s_ad.check_grads(loss, w, X, y, wrt=0)          # passes silently
    >>> s2s_ad.check_grads(broken, w)
    GradientCheckError: largest discrepancy 0.31 in argument 'w' at index (2,):
    s2s_ad gives 1.2, finite differences give 0.89

Scalar-valued f: every element of each `wrt` argument is perturbed (a fixed random
sample of at most `max_elements` of them for large arrays); a dict, list or tuple argument
(`params["W"]`) element by element of each array or number it holds, and an object of a
class of yours (`model.W`, `model.layers[0].b`) by the numbers and arrays its attributes
hold. Array-valued f: the vjp is checked by the inner-product test
<v, J^T u> = d/de <u, f(x + e v)> for random u, v.
With order=2 (scalar f), the first derivatives are checked, then for each `wrt` argument
the Hessian-vector product along a random v against central differences of the gradient.
"""
import copy
import types
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
    if not isinstance(value, (dict, list, tuple)) and np.ndim(value) == 0:
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
            _, name, (path, index), analytic, numeric = worst
            where = "".join(f".{key}" if isinstance(key, _Attribute) else f"[{key!r}]"
                            for key in path)
            raise GradientCheckError(
                f"largest discrepancy {abs(analytic - numeric):.3g} in argument {name!r}"
                f"{where}{f' at index {index}' if index != () else ''}: s2s_ad gives "
                f"{analytic!r}, "
                f"finite differences give {numeric!r}", function_location(f))
        return None
    u = _random_like(value, rng)
    got = vjp(f, wrt=wrt)(*args, u, **kwargs)
    got = (got,) if single else got
    directions = [_random_like(args[k], rng) for k in positions]
    analytic = sum(_inner(v, g) for v, g in zip(directions, got))
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
        v = _random_like(args[k], rng)
        analytic = _flat(hvp(f, wrt=name)(*args, v, **kwargs))
        gradient = grad(f, wrt=name)
        numeric = (_flat(gradient(*_moved(args, [k], [v], step), **kwargs))
                   - _flat(gradient(*_moved(args, [k], [v], -step), **kwargs))) / (2 * step)
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
    """((path, index), s2s_ad's derivative, central difference) for each element perturbed:
    `path` the keys leading to an array or number in a dict, list or tuple argument."""
    for path in _leaf_paths(args[k]):
        leaf = _get(args[k], path)
        x = np.asarray(leaf, dtype=float)
        indices = list(np.ndindex(x.shape))
        if len(indices) > max_elements:
            picked = rng.choice(len(indices), size=max_elements, replace=False)
            indices = [indices[i] for i in sorted(picked)]
        scalar = np.ndim(leaf) == 0 and not isinstance(leaf, np.ndarray)
        derivative = np.asarray(_get(g, path), dtype=float)
        for index in indices:
            values = []
            for sign in (1.0, -1.0):
                moved = x.copy()
                moved[index] += sign * eps
                call = list(args)
                call[k] = _put(args[k], path, float(moved) if scalar else moved)
                values.append(f(*call, **kwargs))
            yield (path, index), float(derivative[index]), (values[0] - values[1]) / (2 * eps)


class _Attribute(str):
    """A step of a key path that names an object's attribute (not a dict's key)."""


def _leaf_paths(value, path=(), seen=frozenset()):
    """The key paths to the numbers and numeric arrays inside dicts, lists, tuples and
    objects of the user's classes, at any depth. What holds no number (a string, None,
    bytes, a bool, a function) is left out wherever it sits: it is neither perturbed nor
    compared (its gradient is None).

        {"W": W, "opts": {"alpha": 0.3, "mode": "fast"}, "tags": ["a", 1.0]}
        ->  ("W",), ("opts", "alpha"), ("tags", 1)"""
    if isinstance(value, dict):
        for key in value:
            yield from _leaf_paths(value[key], path + (key,), seen)
    elif isinstance(value, (list, tuple)):
        for position, item in enumerate(value):
            yield from _leaf_paths(item, path + (position,), seen)
    elif _is_object(value):
        if id(value) in seen:
            return                      # (an object holding itself, or its parent)
        for name, item in vars(value).items():
            yield from _leaf_paths(item, path + (_Attribute(name),), seen | {id(value)})
    elif _number(value):
        yield path


def _is_object(value):
    return hasattr(value, "__dict__") and not isinstance(
        value, (np.ndarray, np.generic, type, types.ModuleType, types.FunctionType,
                types.MethodType, types.BuiltinFunctionType))


def _number(value):
    """A number or a numeric array: what s2s_ad gives a derivative (bools excepted)."""
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fiu"
    return isinstance(value, (int, float, np.number)) and not isinstance(value, bool)


def _get(value, path):
    for key in path:
        value = getattr(value, key) if isinstance(key, _Attribute) else value[key]
    return value


def _put(value, path, leaf):
    """A copy of `value` with the item at `path` replaced (the caller's is never changed)."""
    if not path:
        return leaf
    key, rest = path[0], path[1:]
    if isinstance(key, _Attribute):
        moved = copy.copy(value)
        setattr(moved, key, _put(getattr(value, key), rest, leaf))
        return moved
    if isinstance(value, dict):
        return {**value, key: _put(value[key], rest, leaf)}
    items = list(value)
    items[key] = _put(value[key], rest, leaf)
    if isinstance(value, list):
        return items
    return type(value)(*items) if hasattr(value, "_fields") else tuple(items)


def _random_like(value, rng):
    """A random direction of value's structure and shapes (floats for numbers)."""
    for path in _leaf_paths(value):
        leaf = _get(value, path)
        drawn = rng.standard_normal(np.shape(leaf))
        value = _put(value, path, float(drawn) if np.ndim(leaf) == 0
                     and not isinstance(leaf, np.ndarray) else drawn)
    return value


def _flat(value):
    """The numbers of value (any structure) as one float vector."""
    return np.concatenate([np.ravel(np.asarray(_get(value, path), dtype=float))
                           for path in _leaf_paths(value)] or [np.zeros(0)])


def _moved(args, positions, directions, scale):
    """args with each argument at `positions` moved by scale * its direction, leaf by leaf."""
    out = list(args)
    for k, v in zip(positions, directions):
        moved = args[k]
        for path in _leaf_paths(args[k]):
            leaf = _get(args[k], path)
            step = np.asarray(leaf, dtype=float) + scale * np.asarray(_get(v, path))
            scalar = np.ndim(leaf) == 0 and not isinstance(leaf, np.ndarray)
            moved = _put(moved, path, float(step) if scalar else step)
        out[k] = moved
    return out


def _inner(a, b):
    """The sum of the elementwise products of a and b (any structure, the same in both),
    over a's numeric leaves: b may hold None (or zeros) where a holds no number."""
    return float(sum(np.sum(np.asarray(_get(a, path), dtype=float)
                            * np.asarray(_get(b, path), dtype=float))
                     for path in _leaf_paths(a)))
