"""Picking between arrays: np.select, np.choose, np.nan_to_num (np.real, np.imag and
np.conj, real or complex, are in numpy_complex.py), and np.bincount's weighted counts
(each weight picked into the bin its index names).

np.select and np.choose pass each element's derivative from the array it was picked
from (runtime_pieces.unselect / unchoose sum a choice's share back to its shape).
np.nan_to_num passes the derivative where x is finite; where it replaced a nan or an
infinity the result is the replacement, and the derivative goes to `nan=` / `posinf=` /
`neginf=` when those are differentiated.
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import broadcast_tangent
from s2s_ad.runtime_flow import float_dtype, match_adjoint
from s2s_ad.runtime_pieces import unchoose, unselect


# ---- picking between arrays ----------------------------------------------------------------
@adjoint(np.select)
def select_adjoint(y, condlist, choicelist, default=0):
    """each choice's (and the default's) adjoint: y_bar where it was selected"""
    _parts = unselect(d[y], condlist, choicelist, default)
    d[choicelist] += _parts[:-1]
    d[default] += _parts[-1]


@tangent(np.select)
def select_tangent(y, condlist, choicelist, default=0):
    """the tangent of the array selected, element by element"""
    d[y] = np.select(condlist, d[choicelist], d[default])


@adjoint(np.choose)
def choose_adjoint(y, a, choices, mode="raise"):
    """each choice's adjoint: y_bar where a picked it"""
    d[choices] += unchoose(d[y], a, choices, mode)


@tangent(np.choose)
def choose_tangent(y, a, choices, mode="raise"):
    """the tangent of the array picked, element by element"""
    d[y] = np.choose(a, d[choices], mode=mode)


@adjoint(np.nan_to_num)
def nan_to_num_adjoint(y, x, copy=True, nan=0.0, posinf=None, neginf=None):
    """x_bar = y_bar where x is finite, 0 where it was replaced; the replacements' own
    adjoints are the sums of y_bar over the places they filled"""
    d[x] += d[y] * np.isfinite(x)
    d[nan] += np.sum(d[y] * np.isnan(x))
    d[posinf] += np.sum(d[y] * (x == np.inf))
    d[neginf] += np.sum(d[y] * (x == -np.inf))


@tangent(np.nan_to_num)
def nan_to_num_tangent(y, x, copy=True, nan=0.0, posinf=None, neginf=None):
    """dx where x is finite, the replacement's tangent where it was replaced"""
    d[y] = d[x] * np.isfinite(x) + d[nan] * np.isnan(x) + d[posinf] * (x == np.inf) \
        + d[neginf] * (x == -np.inf)


# ---- weighted counts -------------------------------------------------------------------------
# y[k] = sum of weights[i] over the i with x[i] == k (x: non-negative integers, no derivative)
@adjoint(np.bincount)
def bincount_adjoint(y, x, weights=None, minlength=0):
    """weights_bar[i] = y_bar[x[i]]: each weight's bin's adjoint (numpy counts in float64;
    the adjoint takes the weights' dtype)"""
    d[weights] += match_adjoint(d[y], y)[x].astype(float_dtype(weights))


@tangent(np.bincount)
def bincount_tangent(y, x, weights=None, minlength=0):
    """the weights' tangents counted into the same bins"""
    d[y] = np.bincount(x, weights=broadcast_tangent(d[weights], weights), minlength=minlength)
