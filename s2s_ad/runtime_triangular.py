"""Runtime helpers for triangular matrices (see runtime.py): numpy has no triangular solve
or inverse, and np.linalg.inv of a triangular matrix factorises it as if it were full (a
pivoted LU, about 8/3 n^3 flops, slower than inverting a full matrix of the same size).

numpy only:

    lower_inverse(l)     inv(tril(l)) for square or stacked l, by halves: with
                         l = [[a, 0], [c, b]], inv(l) = [[inv(a), 0], [-inv(b) c inv(a), inv(b)]];
                         about n^3 / 3 flops, all in matrix products
    lower_of_upper_product(u, b)   tril(triu(u) @ b), the blocks above the diagonal skipped
    lower_congruence(w, s)         tril(tril(w)^T S tril(w)), S symmetric with s's lower
                                   triangle: the lower half of a symmetric product
    lower_gram(w, scale)           the same for S = diag(scale): 4 of 8 half-size products
    lower_gram_update(w, scale, z, c)      for S = diag(scale) + c Z Z^T (few columns: low rank)
    halved_diagonal(m)             a copy of m with its diagonal halved (phi's last step)
(cholesky's adjoint is phi(W^T S W), W = inv(L), S from tril(L^T L_bar): these three)

    lower_inverse(np.array([[2., 0.], [1., 4.]]))  ->  [[0.5, 0.], [-0.125, 0.25]]

scipy.linalg.solve_triangular's derivatives (templates/scipy_linalg.py) read a's triangle:

    triangle_apply(m, x, trans, lower, unit_diagonal)   op(T) @ x, T m's triangle
    triangle_outer(g, x, trans, lower, unit_diagonal)   T's part of g x^T (x g^T transposed)
    flipped_trans(trans)                                the solve with op(T)'s transpose

The recursion is the blocked form of the textbook triangular inversion (the one LAPACK's
trtri uses): its error is as small as substitution's, unlike inverting through a pivoted
LU, which never sees that the matrix is triangular.
"""
import numpy as np

# below this order a block is inverted by numpy directly: the halving then saves less than
# the Python calls it costs
_DIRECT = 48


def lower_inverse(l):
    """inv(tril(l)), l square (n, n) or stacked (..., n, n); its strictly upper part is not
    read. The result is exactly lower triangular."""
    n = np.shape(l)[-1]
    if n <= _DIRECT:
        return np.tril(np.linalg.inv(np.tril(l)))
    h = n // 2
    top = lower_inverse(l[..., :h, :h])
    bottom = lower_inverse(l[..., h:, h:])
    out = np.zeros(np.shape(l), dtype=top.dtype)
    out[..., :h, :h] = top
    out[..., h:, h:] = bottom
    out[..., h:, :h] = -(bottom @ (l[..., h:, :h] @ top))
    return out


# from this order on the products below split their matrices into 2 x 2 blocks and skip
# the blocks that are zero or not wanted
_BLOCKED = 64


def lower_of_upper_product(u, b):
    """tril(triu(u) @ b) for square (n, n) or stacked u and b of one shape: with halves,
    the block above the diagonal is not computed and triu(u)'s zero block not multiplied
    (4 of 8 half-size products)."""
    n = np.shape(u)[-1]
    if n < _BLOCKED or np.shape(u) != np.shape(b):
        return np.tril(np.triu(u) @ b)
    h = n // 2
    u11, u22 = np.triu(u[..., :h, :h]), np.triu(u[..., h:, h:])
    out = np.zeros(np.shape(u), dtype=np.result_type(u, b))
    out[..., :h, :h] = np.tril(u11 @ b[..., :h, :h] + u[..., :h, h:] @ b[..., h:, :h])
    out[..., h:, :h] = u22 @ b[..., h:, :h]
    out[..., h:, h:] = np.tril(u22 @ b[..., h:, h:])
    return out


def lower_congruence(w, s):
    """tril(tril(w)^T S tril(w)), S the symmetric matrix whose lower triangle is s's (s's
    strictly upper part is not read), for square or stacked w and s of one shape. The
    result is symmetric, so its lower triangle is all there is to compute: with halves,
    10 of 16 half-size products."""
    n = np.shape(w)[-1]
    if n < _BLOCKED or np.shape(w) != np.shape(s):
        wl = np.tril(w)
        return np.tril(np.swapaxes(wl, -1, -2) @ _symmetric(s) @ wl)
    h = n // 2
    w11, w21, w22 = np.tril(w[..., :h, :h]), w[..., h:, :h], np.tril(w[..., h:, h:])
    s11, s21, s22 = _symmetric(s[..., :h, :h]), s[..., h:, :h], _symmetric(s[..., h:, h:])
    t11 = s11 @ w11 + np.swapaxes(s21, -1, -2) @ w21      # S @ tril(w), block by block
    t21 = s21 @ w11 + s22 @ w21
    out = np.zeros(np.shape(w), dtype=np.result_type(w, s))
    out[..., :h, :h] = np.tril(np.swapaxes(w11, -1, -2) @ t11
                               + np.swapaxes(w21, -1, -2) @ t21)
    out[..., h:, :h] = np.swapaxes(w22, -1, -2) @ t21
    out[..., h:, h:] = np.tril(np.swapaxes(w22, -1, -2) @ (s22 @ w22))
    return out


