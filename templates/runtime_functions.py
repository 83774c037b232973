"""Templates of a call of a function held in a variable (runtime_functions.py): the
derivative of `call_function(f, args)` is f's own vjp / jvp, derived when the call runs.
function_vjp's tangent (forward over reverse, s2s_ad.hvp) is f's jvp of its vjp;
function_vjp has no reverse template and function_jvp none at all: reverse over reverse
and forward over forward through such a call are located MissingDerivativeErrors."""
from s2s_ad.ad.template_dsl import adjoint, tangent, d
from s2s_ad.runtime_checks import check_cotangent
from s2s_ad.runtime_functions import (call_function, function_jvp, function_vjp,
                                     function_vjp_tangent)


@adjoint(call_function)
def call_function_adjoint(y, function, args):
    """the adjoints of f's arguments: f's vjp at args"""
    d[args] += function_vjp(function, args, d[y])


@tangent(call_function)
def call_function_tangent(y, function, args):
    """the tangent of f(*args): f's jvp at args"""
    d[y] = function_jvp(function, args, d[args])


@tangent(function_vjp)
def function_vjp_tangent_template(out, function, args, cotangent):
    """the vjp's tangent along the arguments' and the cotangent's tangents"""
    d[out] = function_vjp_tangent(function, args, cotangent, d[args], d[cotangent])


# ---- a vjp's own cotangent check: the cotangent passes through (a jvp of a vjp along its
# cotangent, as function_vjp_tangent takes, needs its tangent) ----------------------------
@adjoint(check_cotangent)
def check_cotangent_adjoint(out, cotangent, output):
    """the checked cotangent is the cotangent"""
    d[cotangent] += d[out]


@tangent(check_cotangent)
def check_cotangent_tangent(out, cotangent, output):
    """the checked cotangent is the cotangent"""
    d[out] = d[cotangent]
