"""Functions with a `*args` or `**kwargs` parameter, differentiated for the number of
items and the keyword names a call gives.

`fixed_arity(f, n)` is a function that behaves as f (it calls f) and takes f's fixed
parameters and then n more; parse (stage 1) reads it as f's own source with the starred
parameter replaced by n plain ones, collected into the tuple f's body reads:

    def mean_of(*xs):                 fixed_arity(mean_of, 2) parses as
        return sum(xs) / len(xs)   ->     def mean_of(xs_0, xs_1):
                                              xs = (xs_0, xs_1)
                                              return sum(xs) / len(xs)

A `**kwargs` parameter is read the same way for the keyword names a call gives, each a
keyword-only parameter of that name, collected into the dict f's body reads (so the
derivative is called with f's own keywords, and a file the CLI writes calls f as f is
called); a key naming a global, builtin or closure variable f reads is renamed
(`opts_np`: keyword_names() says which name each key has), and only the adapter s2s_ad
calls in-process, whose forwarding call gives f the keys, takes it:

    def scaled(x, **opts):            fixed_arity(scaled, 0, ("scale",)) parses as
        return x * opts["scale"]   ->     def scaled(x, *, scale):
                                              opts = {"scale": scale}
                                              return x * opts["scale"]

Errors keep pointing at f's file and lines (the source map is f's). grad(f) of such an f
builds one derivative per number of items and set of keywords (api.py), and a call
`f(a, b, scale=s)` inside differentiated code calls the helper of its arity and keywords
(transforms/calls.py).
"""
import builtins
import inspect
import types

import gast

from ..ir import build

_ADAPTERS = {}      # (id(f), n) -> (f, adapter): keeps f alive while its id is a key


def takes_star_args(function, kinds=(inspect.Parameter.VAR_POSITIONAL,)):
    """Does `function` (a def) have a `*args` parameter (a parameter of one of `kinds`)?"""
    try:
        return inspect.isfunction(function) and any(
            p.kind in kinds for p in inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return False


def takes_variable_arguments(function):
    """Does `function` (a def) have a `*args` or a `**kwargs` parameter?"""
    return takes_star_args(function, (inspect.Parameter.VAR_POSITIONAL,
                                      inspect.Parameter.VAR_KEYWORD))


def fixed_count(function):
    """How many positional parameters `function` takes before its `*args`."""
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               for p in inspect.signature(function).parameters.values())


def spread_keywords(function, names):
    """Of the keyword names a call of `function` gives, those its `**kwargs` collects."""
    params = inspect.signature(function).parameters.values()
    if not any(p.kind is p.VAR_KEYWORD for p in params):
        return ()
    named = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return tuple(sorted(n for n in names if n not in named))


def keyword_names(function, keywords):
    """{key: the adapter's parameter for it} for `function`'s `**kwargs` given `keywords`."""
    params = inspect.signature(function).parameters.values()
    var = next((p.name for p in params if p.kind is p.VAR_KEYWORD), None)
    if var is None:
        return {}
    taken = {p.name for p in params} | _outer_names(function)
    renamed = {}
    for key in keywords:
        name = key
        while name in taken:
            name = f"{var}_{name}"
        taken.add(name)
        renamed[key] = name
    return renamed


def _outer_names(function):
    """Names f reads from outside (its globals and builtins, its closure): a keyword
    parameter of that name would hide them."""
    code = getattr(function, "__code__", None)
    if code is None:
        return set()
    return set(code.co_freevars) | {n for n in code.co_names
                                    if n in function.__globals__ or hasattr(builtins, n)}


def fixed_arity(function, n, keywords=()):
    """`function` taking exactly n items in its *args and the keywords `keywords` (sorted)
    in its **kwargs (see the module docstring)."""
    keywords = tuple(keywords)
    key = (id(function), n, keywords)
    if key in _ADAPTERS:
        return _ADAPTERS[key][1]
    renamed = keyword_names(function, keywords)
    forward = _forwarder(function, {v: k for k, v in renamed.items()})
    params = list(inspect.signature(function).parameters.values())
    star = next((p for p in params if p.kind is p.VAR_POSITIONAL), None)
    items = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_ONLY)
             for name in item_names(star.name, n, {p.name for p in params})] \
        if star is not None else []
    # with no items the fixed parameters keep their defaults (`energy(x)` of
    # `def energy(x, k=2.0, **opts)`), in the adapter's signature and in its code alike
    adapter = types.FunctionType(forward.__code__, function.__globals__, function.__name__,
                                 None if items else function.__defaults__,
                                 forward.__closure__)
    fixed = [p.replace(kind=p.POSITIONAL_ONLY, default=p.empty) if items else p
             for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    rest = [p for p in params if p.kind is p.KEYWORD_ONLY]
    spread = [inspect.Parameter(renamed[k], inspect.Parameter.KEYWORD_ONLY) for k in keywords]
    adapter.__signature__ = inspect.Signature(fixed + items + rest + spread)
    adapter.__qualname__ = function.__qualname__
    adapter.__module__ = function.__module__
    adapter.__doc__ = function.__doc__
    adapter.__kwdefaults__ = function.__kwdefaults__
    adapter.__s2s_star_of__ = (function, n, keywords)
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


def with_star_items(tree, n, function=None, keywords=()):
    """f's FunctionDef with `*xs` replaced by n positional parameters collected into xs,
    and `**kw` by keyword-only parameters for `keywords` collected into the dict kw."""
    a = tree.args
    collect, params = [], []
    if a.vararg is not None:
        star = a.vararg.id
        taken = {p.id for p in a.posonlyargs + a.args + a.kwonlyargs}
        names = item_names(star, n, taken)
        params = [build.name(name) for name in names]
        collect.append(_located(build.assign(star, build.tuple_(
            [build.name(name) for name in names])), a.vararg))
    spread = []
    if a.kwarg is not None:
        renamed = keyword_names(function, keywords)
        spread = [build.name(renamed[k]) for k in keywords]
        collect.append(_located(build.assign(a.kwarg.id, build.mapping(
            [build.const(k) for k in keywords], [build.name(renamed[k]) for k in keywords])),
            a.kwarg))
    for param in params + spread:
        param.ctx = gast.Param()
    args = gast.arguments(posonlyargs=list(a.posonlyargs), args=list(a.args) + params,
                          vararg=None, kwonlyargs=list(a.kwonlyargs) + spread,
                          kw_defaults=list(a.kw_defaults) + [None] * len(spread), kwarg=None,
                          defaults=[] if n else list(a.defaults))
    result = gast.FunctionDef(name=tree.name, args=args, body=collect + list(tree.body),
                              decorator_list=[], returns=None, type_comment=None,
                              type_params=[])
    return gast.copy_location(result, tree)


def _located(stmt, where):
    for node in gast.walk(stmt):
        build.with_location(node, where)
    return stmt


def _forwarder(function, keys):
    """The adapter's code: f called with the keys its renamed keyword parameters stand
    for (`keys`: parameter -> key)."""
    def call(*args, **kwargs):
        return function(*args, **{keys.get(k, k): v for k, v in kwargs.items()})
    return call
