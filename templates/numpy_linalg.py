"""Linear algebra: dot, matmul, outer, inner, tensordot, trace, diag, einsum, and np.linalg's
inv, det, slogdet, solve, matrix_power and cholesky; vdot, tensorinv and tensorsolve."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast, zero_tangent
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_triangular import (halved_diagonal, lower_congruence, lower_inverse,
                                       lower_of_upper_product)
from s2s_ad.runtime_linalg import (as_columns, dot_adjoint_a, dot_adjoint_b,
                                   einsum_operand_adjoint, einsum_operand_count,
                                   matmul_adjoint_a, matmul_adjoint_b,
                                   inner_adjoint_a, inner_adjoint_b, spread_trace,
                                   tensordot_adjoint_a, tensordot_adjoint_b, undiag)


@adjoint(np.dot)
def dot_adjoint(y, a, b):
    """d dot(a, b) = dot(da, b) + dot(a, db)"""
    d[a] += dot_adjoint_a(d[y], a, b)
    d[b] += dot_adjoint_b(d[y], a, b)


@tangent(np.dot)
def dot_tangent(y, a, b):
    """d dot(a, b) = dot(da, b) + dot(a, db)"""
    d[y] = np.dot(d[a], b) + np.dot(a, d[b])


@adjoint(np.matmul)
def matmul_adjoint(y, x1, x2):
    """d (x1 @ x2) = dx1 @ x2 + x1 @ dx2"""
    d[x1] += matmul_adjoint_a(d[y], x1, x2)
    d[x2] += matmul_adjoint_b(d[y], x1, x2)


@tangent(np.matmul)
def matmul_tangent(y, x1, x2):
    """d (x1 @ x2) = dx1 @ x2 + x1 @ dx2"""
    d[y] = d[x1] @ x2 + x1 @ d[x2]


@adjoint(np.outer)
def outer_adjoint(y, a, b):
    """d outer(a, b) = outer(da, b) + outer(a, db)"""
    d[a] += reshape_like(np.dot(d[y], np.ravel(b)), a)
    d[b] += reshape_like(np.dot(np.ravel(a), d[y]), b)


@tangent(np.outer)
def outer_tangent(y, a, b):
    """d outer(a, b) = outer(da, b) + outer(a, db)"""
    d[y] = np.outer(d[a], b) + np.outer(a, d[b])


@adjoint(np.inner)
def inner_adjoint(y, a, b):
    """d inner(a, b) = inner(da, b) + inner(a, db)"""
    d[a] += inner_adjoint_a(d[y], a, b)
    d[b] += inner_adjoint_b(d[y], a, b)


@tangent(np.inner)
def inner_tangent(y, a, b):
    """d inner(a, b) = inner(da, b) + inner(a, db)"""
    d[y] = np.inner(d[a], b) + np.inner(a, d[b])


@adjoint(np.tensordot)
def tensordot_adjoint(y, a, b, axes=2):
    """d tensordot(a, b) = tensordot(da, b) + tensordot(a, db)"""
    d[a] += tensordot_adjoint_a(d[y], a, b, axes)
    d[b] += tensordot_adjoint_b(d[y], a, b, axes)


@tangent(np.tensordot)
def tensordot_tangent(y, a, b, axes=2):
    """d tensordot(a, b) = tensordot(da, b) + tensordot(a, db)"""
    d[y] = np.tensordot(d[a], b, axes) + np.tensordot(a, d[b], axes)


@adjoint(np.trace)
def trace_adjoint(y, a, offset=0, axis1=0, axis2=1, dtype=None):
    """d trace(a) = trace(da): the adjoint spreads along the diagonal"""
    d[a] += spread_trace(d[y], a, offset, axis1, axis2)


@tangent(np.trace)
def trace_tangent(y, a, offset=0, axis1=0, axis2=1, dtype=None):
    """d trace(a) = trace(da)"""
    d[y] = np.trace(d[a], offset, axis1, axis2)


@adjoint(np.diag)
def diag_adjoint(y, v, k=0):
    """d diag(v, k) = diag(dv, k)"""
    d[v] += undiag(d[y], v, k)


@tangent(np.diag)
def diag_tangent(y, v, k=0):
    """d diag(v, k) = diag(dv, k)"""
    d[y] = np.diag(d[v], k)


@adjoint(np.einsum)
def einsum_adjoint(y, subscripts, a, b=None, c=None, optimize=False):
    """d einsum(s, a, b) = einsum(s, da, b) + einsum(s, a, db) (up to three operands)"""
    d[subscripts] += einsum_operand_count(subscripts)   # an operand here: a clear error
    d[a] += einsum_operand_adjoint(d[y], subscripts, (a, b, c), 0)
    d[b] += einsum_operand_adjoint(d[y], subscripts, (a, b, c), 1)
    d[c] += einsum_operand_adjoint(d[y], subscripts, (a, b, c), 2)


# only the first n = commas + 1 operands exist: einsum gets (.., .., ..)[:n], and the terms
# of absent operands (which would evaluate to y) are masked to zero
@tangent(np.einsum)
def einsum_tangent(y, subscripts, a, b=None, c=None, optimize=False):
    """d einsum(s, a, b, c) = einsum(s, da, b, c) + einsum(s, a, db, c) + einsum(s, a, b, dc)"""
    _n = einsum_operand_count(subscripts)
    d[y] = np.einsum(subscripts, *(d[a], b, c)[:_n], optimize=optimize) \
        + (_n > 1) * np.einsum(subscripts, *(a, d[b], c)[:_n], optimize=optimize) \
        + (_n > 2) * np.einsum(subscripts, *(a, b, d[c])[:_n], optimize=optimize)


# ---- np.linalg: inverse and determinants (square matrices, also stacked) -----------------
@adjoint(np.linalg.inv)
def inv_adjoint(y, a):
    """d inv(A) = -inv(A) dA inv(A), so A_bar = -inv(A)^T y_bar inv(A)^T"""
    d[a] += -(np.swapaxes(y, -1, -2) @ d[y] @ np.swapaxes(y, -1, -2))


@tangent(np.linalg.inv)
def inv_tangent(y, a):
    """d inv(A) = -inv(A) dA inv(A)"""
    d[y] = -(y @ d[a] @ y)


@adjoint(np.linalg.det)
def det_adjoint(y, a):
    """d det(A) = det(A) trace(inv(A) dA), so A_bar = y_bar det(A) inv(A)^T"""
    d[a] += np.expand_dims(d[y] * y, (-2, -1)) * np.swapaxes(np.linalg.inv(a), -1, -2)


@tangent(np.linalg.det)
def det_tangent(y, a):
    """d det(A) = det(A) trace(inv(A) dA)"""
    d[y] = y * np.trace(np.linalg.inv(a) @ d[a], axis1=-2, axis2=-1)


@adjoint(np.linalg.slogdet)
def slogdet_adjoint(y, a):
    """d log|det(A)| = trace(inv(A) dA), so A_bar = logabsdet_bar inv(A)^T (the sign: none)"""
    # times ones of A's dtype and batch shape (log|det(A)|'s shape; its dtype for a float
    # A): a number's adjoint (0.5 of `0.5 * logdet`) as an array, so a float32 A keeps a
    # float32 adjoint. Read off A, not y: a derivative that needs no log|det(A)| but its
    # adjoint does not compute it (ad/result_items.py)
    d[a] += np.expand_dims(d[y][1] * np.ones_like(a, shape=np.shape(a)[:-2]), (-2, -1)) \
        * np.swapaxes(np.linalg.inv(a), -1, -2)


@tangent(np.linalg.slogdet)
def slogdet_tangent(y, a):
    """d (sign, log|det(A)|) = (0, trace(solve(A, dA)))"""
    d[y] = (zero_tangent(y[0]), np.trace(np.linalg.solve(a, d[a]), axis1=-2, axis2=-1))


@adjoint(np.vdot)
def vdot_adjoint(y, a, b):
    """d sum(a.ravel() b.ravel()) = sum(da b + a db) (real values)"""
    d[a] += reshape_like(d[y] * np.ravel(b), a)
    d[b] += reshape_like(d[y] * np.ravel(a), b)


@tangent(np.vdot)
def vdot_tangent(y, a, b):
    d[y] = np.vdot(d[a], b) + np.vdot(a, d[b])


# tensorinv(a, ind) is inv(A) for A = a as an (n, m) matrix, n the size of a's first ind
# axes: y read as an (m, n) matrix is inv(A)
@adjoint(np.linalg.tensorinv)
def tensorinv_adjoint(y, a, ind=2):
    """A_bar = -inv(A)^T y_bar inv(A)^T, in a's shape"""
    _inv = np.reshape(y, (-1, np.prod(np.shape(a)[:ind])))
    _g = np.reshape(d[y], np.shape(_inv))
    d[a] += np.reshape(-(np.swapaxes(_inv, 0, 1) @ _g @ np.swapaxes(_inv, 0, 1)), np.shape(a))


