"""Spec rows of runtime_functions.call_function: a call of a function held in a variable,
which the general derivative differentiates through the function's own vjp / jvp."""
import numpy as np

from primitive_specs import BINARY, UNARY, Spec
from s2s_ad.runtime_functions import call_function


def _weighted(a, b):
    return np.sin(a) * b


def call_tanh(x):
    return call_function(np.tanh, (x,))


def call_weighted(a, b):
    return call_function(_weighted, (a, b))


SPECS = [
    Spec(call_function, call_tanh, UNARY, modes=("reverse", "forward")),
    Spec(call_function, call_weighted, BINARY, modes=("reverse", "forward")),
]
