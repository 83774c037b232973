"""Spec rows of runtime_functions.call_function (a call of a function held in a variable,
which the general derivative differentiates through the function's own vjp / jvp) and of
runtime_mappings' dict builders."""
import numpy as np

from primitive_specs import BINARY, POSITIVE, REAL, UNARY, Spec
from s2s_ad.runtime_checks import check_cotangent
from s2s_ad.runtime_functions import call_function, function_vjp
from s2s_ad.runtime_mappings import make_mapping, mapping_values
from s2s_ad.runtime_keywords import (bound_arguments, given_part, given_scatter, keyword_part,
                                    keyword_scatter, keyword_tangents)


def _weighted(a, b):
    return np.sin(a) * b


def call_tanh(x):
    return call_function(np.tanh, (x,))


def call_weighted(a, b):
    return call_function(_weighted, (a, b))


def vjp_of_held_tanh(x, c):
    return function_vjp(np.tanh, (x,), c)[0]


def _weighted_again(a, b):
    return np.sin(a) * b


def vjp_of_held_weighted(a, b, c):
    # (its own function: each held function's derivatives are specialised on at most
    # eight signatures, and call_weighted's rows use _weighted's)
    parts = function_vjp(_weighted_again, (a, b), c)
    return parts[0] * np.cos(parts[1])


def built_mapping(a, b):
    d = make_mapping(("a", "b"), (a, b))
    return d["a"] * np.sin(d["b"])


def mapping_read_back(a, b):
    v = mapping_values(make_mapping(("a", "b"), (a, b)), ("b", "a"))
    return v[0] * np.cos(v[1])


def checked_cotangent(c, y):
    return check_cotangent(c, y) * np.cos(y)


def _softplus(x, shift=0.0, beta=1.0):
    return np.log1p(np.exp(beta * (x - shift))) / beta


def called_with_a_keyword(a, b):
    # _softplus(a, beta=b): beta at position 2, shift's default filled in between
    return call_function(_softplus, bound_arguments(_softplus, (a,), ("beta",), (b,), "spec"))


def keyword_entry(a, b):
    return keyword_part([np.sin(a), 0.5, b * b], _softplus, (a,), ("beta",))[0] * 2.0


def given_entry(a, b):
    return given_part([a * b, 0.5, np.cos(b)], _softplus, (a,), ("beta",))[0]


def placed_tangents(a, b):
    t = keyword_tangents(_softplus, (a,), ("beta",), (np.sin(a),), (b,))
    return t[0] * t[2] + t[1]


def keyword_scattered(a, b):
    t = keyword_scatter([a * b], _softplus, (a,), ("beta",))
    return t[2] + t[0] + t[1]


def given_scattered(a, b):
    t = given_scatter([a * b], _softplus, (a,), ("beta",))
    return t[0] + t[2]


SPECS = [
    Spec(check_cotangent, checked_cotangent, [((), ()), ((4,), (4,)), ((3, 4), (3, 4))],
         wrt=(0,), modes=("reverse", "forward")),
    Spec(make_mapping, built_mapping, BINARY, modes=("reverse", "forward")),
    Spec(mapping_values, mapping_read_back, BINARY, modes=("reverse", "forward")),
    Spec(call_function, call_tanh, UNARY, modes=("reverse", "forward")),
    Spec(call_function, call_weighted, BINARY, modes=("reverse", "forward")),
    # f's vjp itself differentiated (grad of a gradient calling a held function)
    Spec(function_vjp, vjp_of_held_tanh, [((), ()), ((4,), (4,)), ((3, 4), (3, 4))],
         modes=("reverse", "forward")),
    Spec(function_vjp, vjp_of_held_weighted, [((), (), ()), ((4,), (4,), (4,)),
                                              ((3, 4), (3, 4), (3, 4))],
         modes=("reverse", "forward")),
    # keywords of a held function's call put at their positions (runtime_keywords.py)
    Spec(bound_arguments, called_with_a_keyword, [((), ()), ((4,), ()), ((3, 4), ())],
         domains=(REAL, POSITIVE), modes=("reverse", "forward")),
    Spec(keyword_part, keyword_entry, BINARY, modes=("reverse", "forward")),
    Spec(given_part, given_entry, BINARY, modes=("reverse", "forward")),
    Spec(keyword_tangents, placed_tangents, BINARY, modes=("reverse", "forward")),
    Spec(keyword_scatter, keyword_scattered, BINARY, modes=("reverse", "forward")),
    Spec(given_scatter, given_scattered, BINARY, modes=("reverse", "forward")),
]
