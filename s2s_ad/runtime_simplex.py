"""Points of the probability simplex given by all their components or all but the last,
as scipy.stats.dirichlet takes them (components along the first axis), for its
derivatives (templates/scipy_stats_dirichlet.py). k is the number of components.

    simplex_point(x, k)        x with its last component 1 - sum(x) appended when x has
                               k - 1 components, else x itself
    simplex_extension(v, k)    the linear part of that: v with -sum(v) appended (a tangent)
    simplex_adjoint(g, x)      its adjoint: g[:-1] - g[-1] when x has one component fewer
                               than g, else g
"""
import numpy as np


def simplex_point(x, k):
    x = np.asarray(x)
    if x.shape[0] == k - 1:
        return np.concatenate([x, 1.0 - np.sum(x, axis=0, keepdims=True)])
    return x


def simplex_extension(v, k):
    v = np.asarray(v)
    if v.shape[0] == k - 1:
        return np.concatenate([v, -np.sum(v, axis=0, keepdims=True)])
    return v


def simplex_adjoint(g, x):
    g = np.asarray(g)
    if g.shape[0] == np.shape(x)[0] + 1:
        return g[:-1] - g[-1:]
    return g
