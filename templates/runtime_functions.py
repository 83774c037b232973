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
from s2s_ad.runtime_keywords import (bound_arguments, given_part, given_scatter,
                                    keyword_part, keyword_scatter, keyword_tangents)


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


# ---- keywords of such a call, put at their positions when it runs (runtime_keywords.py);
# each helper is linear in its adjoint or tangent arguments ----------------------------
@adjoint(bound_arguments)
def bound_arguments_adjoint(out, function, args, names, values, where):
    """out = args, then each keyword's value at its parameter's position (defaults
    between): each gets its entry of out_bar"""
    d[args] += given_part(d[out], function, args, names)
    d[values] += keyword_part(d[out], function, args, names)


@tangent(bound_arguments)
def bound_arguments_tangent(out, function, args, names, values, where):
    """the tangents at the same positions, zero at the defaults filled in"""
    d[out] = keyword_tangents(function, args, names, d[args], d[values])


@adjoint(given_part)
def given_part_adjoint(out, g, function, args, names):
    """out = g's first entries"""
    d[g] += given_scatter(d[out], function, args, names)


@tangent(given_part)
def given_part_tangent(out, g, function, args, names):
    """given_part is linear in g"""
    d[out] = given_part(d[g], function, args, names)


@adjoint(keyword_part)
def keyword_part_adjoint(out, g, function, args, names):
    """out = g's entries at the keywords' positions"""
    d[g] += keyword_scatter(d[out], function, args, names)


@tangent(keyword_part)
def keyword_part_tangent(out, g, function, args, names):
    """keyword_part is linear in g"""
    d[out] = keyword_part(d[g], function, args, names)


@adjoint(keyword_tangents)
def keyword_tangents_adjoint(out, function, args, names, arg_tangents, value_tangents):
    """out places arg_tangents first and value_tangents at the keywords' positions"""
    d[arg_tangents] += given_part(d[out], function, args, names)
    d[value_tangents] += keyword_part(d[out], function, args, names)


@tangent(keyword_tangents)
def keyword_tangents_tangent(out, function, args, names, arg_tangents, value_tangents):
    """keyword_tangents is linear in the tangents it places"""
    d[out] = keyword_tangents(function, args, names, d[arg_tangents], d[value_tangents])


@adjoint(keyword_scatter)
def keyword_scatter_adjoint(out, g, function, args, names):
    """the transpose of keyword_scatter is keyword_part"""
    d[g] += keyword_part(d[out], function, args, names)


@tangent(keyword_scatter)
def keyword_scatter_tangent(out, g, function, args, names):
    """keyword_scatter is linear in g"""
    d[out] = keyword_scatter(d[g], function, args, names)


@adjoint(given_scatter)
def given_scatter_adjoint(out, g, function, args, names):
    """the transpose of given_scatter is given_part"""
    d[g] += given_part(d[out], function, args, names)


@tangent(given_scatter)
def given_scatter_tangent(out, g, function, args, names):
    """given_scatter is linear in g"""
    d[out] = given_scatter(d[g], function, args, names)
