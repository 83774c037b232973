"""Runtime helpers for the adjoints of numpy's linear algebra (see runtime.py).

numpy and runtime.unbroadcast only:

    matmul_adjoint_a/b(g, a, b)      adjoints of `@` / np.matmul (1-D, 2-D, batched)
    dot_adjoint_a/b(g, a, b)         adjoints of np.dot
    inner_adjoint_a/b(g, a, b)       adjoints of np.inner
    tensordot_adjoint_a/b(g, a, b, axes)
    place_diagonal(g, x, offset, axis1, axis2)   g placed on x's diagonal
    spread_trace(g, x, offset, axis1, axis2)
    undiag(g, v, k)
    einsum_operand_adjoint(g, subscripts, operands, k)      adjoint of operand k: another einsum
    as_columns(v, a, x)              np.linalg.solve's vectors as columns (solve, its adjoint)
    inverse_and_solve(a, b)          (inv(a), solve(a, b)) from one factorisation
    quotient_or_nan(x, y)            x / y, with 0 / 0 = 0 and x / 0 = nan (decompositions)
    leading_columns(g, k, what)      g[..., :k], the rest checked zero (full_matrices=True)
    real_eigenvalues(w)              np.linalg.eig's eigenvalues, checked real
    kron_layout(a, b)                np.kron's result with a's and b's axes interleaved
"""
import string

import numpy as np

from .runtime import _float_dtype, _scalar_like, unbroadcast

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import NonDifferentiableError
    from .runtime_checks import _caller_origin
except ImportError:  # pragma: no cover - only in standalone generated files
    class NonDifferentiableError(ValueError):
        pass

    def _caller_origin(depth=2):
        return "the function"


def _zero_standing_in(g, has_axes):
    """Is g the number 0.0 a loop or branch starts an adjoint as, standing for zeros of the
    product's shape? Only when that product has axes: a product that is a number (v @ w of
    vectors) has g of its own shape, and its operands' adjoints are arrays of theirs."""
    return type(g) is float and not g and bool(has_axes)


def _seed_dtype(g, *operands):
    """g as an array of the operands' float dtype when it is a Python number (the seed 1.0
    of a function returning np.inner(x, y) or np.trace(m)): np.tensordot and np.expand_dims
    would make it a float64 array and widen a float32 argument's gradient."""
    if type(g) is float or type(g) is int:
        return np.asarray(g, dtype=_float_dtype(g, *operands))
    return g


def _product_has_axes(a, b):
    """Does np.dot(a, b) / np.inner(a, b) have axes (not two vectors, not two numbers)?"""
    return not (np.ndim(a) == 1 == np.ndim(b) or np.ndim(a) == 0 == np.ndim(b))


def matmul_adjoint_a(g, a, b):
    """Adjoint of `a` in y = a @ b, for 1-D, 2-D and batched operands (numpy's rules: a 1-D
    `a` is a (1, k) row, a 1-D `b` a (k, 1) column, leading axes broadcast as a batch and
    are summed back to `a`'s shape)."""
    if type(a) is np.ndarray is type(b) is type(g) and a.ndim == 2:
        if b.ndim == 2:
            return g @ b.T                           # plain matrices: nothing broadcast
        if b.ndim == 1 == g.ndim:
            return np.multiply.outer(g, b)           # matrix times vector
    if _zero_standing_in(g, np.ndim(a) != 1 or np.ndim(b) != 1):
        return 0.0
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if b_nd == 1:
        return np.multiply.outer(g, b) if a_nd > 1 else g * b
    if a_nd == 1:
        if np.ndim(g) == 1:
            return np.matmul(b, g)
        return unbroadcast(np.matmul(b, g[..., None])[..., 0], a)
    return unbroadcast(np.matmul(g, np.swapaxes(b, -1, -2)), a)


def matmul_adjoint_b(g, a, b):
    """Adjoint of `b` in y = a @ b, for 1-D, 2-D and batched operands (as matmul_adjoint_a:
    the result has `b`'s shape, broadcast batch axes summed)."""
    if type(a) is np.ndarray is type(b) is type(g) and a.ndim == 2:
        if b.ndim == 1 == g.ndim:
            return g @ a                             # matrix times vector
        if b.ndim == 2:
            return a.T @ g                           # plain matrices: nothing broadcast
    if _zero_standing_in(g, np.ndim(a) != 1 or np.ndim(b) != 1):
        return 0.0
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    if a_nd == 1:            # a acts as a (1, k) row: db[..., k, m] = a[k] g[..., m]
        if b_nd == 1:
            return g * a
        if b_nd == 2:
            return np.multiply.outer(a, g)
        return np.expand_dims(a, -1) * np.expand_dims(g, -2)   # b's batch is y's batch
    if b_nd == 1:            # b acts as a (k, 1) column shared by every batch and row of a
        if a_nd == 2:
            return np.matmul(g, a)
        return np.tensordot(g, a, axes=a_nd - 1)      # sum over a's batch axes and rows
    return unbroadcast(np.matmul(np.swapaxes(a, -1, -2), g), b)


