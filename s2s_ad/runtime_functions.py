"""Calls of a function held in a variable (a parameter, a value chosen at run time), in a
derivative built without knowing which function it is (the general derivative).

    t = f(x, w)     ->   t = call_function(f, (x, w))
                         backward:  x_bar, w_bar = function_vjp(f, (x, w), t_bar)

A derivative specialised on its arguments knows the function (its identity is part of the
signature) and differentiates it like any named callee; this is the fallback, deriving f's
vjp / jvp when the call runs (s2s_ad's own derivatives are cached per function). Arguments
that are not floating-point numbers or arrays get no derivative (0.0).
"""
import numpy as np


def call_function(function, args):
    """function(*args)."""
    return function(*args)


def _differentiable(value):
    if isinstance(value, (float, np.floating)):
        return True
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


_APPLY = {1: _apply_1, 2: _apply_2, 3: _apply_3, 4: _apply_4}


def _applied(function, args):
    if len(args) not in _APPLY:
        raise TypeError(f"s2s_ad's general derivative differentiates a call of a function "
                        f"held in a variable with 1 to 4 arguments, not {len(args)}")
    return _APPLY[len(args)]


def function_vjp(function, args, cotangent):
    """The adjoints of `args` of function(*args) for `cotangent` (0.0 for arguments that
    are not floating point)."""
    positions = tuple(k for k, a in enumerate(args) if _differentiable(a))
    adjoints = [0.0] * len(args)
    if positions:
        from . import api
        parts = api.vjp(_applied(function, args), wrt=tuple(k + 1 for k in positions))(
            function, *args, cotangent)
        for k, part in zip(positions, parts):
            adjoints[k] = part
    return adjoints


def function_jvp(function, args, tangents):
    """The tangent of function(*args) along `tangents` (one per argument)."""
    positions = tuple(k for k, a in enumerate(args) if _differentiable(a))
    if not positions:
        return 0.0
    from . import api
    along = tuple(np.zeros_like(args[k], dtype=float) if np.ndim(tangents[k]) == 0
                  and np.ndim(args[k]) else tangents[k] for k in positions)
    return api.jvp(_applied(function, args), wrt=tuple(k + 1 for k in positions))(
        function, *args, along)[1]
