"""Linear algebra: dot, matmul, outer, inner, tensordot, trace, diag, einsum."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d
from s2s_ad.runtime import matmul_adjoint_a, matmul_adjoint_b, reshape_like
from s2s_ad.runtime_linalg import (dot_adjoint_a, dot_adjoint_b, einsum_operand_adjoint,
                                   inner_adjoint_a, inner_adjoint_b, spread_trace,
                                   tensordot_adjoint_a, tensordot_adjoint_b, undiag)


@adjoint(np.dot)
def dot_adjoint(y, a, b):
    """d dot(a, b) = dot(da, b) + dot(a, db)"""
    d[a] += dot_adjoint_a(d[y], a, b)
    d[b] += dot_adjoint_b(d[y], a, b)


@adjoint(np.matmul)
def matmul_adjoint(y, x1, x2):
    """d (x1 @ x2) = dx1 @ x2 + x1 @ dx2"""
    d[x1] += matmul_adjoint_a(d[y], x1, x2)
    d[x2] += matmul_adjoint_b(d[y], x1, x2)


@adjoint(np.outer)
def outer_adjoint(y, a, b):
    """d outer(a, b) = outer(da, b) + outer(a, db)"""
    d[a] += reshape_like(np.dot(d[y], np.ravel(b)), a)
    d[b] += reshape_like(np.dot(np.ravel(a), d[y]), b)


@adjoint(np.inner)
def inner_adjoint(y, a, b):
    """d inner(a, b) = inner(da, b) + inner(a, db)"""
    d[a] += inner_adjoint_a(d[y], a, b)
    d[b] += inner_adjoint_b(d[y], a, b)


@adjoint(np.tensordot)
def tensordot_adjoint(y, a, b, axes=2):
    """d tensordot(a, b) = tensordot(da, b) + tensordot(a, db)"""
    d[a] += tensordot_adjoint_a(d[y], a, b, axes)
    d[b] += tensordot_adjoint_b(d[y], a, b, axes)


@adjoint(np.trace)
def trace_adjoint(y, a, offset=0, axis1=0, axis2=1, dtype=None):
    """d trace(a) = trace(da): the adjoint spreads along the diagonal"""
    d[a] += spread_trace(d[y], a, offset, axis1, axis2)


@adjoint(np.diag)
def diag_adjoint(y, v, k=0):
    """d diag(v, k) = diag(dv, k)"""
    d[v] += undiag(d[y], v, k)


@adjoint(np.einsum)
def einsum_adjoint(y, subscripts, a, b=None, c=None, optimize=False):
    """d einsum(s, a, b) = einsum(s, da, b) + einsum(s, a, db) (up to three operands)"""
    d[a] += einsum_operand_adjoint(d[y], subscripts, (a, b, c), 0)
    d[b] += einsum_operand_adjoint(d[y], subscripts, (a, b, c), 1)
    d[c] += einsum_operand_adjoint(d[y], subscripts, (a, b, c), 2)
