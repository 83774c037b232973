"""Runtime helpers for triangular matrices (see runtime.py): numpy has no triangular solve
or inverse, and np.linalg.inv of a triangular matrix factorises it as if it were full (a
pivoted LU, about 8/3 n^3 flops, slower than inverting a full matrix of the same size).

numpy only:

    lower_inverse(l)     inv(tril(l)) for square or stacked l, by halves: with
                         l = [[a, 0], [c, b]], inv(l) = [[inv(a), 0], [-inv(b) c inv(a), inv(b)]];
                         about n^3 / 3 flops, all in matrix products

    lower_inverse(np.array([[2., 0.], [1., 4.]]))  ->  [[0.5, 0.], [-0.125, 0.25]]

The recursion is the blocked form of the textbook triangular inversion (the one LAPACK's
trtri uses): its error is as small as substitution's, unlike inverting through a pivoted
LU, which never sees that the matrix is triangular.
"""
import numpy as np

# below this order a block is inverted by numpy directly: the halving then saves less than
# the Python calls it costs
_DIRECT = 64


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
