"""Jacobians, Hessian-vector products and Hessians, built from the generated derivatives.

    jacobian(f, wrt=0, mode="forward")   one jvp per input element (columns), or with
                   mode="reverse" one vjp per output element (rows); shape out + in
    hvp(f, wrt=0)   hv(*args, v) = H v by forward-over-reverse: the forward-mode transform
                   of the generated gradient, never forming H
    hessian(f, wrt=0)   H, one hvp per input element; shape in + in

The generated gradient is itself ordinary Python whose primitives (runtime helpers
included) have templates, so it can be differentiated again: hvp(f) is jvp(grad(f)).
"""
import functools
import inspect
from typing import Callable, Optional, Union

import numpy as np

from .api import Wrt
from .errors import APIUsageError


def jacobian(f: Optional[Callable] = None, wrt: Wrt = 0, mode: str = "forward") -> Callable:
    """The Jacobian of f: for each `wrt` argument an array of shape out.shape + in.shape."""
    if f is None:
        return functools.partial(jacobian, wrt=wrt, mode=mode)
    if mode not in ("forward", "reverse"):
        raise APIUsageError(f"jacobian mode must be 'forward' or 'reverse', not {mode!r}")
    from .api import _wrt_names, jvp, vjp
    names, single = _wrt_names(f, wrt)

    @functools.wraps(f)
    def jac(*args, **kwargs):
        bound = inspect.signature(f).bind(*args, **kwargs)
        bound.apply_defaults()
        out_shape = np.shape(f(*args, **kwargs))
        results = []
        for name in names:
            x = bound.arguments[name]
            in_shape = np.shape(x)
            if mode == "forward":
                derivative = jvp(f, wrt=name)
                columns = [np.asarray(derivative(*args, basis, **kwargs)[1], dtype=float)
                           for basis in _basis(in_shape, x)]
                matrix = np.stack(columns, axis=-1) if columns else np.zeros(out_shape + (0,))
            else:
                derivative = vjp(f, wrt=name)
                rows = [np.asarray(derivative(*args, basis, **kwargs), dtype=float)
                        for basis in _basis(out_shape, np.zeros(out_shape))]
                matrix = np.stack(rows, axis=0) if rows else np.zeros((0,) + in_shape)
            results.append(matrix.reshape(out_shape + in_shape))
        return results[0] if single else tuple(results)
    return jac


def hvp(f: Optional[Callable] = None, wrt: Wrt = 0) -> Callable:
    """hv(*args, v): the Hessian of scalar f (w.r.t. `wrt`) times v, forward-over-reverse."""
    if f is None:
        return functools.partial(hvp, wrt=wrt)
    from .ad.registry import default_registry
    from .api import (_CACHE, _DISPATCHERS, _SOURCES, _dispatcher, _with_defaults,
                      _wrt_names, general_derivative, grad)
    from .pipeline import Request, derive
    names, single = _wrt_names(f, wrt)
    public_gradient = grad(f, wrt=names[0] if single else names)
    gradient = general_derivative(public_gradient)
    # the jvp of the gradient, returning only the derivative: the gradient's own final
    # sums are then dead code and disappear from the generated function
    request = Request("jvp", names, False, single, tangent_only=True)
    derived = derive(gradient, request, default_registry(), _CACHE)
    _SOURCES[derived.function] = derived
    inner = derived.function
    gradients = _DISPATCHERS.get(public_gradient)
    if gradients is not None:
        # each signature: the jvp of the gradient specialised on it
        inner = _dispatcher(gradient, request, derived, "jvp", gradients)

    return _with_defaults(inner, derived.function, f, "hvp", names, single)


def hessian(f: Optional[Callable] = None, wrt: Union[int, str] = 0) -> Callable:
    """The Hessian of scalar f w.r.t. one argument: shape in.shape + in.shape."""
    if f is None:
        return functools.partial(hessian, wrt=wrt)
    if isinstance(wrt, (tuple, list)):
        raise APIUsageError("hessian takes one argument (wrt=position or name); use hvp for "
                            "several")
    product = hvp(f, wrt=wrt)
    from .api import _wrt_names
    name = _wrt_names(f, wrt)[0][0]

    @functools.wraps(f)
    def hess(*args, **kwargs):
        bound = inspect.signature(f).bind(*args, **kwargs)
        bound.apply_defaults()
        x = bound.arguments[name]
        shape = np.shape(x)
        columns = [np.asarray(product(*args, basis, **kwargs), dtype=float)
                   for basis in _basis(shape, x)]
        if not shape:
            return float(columns[0])
        return np.stack(columns, axis=-1).reshape(shape + shape)
    return hess


def _basis(shape, like):
    """Unit vectors of `shape` (a Python float 1.0 for a scalar argument)."""
    if shape == () and not isinstance(like, np.ndarray):
        yield 1.0
        return
    size = int(np.prod(shape)) if shape else 1
    for k in range(size):
        e = np.zeros(size)
        e[k] = 1.0
        yield e.reshape(shape)
