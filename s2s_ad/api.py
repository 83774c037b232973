"""The public API: grad, value_and_grad, vjp, jvp, normalize, derivative_source.

    >>> df = grad(f)                             # or @grad / @grad(wrt=(0, 1))
    >>> df(1.0, 2.0)                             # d f / d (argument 0)
    >>> jf = jvp(f); jf(1.0, 2.0, 1.0)           # f's arguments, then the tangent
    >>> print(derivative_source(df))             # the generated Python source

grad(f) checks f's source immediately (errors in f are reported at the grad call; the
general derivative itself is built when something needs it) and returns a plain function that dispatches on what its arguments are
(dispatch.py): each new abstract signature (Python floats, arrays of a rank, dtype and
length-1 axes, tuples of floats, ...) gets a derivative built for it on its first call,
and later calls reach it through a guard written in the dispatcher's source. For grad
and value_and_grad that dispatching function is what the user calls; vjp and jvp hand
out a thin wrapper around it that checks the (co)tangent and fills in f's default
arguments. Every derivative takes f's arguments first and the (co)tangent last, in the
generated source as in the call, so what inspect, tracebacks and pdb show is what the
user calls. The same f with the same options gives the same function back.
"""
import dataclasses
import os
import functools
import inspect
import weakref

from typing import Callable, Optional, Sequence, Union

import numpy as np

from .ad.registry import default_registry
from .bound import bound_derivative, bound_parts, given_source
from .errors import APIUsageError, function_location
from .dispatch import Dispatcher, Outline
from .frontend.star_params import fixed_arity, fixed_count, takes_star_args
from .library_functions import library_function
from .runtime_objects import is_object
from .pipeline import DerivativeCache, Request, derive, front, outline

Wrt = Union[int, str, Sequence[Union[int, str]]]   # a position, a name, or several

_CACHE = DerivativeCache()
_SOURCES = weakref.WeakKeyDictionary()   # generated function -> Derived
_PUBLIC = weakref.WeakKeyDictionary()    # user function -> {options: public function}
_DISPATCHERS = weakref.WeakKeyDictionary()   # dispatching function -> its Dispatcher


def grad(f: Optional[Callable] = None, wrt: Wrt = 0, *, argnums: Optional[Wrt] = None,
         has_aux: bool = False, preserve_result: bool = False) -> Callable:
    """The gradient of a scalar-valued f with respect to argument(s) `wrt`.

    `wrt` (or its alias `argnums`, as in JAX) is a position, a parameter name, or a tuple
    of them (then df returns a tuple). With has_aux=True f returns (loss, aux): df returns
    (gradient, aux), aux unchanged. With preserve_result=True df returns (value,
    gradient), as value_and_grad does.
    """
    wrt = _wrt_or_argnums(wrt, argnums)
    if f is None:
        return functools.partial(grad, wrt=wrt, has_aux=has_aux,
                                 preserve_result=preserve_result)
    return _public(f, "grad", wrt, preserve_result, has_aux)


def value_and_grad(f: Optional[Callable] = None, wrt: Wrt = 0, *,
                   argnums: Optional[Wrt] = None, has_aux: bool = False) -> Callable:
    """f's value and gradient in one call: vg(*args) -> (value, gradient).

    With has_aux=True f returns (loss, aux) and vg returns ((loss, aux), gradient)."""
    wrt = _wrt_or_argnums(wrt, argnums)
    if f is None:
        return functools.partial(value_and_grad, wrt=wrt, has_aux=has_aux)
    return _public(f, "value_and_grad", wrt, False, has_aux)


def vjp(f: Optional[Callable] = None, wrt: Wrt = 0, *,
        argnums: Optional[Wrt] = None) -> Callable:
    """Vector-Jacobian product of an array-valued f: vf(*args, cotangent) -> gradient(s).

    The cotangent has the shape of f's output; the result is sum(cotangent * df/dx).
    """
    wrt = _wrt_or_argnums(wrt, argnums)
    if f is None:
        return functools.partial(vjp, wrt=wrt)
    return _public(f, "vjp", wrt, False)


def jvp(f: Optional[Callable] = None, wrt: Wrt = 0, *,
        argnums: Optional[Wrt] = None) -> Callable:
    """Forward mode: jf(*args, tangent) -> (f(*args), directional derivative along tangent).

    With a tuple `wrt` the tangent is a tuple (one entry per argument)."""
    wrt = _wrt_or_argnums(wrt, argnums)
    if f is None:
        return functools.partial(jvp, wrt=wrt)
    return _public(f, "jvp", wrt, False)


def _wrt_or_argnums(wrt, argnums):
    """`argnums` (JAX's name) given: it is `wrt`; both given and different: an error."""
    if argnums is None:
        return wrt
    if wrt not in (0, argnums):
        raise APIUsageError(f"wrt={wrt!r} and argnums={argnums!r}: argnums is another name "
                            f"for wrt; give one of them")
    if isinstance(argnums, list):
        argnums = tuple(argnums)
    return argnums