# ---- reductions -----------------------------------------------------------------------


def dot_adjoint_a(g, a, b):
    """Adjoint of `a` in np.dot(a, b)."""
    if _zero_standing_in(g, _product_has_axes(a, b)):
        return 0.0
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return _scalar_like(_sum_to(g * b, a), a)
    g = _seed_dtype(g, a, b)
    nb = np.ndim(b) - 1
    b_free = [k for k in range(np.ndim(b)) if k != max(np.ndim(b) - 2, 0)]
    g_b = list(range(np.ndim(g) - nb, np.ndim(g)))
    return np.tensordot(g, b, axes=(g_b, b_free))


def dot_adjoint_b(g, a, b):
    """Adjoint of `b` in np.dot(a, b)."""
    if _zero_standing_in(g, _product_has_axes(a, b)):
        return 0.0
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return _scalar_like(_sum_to(g * a, b), b)
    g = _seed_dtype(g, a, b)
    na = np.ndim(a) - 1
    out = np.tensordot(a, g, axes=(list(range(na)), list(range(na))))
    return np.moveaxis(out, 0, max(np.ndim(b) - 2, 0))


def _sum_to(g, x):
    """Sum g down to x's shape when x is a scalar (its only use here)."""
    return np.sum(g) if np.ndim(x) == 0 else g


def inner_adjoint_a(g, a, b):
    """Adjoint of `a` in np.inner(a, b) (contracts the last axes)."""
    if _zero_standing_in(g, _product_has_axes(a, b)):
        return 0.0
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return _scalar_like(_sum_to(g * b, a), a)
    g = _seed_dtype(g, a, b)
    nb = np.ndim(b) - 1
    g_b = list(range(np.ndim(g) - nb, np.ndim(g)))
    return np.tensordot(g, b, axes=(g_b, list(range(nb))))


def inner_adjoint_b(g, a, b):
    """Adjoint of `b` in np.inner(a, b)."""
    if _zero_standing_in(g, _product_has_axes(a, b)):
        return 0.0
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return _scalar_like(_sum_to(g * a, b), b)
    g = _seed_dtype(g, a, b)
    na = np.ndim(a) - 1
    return np.tensordot(g, a, axes=(list(range(na)), list(range(na))))


def _tensordot_axes(a, b, axes):
    if np.ndim(axes) == 0:
        n = int(axes)
        return list(range(np.ndim(a) - n, np.ndim(a))), list(range(n))
    a_axes, b_axes = axes
    a_axes = [a_axes] if np.ndim(a_axes) == 0 else list(a_axes)
    b_axes = [b_axes] if np.ndim(b_axes) == 0 else list(b_axes)
    return [k % np.ndim(a) for k in a_axes], [k % np.ndim(b) for k in b_axes]


def tensordot_adjoint_a(g, a, b, axes=2):
    """Adjoint of `a` in np.tensordot(a, b, axes)."""
    a_axes, b_axes = _tensordot_axes(a, b, axes)
    a_free = [k for k in range(np.ndim(a)) if k not in a_axes]
    b_free = [k for k in range(np.ndim(b)) if k not in b_axes]
    if _zero_standing_in(g, a_free or b_free):
        return 0.0
    g = _seed_dtype(g, a, b)
    g_b = list(range(len(a_free), np.ndim(g)))
    out = np.tensordot(g, b, axes=(g_b, b_free))   # a_free, then b's contracted axes
    paired = [a_axes[b_axes.index(k)] for k in sorted(b_axes)]
    return _scalar_like(np.transpose(out, np.argsort(a_free + paired)), a)


def tensordot_adjoint_b(g, a, b, axes=2):
    """Adjoint of `b` in np.tensordot(a, b, axes)."""
    a_axes, b_axes = _tensordot_axes(a, b, axes)
    a_free = [k for k in range(np.ndim(a)) if k not in a_axes]
    b_free = [k for k in range(np.ndim(b)) if k not in b_axes]
    if _zero_standing_in(g, a_free or b_free):
        return 0.0
    g = _seed_dtype(g, a, b)
    out = np.tensordot(a, g, axes=(a_free, list(range(len(a_free)))))
    paired = [b_axes[a_axes.index(k)] for k in sorted(a_axes)]
    return _scalar_like(np.transpose(out, np.argsort(paired + b_free)), b)


