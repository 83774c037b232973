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

from .bound import bound_derivative, bound_parts
from .calling_order import LaterGenerated, with_defaults, with_last_parameter
from .errors import APIUsageError
from .library_functions import library_function
from .runtime_objects import attributes, is_object, rebuilt, zero_gradient
from .transform_twins import twin
from .wrt import Wrt, wrt_names


def jacobian(f: Optional[Callable] = None, wrt: Wrt = 0, mode: str = "forward") -> Callable:
    """The Jacobian of f: for each `wrt` argument an array of shape out.shape + in.shape."""
    if f is None:
        return functools.partial(jacobian, wrt=wrt, mode=mode)
    f = library_function(f)                 # jacobian(np.tanh): library_functions.py
    if mode not in ("forward", "reverse"):
        raise APIUsageError(f"jacobian mode must be 'forward' or 'reverse', not {mode!r}")
    if bound_parts(f) is not None:          # a bound method, a functools.partial
        return bound_derivative(f, lambda function, names: jacobian(function, names, mode),
                                wrt)
    from .api import jvp, vjp
    names, single = wrt_names(f, wrt)

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
                columns = [np.asarray(derivative(*args, basis, **kwargs)[1],
                                      dtype=_float_dtype(x)) for basis in _basis(in_shape, x)]
                matrix = np.stack(columns, axis=-1) if columns else np.zeros(out_shape + (0,))
            else:
                derivative = vjp(f, wrt=name)
                rows = [np.asarray(derivative(*args, basis, **kwargs), dtype=_float_dtype(x))
                        for basis in _basis(out_shape, np.zeros(out_shape))]
                matrix = np.stack(rows, axis=0) if rows else np.zeros((0,) + in_shape)
            results.append(matrix.reshape(out_shape + in_shape))
        return results[0] if single else tuple(results)
    jac.__s2s_transform__ = "jacobian"      # not the user's def (transforms/helper_inline)
    if mode == "forward" and single:        # what grad of a function calling it derives
        jac.__s2s_twin__ = functools.partial(twin, "jacobian", f, names[0], jvp(f, wrt=names[0]))
    return jac


def hvp(f: Optional[Callable] = None, wrt: Wrt = 0) -> Callable:
    """hv(*args, v): the Hessian of scalar f (w.r.t. `wrt`) times v, forward-over-reverse."""
    if f is None:
        return functools.partial(hvp, wrt=wrt)
    f = library_function(f)                 # jacobian(np.tanh): library_functions.py
    if bound_parts(f) is not None:          # a bound method, a functools.partial
        return bound_derivative(f, lambda function, names: hvp(function, names), wrt)
    from .frontend.star_params import takes_variable_arguments
    if takes_variable_arguments(f):
        from .api import per_arity
        return per_arity(f, "hvp", lambda g: hvp(g, wrt), extra=1)
    from .ad.registry import default_registry
    from .api import general_derivative, grad
    from .derivative_registry import CACHE, dispatcher_of, dispatching_function, record
    from .dispatch import Outline
    from .pipeline import Request, derive
    names, single = wrt_names(f, wrt)
    public_gradient = grad(f, wrt=names[0] if single else names)
    # the jvp of the gradient, returning only the derivative: the gradient's own final
    # sums are then dead code and disappear from the generated function
    request = Request("jvp", names, False, single, tangent_only=True)
    gradients = dispatcher_of(public_gradient)
    if gradients is not None:
        # each signature: the jvp of the gradient specialised on it; the general one (of
        # the general gradient, built then too) when a call needs it. The gradient's
        # outline says what the general gradient's def will be.
        of = gradients.outline
        params = with_last_parameter([p.replace(annotation=p.empty) for p in of.params],
                                     "tangent")
        outline = Outline(f"jvp_{of.name}", params, None, of.kwdefaults, of.module,
                          f"Hessian-vector product of {f.__qualname__}", request, f)
        gradient = LaterGenerated(lambda: general_derivative(public_gradient), of.name)
        inner = dispatching_function(gradient, request, None, "jvp", gradients, outline)
        general = dispatcher_of(inner)
        return with_defaults(inner, LaterGenerated(lambda: general.general.function,
                                                   outline.name), f, "hvp", names, single)
    gradient = general_derivative(public_gradient)
    derived = derive(gradient, request, default_registry(), CACHE)
    record(derived)
    return with_defaults(derived.function, derived.function, f, "hvp", names, single)


