"""Templates of the triangular helpers in runtime_triangular.py (cholesky's adjoint and
tangent call them) and of runtime_linalg.inverse_and_solve (optimize/shared_inverses.py
writes it), for grad of grad and forward over reverse.

y = inv(tril(a)) reads only a's lower triangle: d y = -y tril(da) y, and the adjoint is
that map's transpose restricted to the lower triangle. The two products are bilinear
(tril(triu(u) @ b)) and quadratic in w, linear in s (tril(tril(w)^T S tril(w)), S the
symmetric matrix with s's lower triangle, whose adjoint folds a matrix Z onto the lower
triangle: tril(Z) + triu(Z, 1)^T)."""
import numpy as np

from s2s_ad.ad.template_dsl import adjoint, d, nondifferentiable, tangent
from s2s_ad.runtime import unbroadcast
from s2s_ad.runtime_linalg import as_columns, inverse_and_solve
from s2s_ad.runtime_shape import reshape_like
from s2s_ad.runtime_triangular import (flipped_trans, halved_diagonal, lower_congruence,
                                       lower_gram, lower_gram_update, lower_inverse,
                                       lower_of_upper_product, triangle_apply, triangle_outer)


@adjoint(lower_inverse)
def lower_inverse_adjoint(y, l):
    """a_bar = tril(-y^T y_bar y^T)"""
    _yt = np.swapaxes(y, -1, -2)
    d[l] += np.tril(-(_yt @ d[y] @ _yt))


@tangent(lower_inverse)
def lower_inverse_tangent(y, l):
    """dy = -y tril(dl) y"""
    d[y] = -(y @ np.tril(d[l]) @ y)


@adjoint(lower_of_upper_product)
def lower_of_upper_product_adjoint(y, u, b):
    """G = tril(y_bar): u_bar = triu(G b^T), b_bar = triu(u)^T G"""
    _g = np.tril(d[y])
    d[u] += unbroadcast(np.triu(_g @ np.swapaxes(b, -1, -2)), u)
    d[b] += unbroadcast(np.swapaxes(np.triu(u), -1, -2) @ _g, b)


@tangent(lower_of_upper_product)
def lower_of_upper_product_tangent(y, u, b):
    d[y] = lower_of_upper_product(d[u], b) + lower_of_upper_product(u, d[b])


@adjoint(lower_congruence)
def lower_congruence_adjoint(y, w, s):
    """G = tril(y_bar): w_bar = tril(S tril(w) (G + G^T)), s_bar = fold(tril(w) G tril(w)^T)"""
    _g = np.tril(d[y])
    _wl = np.tril(w)
    _sym = np.tril(s) + np.swapaxes(np.tril(s, -1), -1, -2)
    d[w] += unbroadcast(np.tril(_sym @ _wl @ (_g + np.swapaxes(_g, -1, -2))), w)
    _z = _wl @ _g @ np.swapaxes(_wl, -1, -2)
    d[s] += unbroadcast(np.tril(_z) + np.swapaxes(np.triu(_z, 1), -1, -2), s)


@tangent(lower_congruence)
def lower_congruence_tangent(y, w, s):
    """dy = tril(X + X^T) + lower_congruence(w, ds), X = tril(dw)^T S tril(w)"""
    _sym = np.tril(s) + np.swapaxes(np.tril(s, -1), -1, -2)
    _x = np.swapaxes(np.tril(d[w]), -1, -2) @ _sym @ np.tril(w)
    d[y] = np.tril(_x + np.swapaxes(_x, -1, -2)) + lower_congruence(w, d[s])



@adjoint(lower_gram)
def lower_gram_adjoint(y, w, scale):
    """G = tril(y_bar): w_bar = tril(diag(scale) tril(w) (G + G^T)), scale_bar_k = (W G W^T)_kk"""
    _g = np.tril(d[y])
    _wl = np.tril(w)
    d[w] += unbroadcast(np.tril(np.expand_dims(scale, -1) * (_wl @ (_g + np.swapaxes(_g, -1, -2)))),
                        w)
    d[scale] += unbroadcast(np.sum((_wl @ _g) * _wl, axis=-1), scale)


@tangent(lower_gram)
def lower_gram_tangent(y, w, scale):
    """dy = tril(X + X^T) + lower_gram(w, dscale), X = tril(dw)^T diag(scale) tril(w)"""
    _x = np.swapaxes(np.tril(d[w]), -1, -2) @ (np.expand_dims(scale, -1) * np.tril(w))
    d[y] = np.tril(_x + np.swapaxes(_x, -1, -2)) + lower_gram(w, d[scale])



