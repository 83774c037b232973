"""numpy 2's linear algebra names (loaded only where numpy has them; see MODULES):
np.linalg.svdvals, np.vecdot / np.linalg.vecdot, np.matvec, np.vecmat, np.linalg.matmul,
np.linalg.outer, np.linalg.tensordot, np.linalg.diagonal, np.linalg.trace,
np.matrix_transpose / np.linalg.matrix_transpose, np.linalg.matrix_norm,
np.linalg.vector_norm and np.linalg.cross. Each is an earlier rule in the
array-API spelling (the matrix axes are the last two)."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime import broadcast_tangent
from s2s_ad.runtime_flow import float_dtype
from s2s_ad.runtime_spread import unreduce_norm, vector_norm_layout
from s2s_ad.runtime_linalg import (matmul_adjoint_a, matmul_adjoint_b, place_diagonal,
                                   spread_trace, tensordot_adjoint_a, tensordot_adjoint_b)


@adjoint(np.linalg.svdvals)
def svdvals_adjoint(y, x):
    """x_bar = U diag(s_bar) Vh (thin factors)"""
    _usv = np.linalg.svd(x, full_matrices=False)
    d[x] += (_usv[0] * np.expand_dims(d[y], -2)) @ _usv[2]


@tangent(np.linalg.svdvals)
def svdvals_tangent(y, x):
    """ds_i = u_i^T dx v_i"""
    _usv = np.linalg.svd(x, full_matrices=False)
    d[y] = np.sum(_usv[0] * (d[x] @ np.swapaxes(_usv[2], -1, -2)), -2)


# unbroadcast(c, x) in a template reads c as shaped like the result; these contributions
# have the operands' broadcast shape, so they are summed back to a copy's name (_x1, _x2)
@adjoint(np.vecdot, np.linalg.vecdot)
def vecdot_adjoint(y, x1, x2, axis=-1):
    """y = sum(x1 x2) over axis: x1_bar = y_bar x2, x2_bar = y_bar x1 (summed back)"""
    _x1 = x1
    _x2 = x2
    d[x1] += unbroadcast(np.expand_dims(d[y], axis) * x2, _x1)
    d[x2] += unbroadcast(np.expand_dims(d[y], axis) * x1, _x2)


@tangent(np.vecdot, np.linalg.vecdot)
def vecdot_tangent(y, x1, x2, axis=-1):
    """d vecdot(x1, x2) = vecdot(dx1, x2) + vecdot(x1, dx2)"""
    d[y] = np.sum(d[x1] * x2 + x1 * d[x2], axis)


@adjoint(np.matvec)
def matvec_adjoint(y, x1, x2):
    """y = x1 v: x1_bar = y_bar v^T, v_bar = y_bar^T x1"""
    _x1 = x1
    _x2 = x2
    d[x1] += unbroadcast(np.expand_dims(d[y], -1) * np.expand_dims(x2, -2), _x1)
    d[x2] += unbroadcast(np.vecmat(d[y], x1), _x2)


@tangent(np.matvec)
def matvec_tangent(y, x1, x2):
    """d (x1 v) = dx1 v + x1 dv"""
    d[y] = np.matvec(d[x1], x2) + np.matvec(x1, d[x2])


@adjoint(np.vecmat)
def vecmat_adjoint(y, x1, x2):
    """y = v^T x2: v_bar = x2 y_bar, x2_bar = v y_bar^T"""
    _x1 = x1
    _x2 = x2
    d[x1] += unbroadcast(np.matvec(x2, d[y]), _x1)
    d[x2] += unbroadcast(np.expand_dims(x1, -1) * np.expand_dims(d[y], -2), _x2)


@tangent(np.vecmat)
def vecmat_tangent(y, x1, x2):
    """d (v^T x2) = dv^T x2 + v^T dx2"""
    d[y] = np.vecmat(d[x1], x2) + np.vecmat(x1, d[x2])


@adjoint(np.linalg.matmul)
def linalg_matmul_adjoint(y, x1, x2):
    """as np.matmul"""
    d[x1] += matmul_adjoint_a(d[y], x1, x2)
    d[x2] += matmul_adjoint_b(d[y], x1, x2)


@tangent(np.linalg.matmul)
def linalg_matmul_tangent(y, x1, x2):
    """as np.matmul"""
    d[y] = d[x1] @ x2 + x1 @ d[x2]


@adjoint(np.linalg.outer)
def linalg_outer_adjoint(y, x1, x2):
    """y = x1 x2^T (vectors): x1_bar = y_bar x2, x2_bar = y_bar^T x1"""
    d[x1] += d[y] @ x2
    d[x2] += x1 @ d[y]


@tangent(np.linalg.outer)
def linalg_outer_tangent(y, x1, x2):
    """d outer(x1, x2) = outer(dx1, x2) + outer(x1, dx2)"""
    d[y] = np.outer(d[x1], x2) + np.outer(x1, d[x2])


@adjoint(np.linalg.tensordot)
def linalg_tensordot_adjoint(y, x1, x2, axes=2):
    """as np.tensordot"""
    d[x1] += tensordot_adjoint_a(d[y], x1, x2, axes)
    d[x2] += tensordot_adjoint_b(d[y], x1, x2, axes)


@tangent(np.linalg.tensordot)
def linalg_tensordot_tangent(y, x1, x2, axes=2):
    """as np.tensordot"""
    d[y] = np.tensordot(d[x1], x2, axes) + np.tensordot(x1, d[x2], axes)


@adjoint(np.linalg.diagonal)
def linalg_diagonal_adjoint(y, x, offset=0):
    """the adjoint placed back on the diagonal of the last two axes"""
    d[x] += place_diagonal(d[y], x, offset, -2, -1)


@tangent(np.linalg.diagonal)
def linalg_diagonal_tangent(y, x, offset=0):
    """the diagonal of the tangent"""
    d[y] = np.diagonal(d[x], offset, -2, -1)


@adjoint(np.linalg.trace)
def linalg_trace_adjoint(y, x, offset=0, dtype=None):
    """the adjoint spread along the diagonal of the last two axes"""
    d[x] += spread_trace(d[y], x, offset, -2, -1)


@tangent(np.linalg.trace)
def linalg_trace_tangent(y, x, offset=0, dtype=None):
    """the trace of the tangent"""
    d[y] = np.trace(d[x], offset, -2, -1)


@adjoint(np.matrix_transpose, np.linalg.matrix_transpose)
def matrix_transpose_adjoint(y, x):
    """the adjoint transposed back"""
    d[x] += np.swapaxes(d[y], -1, -2)


@tangent(np.matrix_transpose, np.linalg.matrix_transpose)
def matrix_transpose_tangent(y, x):
    """the tangent transposed"""
    d[y] = np.swapaxes(d[x], -1, -2)


@adjoint(np.linalg.matrix_norm)
def matrix_norm_adjoint(y, x, keepdims=False, ord="fro"):
    """np.linalg.norm's rule over the last two axes"""
    d[x] += unreduce_norm(d[y], x, y, ord, (-2, -1), keepdims)


