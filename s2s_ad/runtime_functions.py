"""Calls of a function held in a variable (a parameter, a value chosen at run time), in a
derivative built without knowing which function it is (the general derivative).

    t = f(x, w)     ->   t = call_function(f, (x, w))
                         backward:  x_bar, w_bar = function_vjp(f, (x, w), t_bar)

A derivative specialised on its arguments knows the function (its identity is part of the
signature) and differentiates it like any named callee; this is the fallback, deriving f's
vjp / jvp when the call runs (s2s_ad's own derivatives are cached per function). Arguments
that are not floating-point numbers or arrays get no derivative (0.0). A file written by
the CLI that makes such a call needs s2s_ad installed when it runs (it imports s2s_ad.api
then, and only then).
"""
import inspect
import numpy as np


def call_function(function, args):
    """function(*args)."""
    return function(*args)


_ACTIVE = []      # the held functions whose derivative is being derived (re-entry guard)


class _Deriving:
    """Guards deriving `function`'s vjp / jvp: a derivative that comes back to this
    fallback for the same function (it could not be specialised on the function's
    identity: a functools.partial, a bound method, a callable object) would recurse
    without end; it is a clear error instead."""

    def __init__(self, function):
        self.function = function

    def __enter__(self):
        if any(f is self.function for f in _ACTIVE):
            from s2s_ad.errors import APIUsageError
            raise APIUsageError(
                f"s2s_ad cannot differentiate a call of {self.function!r} held in a variable "
                f"here: a function chosen at run time is differentiated through a derivative "
                f"specialised on its identity, and this one has none (a functools.partial, "
                f"a bound method or a callable object)", None,
                "pass a plain function (a def, a lambda or a numpy function), or call "
                "the function by its name in f")
        _ACTIVE.append(self.function)
        return self

    def __exit__(self, *exc):
        _ACTIVE.pop()
        return False


def _differentiable(value):
    """A float, a float array, or a list, tuple or dict holding one (`g(params)` with
    params a list of arrays: its gradient was left out, a silent zero)."""
    if isinstance(value, (float, np.floating)):
        return True
    if isinstance(value, (list, tuple)):
        return any(_differentiable(item) for item in value)
    if isinstance(value, dict):
        return any(_differentiable(item) for item in value.values())
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"


# f(a, b) as a def s2s_ad reads, whatever f is (a ufunc, a builtin, a def): its derivative
# is specialised on f's identity, so f is differentiated as a named callee
def _apply_1(function, a):
    return function(a)


def _apply_2(function, a, b):
    return function(a, b)


def _apply_3(function, a, b, c):
    return function(a, b, c)


def _apply_4(function, a, b, c, d):
    return function(a, b, c, d)


def is_applier(function):
    """Whether `function` is a copy of _apply_n made for one held function. Its derivatives
    are specialised on that function's identity even where S2S_AD_GENERAL asks for general
    derivatives: the general one of an applier comes back to function_vjp for the same
    function, which has no other way to differentiate it."""
    code = getattr(function, "__code__", None)
    return code in (_apply_1.__code__, _apply_2.__code__, _apply_3.__code__,
                    _apply_4.__code__) or any(code is f.__code__ for f in _MANY.values())


_APPLIERS = {}    # (id(held function), arity) -> (the function, its own copy of _apply_n)


def _applier(function, args):
    """A copy of _apply_n for `function` alone: its derivatives get a dispatcher of their
    own, specialised on this one function (one shared _apply_n would reach the general
    derivative, which comes back here, after eight functions)."""
    import types
    key = (id(function), len(args))
    found = _APPLIERS.get(key)
    if found is None or found[0] is not function:
        base = _applied(function, args)
        found = _APPLIERS[key] = (function, types.FunctionType(
            base.__code__, base.__globals__, base.__name__, base.__defaults__,
            base.__closure__))
    return found[1]


def _applied(function, args):
    """The _apply_n for len(args) (plain branches: a file written by the CLI copies the
    functions this one uses, not module-level tables)."""
    n = len(args)
    if n == 1:
        return _apply_1
    if n == 2:
        return _apply_2
    if n == 3:
        return _apply_3
    if n == 4:
        return _apply_4
    return _apply_many(n)


_MANY = {}      # n -> _apply_n for n > 4 (h(*x) of a def of yours taking *args, x of n items)


def _apply_many(n):
    """_apply_n for n arguments, compiled from its source, which linecache shows to
    s2s_ad's parser (set again at each use: linecache.clearcache() forgets it)."""
    import linecache
    names = ", ".join(f"a{k}" for k in range(n))
    text = f"def _apply_{n}(function, {names}):\n    return function({names})\n"
    filename = f"<s2s_ad _apply_{n}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    if n not in _MANY:
        namespace = {}
        exec(compile(text, filename, "exec"), namespace)
        _MANY[n] = namespace[f"_apply_{n}"]
    return _MANY[n]


