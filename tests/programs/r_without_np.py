"""np.r_ imported by name in a module that does not bind numpy as a module: s2s_ad
rewrites np.r_[...] to numpy calls it must be able to name, so this is a located error."""
import numpy
from numpy import r_


def imported_r_(x):
    return numpy.sum(r_[x, x])  # LINE imported