@tangent(np.linalg.matrix_norm)
def matrix_norm_tangent(y, x, keepdims=False, ord="fro"):
    d[y] = np.sum(unreduce_norm(np.ones(np.shape(y), float_dtype(y)), x, y, ord, (-2, -1),
                                keepdims) * d[x],
                  axis=(-2, -1), keepdims=keepdims)


@adjoint(np.linalg.cross)
def linalg_cross_adjoint(y, x1, x2, axis=-1):
    """<g, a x b> = <a, b x g> = <b, g x a>"""
    d[x1] += unbroadcast(np.cross(x2, d[y], axis=axis), x1)
    d[x2] += unbroadcast(np.cross(d[y], x1, axis=axis), x2)


@tangent(np.linalg.cross)
def linalg_cross_tangent(y, x1, x2, axis=-1):
    d[y] = np.cross(d[x1], x2, axis=axis) + np.cross(x1, d[x2], axis=axis)


# vector_norm over any axes: those axes moved last and joined into one, np.linalg.norm's
# vector rule along it (runtime_spread.vector_norm_layout), then moved back
@adjoint(np.linalg.vector_norm)
def vector_norm_adjoint(y, x, axis=None, keepdims=False, ord=2):
    """np.linalg.norm's vector rule over the joined axes"""
    _lay = vector_norm_layout(x, axis)
    _g = np.reshape(broadcast_tangent(d[y], y), _lay[3][:-1])
    _spread = unreduce_norm(_g, np.reshape(np.moveaxis(x, _lay[0], _lay[1]), _lay[3]),
                            np.reshape(y, _lay[3][:-1]), ord, -1, False)
    d[x] += np.moveaxis(np.reshape(_spread, _lay[2]), _lay[1], _lay[0])


@tangent(np.linalg.vector_norm)
def vector_norm_tangent(y, x, axis=None, keepdims=False, ord=2):
    _lay = vector_norm_layout(x, axis)
    _partials = unreduce_norm(np.ones(_lay[3][:-1], float_dtype(y)), np.reshape(np.moveaxis(
        x, _lay[0], _lay[1]), _lay[3]), np.reshape(y, _lay[3][:-1]), ord, -1, False)
    d[y] = np.reshape(np.sum(_partials * np.reshape(np.moveaxis(d[x], _lay[0], _lay[1]),
                                                    _lay[3]), axis=-1), np.shape(y))