def _unbound(function, args):
    """(function, args, how many arguments were put first): a bound method `m.loss` held
    (a new object at each read, so no derivative is specialised on it) as its plain
    function with the object first, `M.loss` and (m, *args); a callable object `model` as
    `Model.__call__` and (model, *args). The object gets no
    derivative here: the derivative of f refuses a method of an object that carries one
    (transforms/held_methods.py)."""
    import inspect
    from s2s_ad.runtime_functions import _refuse_argument_writes
    if inspect.ismethod(function) and inspect.isfunction(function.__func__):
        unbound = function.__func__, (function.__self__,) + tuple(args), 1
    elif not inspect.isclass(function) \
            and inspect.isfunction(getattr(type(function), "__call__", None)):
        # a callable object (a model called as model(x)): its class's __call__ with the
        # object first, which has an identity to specialise on (the object gets no
        # derivative here either)
        unbound = type(function).__call__, (function,) + tuple(args), 1
    else:
        unbound = function, tuple(args), 0
    _refuse_argument_writes(*unbound)
    return unbound


def _refuse_argument_writes(function, args, first):
    """A located error when `function` writes into an array, list, dict or object it is
    given (`x *= 2.0` in a layer's forward): its derivative, derived on its own, cannot
    tell the caller's derivative that the caller's value changed, and running it again
    (as its vjp does) would write twice. The object a method is called on (`self.cache =
    x`) is refused too: the call runs, then its vjp runs it again, so the object's state
    would be updated twice."""
    from s2s_ad.users_defs import is_users_def
    if not is_users_def(function):          # (a derivative s2s_ad made, a library's def)
        return
    from s2s_ad.analyses.argument_writes import parameter_writes
    from s2s_ad.refusals import write_refusal
    writes = parameter_writes(function, type(args[0]) if first else None,
                              getattr(args[0], "__dict__", None) if first else None)
    if not writes:
        return
    try:
        given = inspect.signature(function).bind(*args).arguments
    except TypeError:
        return
    for position, (name, value) in enumerate(given.items()):
        if position < first and name in writes:
            # a state update of the object (`self.calls += 1`): the call runs, then its
            # vjp runs it again, so it would happen twice
            raise write_refusal(function, writes[name], "object", state=True)
        kind = _changeable(value) if position >= first and name in writes else ""
        if kind:
            raise write_refusal(function, writes[name], kind)


def _changeable(value):
    """The name of what a write through `value` may change that the caller may hold (an
    array, a list, dict or set, an object with attributes, one a tuple holds), else ""."""
    if isinstance(value, tuple):
        return next(filter(None, map(_changeable, value)), "")
    if isinstance(value, (np.ndarray, list, dict, set, bytearray)):
        return "array" if isinstance(value, np.ndarray) else type(value).__name__
    return "object" if hasattr(value, "__dict__") and not (
        inspect.isroutine(value) or inspect.isclass(value) or inspect.ismodule(value)) else ""


def function_vjp(function, args, cotangent):
    """The adjoints of `args` of function(*args) for `cotangent` (0.0 for arguments that
    are not floating point)."""
    from s2s_ad.runtime_functions import _unbound
    function, args, first = _unbound(function, args)
    positions = tuple(k for k, a in enumerate(args) if k >= first and _differentiable(a))
    adjoints = [0.0] * len(args)
    if type(cotangent) is float and cotangent == 0.0:
        # the zero standing for any shape (a result nothing reads, in a gradient
        # differentiated again): every adjoint is zero
        positions = ()
    if positions:
        from s2s_ad import api
        from s2s_ad.runtime_functions import _Deriving, _applier   # (a CLI file: s2s_ad)
        if _holds_zero_items(cotangent) or isinstance(cotangent, dict):
            # a list result with unused items, a dict result with entries never read
            cotangent = _shaped_like(cotangent, function(*args))
        with _Deriving(function):
            parts = api.vjp(_applier(function, args), wrt=tuple(k + 1 for k in positions))(
                function, *args, cotangent)
        for k, part in zip(positions, parts):
            adjoints[k] = part
    return adjoints[first:]


def function_jvp(function, args, tangents):
    """The tangent of function(*args) along `tangents` (one per argument)."""
    from s2s_ad.runtime_functions import _unbound
    function, args, first = _unbound(function, args)
    tangents = (0.0,) * first + tuple(tangents)
    positions = tuple(k for k, a in enumerate(args) if k >= first and _differentiable(a))
    if not positions:
        return 0.0
    from s2s_ad import api
    from s2s_ad.runtime_functions import _Deriving, _applier
    along = tuple(_zero_tangent_like(tangents[k], args[k]) for k in positions)
    with _Deriving(function):
        return api.jvp(_applier(function, args), wrt=tuple(k + 1 for k in positions))(
            function, *args, along)[1]


