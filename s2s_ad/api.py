"""The public API: grad, value_and_grad, vjp, jvp, normalize, derivative_source.

    >>> df = grad(f)                             # or @grad / @grad(wrt=(0, 1))
    >>> df(1.0, 2.0)                             # d f / d (argument 0)
    >>> print(derivative_source(df))             # the generated Python source

grad(f) builds the derivative immediately (the transform cost is paid once, at the grad
call) and returns a small object whose __call__ *is* the generated function (one
staticmethod hop, ~0.1 µs) and whose repr and IPython display show the generated source
(ARCHITECTURE §1 asks for a plain function; this is the one departure, for readability).
inspect.getsource, tracebacks and pdb go straight to the generated code. The same f with
the same options gives the same object back.
"""
import functools
import inspect
import weakref

import numpy as np

from .ad.registry import default_registry
from .errors import APIUsageError, function_location
from .pipeline import DerivativeCache, Request, derive, front

_CACHE = DerivativeCache()
_SOURCES = weakref.WeakKeyDictionary()   # generated function -> Derived
_PUBLIC = weakref.WeakKeyDictionary()    # user function -> {options: public function}


def grad(f=None, wrt=0, *, preserve_result=False):
    """The gradient of a scalar-valued f with respect to argument(s) `wrt`.

    `wrt` is a position, a parameter name, or a tuple of them (then df returns a tuple).
    With preserve_result=True df returns (gradient, value).
    """
    if f is None:
        return functools.partial(grad, wrt=wrt, preserve_result=preserve_result)
    mode = "grad"
    return _public(f, mode, wrt, preserve_result)


def value_and_grad(f=None, wrt=0):
    """f's value and gradient in one call: vg(*args) -> (value, gradient)."""
    if f is None:
        return functools.partial(value_and_grad, wrt=wrt)
    return _public(f, "value_and_grad", wrt, False)


def vjp(f=None, wrt=0):
    """Vector-Jacobian product of an array-valued f: vf(*args, cotangent) -> gradient(s).

    The cotangent has the shape of f's output; the result is sum(cotangent * df/dx).
    """
    if f is None:
        return functools.partial(vjp, wrt=wrt)
    return _public(f, "vjp", wrt, False)


def jvp(f=None, wrt=0):
    """Forward mode: jf(*args, tangent) -> (f(*args), directional derivative along tangent).

    With a tuple `wrt` the tangent is a tuple (one entry per argument)."""
    if f is None:
        return functools.partial(jvp, wrt=wrt)
    return _public(f, "jvp", wrt, False)


def normalize(f):
    """f in levels form (ARCHITECTURE §3), as source text."""
    from .backend.emit import to_source
    levels, _ = front(f)
    return to_source(levels.tree)


def derivative_source(df):
    """The generated source of a function returned by grad / value_and_grad / vjp."""
    derived = _SOURCES.get(inspect.unwrap(df)) if callable(df) else None
    if derived is None:
        raise APIUsageError(f"{df!r} was not made by s2s_ad")
    return derived.source


def _public(f, mode, wrt, preserve_result):
    if not callable(f):
        raise APIUsageError(f"{mode} expects a function, got {type(f).__name__}")
    per_function = _PUBLIC.setdefault(f, {}) if _weakrefable(f) else {}
    fast_key = (mode, tuple(wrt) if isinstance(wrt, list) else wrt, preserve_result)
    if fast_key in per_function:            # a repeated grad(f): no signature inspection
        return per_function[fast_key]
    names, single = _wrt_names(f, wrt)
    key = (mode, names, single, preserve_result)
    if key in per_function:
        per_function[fast_key] = per_function[key]
        return per_function[key]
    request = Request(mode, names, preserve_result, single)
    # a derivative made by s2s_ad is differentiated through its generated function
    target = inspect.unwrap(f) if inspect.unwrap(f) in _SOURCES else f
    derived = derive(target, request, default_registry(), _CACHE)
    function = derived.function
    if mode in ("vjp", "jvp"):
        function = _derivative_last(function, f, names if mode == "jvp" else None, single)
    _SOURCES[derived.function] = derived
    public = _presented(function, derived)
    per_function[key] = per_function[fast_key] = public
    return public


