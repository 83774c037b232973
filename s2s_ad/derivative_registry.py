"""Every derivative s2s_ad has built in this process, and the dispatching functions it
handed out for them: the one place api.py, cli.py, higher_order.py, checking.py and
runtime_functions.py read and record them.

    CACHE                              every Derived built, per (function, Request)
    record(derived)                    derived_record(derived.function) is derived
    dispatcher_of(df)                  the Dispatcher behind a function grad handed out
    dispatching_function(target, ...)  a new dispatching function (dispatch.py), registered
    specialised_derivative(f, request, args)  f's derivative for these arguments, built now

The tables are weak-keyed on the functions: a derivative nobody holds is forgotten.
"""
import dataclasses
import inspect
import os
import weakref

from .ad.registry import default_registry
from .calling_order import LaterGenerated, derivative_parameter
from .dispatch import Dispatcher
from .errors import SharedMemoryWriteError
from .derivative_cache import DerivativeCache
from .pipeline import derive
from .signature import signature_of
from .sign_facts import split

CACHE = DerivativeCache()
_SOURCES = weakref.WeakKeyDictionary()       # generated function -> Derived
_DISPATCHERS = weakref.WeakKeyDictionary()   # dispatching function -> its Dispatcher


def record(derived):
    """Remember `derived` as the record of its generated function (derivative_source)."""
    _SOURCES[derived.function] = derived


def derived_record(function):
    """The Derived record of a generated function, or None (also for non-weakrefables)."""
    try:
        return _SOURCES.get(function)
    except TypeError:
        return None


def dispatcher_of(function):
    """The Dispatcher behind a dispatching function (unwrapped first: a vjp's wrapper
    leads to it), or None when s2s_ad did not make it."""
    try:
        return _DISPATCHERS.get(inspect.unwrap(function))
    except TypeError:               # not weak-referenceable: a builtin, not ours
        return None


def dispatching_function(target, request, general, mode, inner=None, outline=None):
    """The dispatching function for `target`'s derivative (dispatch.py); `inner`: the
    dispatcher of the derivative `target` is the general form of (grad of grad);
    `outline`: general is not built yet (built on demand, dispatch.Outline). `target` may
    be a calling_order.LaterGenerated (hvp: the general gradient, itself built only when
    the general derivative of it is)."""
    def target_now():
        return target.function() if isinstance(target, LaterGenerated) else target
    if outline is not None:
        def general():
            derived = derive(target_now(), request, default_registry(), CACHE)
            record(derived)
            return derived
    def build(signature, variant):
        plain, positive = split(signature)      # (the dispatcher's sign facts)
        specialised = dataclasses.replace(request, signature=plain, variant=variant,
                                          checks_records=True, positive=positive)
        function = target_now() if inner is None else inner.specialisation(signature)
        if function is None:
            if inner is not None and inner._failure(signature) is not None:
                # (hvp of f returning an array) the located error building the derivative
                # differentiated here, raised should the general one fail too
                build.failures[signature] = inner._failure(signature)
            return None
        try:
            derived = derive(function, specialised, default_registry(), CACHE)
        except SharedMemoryWriteError:
            # the program writes through memory shared at these arguments: the general
            # derivative would compute a wrong value or refuse when the code runs
            raise
        except Exception as exc:
            # the general derivative is right for every argument: a specialisation that
            # cannot be built falls back to it (the test suite sees the error); a located
            # error is kept, to be raised should the general one fail too (dispatch.py)
            if os.environ.get("S2S_AD_STRICT_PASSES"):
                raise
            build.failures[signature] = exc
            return None
        record(derived)
        return derived
    build.failures = {}
    extra = []                  # a vjp's cotangent, a jvp's tangent: its last positional
    if mode in ("vjp", "jvp"):
        extra = [derivative_parameter(outline.params if outline is not None
                                      else general.function)]

    def rebuild():
        # the general derivative again, after a helper f calls was redefined
        derived = derive(target_now(), request, default_registry(), CACHE)
        record(derived)
        return derived
    dispatcher = Dispatcher(general, build, extra, outline, wrt=request.wrt,
                            rebuild=rebuild)
    _DISPATCHERS[dispatcher.function] = dispatcher
    return dispatcher.function


def specialised_derivative(function, request, args):
    """`function`'s derivative for `request`, specialised on the kinds of `args` (one per
    parameter, in order) and built now, with no general derivative: what s2s_ad's runtime
    uses to differentiate, at the arguments it holds, a derivative it made (a gradient
    called inside f, differentiated again), whose general form may not be buildable (the
    classes of a model's layers are facts only of the arguments)."""
    params = list(inspect.signature(function).parameters)
    signature = tuple(zip(params, signature_of(list(args))))
    request = dataclasses.replace(request, signature=signature,
                                  variant=CACHE.variant(function, request, signature))
    derived = derive(function, request, default_registry(), CACHE)
    record(derived)
    return derived.function
