"""A module of a package: relative and absolute package imports, a name the derivative reads."""
import numpy as np

from ..layers import dense
from shop.layers import scale
from . import settings


def loss(x, w, b):
    return np.sum(scale(dense(x, w)) * b) + settings.DECAY * np.sum(w * w)


def penalty(w, b):
    return np.sum(w * b) + b * b