def normalize(f: Callable) -> str:
    """f in levels form (ARCHITECTURE §3), as source text."""
    from .backend.emit import to_source
    levels, _ = front(f)
    return to_source(levels.tree)


def derivative_source(df: Callable, *args, **kwargs) -> str:
    """The generated source of a function returned by grad / value_and_grad / vjp / jvp.

    derivative_source(df): what has been built so far (the general derivative; once df
    has been called, its dispatcher and the derivative built for each signature first).
    derivative_source(df, *args): the derivative df runs for these arguments (passed as
    to df itself), built now if it is new."""
    given = given_source(df)
    if given is not None:                   # of a bound method or a partial (bound.py)
        inner, given_args, given_keywords = given
        if not (args or kwargs):
            return derivative_source(inner)
        return derivative_source(inner, *given_args, *args, **{**given_keywords, **kwargs})
    per_call = getattr(df, "__s2s_for_arguments__", None)
    if per_call is not None:            # f with *args: the derivative for this many items
        if not args:
            raise APIUsageError(f"{df.__name__} is built per number of *args items: pass "
                                f"the arguments, derivative_source(df, *args)")
        return derivative_source(per_call(args), *args, **kwargs)
    unwrapped = inspect.unwrap(df) if callable(df) else None
    try:
        dispatcher = _DISPATCHERS.get(unwrapped) if unwrapped is not None else None
    except TypeError:
        dispatcher = None
    if dispatcher is None:
        derived = _SOURCES.get(unwrapped) if unwrapped is not None else None
        if derived is None:
            raise APIUsageError(f"{df!r} was not made by s2s_ad")
        return derived.source
    if args or kwargs:
        function = dispatcher.specialisation(dispatcher.signature_for(args, kwargs))
        derived = next((d for d in dispatcher.built if d.function is function), None)
        return (derived or dispatcher.general).source
    if not dispatcher.built:
        return dispatcher.general.source
    return "\n".join([dispatcher.source()] + [d.source for d in dispatcher.built]
                     + [dispatcher.general.source])


def general_derivative(df):
    """The general derivative behind a function made by s2s_ad (itself otherwise); of a
    bound method or partial, the general derivative of its function, given its arguments."""
    given = given_source(df)
    if given is not None:
        inner, given_args, given_keywords = given
        general = general_derivative(inner)
        return lambda *args, **kwargs: general(*given_args, *args,
                                               **{**given_keywords, **kwargs})
    try:
        dispatcher = _DISPATCHERS.get(inspect.unwrap(df))
    except TypeError:               # not weak-referenceable: a builtin, not ours
        return df
    return dispatcher.general.function if dispatcher is not None else inspect.unwrap(df)


def _public(f, mode, wrt, preserve_result, has_aux=False):
    if not callable(f):
        raise APIUsageError(f"{mode} expects a function, got {type(f).__name__}")
    f = library_function(f)                 # grad(np.tanh): library_functions.py
    if bound_parts(f) is not None:          # a bound method, a functools.partial: bound.py
        return bound_derivative(f, lambda function, names: _public(
            function, mode, names, preserve_result, has_aux), wrt)
    if takes_star_args(f):
        return per_arity(f, mode, lambda g: _public(g, mode, wrt, preserve_result, has_aux),
                         extra=1 if mode in ("vjp", "jvp") else 0)
    per_function = _PUBLIC.setdefault(f, {}) if _weakrefable(f) else {}
    fast_key = (mode, tuple(wrt) if isinstance(wrt, list) else wrt, preserve_result, has_aux)
    if fast_key in per_function:            # a repeated grad(f): no signature inspection
        return per_function[fast_key]
    names, single = _wrt_names(f, wrt)
    key = (mode, names, single, preserve_result, has_aux)
    if key in per_function:
        per_function[fast_key] = per_function[key]
        return per_function[key]
    request = Request(mode, names, preserve_result, single, has_aux=has_aux)
    # a derivative made by s2s_ad is differentiated through its generated function
    general = general_derivative(f)
    target = general if general in _SOURCES else f
    if target is f and mode in ("grad", "value_and_grad"):
        function = _dispatcher(f, request, None, mode, outline=_outline(f, request))
        per_function[key] = per_function[fast_key] = function
        return function
    derived = derive(target, request, default_registry(), _CACHE)
    function = derived.function
    inner = _DISPATCHERS.get(inspect.unwrap(f)) if target is not f else None
    if target is f or (inner is not None and not inner.extra):
        # a derivative of a derivative: each signature differentiates the inner
        # derivative built for it
        function = _dispatcher(target, request, derived, mode, inner)
    if mode in ("vjp", "jvp"):
        function = _with_defaults(function, derived.function, f, mode, names, single)
    _SOURCES[derived.function] = derived
    per_function[key] = per_function[fast_key] = function
    return function


def _outline(f, request):
    """f's source checked now (errors point at the grad call), the general derivative's
    def described for the dispatcher (dispatch.Outline) without building it."""
    name, func, doc = outline(f, request, default_registry(), _CACHE)
    params = [p.replace(annotation=inspect.Parameter.empty)
              for p in inspect.signature(func).parameters.values()]
    return Outline(name, params, func.__defaults__, func.__kwdefaults__, func.__module__,
                   doc, request, func)


