"""Templates of a call of a function held in a variable (runtime_functions.py): the
derivative of `call_function(f, args)` is f's own vjp / jvp, derived when the call runs.
function_vjp's tangent (forward over reverse, s2s_ad.hvp) is f's jvp of its vjp, and its
adjoint (reverse over reverse, grad of grad) the same jvp of the vjp along the adjoint;
function_jvp and function_vjp_tangent have none: forward over forward and third order
through such a call are located MissingDerivativeErrors."""
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


@adjoint(function_vjp)
def function_vjp_adjoint(out, function, args, cotangent):
    """out = J(args)^T c is the gradient of <c, f(args)> in args, so its adjoint in args
    is that Hessian (symmetric) times d[out]: the vjp's tangent along d[out] with c held;
    in c it is J d[out], f's jvp (grad of grad through a held function or method)"""
    d[args] += function_vjp_tangent(function, args, cotangent, d[out], 0.0)
    d[cotangent] += function_jvp(function, args, d[out])


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
