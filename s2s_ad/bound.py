"""Bound methods, functools.partial and callable instances: differentiated as the
function they call.

A bound method or a partial is a function with some arguments already given. Its
derivative is the derivative of that function, called with those arguments first:

    grad(model.loss)(X, y)                 grad(Model.loss, wrt="X")(model, X, y)
    grad(model.loss, wrt="self")(X, y)     the gradient in model's attributes: a Model
    grad(partial(loss, X=X))(w, y=y)       grad(loss, wrt="w")(w, X=X, y=y)
    grad(Model.create)(...)                a classmethod: the class is given
    grad(model)(X, y)                      model.__call__ (a class with `def __call__`)

`wrt` positions count the parameters left to pass (what inspect.signature shows, as JAX
counts them); a name may also be that of a given parameter ("self", a keyword a partial
fixed), whose gradient is then returned. The function returned takes the parameters left
to pass, then (vjp, jvp, hvp) the (co)tangent.
"""
import functools
import inspect
import weakref

from .errors import APIUsageError, function_location
from .runtime_objects import defines_call

# a derivative made here -> (the derivative of the function, given args, given keywords)
_GIVEN = weakref.WeakKeyDictionary()


def bound_parts(f):
    """(function, given positional arguments, given keywords) for a bound method, a
    functools.partial (nested ones too) or a derivative made by `bound_derivative`;
    None for anything else."""
    args, keywords, found = (), {}, False
    while True:
        if isinstance(f, functools.partial):
            args, keywords = tuple(f.args) + args, {**f.keywords, **keywords}
            f = f.func
        elif inspect.ismethod(f):
            args, f = (f.__self__,) + args, f.__func__
        elif _called_instance(f):
            # an instance of a class with a `def __call__` (a model called as model(x)):
            # its __call__ with the instance given as self
            args, f = (f,) + args, type(f).__call__
        elif _weakrefable(f) and f in _GIVEN:
            inner, given, given_keywords = _GIVEN[f]
            args, keywords = tuple(given) + args, {**given_keywords, **keywords}
            f = inner
        else:
            return (f, args, keywords) if found else None
        found = True


def _called_instance(f):
    return not inspect.isclass(f) and defines_call(type(f))


def bound_derivative(f, transform, wrt):
    """transform(function, wrt) of the function f calls, with f's given arguments passed
    first. `wrt`: positions among the parameters left to pass, or parameter names."""
    function, args, keywords = bound_parts(f)
    names = wrt_names(f, function, wrt)
    inner = transform(function, names)

    @functools.wraps(function)
    def derivative(*call_args, **call_keywords):
        return inner(*args, *call_args, **{**keywords, **call_keywords})
    del derivative.__wrapped__          # not the function: its parameters are f's
    derivative.__signature__ = inspect.signature(f)
    _GIVEN[derivative] = (inner, args, keywords)
    return derivative


def given_source(df):
    """(the inner derivative, given args, given keywords) of a derivative made here, for
    derivative_source; None for any other function."""
    return _GIVEN.get(df) if _weakrefable(df) else None


def wrt_names(f, function, wrt):
    """`wrt` as names of `function`'s parameters (a name or a tuple of them, as given):
    positions count f's parameters (those left to pass)."""
    single = not isinstance(wrt, (tuple, list))
    items = [wrt] if single else list(wrt)
    left = [p.name for p in inspect.signature(f).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    every = list(inspect.signature(function).parameters)
    names = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            if not -len(left) <= item < len(left):
                raise APIUsageError(
                    f"wrt={item} is out of range: {_label(f)} takes {len(left)} positional "
                    f"argument(s) ({', '.join(left)}) once its given ones are bound",
                    function_location(function),
                    "name a given argument to differentiate it (wrt='self')")
            names.append(left[item])
        elif isinstance(item, str) and item in every:
            names.append(item)
        elif isinstance(item, str):
            raise APIUsageError(f"wrt={item!r}: {_label(f)} has no parameter named {item!r}",
                                function_location(function), f"use one of: {', '.join(every)}")
        else:
            raise APIUsageError(f"wrt entries must be positions or names, got {item!r}")
    return names[0] if single else tuple(names)


def _label(f):
    function = bound_parts(f)[0]
    return getattr(function, "__qualname__", repr(function))


def _weakrefable(f):
    try:
        weakref.ref(f)
        return True
    except TypeError:
        return False