@tangent(np.linalg.tensorinv)
def tensorinv_tangent(y, a, ind=2):
    _inv = np.reshape(y, (-1, np.prod(np.shape(a)[:ind])))
    d[y] = np.reshape(-(_inv @ np.reshape(d[a], np.shape(_inv)[::-1]) @ _inv), np.shape(y))


# tensorsolve(a, b, axes): the axes named moved to the end, a read as a (b.size, x.size)
# matrix A and b as a vector: x = solve(A, b)
@adjoint(np.linalg.tensorsolve)
def tensorsolve_adjoint(y, a, b, axes=None):
    """b_bar = solve(A^T, y_bar), A_bar = -b_bar x^T (moved back to a's axes)"""
    _moved = np.arange(np.ndim(a) - (0 if axes in (None,) else len(axes)), np.ndim(a))
    _am = a if axes in (None,) else np.moveaxis(a, axes, _moved)
    _m = np.reshape(_am, (np.size(b), np.size(y)))
    _bb = np.linalg.solve(np.swapaxes(_m, 0, 1), np.ravel(d[y]))
    d[b] += np.reshape(_bb, np.shape(b))
    _abar = np.reshape(-np.outer(_bb, np.ravel(y)), np.shape(_am))
    d[a] += _abar if axes in (None,) else np.moveaxis(_abar, _moved, axes)


