"""Functions with a `*args` parameter, differentiated for the number of items a call gives.

`fixed_arity(f, n)` is a function that behaves as f (it calls f) and takes f's fixed
parameters and then n more; parse (stage 1) reads it as f's own source with the starred
parameter replaced by n plain ones, collected into the tuple f's body reads:

    def mean_of(*xs):                 fixed_arity(mean_of, 2) parses as
        return sum(xs) / len(xs)   ->     def mean_of(xs_0, xs_1):
                                              xs = (xs_0, xs_1)
                                              return sum(xs) / len(xs)

Errors keep pointing at f's file and lines (the source map is f's). grad(f) of such an f
builds one derivative per number of items (api.py), and a call `f(a, b)` inside
differentiated code calls the helper of its arity (transforms/calls.py).
"""
import inspect
import types

import gast

from ..ir import build

_ADAPTERS = {}      # (id(f), n) -> (f, adapter): keeps f alive while its id is a key


def takes_star_args(function):
    """Does `function` (a def) have a `*args` parameter?"""
    try:
        return inspect.isfunction(function) and any(
            p.kind is p.VAR_POSITIONAL for p in inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return False


def fixed_count(function):
    """How many positional parameters `function` takes before its `*args`."""
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               for p in inspect.signature(function).parameters.values())


def fixed_arity(function, n):
    """`function` taking exactly n items in its *args (see the module docstring)."""
    key = (id(function), n)
    if key in _ADAPTERS:
        return _ADAPTERS[key][1]
    forward = _forwarder(function)
    adapter = types.FunctionType(forward.__code__, function.__globals__, function.__name__,
                                 None, forward.__closure__)
    params = list(inspect.signature(function).parameters.values())
    star = next(p for p in params if p.kind is p.VAR_POSITIONAL)
    items = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_ONLY)
             for name in item_names(star.name, n, {p.name for p in params})]
    fixed = [p.replace(kind=p.POSITIONAL_ONLY, default=p.empty) if items else p
             for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    rest = [p for p in params if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
    adapter.__signature__ = inspect.Signature(fixed + items + rest)
    adapter.__qualname__ = function.__qualname__
    adapter.__module__ = function.__module__
    adapter.__doc__ = function.__doc__
    adapter.__kwdefaults__ = function.__kwdefaults__
    adapter.__s2s_star_of__ = (function, n)
    _ADAPTERS[key] = (function, adapter)
    return adapter


def item_names(star, n, taken):
    """xs_0, xs_1, ... for `*xs` (made unlike every other parameter name)."""
    base = star
    while any(f"{base}_{k}" in taken for k in range(n)):
        base += "_"
    return [f"{base}_{k}" for k in range(n)]


def source_function(function):
    """The def whose source, globals and closure describe `function` (f for an adapter)."""
    star = getattr(function, "__s2s_star_of__", None)
    return star[0] if star is not None else function


def with_star_items(tree, n):
    """f's FunctionDef with `*xs` replaced by n positional parameters collected into xs."""
    a = tree.args
    star = a.vararg.id
    taken = {p.id for p in a.posonlyargs + a.args + a.kwonlyargs}
    names = item_names(star, n, taken)
    params = [build.name(name) for name in names]
    for param in params:
        param.ctx = gast.Param()
    args = gast.arguments(posonlyargs=list(a.posonlyargs), args=list(a.args) + params,
                          vararg=None, kwonlyargs=list(a.kwonlyargs),
                          kw_defaults=list(a.kw_defaults), kwarg=a.kwarg,
                          defaults=[] if n else list(a.defaults))
    collect = build.assign(star, build.tuple_([build.name(name) for name in names]))
    for node in gast.walk(collect):
        build.with_location(node, a.vararg)
    result = gast.FunctionDef(name=tree.name, args=args, body=[collect] + list(tree.body),
                              decorator_list=[], returns=None, type_comment=None,
                              type_params=[])
    return gast.copy_location(result, tree)


def _forwarder(function):
    def call(*args, **kwargs):
        return function(*args, **kwargs)
    return call
