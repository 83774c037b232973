"""A small user project the CLI tests differentiate (copied to a temporary directory)."""
import numpy as np

from helpers import affine, softplus

SCALE = 2.0


def loss(x, w):
    total = 0.0
    for row in x:
        total = total + np.sum(softplus(affine(row, w)) * SCALE)
    return total


def penalty(w, lam=0.1):
    return lam * np.sum(w ** 2)


def unsupported(x):
    try:
        return x * 2.0
    except ValueError:
        return x


def mean_square(w):
    """Its gradient needs runtime helpers that use `math` (the mean's element count)."""
    return np.mean(w ** 2) + np.mean(w[:2])