@adjoint(lower_gram_update)
def lower_gram_update_adjoint(y, w, scale, z, c):
    """S = diag(scale) + c Z Z^T, G = tril(y_bar), H = tril(w) G tril(w)^T: w_bar =
    tril(S tril(w) (G + G^T)), scale_bar = diag(H), z_bar = c (H + H^T) Z, c_bar = <H, Z Z^T>"""
    _g = np.tril(d[y])
    _wl = np.tril(w)
    _zz = z @ np.swapaxes(z, -1, -2)
    _s = c * _zz + np.expand_dims(scale, -1) * np.eye(np.shape(w)[-1], dtype=_zz.dtype)
    d[w] += unbroadcast(np.tril(_s @ _wl @ (_g + np.swapaxes(_g, -1, -2))), w)
    _h = _wl @ _g @ np.swapaxes(_wl, -1, -2)
    d[scale] += unbroadcast(np.diagonal(_h, 0, -2, -1), scale)
    d[z] += unbroadcast(c * ((_h + np.swapaxes(_h, -1, -2)) @ z), z)
    d[c] += np.sum(_h * _zz)


@tangent(lower_gram_update)
def lower_gram_update_tangent(y, w, scale, z, c):
    """dy = tril(X + X^T) + lower_congruence(w, dS), X = tril(dw)^T S tril(w),
    dS = diag(dscale) + dc Z Z^T + c (dZ Z^T + Z dZ^T)"""
    _zz = z @ np.swapaxes(z, -1, -2)
    _eye = np.eye(np.shape(w)[-1], dtype=_zz.dtype)
    _s = c * _zz + np.expand_dims(scale, -1) * _eye
    _x = np.swapaxes(np.tril(d[w]), -1, -2) @ _s @ np.tril(w)
    _dzz = d[z] @ np.swapaxes(z, -1, -2)
    _ds = np.expand_dims(d[scale], -1) * _eye + d[c] * _zz + c * (_dzz + np.swapaxes(_dzz, -1, -2))
    d[y] = np.tril(_x + np.swapaxes(_x, -1, -2)) + lower_congruence(w, _ds)



@adjoint(halved_diagonal)
def halved_diagonal_adjoint(y, m):
    """linear and self-adjoint"""
    d[m] += halved_diagonal(d[y])


@tangent(halved_diagonal)
def halved_diagonal_tangent(y, m):
    d[y] = halved_diagonal(d[m])


# ---- runtime_linalg.inverse_and_solve: (inv(a), solve(a, b)), the shared-inverses pass's --
@adjoint(inverse_and_solve)
def inverse_and_solve_adjoint(y, a, b):
    """P = inv(A), X = solve(A, B): A_bar = -P^T P_bar P^T - B_bar X^T, B_bar = P^T X_bar"""
    _pt = np.swapaxes(y[0], -1, -2)
    _solved = _pt @ as_columns(d[y][1], a, y[1])
    # + zeros: the inverse's adjoint may be the number 0.0 (nothing read the inverse)
    d[a] += unbroadcast(-(_pt @ (d[y][0] + np.zeros_like(_pt)) @ _pt)
                        - _solved @ np.swapaxes(as_columns(y[1], a, y[1]), -1, -2), a)
    d[b] += unbroadcast(reshape_like(_solved, y[1]), b)


@tangent(inverse_and_solve)
def inverse_and_solve_tangent(y, a, b):
    """dP = -P dA P, dX = P (dB - dA X)"""
    d[y] = (-(y[0] @ d[a] @ y[0]),
            reshape_like(y[0] @ (as_columns(d[b], a, y[1]) - d[a] @ as_columns(y[1], a, y[1])),
                         y[1]))


# ---- solve_triangular's helpers: bilinear, each the other's adjoint ----------------------
nondifferentiable(flipped_trans)


@adjoint(triangle_apply)
def triangle_apply_adjoint(y, m, x, trans=0, lower=False, unit_diagonal=False):
    """y = op(T) x: m_bar = T's part of y_bar x^T (x y_bar^T transposed), x_bar = op(T)^T y_bar"""
    d[m] += triangle_outer(d[y], x, trans, lower, unit_diagonal)
    d[x] += triangle_apply(m, d[y], flipped_trans(trans), lower, unit_diagonal)


@tangent(triangle_apply)
def triangle_apply_tangent(y, m, x, trans=0, lower=False, unit_diagonal=False):
    d[y] = triangle_apply(d[m], x, trans, lower, unit_diagonal) + triangle_apply(
        m, d[x], trans, lower, unit_diagonal)


@adjoint(triangle_outer)
def triangle_outer_adjoint(y, g, x, trans=0, lower=False, unit_diagonal=False):
    """y = T's part of g x^T: g_bar = P(y_bar) x, x_bar = P(y_bar)^T g (transposed: swapped)"""
    d[g] += triangle_apply(d[y], x, trans, lower, unit_diagonal)
    d[x] += triangle_apply(d[y], g, flipped_trans(trans), lower, unit_diagonal)


@tangent(triangle_outer)
def triangle_outer_tangent(y, g, x, trans=0, lower=False, unit_diagonal=False):
    d[y] = triangle_outer(d[g], x, trans, lower, unit_diagonal) + triangle_outer(
        g, d[x], trans, lower, unit_diagonal)
