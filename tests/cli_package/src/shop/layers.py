"""Helpers the model imports relatively and absolutely."""
import numpy as np

BIAS = 0.25


def dense(x, w):
    return np.tanh(x * w + BIAS)


def scale(v):
    return 3.0 * v