def hessian(f: Optional[Callable] = None, wrt: Union[int, str] = 0) -> Callable:
    """The Hessian of scalar f w.r.t. one argument: shape in.shape + in.shape."""
    if f is None:
        return functools.partial(hessian, wrt=wrt)
    f = library_function(f)                 # jacobian(np.tanh): library_functions.py
    if isinstance(wrt, (tuple, list)):
        raise APIUsageError("hessian takes one argument (wrt=position or name); use hvp for "
                            "several")
    if bound_parts(f) is not None:          # a bound method, a functools.partial
        return bound_derivative(f, lambda function, name: hessian(function, name), wrt)
    product = hvp(f, wrt=wrt)
    name = wrt_names(f, wrt)[0][0]

    @functools.wraps(f)
    def hess(*args, **kwargs):
        bound = inspect.signature(f).bind(*args, **kwargs)
        bound.apply_defaults()
        x = bound.arguments[name]
        if isinstance(x, (dict, list, tuple)) or is_object(x):
            return _structured_hessian(lambda v: product(*args, v, **kwargs), x)
        shape = np.shape(x)
        columns = [np.asarray(product(*args, basis, **kwargs), dtype=_float_dtype(x))
                   for basis in _basis(shape, x)]
        if not shape:
            return float(columns[0])
        return np.stack(columns, axis=-1).reshape(shape + shape)
    hess.__s2s_transform__ = "hessian"
    hess.__s2s_twin__ = functools.partial(twin, "hessian", f, name, product)
    return hess


def _structured_hessian(product, x):
    """The Hessian in a dict / list / tuple / object argument x, as JAX gives it for a
    pytree: x's structure of x's structures, the block H[i][j] (leaves i, j) of shape
    leaf_i.shape + leaf_j.shape. `product(v)` is the Hessian times v (v of x's
    structure). An object's attributes holding no numbers (a string, a flag) are None.

        P(w, b) -> P(w=P(w=H_ww, b=H_wb), b=P(w=H_bw, b=H_bb))
    """
    leaves = _leaves(x)
    shapes = [np.shape(leaf) for leaf in leaves]
    blocks = [[None] * len(leaves) for _ in leaves]
    for j, leaf in enumerate(leaves):
        columns = []
        for basis in _basis(shapes[j], leaf):
            v = _rebuild(x, iter([basis if k == j else _zero_like(other)
                                  for k, other in enumerate(leaves)]))
            columns.append([np.asarray(c, dtype=float) for c in _leaves(product(v), x)])
        for i in range(len(leaves)):
            if not shapes[j] and not isinstance(leaf, np.ndarray):
                block = columns[0][i]
            else:
                block = np.stack([c[i] for c in columns], axis=-1).reshape(
                    shapes[i] + shapes[j])
            blocks[i][j] = float(block) if block.shape == () else block
    return _rebuild(x, iter([_rebuild(x, iter(row)) for row in blocks]))


def _leaves(value, like=None):
    """The numbers and arrays in a dict / list / tuple / object, depth first (dicts in
    the key order of `like`, the structure they mirror; objects by attribute, a value
    mirroring one being an object like it, or the dict of its attributes' adjoints)."""
    like = value if like is None else like
    if isinstance(like, dict):
        return [leaf for key in like for leaf in _leaves(value[key], like[key])]
    if isinstance(like, (list, tuple)):
        return [leaf for item, shape in zip(value, like) for leaf in _leaves(item, shape)]
    if is_object(like):
        return [leaf for name, item in attributes(like)
                for leaf in _leaves(_attribute(value, name), item)]
    return [value] if zero_gradient(like) is not None else []


def _attribute(value, name):
    if isinstance(value, dict):
        return value.get(name, 0.0)
    return getattr(value, name, 0.0) if is_object(value) else 0.0


def _rebuild(like, leaves):
    """`like`'s structure with its leaves taken from the iterator `leaves` (None for an
    object's attributes that hold no numbers)."""
    from .runtime import sequence_like
    if isinstance(like, dict):
        return {key: _rebuild(item, leaves) for key, item in like.items()}
    if isinstance(like, (list, tuple)):
        return sequence_like(like, [_rebuild(item, leaves) for item in like])
    if is_object(like):
        return rebuilt(like, [_rebuild(item, leaves) for _, item in attributes(like)])
    return next(leaves) if zero_gradient(like) is not None else None


def _zero_like(leaf):
    return np.zeros(np.shape(leaf)) if isinstance(leaf, np.ndarray) else 0.0


def _float_dtype(value):
    """value's float dtype (float32 stays float32; integers and Python numbers: float64)."""
    return np.result_type(np.asarray(value).dtype, 1.0)


def _basis(shape, like):
    """Unit vectors of `shape` (a Python float 1.0 for a scalar argument)."""
    if shape == () and not isinstance(like, np.ndarray):
        yield 1.0
        return
    size = int(np.prod(shape)) if shape else 1
    for k in range(size):
        e = np.zeros(size, dtype=_float_dtype(like))
        e[k] = 1.0
        yield e.reshape(shape)
