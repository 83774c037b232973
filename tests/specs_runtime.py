"""Spec rows for the runtime helpers that generated gradients call (what grad of grad and
forward-over-reverse differentiate)."""

from primitive_specs import Spec
from s2s_ad.runtime import broadcast_tangent, unbroadcast, unreduce
from s2s_ad.runtime_linalg import matmul_adjoint_a, matmul_adjoint_b
from s2s_ad.runtime_flow import (clear_adjoint, copy_adjoint, float_gradient, match_adjoint,
                                 scatter_add, take_adjoint)


def use_broadcast_tangent(t, y):
    return broadcast_tangent(t, y)


def use_matmul_adjoint_a(g, a, b):
    return matmul_adjoint_a(g, a, b)


def use_matmul_adjoint_b(g, a, b):
    return matmul_adjoint_b(g, a, b)


def use_unbroadcast(g, x):
    return unbroadcast(g, x)


def use_unreduce_all(g, x):
    return unreduce(g, x)


def use_unreduce_axis(g, x):
    return unreduce(g, x, 1, False)


def use_unreduce_keepdims(g, x):
    return unreduce(g, x, 0, True)


def use_match(a, x):
    return match_adjoint(a, x)


def use_float_gradient(g):
    return float_gradient(g) * 3.0


def use_copy(a):
    return copy_adjoint(a) * 3.0


def use_take(a):
    return take_adjoint(a, 1) * 2.0


def use_clear(a):
    return clear_adjoint(a * 1.0, 2)


def use_scatter(a, x, g):
    return scatter_add(a * 1.0, x, 1, g)


# (g, a, b) shapes: g has the shape of a @ b
MATMUL_ADJOINT = [((3, 5), (3, 4), (4, 5)), ((5,), (4,), (4, 5)), ((3,), (3, 4), (4,)),
                  ((), (4,), (4,)), ((2, 3, 5), (2, 3, 4), (4, 5)),
                  ((2, 3, 5), (2, 3, 4), (2, 4, 5)), ((2, 3, 5), (3, 4), (2, 4, 5)),
                  ((2, 3), (2, 3, 4), (4,)), ((2, 4), (3,), (2, 3, 4)),
                  ((2, 5, 3, 2), (2, 1, 3, 4), (5, 4, 2))]

SPECS = [
    Spec(broadcast_tangent, use_broadcast_tangent, [((4,), (3, 4)), ((3, 1), (3, 4)),
                                                    ((2, 2), (2, 2))], wrt=(0,)),
    Spec(matmul_adjoint_a, use_matmul_adjoint_a, MATMUL_ADJOINT, wrt=(0, 2)),
    Spec(matmul_adjoint_b, use_matmul_adjoint_b, MATMUL_ADJOINT, wrt=(0, 1)),
    Spec(unbroadcast, use_unbroadcast, [((3, 4), (4,)), ((3, 4), (3, 1)), ((2, 3), (2, 3))],
         wrt=(0,)),
    Spec(unreduce, use_unreduce_all, [((), (2, 3))], wrt=(0,)),
    Spec(unreduce, use_unreduce_axis, [((2,), (2, 3))], wrt=(0,)),
    Spec(unreduce, use_unreduce_keepdims, [((1, 3), (2, 3))], wrt=(0,)),
    Spec(match_adjoint, use_match, [((3,), (3,)), ((), ())], wrt=(0,)),
    Spec(copy_adjoint, use_copy, [((4,),), ((2, 3),)]),
    Spec(float_gradient, use_float_gradient, [((),), ((4,),), ((2, 3),)]),
    Spec(take_adjoint, use_take, [((4,),)]),
    Spec(clear_adjoint, use_clear, [((4,),)]),
    Spec(scatter_add, use_scatter, [((4,), (4,), ())], wrt=(0, 2)),
]