def place_diagonal(g, x, offset=0, axis1=0, axis2=1):
    """Adjoint of np.diagonal: zeros shaped like x with g on the selected diagonal."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    out = np.zeros(np.shape(x), dtype=_float_dtype(g))      # float32 kept
    view = np.moveaxis(out, (axis1, axis2), (-2, -1))
    i = np.arange(np.shape(g)[-1])
    view[..., i + max(-offset, 0), i + max(offset, 0)] = g
    return out


def spread_trace(g, x, offset=0, axis1=0, axis2=1):
    """Adjoint of np.trace: g spread along the selected diagonal."""
    n1, n2 = np.shape(x)[axis1], np.shape(x)[axis2]
    n = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    g = np.broadcast_to(np.expand_dims(_seed_dtype(g, x), -1), np.shape(g) + (n,))
    return place_diagonal(g, x, offset, axis1, axis2)


def undiag(g, v, k=0):
    """Adjoint of np.diag: the k-th diagonal of g (for a vector v), else g on v's diagonal."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    if np.ndim(v) == 1:
        return np.diagonal(g, k).copy()
    return place_diagonal(g, v, k, 0, 1)


def einsum_operand_count(subscripts):
    """How many operands np.einsum's string form names. An operand in the subscripts'
    place is the sublist form with sublists the normalizer could not read (held in
    variables): a clear error, never a derivative that leaves that operand out."""
    if not isinstance(subscripts, str):
        raise TypeError("s2s_ad differentiates np.einsum's sublist form when its sublists "
                        "are written as literal lists (np.einsum(x, [0, 1], [1, 0])); "
                        "or use the string form np.einsum('ij->ji', x)")
    return subscripts.count(",") + 1


def _einsum_parts(subscripts, operands):
    """(input subscripts, output subscripts) of np.einsum with `...` spelled out in letters
    the subscripts do not use (each operand's `...` takes the last of them it has axes
    for, as numpy aligns broadcast axes from the right)."""
    spec = subscripts.replace(" ", "")
    inputs, arrow, output = spec.partition("->")
    inputs = inputs.split(",")
    if len(inputs) != len(operands):
        raise ValueError(f"einsum: {len(inputs)} subscripts for {len(operands)} operands")
    letters = "".join(inputs)
    if not arrow:
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c != "."))
        output = ("..." if "." in spec else "") + output
    if "." in spec:
        spare = [c for c in string.ascii_letters if c not in spec]
        counts = [np.ndim(op) - len(s.replace("...", "")) if "..." in s else 0
                  for s, op in zip(inputs, operands)]
        broadcast = "".join(spare[:max(counts)])
        inputs = [s.replace("...", broadcast[len(broadcast) - n:])
                  for s, n in zip(inputs, counts)]
        output = output.replace("...", broadcast)
    return inputs, output


def einsum_operand_adjoint(g, subscripts, operands, k):
    """Adjoint of operand k of np.einsum: an einsum of g with the other operands."""
    operands = [op for op in operands if op is not None]
    inputs, output = _einsum_parts(subscripts, operands)
    if _zero_standing_in(g, output):
        return 0.0
    mine, x = inputs[k], operands[k]
    others = [(s, op) for j, (s, op) in enumerate(zip(inputs, operands)) if j != k]
    present = set(output).union(*[s for s, _ in others])
    unique = "".join(dict.fromkeys(mine))
    reached = "".join(c for c in unique if c in present)
    terms = ",".join([output] + [s for s, _ in others])
    if isinstance(g, (int, float)):     # grad's seed 1.0: einsum would make it float64
        g = np.asarray(g, dtype=_float_dtype(*[op for op in operands
                                               if isinstance(op, (np.ndarray, np.generic))]))
    r = np.einsum(f"{terms}->{reached}", g, *[op for _, op in others])
    sizes = {c: n for c, n in zip(mine, np.shape(x))}
    ones = tuple(j for j, c in enumerate(reached) if sizes[c] == 1 and np.shape(r)[j] != 1)
    if ones:                # axes of length 1 that `...` broadcast: sum over them
        r = np.sum(r, axis=ones, keepdims=True)
    if reached != unique:   # letters summed in operand k alone: broadcast back
        r = np.expand_dims(r, [j for j, c in enumerate(unique) if c not in present])
        r = np.broadcast_to(r, [sizes[c] for c in unique])
    if unique == mine:
        return _scalar_like(np.array(r, dtype=_float_dtype(r)) if reached != unique else r, x)
    out = np.zeros(np.shape(x), dtype=_float_dtype(r))   # repeated letters: scatter onto it
    grids = np.ix_(*[np.arange(sizes[c]) for c in unique])
    out[tuple(grids[unique.index(c)] for c in mine)] = r
    return out


# ---- np.linalg.solve ---------------------------------------------------------------------
def as_columns(v, a, x):
    """v, laid out like x = np.linalg.solve(a, b), as a stack of matrices: when b holds
    vectors (x has one axis fewer than a) each becomes a column, else v is returned."""
    return np.expand_dims(v, -1) if np.ndim(x) == np.ndim(a) - 1 else v


