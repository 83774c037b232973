"""numpy (and scipy) functions handed to grad, jvp, vjp, hvp, hessian or jacobian
directly, as autograd users write them: `s2s_ad.grad(np.tanh)`, `s2s_ad.jacobian(np.sort)`.

A function s2s_ad has a derivative template for is differentiated through a def that
calls it with its required positional parameters, then the optional ones its templates
take, as keywords with numpy's defaults (so `grad(np.sum)(x, axis=0)` works):

    s2s_ad.grad(np.median)       ->  the grad of  def median(a, axis=None, keepdims=False):
                                                      return numpy.median(a, axis=axis,
                                                                          keepdims=keepdims)
    s2s_ad.jvp(np.arctan2)       ->  the jvp of   def arctan2(x1, x2):
                                                      return numpy.arctan2(x1, x2)

Any other library function (no template: its source is numpy's own, which s2s_ad does not
differentiate) is an APIUsageError naming it. User functions pass through unchanged.
"""
import inspect
import sys

import numpy

from .errors import APIUsageError

_LIBRARIES = ("numpy", "scipy", "math")
_WRAPPERS = {}      # id(function) -> (function, its def): keeps the function alive


def library_function(f):
    """The def standing for the library function `f` (see the module docstring), `f`
    itself when it is not one."""
    if not _is_library(f):
        return f
    found = _WRAPPERS.get(id(f))
    if found is not None and found[0] is f:
        return found[1]
    from .ad.registry import default_registry
    registry = default_registry()
    name = getattr(f, "__name__", repr(f))
    path = _public_path(f)
    if path is not None and registry.is_nondifferentiable(f):
        raise APIUsageError(
            f"{path} has no derivative: its value is an integer, a boolean or piecewise "
            f"constant, so its gradient would be zero wherever it is defined",
            hint="differentiate the function that uses its result instead")
    if path is None or (registry.reverse(f) is None and registry.tangent(f) is None):
        raise APIUsageError(
            f"s2s_ad has no derivative of {path or name}: it differentiates numpy and scipy "
            f"functions through templates, and this one has none",
            hint=f"write the computation as a def of your own (numpy operations s2s_ad "
                 f"knows), or register a template with @s2s_ad.adjoint({name})")
    params = _required_parameters(f)
    if params is None:
        raise APIUsageError(
            f"s2s_ad cannot tell which arguments {path} takes",
            hint=f"differentiate a def calling it: def g(x): return {path}(x)")
    wrapper = _wrapper(name, path, params, _keywords(f, params, registry))
    _WRAPPERS[id(f)] = (f, wrapper)
    return wrapper


def _is_library(f):
    if isinstance(f, numpy.ufunc):
        return True
    if isinstance(f, type) or inspect.ismethod(f):
        return False
    module = getattr(f, "__module__", None)
    if module == "math":
        # the math module's own (a user's file named math.py has functions of that module
        # name too)
        import math
        return getattr(math, getattr(f, "__name__", ""), None) is f
    return isinstance(module, str) and module.split(".")[0] in _LIBRARIES


def _public_path(f):
    """"numpy.linalg.det" for np.linalg.det: the shortest importable dotted name that
    reaches f itself (a ufunc has no __module__: numpy's and scipy.special's are tried)."""
    name = getattr(f, "__name__", None)
    module = getattr(f, "__module__", None) or ""
    parts = module.split(".")
    candidates = [".".join(parts[:k]) for k in range(1, len(parts) + 1)] if module else []
    candidates += ["numpy", "numpy.linalg", "numpy.fft", "scipy.special"]
    for candidate in candidates:
        owner = sys.modules.get(candidate)
        if owner is not None and name and getattr(owner, name, None) is f:
            return f"{candidate}.{name}"
    return None


def _required_parameters(f):
    """The names of f's positional parameters without a default; None when unknown."""
    if isinstance(f, numpy.ufunc):
        return ["x"] if f.nin == 1 else [f"x{k + 1}" for k in range(f.nin)]
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    return names or None


def _keywords(f, params, registry):
    """The optional parameters both of f's templates take, with their defaults (which
    mirror numpy's), so `grad(np.sum)(x, axis=0)` passes them on; only those whose default
    is a plain literal (None, a number, a string, a bool)."""
    templates = [registry.reverse(f), registry.tangent(f)]
    if any(t is None for t in templates):
        return []
    try:
        accepted = inspect.signature(f).parameters
    except (TypeError, ValueError):
        accepted = None
    keywords = []
    for name in templates[0].params:
        if name in params or name not in templates[1].params or name not in \
                templates[0].defaults or (accepted is not None and name not in accepted):
            continue
        default = templates[0].defaults[name]
        if default is None or type(default) in (bool, int, float, str):
            keywords.append((name, default))
    return keywords


def _wrapper(name, path, params, keywords=()):
    """`def name(*params, **keywords): return path(*params, **keywords)`, compiled from
    registered source (so s2s_ad reads it like a def of the user's)."""
    from .backend.sources import register
    top = path.split(".")[0]
    signature = ", ".join(list(params) + [f"{k}={v!r}" for k, v in keywords])
    passed = ", ".join(list(params) + [f"{k}={k}" for k, _ in keywords])
    text = f"def {name}({signature}):\n    return {path}({passed})\n"
    filename = register(f"library_{name}", text)
    namespace = {"__name__": __name__, top: sys.modules[top]}
    exec(compile(text, filename, "exec"), namespace)
    function = namespace[name]
    function.__doc__ = (f"{path} with its required arguments, then its keywords "
                        f"(s2s_ad.library_functions)")
    return function
