"""Python operators: + - * / ** unary -, @, % (and // as non-differentiable). np.mod (alias
np.remainder), which % calls on arrays, shares the template of %."""
import operator

import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, is_one, nondifferentiable, tangent
from s2s_ad.runtime import broadcast_tangent, unbroadcast
from s2s_ad.runtime_linalg import matmul_adjoint_a, matmul_adjoint_b


@adjoint(operator.add)
def add_adjoint(y, a, b):
    d[a] += unbroadcast(d[y], a)
    d[b] += unbroadcast(d[y], b)


@tangent(operator.add)
def add_tangent(y, a, b):
    d[y] = broadcast_tangent(d[a] + d[b], y)


@adjoint(operator.sub)
def sub_adjoint(y, a, b):
    """d(a - b) = da - db   (negate after reducing: b may be the smaller operand)"""
    d[a] += unbroadcast(d[y], a)
    d[b] += -unbroadcast(d[y], b)


@tangent(operator.sub)
def sub_tangent(y, a, b):
    d[y] = broadcast_tangent(d[a] - d[b], y)


@adjoint(operator.mul)
def mul_adjoint(y, a, b):
    d[a] += unbroadcast(d[y] * b, a)
    d[b] += unbroadcast(d[y] * a, b)


@tangent(operator.mul)
def mul_tangent(y, a, b):
    d[y] = d[a] * b + a * d[b]


@adjoint(operator.truediv)
def truediv_adjoint(y, a, b):
    """d(a/b) = da / b - (a/b) db / b; for a written 1, y / b is y * y: b is not read,
    so the forward sweep need not keep it (a sigmoid's 1 + exp(-z))"""
    d[a] += unbroadcast(d[y] / b, a)
    # b is constant along the summed axes
    d[b] += -unbroadcast(d[y] * y * y, b) if is_one(a) else -unbroadcast(d[y] * y, b) / b


@tangent(operator.truediv)
def truediv_tangent(y, a, b):
    d[y] = -(y * y * d[b]) if is_one(a) else (d[a] - y * d[b]) / b


@adjoint(operator.pow)
def pow_adjoint(y, a, b):
    """d(a**b) = b a**(b-1) da + log(a) a**b db"""
    d[a] += unbroadcast(d[y] * b * a ** (b - (b != 0)), a)
    d[b] += unbroadcast(d[y] * y * np.log(a + (a == 0)), b)


@tangent(operator.pow)
def pow_tangent(y, a, b):
    d[y] = d[a] * b * a ** (b - (b != 0)) + d[b] * y * np.log(a + (a == 0))


@adjoint(operator.neg)
def neg_adjoint(y, a):
    d[a] += -d[y]


@tangent(operator.neg)
def neg_tangent(y, a):
    d[y] = -d[a]


@adjoint(operator.pos)
def pos_adjoint(y, a):
    d[a] += d[y]


@tangent(operator.pos)
def pos_tangent(y, a):
    d[y] = d[a]


@adjoint(operator.matmul)
def matmul_adjoint(y, a, b):
    d[a] += matmul_adjoint_a(d[y], a, b)
    d[b] += matmul_adjoint_b(d[y], a, b)


@tangent(operator.matmul)
def matmul_tangent(y, a, b):
    d[y] = d[a] @ b + a @ d[b]


@adjoint(operator.mod, np.remainder)
def mod_adjoint(y, a, b):
    """a % b = a - b * floor(a / b): d (a % b) = da - floor(a / b) db"""
    d[a] += unbroadcast(d[y], a)
    d[b] += unbroadcast(-d[y] * np.floor_divide(a, b), b)


@tangent(operator.mod, np.remainder)
def mod_tangent(y, a, b):
    d[y] = broadcast_tangent(d[a] - d[b] * np.floor_divide(a, b), y)


nondifferentiable(operator.floordiv, operator.lt, operator.le, operator.gt, operator.ge,
                  operator.eq, operator.ne, operator.not_, operator.contains, operator.is_,
                  operator.is_not)
