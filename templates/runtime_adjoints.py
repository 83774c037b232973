"""Reverse templates of the runtime helpers, so generated gradients can be differentiated
again in reverse mode (grad of grad). Each helper is linear in its adjoint argument and its
adjoint is the transposed map: unbroadcast sums over broadcast axes, so its adjoint
broadcasts back; unreduce spreads over reduced axes, so its adjoint sums over them.
(Forward templates of the same helpers are in runtime_helpers.py.)
"""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d
from s2s_ad.runtime import broadcast_tangent, unbroadcast, unreduce
from s2s_ad.runtime_linalg import matmul_adjoint_a, matmul_adjoint_b
from s2s_ad.runtime_flow import (clear_adjoint, copy_adjoint, float_gradient, match_adjoint,
                                 scatter_add, take_adjoint)


@adjoint(unbroadcast)
def unbroadcast_adjoint(out, g, x):
    """out = g summed down to x's shape; its adjoint broadcasts back to g's shape"""
    d[g] += broadcast_tangent(d[out], g)


@adjoint(unreduce)
def unreduce_adjoint(out, g, x, axis=None, keepdims=False):
    """out = g spread over x's shape; its adjoint sums back over the reduced axes"""
    d[g] += np.sum(d[out], axis=axis, keepdims=keepdims)


@adjoint(match_adjoint)
def match_adjoint_adjoint(out, a, x):
    """out = a, broadcast to x's shape when a is still a scalar zero"""
    d[a] += unbroadcast(d[out], a)


@adjoint(float_gradient)
def float_gradient_adjoint(out, g):
    """out = g as floats: the identity on values"""
    d[g] += d[out]


@adjoint(copy_adjoint)
def copy_adjoint_adjoint(out, a):
    """out = a copy of a"""
    d[a] += d[out]


@adjoint(take_adjoint)
def take_adjoint_adjoint(out, a, index):
    """out = a[index]"""
    d[a] += scatter_add(0.0, a, index, d[out])


@adjoint(clear_adjoint)
def clear_adjoint_adjoint(out, a, index):
    """out = a with a[index] set to zero"""
    d[a] += clear_adjoint(copy_adjoint(d[out]), index)


@adjoint(scatter_add)
def scatter_add_adjoint(out, a, x, index, g):
    """out = a with g added at a[index]"""
    d[a] += d[out]
    d[g] += unbroadcast(take_adjoint(d[out], index), g)


@adjoint(broadcast_tangent)
def broadcast_tangent_adjoint(out, t, y):
    """out = t broadcast to y's shape; its adjoint sums back to t's shape"""
    d[t] += unbroadcast(d[out], t)


# With phi(a, b) = <g, a @ b>: matmul_adjoint_a(g, a, b) = dphi/da (it does not depend on
# a), matmul_adjoint_b(g, a, b) = dphi/db. Both are linear in g and in the other factor.
@adjoint(matmul_adjoint_a)
def matmul_adjoint_a_adjoint(out, g, a, b):
    """<h, dphi/da> = phi(h, b) = <g, h @ b>"""
    d[g] += unbroadcast(np.matmul(d[out], b), g)
    d[b] += matmul_adjoint_b(g, d[out], b)


@adjoint(matmul_adjoint_b)
def matmul_adjoint_b_adjoint(out, g, a, b):
    """<h, dphi/db> = phi(a, h) = <g, a @ h>"""
    d[g] += unbroadcast(np.matmul(a, d[out]), g)
    d[a] += matmul_adjoint_a(g, a, d[out])
