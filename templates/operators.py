"""Python operators: + - * / ** unary -, @, % (and // as non-differentiable)."""
import operator

import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, nondifferentiable
from s2s_ad.runtime import matmul_adjoint_a, matmul_adjoint_b, unbroadcast


@adjoint(operator.add)
def add_adjoint(y, a, b):
    d[a] += unbroadcast(d[y], a)
    d[b] += unbroadcast(d[y], b)


@adjoint(operator.sub)
def sub_adjoint(y, a, b):
    """d(a - b) = da - db   (negate after reducing: b may be the smaller operand)"""
    d[a] += unbroadcast(d[y], a)
    d[b] += -unbroadcast(d[y], b)


@adjoint(operator.mul)
def mul_adjoint(y, a, b):
    d[a] += unbroadcast(d[y] * b, a)
    d[b] += unbroadcast(d[y] * a, b)


@adjoint(operator.truediv)
def truediv_adjoint(y, a, b):
    d[a] += unbroadcast(d[y] / b, a)
    d[b] += -unbroadcast(d[y] * y, b) / b     # b is constant along the summed axes


@adjoint(operator.pow)
def pow_adjoint(y, a, b):
    """d(a**b) = b a**(b-1) da + log(a) a**b db"""
    d[a] += unbroadcast(d[y] * b * a ** (b - 1), a)
    d[b] += unbroadcast(d[y] * y * np.log(a), b)


@adjoint(operator.neg)
def neg_adjoint(y, a):
    d[a] += -d[y]


@adjoint(operator.pos)
def pos_adjoint(y, a):
    d[a] += d[y]


@adjoint(operator.matmul)
def matmul_adjoint(y, a, b):
    d[a] += matmul_adjoint_a(d[y], a, b)
    d[b] += matmul_adjoint_b(d[y], a, b)


@adjoint(operator.mod)
def mod_adjoint(y, a, b):
    """a % b = a - b * floor(a / b)"""
    d[a] += unbroadcast(d[y], a)
    d[b] += unbroadcast(-d[y] * np.floor_divide(a, b), b)


nondifferentiable(operator.floordiv, operator.lt, operator.le, operator.gt, operator.ge,
                  operator.eq, operator.ne, operator.not_)