def lower_gram(w, scale):
    """tril(tril(w)^T diag(scale) tril(w)) for square or stacked w (..., n, n) and scale
    (..., n):
    lower_congruence(w, S) for a diagonal S, as cholesky's adjoint has it when L_bar's
    terms are np.diag(L)'s and symmetric low-rank ones (optimize/cholesky_products.py).
    With halves, 4 of 8 half-size products (the diagonal blocks recursively):

        lower_gram(np.array([[1., 0.], [2., 3.]]), np.array([1., 2.]))  ->  [[9., 0.], [12., 18.]]
    """
    n = np.shape(w)[-1]
    d = np.asarray(scale)
    if n < _BLOCKED:
        wl = np.tril(w)
        return np.tril(np.swapaxes(wl, -1, -2) @ (d[..., :, None] * wl))
    h = n // 2
    w21, w22 = w[..., h:, :h], np.tril(w[..., h:, h:])
    scaled = d[..., h:, None] * w21                       # diag(d2) W21
    out = np.zeros(np.broadcast_shapes(np.shape(w), np.shape(d)[:-1] + (n, n)),
                   dtype=np.result_type(w, d))
    out[..., :h, :h] = lower_gram(w[..., :h, :h], d[..., :h]) \
        + np.tril(np.swapaxes(w21, -1, -2) @ scaled)
    out[..., h:, :h] = np.swapaxes(w22, -1, -2) @ scaled
    out[..., h:, h:] = lower_gram(w22, d[..., h:])
    return out



def lower_gram_update(w, scale, z, c):
    """tril(tril(w)^T (diag(scale) + c Z Z^T) tril(w)) for w (..., n, n), scale (..., n),
    z (..., n, k) and a number c: cholesky's adjoint with np.diag(L)'s term and a solve of a
    matrix Z (optimize/cholesky_low_rank.py). For few columns (k < 3n / 4) lower_gram plus
    U U^T with U = tril(w)^T Z (3 n^2 k flops); else S written out and lower_congruence
    (n^2 k + 5 n^3 / 2): the same numbers up to rounding.

        lower_gram_update(np.eye(2), np.ones(2), np.array([[1.], [2.]]), -1.0)
        ->  [[0., 0.], [-2., -3.]]
    """
    n, k = np.shape(w)[-1], np.shape(z)[-1]
    if 4 * k < 3 * n:
        u = np.swapaxes(np.tril(w), -1, -2) @ z
        return lower_gram(w, scale) + c * np.tril(u @ np.swapaxes(u, -1, -2))
    s = c * (z @ np.swapaxes(z, -1, -2))
    s[..., np.arange(n), np.arange(n)] += scale
    return lower_congruence(w, s)



def halved_diagonal(m):
    """A new array: m with its diagonal halved (for square or stacked m; a number, a zero
    standing for an array, as it is), phi's last step in cholesky's adjoint: one pass over m
    where `m - m * (0.5 * np.eye(n))` took three and an identity.

        halved_diagonal(np.array([[2., 0.], [4., 6.]]))  ->  [[1., 0.], [4., 3.]]
    """
    out = m * 1.0                       # a copy; float32 stays float32
    if np.ndim(out) >= 2:
        n = np.shape(out)[-1]
        out[..., np.arange(n), np.arange(n)] *= 0.5
    return out


# ---- scipy.linalg.solve_triangular(a, b, trans, lower, unit_diagonal)'s derivatives -------
# x solves op(T) x = b, T the triangle of a the solve reads and op the transpose when
# `trans` asks for it; its diagonal's ones (unit_diagonal) are no entries of a
def flipped_trans(trans):
    """The `trans` of the solve with op(T)'s transpose: 1 for 0 / 'N', else 0 ('T', and
    'C', which is 'T' for real matrices)."""
    return 0 if trans in (1, 2, "T", "C") else 1


def triangle_apply(m, x, trans=0, lower=False, unit_diagonal=False):
    """op(T) @ x, T the triangle of m a solve with these options reads (without the
    diagonal with unit_diagonal): dT x in the solve's tangent. Bilinear in m and x.

        triangle_apply(np.ones((2, 2)), np.array([1., 2.]), 0, True)  ->  [1., 3.]"""
    t = _triangle(m, lower, unit_diagonal)
    return (np.swapaxes(t, -1, -2) if flipped_trans(trans) == 0 else t) @ x


def triangle_outer(g, x, trans=0, lower=False, unit_diagonal=False):
    """The triangle (as triangle_apply reads it) of g x^T (x g^T when trans transposes),
    g and x vectors or matrices of columns: minus the solve's adjoint in a. Bilinear."""
    g2, x2 = (np.expand_dims(v, -1) if np.ndim(v) == 1 else v for v in (g, x))
    outer = x2 @ np.swapaxes(g2, -1, -2) if flipped_trans(trans) == 0 \
        else g2 @ np.swapaxes(x2, -1, -2)
    return _triangle(outer, lower, unit_diagonal)


def _triangle(m, lower, unit_diagonal):
    k = int(bool(unit_diagonal))
    return np.tril(m, -k) if lower else np.triu(m, k)


def _symmetric(s):
    """The symmetric matrix whose lower triangle is s's."""
    return np.tril(s) + np.swapaxes(np.tril(s, -1), -1, -2)
