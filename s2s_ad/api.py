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
import functools
import inspect
import weakref

from typing import Callable, Optional

from .ad.registry import default_registry
from .bound import bound_derivative, bound_parts, given_source
from .errors import APIUsageError, UnsupportedSyntaxError
from .calling_order import LaterGenerated, with_defaults, with_last_parameter
from .derivative_registry import (CACHE, derived_record, dispatcher_of, dispatching_function,
                                  record)
from .dispatch import Outline
from .frontend.star_params import (fixed_arity, fixed_count, keyword_names, spread_keywords,
                                   takes_variable_arguments)
from .library_functions import library_function
from .pipeline import Request, derive, front, outline
from .wrt import Wrt, wrt_names
from .analyses.number_code import reverse_forced


_PUBLIC = weakref.WeakKeyDictionary()    # user function -> {options: public function}


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
    dispatcher = dispatcher_of(unwrapped) if unwrapped is not None else None
    if dispatcher is None:
        derived = derived_record(unwrapped) if unwrapped is not None else None
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
    dispatcher = dispatcher_of(df)
    return dispatcher.general.function if dispatcher is not None else inspect.unwrap(df)


def _public(f, mode, wrt, preserve_result, has_aux=False, defer=True):
    if not callable(f):
        raise APIUsageError(f"{mode} expects a function, got {type(f).__name__}")
    f = library_function(f)                 # grad(np.tanh): library_functions.py
    if bound_parts(f) is not None:          # a bound method, a functools.partial: bound.py
        return bound_derivative(f, lambda function, names: _public(
            function, mode, names, preserve_result, has_aux), wrt)
    if takes_variable_arguments(f):
        return per_arity(f, mode, lambda g: _public(g, mode, wrt, preserve_result, has_aux),
                         extra=1 if mode in ("vjp", "jvp") else 0)
    per_function = _PUBLIC.setdefault(f, {}) if _weakrefable(f) else {}
    fast_key = (mode, tuple(wrt) if isinstance(wrt, list) else wrt, preserve_result, has_aux,
                reverse_forced())
    if fast_key in per_function:            # a repeated grad(f): no signature inspection
        return per_function[fast_key]
    names, single = wrt_names(f, wrt)
    key = (mode, names, single, preserve_result, has_aux, reverse_forced())
    if key in per_function:
        per_function[fast_key] = per_function[key]
        return per_function[key]
    request = Request(mode, names, preserve_result, single, has_aux=has_aux)
    # a derivative made by s2s_ad is differentiated through its generated function
    general = general_derivative(f)
    target = general if derived_record(general) is not None else f
    if target is f and mode in ("grad", "value_and_grad", "vjp", "jvp"):
        # the general derivative is built when a call needs it (most calls are served by
        # the derivative built for their arguments' kinds)
        try:
            outline = _outline(f, request)
        except UnsupportedSyntaxError as error:
            if not defer or "." in (getattr(error, "undefined", None) or "."):
                raise
            return _deferred(f, mode, wrt, preserve_result, has_aux)
        function = dispatching_function(f, request, None, mode, outline=outline)
        if mode in ("vjp", "jvp"):
            dispatcher = dispatcher_of(function)
            function = with_defaults(function, LaterGenerated(
                lambda: dispatcher.general.function, outline.name), f, mode, names, single)
        per_function[key] = per_function[fast_key] = function
        return function
    derived = derive(target, request, default_registry(), CACHE)
    function = derived.function
    inner = dispatcher_of(f) if target is not f else None
    if target is f or (inner is not None and not inner.extra):
        # a derivative of a derivative: each signature differentiates the inner
        # derivative built for it
        function = dispatching_function(target, request, derived, mode, inner)
    if mode in ("vjp", "jvp"):
        function = with_defaults(function, derived.function, f, mode, names, single)
    record(derived)
    per_function[key] = per_function[fast_key] = function
    return function


def _deferred(f, mode, wrt, preserve_result, has_aux):
    """The derivative of f, which reads a module-level name not bound yet (`df =
    grad(loss)` above `X, y = load(...)`), made at its first call, when the name is
    there (else the located error, then); not kept in _PUBLIC, so grad(f) asks again."""
    @functools.wraps(f)
    def derivative(*args, **kwargs):
        made = _public(f, mode, wrt, preserve_result, has_aux, defer=False)
        derivative.__wrapped__ = made       # derivative_source / dispatcher_of reach it
        return made(*args, **kwargs)
    derivative.__name__ = derivative.__qualname__ = f"{mode}_{f.__name__}"
    return derivative


def _outline(f, request):
    """f's source checked now (errors point at the grad call), the general derivative's
    def described for the dispatcher (dispatch.Outline) without building it."""
    name, func, doc = outline(f, request, default_registry(), CACHE)
    params = [p.replace(annotation=inspect.Parameter.empty)
              for p in inspect.signature(func).parameters.values()]
    defaults = func.__defaults__
    if request.mode in ("vjp", "jvp"):  # vjp_f(x, w, cotangent, *, k): derivative_def.py
        params = with_last_parameter(params, _LAST_PARAMETER[request.mode])
        defaults = None
    return Outline(name, params, defaults, func.__kwdefaults__, func.__module__,
                   doc, request, func)


_LAST_PARAMETER = {"vjp": "cotangent", "jvp": "tangent"}


def per_arity(f, mode, make, extra=0):
    """The derivative `make(g)` of f with a `*args` or `**kwargs` parameter, g being f with
    as many items and the keywords a call gives (frontend/star_params.py); `extra`
    trailing arguments are not f's (a cotangent, a tangent or a vector)."""
    fixed = fixed_count(f)

    def for_arguments(args, keywords=()):
        spread = spread_keywords(f, keywords)
        return make(fixed_arity(f, max(0, len(args) - extra - fixed), spread))

    def derivative(*args, **kwargs):
        # the keywords f's **kwargs collects are the adapter's renamed parameters
        renamed = keyword_names(f, spread_keywords(f, kwargs))
        return for_arguments(args, kwargs)(*args, **{renamed.get(k, k): v
                                                     for k, v in kwargs.items()})
    derivative.__s2s_for_arguments__ = for_arguments
    derivative.__name__ = derivative.__qualname__ = f"{mode}_{f.__name__}"
    derivative.__doc__ = f"{mode} of {f.__qualname__}, built for the number of items its " \
        f"*args receives"
    return derivative


def _weakrefable(f):
    try:
        weakref.ref(f)
        return True
    except TypeError:
        return False