def function_vjp_tangent(function, args, cotangent, arg_tangents, cotangent_tangent):
    """The tangent of function_vjp(function, args, cotangent) along the tangents of args
    and of the cotangent (forward over reverse: s2s_ad.hvp through a held function)."""
    from s2s_ad.runtime_functions import _unbound
    function, args, first = _unbound(function, args)
    if first and isinstance(arg_tangents, (list, tuple)):
        arg_tangents = (0.0,) * first + tuple(arg_tangents)
    positions = tuple(k for k, a in enumerate(args) if k >= first and _differentiable(a))
    result = [0.0] * len(args)
    if not positions:
        return result[first:]
    from s2s_ad import api
    from s2s_ad.derivation import Request
    from s2s_ad.derivative_registry import dispatcher_of, specialised_derivative
    from s2s_ad.runtime_functions import _applier
    apply = _applier(function, args)
    vjp = api.vjp(apply, wrt=tuple(k + 1 for k in positions))
    # the vjp specialised on the function's identity: it calls the function by name (the
    # general one would call function_vjp again)
    dispatcher = dispatcher_of(vjp)
    signature = dispatcher.signature_for((function, *args, cotangent), {})
    vjp = dispatcher.specialisation(signature)
    if vjp is None and dispatcher._failure(signature) is not None:
        raise dispatcher._failure(signature)    # the located error building it raised
    if vjp is None:
        raise TypeError("s2s_ad cannot specialise the derivative of the held function "
                        f"{function!r} (too many specialisations)")
    along = tuple(_tangent_of(_item(arg_tangents, k), args[k]) for k in positions) \
        + (_tangent_of(cotangent_tangent, cotangent),)
    # its jvp specialised on these arguments too, built directly: the general one would
    # not know the classes of a model's layers the vjp calls methods of
    # (a generated vjp takes apply's parameters and its cotangent, in its own order)
    given = dict(zip(inspect.signature(apply).parameters, (function, *args)))
    params = list(inspect.signature(vjp).parameters)
    cotangent_name = next(p for p in params if p not in given)
    names = list(given)
    wrt = tuple(names[k + 1] for k in positions) + (cotangent_name,)
    values = [given[p] if p in given else cotangent for p in params]
    jvp_of_vjp = specialised_derivative(vjp, Request("jvp", wrt, single=False), values)
    tangent_name = next(p for p in inspect.signature(jvp_of_vjp).parameters
                        if p not in params)
    parts = jvp_of_vjp(**dict(zip(params, values)), **{tangent_name: along})[1]
    for k, part in zip(positions, parts):
        result[k] = part
    return result[first:]


def _holds_zero_items(cotangent):
    """A list, tuple or dict cotangent with the scalar zero for an item (an item of the
    result the derivative did not use), which vjp's check of shapes refuses."""
    items = cotangent.values() if isinstance(cotangent, dict) else cotangent \
        if isinstance(cotangent, (list, tuple)) else ()
    return any(type(item) is float and item == 0.0 or _holds_zero_items(item)
               for item in items)


def _shaped_like(cotangent, value):
    """cotangent with each scalar-zero item made zeros of the matching item of value."""
    if isinstance(cotangent, dict):
        # in the order of value's keys, an entry not read having the cotangent 0
        return {key: _shaped_like(cotangent.get(key, 0.0), item)
                for key, item in value.items()}
    if isinstance(cotangent, (list, tuple)):
        return type(cotangent)(_shaped_like(item, part) for item, part in zip(cotangent, value))
    if type(cotangent) is float and cotangent == 0.0 and np.ndim(value):
        return np.zeros(np.shape(value))
    return cotangent


def _zero_tangent_like(tangent, value):
    """The tangent for `value`: itself, or zeros in value's structure where it is the
    scalar zero standing for any shape."""
    if isinstance(value, (list, tuple, dict)) and not isinstance(tangent, (list, tuple, dict)):
        from s2s_ad.runtime import zero_adjoint
        return zero_adjoint(value)
    if isinstance(value, np.ndarray) and value.ndim and np.ndim(tangent) == 0:
        return np.zeros_like(value, dtype=float)
    return tangent


def _item(tangents, k):
    return tangents[k] if isinstance(tangents, (list, tuple)) else tangents


def _tangent_of(tangent, value):
    """A tangent of value's shape and float type (a zero tangent may be the number 0.0)."""
    if np.ndim(value) and np.ndim(tangent) == 0:
        # of value's float dtype: a float32 vjp differentiated again stays float32
        kind = getattr(value, "dtype", None)
        dtype = kind if kind is not None and kind.kind == "f" else float
        return np.zeros(np.shape(value), dtype=dtype) + tangent
    if not np.ndim(value) and not isinstance(value, np.ndarray):
        return float(tangent)
    return tangent