def _presented(function, derived):
    """The callable handed to the user: the generated function itself (for grad and
    value_and_grad), so a call costs nothing more than the gradient's own code, and
    inspect, tracebacks and pdb show the generated lines. vjp/jvp hand out a wrapper that
    takes the (co)tangent last; it tells the front end which generated function, taking
    it first, to call when user code calling the wrapper is differentiated."""
    if function is not derived.function:
        function.__s2s_tangent_first__ = derived.function
    return function


def _derivative_last(generated, f, tangent_of=None, single=True):
    """vjp_f(*args, cotangent) / jf(*args, tangent): the generated code takes it first.
    For jvp (tangent_of = the wrt names) the tangent's shape is checked against the
    arguments', so a mismatch is a clear error rather than one inside generated code."""
    signature = inspect.signature(f)

    @functools.wraps(generated)
    def vjp_function(*args, **kwargs):
        if not args:
            raise APIUsageError("pass the arguments of f, then the (co)tangent")
        *primals, cotangent = args
        if cotangent is not None and not isinstance(cotangent, (float, tuple, list, dict, str)):
            cotangent = np.asarray(cotangent, dtype=float)
        try:
            bound = signature.bind(*primals, **kwargs)
        except TypeError as exc:
            what = "cotangent" if tangent_of is None else "tangent"
            raise APIUsageError(f"{generated.__name__} takes the arguments of "
                                f"{f.__qualname__}, then the {what} last: {exc}") from None
        if tangent_of is not None:
            _check_tangent(cotangent, bound, tangent_of, single, f)
        return generated(cotangent, *bound.args, **bound.kwargs)
    vjp_function.__wrapped__ = generated
    return vjp_function


def _check_tangent(tangent, bound, names, single, f):
    pieces = [tangent] if single else tangent
    if not single and (not isinstance(tangent, (tuple, list)) or len(tangent) != len(names)):
        raise APIUsageError(f"jvp of {f.__qualname__} w.r.t. {', '.join(names)}: pass a "
                            f"tuple of {len(names)} tangents")
    bound.apply_defaults()
    for name, piece in zip(names, pieces):
        value = bound.arguments[name]
        if isinstance(value, (float, int, np.ndarray)) and np.shape(piece) != np.shape(value):
            raise APIUsageError(f"the tangent for `{name}` has shape {np.shape(piece)}, but "
                                f"`{name}` has shape {np.shape(value)}", function_location(f))


def _weakrefable(f):
    try:
        weakref.ref(f)
        return True
    except TypeError:
        return False


def _wrt_names(f, wrt):
    """Normalise wrt to a tuple of parameter names; also whether one was asked for."""
    try:
        params = [p for p in inspect.signature(f).parameters.values()
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    except (TypeError, ValueError):
        raise APIUsageError(f"cannot read the parameters of {f!r}") from None
    if any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(f).parameters.values()):
        raise APIUsageError(f"{getattr(f, '__qualname__', f)} takes *args, which s2s_ad does "
                            f"not differentiate yet", function_location(f),
                            "name each parameter (def f(x, y): ...)")
    single = not isinstance(wrt, (tuple, list))
    items = [wrt] if single else list(wrt)
    if not items:
        raise APIUsageError("wrt is empty: name at least one argument to differentiate")
    positional = [p.name for p in params if p.kind != p.KEYWORD_ONLY]
    names = []
    for item in items:
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not -len(positional) <= item < len(positional):
                raise APIUsageError(
                    f"wrt={item} is out of range: {getattr(f, '__qualname__', f)} takes "
                    f"{len(positional)} positional argument(s) ({', '.join(positional)})",
                    function_location(f), "give a position below the number of arguments")
            names.append(positional[item])
        elif isinstance(item, str):
            if item not in [p.name for p in params]:
                raise APIUsageError(f"wrt={item!r}: {getattr(f, '__qualname__', f)} has no "
                                    f"parameter named {item!r}", function_location(f),
                                    f"use one of: {', '.join(p.name for p in params)}")
            names.append(item)
        else:
            raise APIUsageError(f"wrt entries must be positions or names, got {item!r}")
    if len(set(names)) != len(names):
        raise APIUsageError(f"wrt names the same argument twice: {names}")
    return tuple(names), single
