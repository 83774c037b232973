"""Helpers in a second module of the user project."""
import numpy as np

OFFSET = 0.5


def softplus(x):
    return np.log(1.0 + np.exp(x))


def affine(x, w, b=OFFSET):
    return x * w + b
