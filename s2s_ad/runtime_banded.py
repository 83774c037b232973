"""Banded matrices in the diagonal-ordered form scipy.linalg.solve_banded takes, for its
derivatives (templates/scipy_linalg.py): with bandwidths (l, u), row u + i - j of `ab`
holds A[i, j] (ab has l + u + 1 rows and one column per column of A; entries that fall
outside A are never read). Each helper is linear in each array it takes, with templates
in templates/runtime_adjoints_banded.py.

    transposed_band((l, u), ab)    A^T's diagonals (bandwidths (u, l))
    band_product((l, u), ab, x)    A @ x            (x a vector or a matrix)
    band_of((l, u), g, x)          the diagonals of g @ x^T: what A's band gets of an
                                   outer product (entries outside the band dropped)
"""
import numpy as np


def _shift(row, s):
    """row[j + s] at j (zero where j + s falls outside)."""
    out = np.zeros_like(row)
    m = row.shape[0]
    if s >= 0:
        out[:m - s] = row[s:]
    else:
        out[-s:] = row[:m + s]
    return out


def transposed_band(l_and_u, ab):
    """The diagonals of A^T, A given by `ab` with bandwidths l_and_u."""
    lower, upper = l_and_u
    ab = np.asarray(ab)
    rows = [_shift(ab[lower + upper - k], k - lower) for k in range(lower + upper + 1)]
    return np.stack(rows) if rows else np.zeros_like(ab)


def band_product(l_and_u, ab, x):
    """A @ x for A given by its diagonals `ab`."""
    lower, upper = l_and_u
    ab = np.asarray(ab)
    x = np.asarray(x)
    columns = x.reshape(x.shape[0], -1)
    out = np.zeros(columns.shape, dtype=np.result_type(ab, columns))
    for r in range(lower + upper + 1):
        s = r - upper                   # A[i, j] with i = j + s
        contribution = ab[r][:, None] * columns      # at row j: A[j + s, j] x[j]
        if s >= 0:
            out[s:] += contribution[:columns.shape[0] - s]
        else:
            out[:s] += contribution[-s:]
    return out.reshape(x.shape)


def band_of(l_and_u, g, x):
    """The diagonals of g @ x^T (bandwidths l_and_u; g and x vectors or matrices with
    as many rows as A has)."""
    lower, upper = l_and_u
    g = np.asarray(g)
    x = np.asarray(x)
    gs = g.reshape(g.shape[0], -1)
    xs = x.reshape(x.shape[0], -1)
    m = xs.shape[0]
    rows = []
    for r in range(lower + upper + 1):
        s = r - upper                   # entry (j + s, j)
        row = np.zeros(m, dtype=np.result_type(gs, xs))
        if s >= 0:
            row[:m - s] = np.sum(gs[s:] * xs[:m - s], axis=1)
        else:
            row[-s:] = np.sum(gs[:m + s] * xs[-s:], axis=1)
        rows.append(row)
    return np.stack(rows)