@tangent(np.linalg.tensorsolve)
def tensorsolve_tangent(y, a, b, axes=None):
    """dx = solve(A, db - dA x)"""
    _moved = np.arange(np.ndim(a) - (0 if axes in (None,) else len(axes)), np.ndim(a))
    _am = a if axes in (None,) else np.moveaxis(a, axes, _moved)
    _dam = d[a] if axes in (None,) else np.moveaxis(d[a], axes, _moved)
    _m = np.reshape(_am, (np.size(b), np.size(y)))
    d[y] = np.reshape(np.linalg.solve(_m, np.ravel(d[b]) - np.reshape(
        _dam, np.shape(_m)) @ np.ravel(y)), np.shape(y))


# ---- np.linalg: solve, matrix_power, cholesky --------------------------------------------
# solve's b holds vectors or matrices (x = solve(a, b) tells which: as_columns); the
# templates work on columns, and reshape_like gives the vector layout back. A_bar is the
# adjoint of a in a @ X (X as columns): an outer product when the facts keep one vector as
# it is (ad/context.py solve_columns); the sign goes on B_bar, the smaller array
@adjoint(np.linalg.solve)
def solve_adjoint(y, a, b):
    """d solve(A, B) = solve(A, dB - dA X), so B_bar = solve(A^T, X_bar), A_bar = -B_bar X^T"""
    _solved = np.linalg.solve(np.swapaxes(a, -1, -2), as_columns(d[y], a, y))
    d[a] += matmul_adjoint_a(-_solved, a, as_columns(y, a, y))
    d[b] += unbroadcast(reshape_like(_solved, y), b)


@tangent(np.linalg.solve)
def solve_tangent(y, a, b):
    """d solve(A, B) = solve(A, dB - dA X)"""
    d[y] = reshape_like(np.linalg.solve(
        a, as_columns(d[b], a, y) - d[a] @ as_columns(y, a, y)), y)


# the derivative of A^n along E is the upper right block of [[A, E], [0, A]]^n (for n < 0
# too), and its transpose the same with A^T: no loop over the n factors
@adjoint(np.linalg.matrix_power)
def matrix_power_adjoint(y, a, n):
    """d A^n = sum_k A^k dA A^(n-1-k): A_bar = corner of [[A^T, Y_bar], [0, A^T]]^n"""
    _at = np.swapaxes(a, -1, -2)
    _block = np.concatenate((np.concatenate((_at, d[y]), -1),
                             np.concatenate((np.zeros_like(_at), _at), -1)), -2)
    d[a] += np.linalg.matrix_power(_block, n)[..., :np.shape(a)[-1], np.shape(a)[-1]:]


@tangent(np.linalg.matrix_power)
def matrix_power_tangent(y, a, n):
    """d A^n = sum_k A^k dA A^(n-1-k): the upper right block of [[A, dA], [0, A]]^n"""
    _block = np.concatenate((np.concatenate((a, d[a]), -1),
                             np.concatenate((np.zeros_like(a), a), -1)), -2)
    d[y] = np.linalg.matrix_power(_block, n)[..., :np.shape(a)[-1], np.shape(a)[-1]:]


# numpy reads only A's lower triangle, as S = tril(A) + tril(A, -1)^T; with L = cholesky(A),
# dL = L phi(inv(L) dS inv(L)^T), phi(X) = tril(X) with its diagonal halved. Its adjoint
# tril(Q) + triu(Q, 1)^T, Q = inv(L)^T phi(L^T L_bar) inv(L), is phi(Q + Q^T), and
# Q + Q^T = inv(L)^T P inv(L) with P symmetric, the lower triangle of L^T L_bar: only lower
# triangles are computed (runtime_triangular), and L is inverted as the triangle it is
@adjoint(np.linalg.cholesky)
def cholesky_adjoint(y, a):
    """A_bar = phi(inv(L)^T P inv(L)), P symmetric with tril(L^T L_bar) as lower triangle"""
    _inv = lower_inverse(y)
    _m = lower_congruence(_inv, lower_of_upper_product(np.swapaxes(y, -1, -2), d[y]))
    d[a] += halved_diagonal(_m)


@tangent(np.linalg.cholesky)
def cholesky_tangent(y, a):
    """dL = L phi(inv(L) dS inv(L)^T), dS = tril(dA) + tril(dA, -1)^T"""
    _inv = lower_inverse(y)
    _ds = np.tril(d[a]) + np.swapaxes(np.tril(d[a], -1), -1, -2)
    _x = _inv @ _ds @ np.swapaxes(_inv, -1, -2)
    d[y] = y @ (np.tril(_x) - 0.5 * _x * np.eye(np.shape(y)[-1], dtype=y.dtype))