def inverse_and_solve(a, b):
    """(inv(a), np.linalg.solve(a, b)) from one factorisation of a: b and the identity's
    columns solved together, so x is the same solve's answer (not inv(a) @ b) and the
    inverse costs what np.linalg.inv would (optimize/shared_inverses.py).

        inverse_and_solve(np.diag([2., 4.]), np.ones(2)) -> ([[0.5, 0], [0, 0.25]], [0.5, 0.25])
    """
    if np.ndim(a) != 2 or np.ndim(b) not in (1, 2) or np.shape(b)[0] != np.shape(a)[0]:
        return np.linalg.inv(a), np.linalg.solve(a, b)       # numpy's own (and its errors)
    n = np.shape(a)[0]
    columns = np.reshape(b, (n, -1))
    k = np.shape(columns)[1]
    # the right-hand sides in Fortran order, as LAPACK reads them: numpy's solve copies a
    # C-ordered b column by column (strided), which cost 1.3x np.linalg.inv at n = 200
    # (1.1x this way); the same numbers, every column's solve is independent of the others
    rhs = np.zeros((n, k + n), dtype=np.result_type(a, b), order="F")
    rhs[:, :k] = columns
    rhs[np.arange(n), np.arange(k, k + n)] = 1
    both = np.linalg.solve(a, rhs)
    return both[:, k:], np.reshape(both[:, :k], np.shape(b))


# ---- decompositions (templates/numpy_decompositions.py) ------------------------------------
def quotient_or_nan(x, y):
    """x / y elementwise, where y == 0 gives 0 when x == 0 and nan otherwise. The
    decompositions divide by gaps between eigenvalues (or singular values) and by singular
    values: at a repeated or zero value the derivative of the vectors is not defined (nan),
    but a loss that does not depend on them (x exactly 0, e.g. it uses the values alone)
    keeps its exact gradient."""
    zero = y == 0
    quotient = x / np.where(zero, 1.0, y)
    if np.any(zero):
        kind = np.result_type(quotient).type        # float32 stays float32
        quotient = np.where(zero, np.where(x == 0, kind(0.0), kind(np.nan)), quotient)
    return quotient


def leading_columns(g, k, what="np.linalg.svd"):
    """g[..., :k], the adjoint of the first k columns of a decomposition's complete factor
    (full_matrices=True, mode='complete'). The other columns span a complement that the
    decomposition chooses freely: their derivative is not defined, so an adjoint reaching
    them is an error rather than a wrong gradient."""
    if np.shape(g)[-1] > k and np.any(np.asarray(g)[..., k:]):
        raise ValueError(f"s2s_ad: the derivative of {what} is not defined for the columns "
                         f"of a complete factor beyond the first {k} (any orthonormal "
                         f"completion is a valid result); use full_matrices=False "
                         f"(mode='reduced'), or only those first {k} columns")
    return np.asarray(g)[..., :k]


def real_eigenvalues(w):
    """np.linalg.eig's eigenvalues, which s2s_ad differentiates when they are real (numpy
    then returns real arrays); complex ones are an s2s_ad error naming the differentiated
    function, never a derivative of their real part alone (JAX and autograd users expect
    eig's derivative for real eigenvalues only)."""
    if np.iscomplexobj(w):
        raise NonDifferentiableError(
            f"the derivative of np.linalg.eig in {_caller_origin()} is supported for real "
            f"eigenvalues only (numpy then returns real arrays), and this matrix has complex "
            f"ones; every eigenvalue must be real", None,
            "np.linalg.eigh for a symmetric matrix, or np.linalg.eigvals outside the "
            "differentiated code")
    return w


def kron_layout(a, b):
    """How np.kron(a, b) lays out its entries, for its adjoint: both operands padded with
    leading 1s to one rank n, the result reshaped to (a_0, b_0, a_1, b_1, ...) holds
    a[i...] * b[k...] at [i_0, k_0, i_1, k_1, ...]. Returns (interleaved shape, a's padded
    shape, b's padded shape, a's axes in it, b's axes in it, range(n)).

        kron_layout(np.ones(2), np.ones((3, 4)))
        -> ((1, 3, 2, 4), (1, 2), (3, 4), (0, 2), (1, 3), (0, 1))
    """
    n = max(np.ndim(a), np.ndim(b))
    sa = (1,) * (n - np.ndim(a)) + np.shape(a)
    sb = (1,) * (n - np.ndim(b)) + np.shape(b)
    interleaved = tuple(size for pair in zip(sa, sb) for size in pair)
    return (interleaved, sa, sb, tuple(range(0, 2 * n, 2)), tuple(range(1, 2 * n, 2)),
            tuple(range(n)))
