"""Templates of a call of a function held in a variable (runtime_functions.py): the
derivative of `call_function(f, args)` is f's own vjp / jvp, derived when the call runs.
function_vjp and function_jvp have no templates: a derivative through such a call cannot
be differentiated again (a located MissingDerivativeError)."""
from s2s_ad.ad.template_dsl import adjoint, tangent, d
from s2s_ad.runtime_functions import call_function, function_jvp, function_vjp


@adjoint(call_function)
def call_function_adjoint(y, function, args):
    """the adjoints of f's arguments: f's vjp at args"""
    d[args] += function_vjp(function, args, d[y])


@tangent(call_function)
def call_function_tangent(y, function, args):
    """the tangent of f(*args): f's jvp at args"""
    d[y] = function_jvp(function, args, d[args])
