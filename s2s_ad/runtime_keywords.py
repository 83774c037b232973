"""Keyword arguments of a call of a function held in a variable, in a derivative built
without knowing which function it is (runtime_functions.py differentiates such a call
by position): the keywords are put at their parameters' positions when the call runs.

    t = act(x, beta=2.0)    ->   t1 = bound_arguments(act, (x,), ("beta",), (2.0,), "f.py:3")
                                 t = call_function(act, t1)          (act(x, 2.0))
                                 backward:  x_bar = given_part(t1_bar, act, (x,), ("beta",))
                                            beta_bar = keyword_part(t1_bar, act, (x,), ("beta",))

Parameters skipped between (`act(x, beta=2.0)` of `def act(x, alpha=0.1, beta=1.0)`)
get their defaults, as the call would; a keyword-only parameter, or a keyword only
`**kwargs` takes, cannot be given by position: a clear error naming the function and the
call (`where`, its file and line).
"""
import inspect

import numpy as np


def bound_arguments(function, args, names, values, where):
    """The positional arguments of function(*args, **dict(zip(names, values))), called at
    `where`."""
    positions = keyword_positions(function, len(args), names, where)
    defaults = [p.default for p in _positional(function)]
    return tuple(_placed(list(args), values, positions, lambda k: defaults[k]))


def _placed(given, values, positions, between):
    """`given`, then for each later position up to the last keyword's: the value of the
    keyword placed there, else `between(position)` (a default, or a zero tangent)."""
    for k in range(len(given), max(positions, default=-1) + 1):
        given.append(_item(values, positions.index(k)) if k in positions else between(k))
    return given


def keyword_positions(function, count, names, where=None):
    """The position each keyword of `names` takes after `count` positional arguments (the
    call at `where`, for errors)."""
    positional = _positional(function)
    position = {p.name: k for k, p in enumerate(positional)
                if p.kind is p.POSITIONAL_OR_KEYWORD}
    out = []
    for name in names:
        k = position.get(name)
        if k is None or k < count:
            from s2s_ad.errors import UnsupportedSyntaxError
            what = "takes it twice" if k is not None else \
                "has no parameter of that name that a position can fill (keyword-only, " \
                "or taken by **kwargs)"
            raise UnsupportedSyntaxError(
                f"the call at {where} passes the keyword `{name}` to {_named(function)}, "
                f"a function chosen when the code runs, which s2s_ad's general derivative "
                f"calls by position, and the function {what}", None,
                "pass the argument by position, or call the function by its name in f")
        out.append(k)
    for k in range(count, max(out, default=-1) + 1):
        if k not in out and positional[k].default is inspect.Parameter.empty:
            from s2s_ad.errors import APIUsageError
            raise APIUsageError(f"the call at {where}: {_named(function)} is missing the "
                                f"argument `{positional[k].name}`")
    return out


def given_part(g, function, args, names):
    """The adjoints of the positional arguments `args` in the adjoint `g` of
    bound_arguments' tuple (g a list, or the scalar zero while nothing has been added)."""
    return [_item(g, k) for k in range(len(args))]


def keyword_part(g, function, args, names):
    """The adjoints of the keywords' values in the adjoint `g` of bound_arguments' tuple
    (g a list, or the scalar zero while nothing has been added)."""
    return [_item(g, k) for k in keyword_positions(function, len(args), names)]


def keyword_tangents(function, args, names, arg_tangents, value_tangents):
    """The tangent of bound_arguments' tuple: the arguments' and the keywords' tangents at
    their positions, zero at the defaults filled in between."""
    return _placed([_item(arg_tangents, k) for k in range(len(args))], value_tangents,
                   keyword_positions(function, len(args), names), lambda k: 0.0)


def keyword_scatter(g, function, args, names):
    """The transpose of keyword_part: the keywords' adjoints `g` at their positions of
    bound_arguments' tuple, zero elsewhere."""
    return keyword_tangents(function, args, names, 0.0, g)


def given_scatter(g, function, args, names):
    """The transpose of given_part: the arguments' adjoints `g` first, zero at the
    keywords' and defaults' positions."""
    return keyword_tangents(function, args, names, g, 0.0)


def _item(values, k):
    """The k-th of the tangents or adjoints of a tuple's items: a list's, or an array's
    row (a tuple of numbers' adjoint or zero_tangent may be one array), 0.0 where they are
    the scalar zero."""
    if isinstance(values, (list, tuple)) or isinstance(values, np.ndarray) and values.ndim:
        return values[k]
    return 0.0


def _positional(function, _known={}):
    """The parameters a position can fill (a bound method's without its object). Read
    once per def (a backward sweep asks at every call), by its code object (a lambda made
    anew at each call of f has the same one), kept beside the rest inspect reads them from
    (defaults, a __signature__ or __wrapped__ set on it) and read again when any of these
    is another object. (A default argument: a standalone module copies functions.)"""
    plain = function.__func__ if inspect.ismethod(function) else function
    if not inspect.isfunction(plain):
        return _read_positional(function)
    stamp = (plain.__defaults__, plain.__kwdefaults__, plain.__dict__.get("__signature__"),
             plain.__dict__.get("__wrapped__"), plain is not function)
    known = _known.get(plain.__code__)
    if known is None or any(a is not b for a, b in zip(known[0], stamp)):
        known = _known[plain.__code__] = (stamp, _read_positional(function))
    return known[1]


def _read_positional(function):
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return []
    out = []
    for p in parameters:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        out.append(p)
    return out


def _named(function):
    """`act` (file:line of its def), or for an object the class it is of."""
    if not hasattr(function, "__qualname__") and hasattr(type(function), "__call__"):
        return f"an object of class `{type(function).__qualname__}`"
    name = getattr(function, "__qualname__", None) or repr(function)
    code = getattr(getattr(function, "__func__", function), "__code__", None)
    return f"`{name}` ({code.co_filename}:{code.co_firstlineno})" if code else f"`{name}`"