def per_arity(f, mode, make, extra=0):
    """The derivative `make(g)` of f with a `*args` parameter, g being f with as many items
    as a call gives (frontend/star_params.py); `extra` trailing arguments are not f's (a
    cotangent, a tangent or a vector)."""
    fixed = fixed_count(f)

    def for_arguments(args):
        return make(fixed_arity(f, max(0, len(args) - extra - fixed)))

    def derivative(*args, **kwargs):
        return for_arguments(args)(*args, **kwargs)
    derivative.__s2s_for_arguments__ = for_arguments
    derivative.__name__ = derivative.__qualname__ = f"{mode}_{f.__name__}"
    derivative.__doc__ = f"{mode} of {f.__qualname__}, built for the number of items its " \
        f"*args receives"
    return derivative


def _dispatcher(target, request, general, mode, inner=None, outline=None):
    """The dispatching function for `target`'s derivative (dispatch.py); `inner`: the
    dispatcher of the derivative `target` is the general form of (grad of grad);
    `outline`: general is not built yet (built on demand, dispatch.Outline)."""
    if outline is not None:
        def general():
            derived = derive(target, request, default_registry(), _CACHE)
            _SOURCES[derived.function] = derived
            return derived
    def build(signature, variant):
        specialised = dataclasses.replace(request, signature=signature, variant=variant)
        function = target
        if inner is not None:
            function = inner.specialisation(signature)
            if function is None:
                return None
        try:
            derived = derive(function, specialised, default_registry(), _CACHE)
        except Exception:
            # the general derivative is right for every argument: a specialisation that
            # cannot be built falls back to it (the test suite sees the error)
            if os.environ.get("S2S_AD_STRICT_PASSES"):
                raise
            return None
        _SOURCES[derived.function] = derived
        return derived
    extra = [derivative_parameter(general.function)] if mode in ("vjp", "jvp") else []
    dispatcher = Dispatcher(general, build, extra, outline)
    _DISPATCHERS[dispatcher.function] = dispatcher
    return dispatcher.function


def derivative_parameter(generated):
    """The (co)tangent parameter of a generated vjp / jvp: its last positional one."""
    params = [p for p in inspect.signature(generated).parameters.values()
              if p.kind is not p.KEYWORD_ONLY]
    return params[-1].name


_LAST = {"vjp": "cotangent", "jvp": "tangent", "hvp": "vector v"}


def _with_defaults(function, generated, f, mode, names, single):
    """vf(*args, cotangent) / jf(*args, tangent) / hv(*args, v), calling `function` (the
    dispatcher or the generated derivative, which take every argument of f, then the
    (co)tangent) with f's defaults filled in. A jvp's tangent is checked against the
    arguments' shapes (`names`: the wrt parameters), so a mismatch is a clear error
    rather than one inside generated code. Code calling it that s2s_ad differentiates
    calls `generated`, the general derivative."""
    signature = inspect.signature(f)
    params = list(signature.parameters.values())
    what = _LAST[mode]

    @functools.wraps(function)
    def derivative(*args, **kwargs):
        if not args:
            raise APIUsageError(f"pass the arguments of {f.__qualname__}, then the {what}")
        *primals, last = args
        try:
            bound = signature.bind(*primals, **kwargs)
        except TypeError as exc:
            raise APIUsageError(f"{generated.__name__} takes the arguments of "
                                f"{f.__qualname__}, then the {what} last: {exc}") from None
        bound.apply_defaults()
        if mode == "hvp" and single and isinstance(last, (list, tuple)) and \
                not isinstance(bound.arguments[names[0]], (list, tuple)):
            last = np.asarray(last, dtype=float)        # a vector written as a list
        elif mode != "hvp" and last is not None and not is_object(last) and \
                not isinstance(last, (float, tuple, list, dict, str)):
            last = _real_array(last)
        if mode == "jvp":
            _check_tangent(last, bound, names, single, f)
        return function(*[bound.arguments[p.name] for p in params
                          if p.kind is not p.KEYWORD_ONLY], last,
                        **{p.name: bound.arguments[p.name] for p in params
                           if p.kind is p.KEYWORD_ONLY})
    derivative.__wrapped__ = function
    derivative.__s2s_generated__ = generated
    return derivative


def _real_array(value):
    """A (co)tangent as an array of floats: integers and booleans become float64, a float
    dtype is kept (a float32 cotangent gives float32 gradients); complex numbers are kept
    (and rejected by the dispatcher, naming them) rather than cast away with a warning."""
    if isinstance(value, np.ma.MaskedArray):
        return value
    array = np.asarray(value)
    return array if array.dtype.kind in "fc" else array.astype(float)


def _check_tangent(tangent, bound, names, single, f):
    pieces = [tangent] if single else tangent
    if not single and (not isinstance(tangent, (tuple, list)) or len(tangent) != len(names)):
        raise APIUsageError(f"jvp of {f.__qualname__} w.r.t. {', '.join(names)}: pass a "
                            f"tuple of {len(names)} tangents")
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
