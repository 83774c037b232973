"""Spec rows for elementwise numpy functions and the math module (see primitive_specs)."""
import numpy as np

from primitive_specs import POSITIVE, UNARY, Spec


def np_exp(x):
    return np.exp(x)


def np_log(x):
    return np.log(x)


def np_sin(x):
    return np.sin(x)


def np_cos(x):
    return np.cos(x)


def np_tanh(x):
    return np.tanh(x)


SPECS = [
    Spec(np.exp, np_exp, UNARY),
    Spec(np.log, np_log, UNARY, (POSITIVE,)),
    Spec(np.sin, np_sin, UNARY),
    Spec(np.cos, np_cos, UNARY),
    Spec(np.tanh, np_tanh, UNARY),
]
