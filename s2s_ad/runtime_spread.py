"""Runtime helpers for the derivatives of np.std and np.linalg.norm, and where their
derivative is taken as 0: a zero spread or a zero norm.

    unreduce_std(g, x, y, axis, ddof, keepdims)   adjoint of y = np.std(x): (x - mean) g /
                                     ((N - ddof) y), 0 where the spread is zero
    spread_reciprocal(y, x, axis, keepdims)       1 / y, 0 where the spread is zero
    unreduce_norm(g, x, y, ord, axis, keepdims)   adjoint of y = np.linalg.norm(x, ord):
                                     vector p-norms (and the count ord=0), Frobenius, nuclear,
                                     spectral and 1, -1, inf, -inf matrix norms
    norm_power(ord, x, axis)         the p of a vector norm's second derivative
    vector_norm_layout(x, axis)      np.linalg.vector_norm's axes moved last and joined

The convention (README, "Semantics"): where the function is not differentiable because
the spread or the norm is zero, its derivative is 0 (the subgradient of least norm, as
sign(0) = 0 for abs); in particular np.std of values that are all equal (x = a * ones,
whose std is 0 for every a) has derivative 0. Computing the mean of equal values rounds,
which leaves a spread of a few ulps of the mean instead of 0: a spread at most
_ROUNDING ulps of the mean is taken as zero. These are guards on reduced values (the size
of y), never an extra pass over x.
"""
import numpy as np

from .runtime import _expand, _float_dtype, _scalar_like
from .runtime_reductions import unreduce_extremum

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import MissingDerivativeError
    from .runtime_checks import _caller_origin
except ImportError:  # pragma: no cover - only in standalone generated files
    class MissingDerivativeError(ValueError):
        pass

    def _caller_origin(depth=2):
        return "the function"

_ROUNDING = 64 * np.finfo(float).eps


def _reciprocal(y, mean):
    """1 / y, 0 where y is zero or a rounding residue of `mean` (of y's size)."""
    zero = np.asarray(y <= _ROUNDING * np.abs(np.reshape(mean, np.shape(y))))
    if not zero.any():
        return 1.0 / y
    return np.where(zero, 0.0, 1.0 / np.where(zero, 1.0, y))


def spread_reciprocal(y, x, axis=None, keepdims=False):
    """1 / y for the spread y = np.std(x, axis, keepdims=keepdims), 0 where it is zero."""
    return _reciprocal(y, np.mean(x, axis=axis, keepdims=True))


def unreduce_std(g, x, y, axis=None, ddof=0, keepdims=False):
    """Adjoint of y = np.std(x): d var(x) / (2 y) = (x - mean) g / ((N - ddof) y), 0 where
    the spread is zero (there std is not differentiable, and x = a * ones is locally
    constant)."""
    mean = np.mean(x, axis=axis, keepdims=True)
    count = np.size(x) / np.size(mean)
    scale = g * _reciprocal(y, mean) / (count - ddof)
    return _scalar_like((x - mean) * _expand(scale, x, axis, keepdims), x)


def norm_reciprocal(y):
    """1 / y for a norm y, 0 where it is zero (there x is 0 and the norm's derivatives are
    taken as 0: the second-order templates of unreduce_norm divide by y)."""
    if np.ndim(y) == 0:
        return 1.0 / y if y != 0 else 0.0 * y
    zero = y == 0
    return np.where(zero, 0.0, 1.0 / np.where(zero, 1.0, y))


def _over_norm(v, y):
    """v / y, 0 where y is 0 (there x is 0: the norm's derivative is taken as 0)."""
    if np.ndim(y) == 0:
        return v / y if y != 0 else 0.0 * v
    return np.where(y == 0, 0.0, v / np.where(y == 0, 1.0, y))


def unreduce_norm(g, x, y, ord=None, axis=None, keepdims=False):
    """Adjoint of np.linalg.norm: g sign(x) (|x|/y)**(p-1) for a vector p-norm (p >= 1,
    +-inf) or the Frobenius norm; g U V^T for the nuclear norm, g u v^T of the largest
    (ord=2) or smallest (ord=-2) singular value for the spectral norms; 0 at x = 0."""
    if isinstance(x, (list, tuple)):
        x = np.asarray(x)       # as numpy reads `norm([a, b])`: one array of the items
    matrix = (axis is None and np.ndim(x) == 2) or (isinstance(axis, tuple) and len(axis) == 2)
    if ord in (None, "fro") or (ord == 2 and not matrix):
        spread = x * _expand(_over_norm(g, y), x, axis, keepdims)
    elif not matrix and isinstance(ord, (int, float)) and 1 <= ord < np.inf:
        ratio = _over_norm(np.abs(x), _expand(y, x, axis, keepdims))
        spread = np.sign(x) * ratio ** (ord - 1) * _expand(g, x, axis, keepdims)
    elif not matrix and ord in (np.inf, -np.inf):
        spread = unreduce_extremum(g, np.abs(x), y, axis, keepdims) * np.sign(x)
    elif not matrix and ord == 0:       # the count of nonzero entries: piecewise constant
        spread = np.zeros(np.shape(x), dtype=_float_dtype(x)) * _expand(g, x, axis, keepdims)
    elif matrix and ord in ("nuc", 2, -2):
        spread = _singular_spread(x, ord, axis) * _expand(g, x, axis, keepdims)
    elif matrix and ord in (1, -1, np.inf, -np.inf):
        spread = _line_sum_spread(g, x, y, ord, axis, keepdims)
    else:
        raise MissingDerivativeError(
            f"s2s_ad differentiates np.linalg.norm for vector p-norms (p >= 1, 0 or +-inf) "
            f"and the Frobenius, nuclear, spectral (2, -2) and 1, -1, inf, -inf matrix "
            f"norms, not ord={ord!r}", None, "use one of those orders")
    return _scalar_like(spread, x)


def _line_sum_spread(g, x, y, ord, axis, keepdims):
    """d ||x|| / dx for the largest (1, inf) or smallest (-1, -inf) absolute column (1, -1)
    or row (inf, -inf) sum: sign(x) on the line attaining y (ties share equally)."""
    rows, cols = (0, 1) if axis is None else tuple(a % np.ndim(x) for a in axis)
    summed, across = (rows, cols) if ord in (1, -1) else (cols, rows)
    sums = np.sum(np.abs(x), axis=summed, keepdims=True)
    kept = axis is None or keepdims            # y and g broadcast against x as they are
    hit = (sums == (y if kept else np.expand_dims(y, (rows, cols)))).astype(sums.dtype)
    share = hit / np.sum(hit, axis=across, keepdims=True)
    return np.sign(x) * share * (g if kept else np.expand_dims(g, (rows, cols)))


def _singular_spread(x, ord, axis):
    """d ||x|| / dx for a norm of singular values: U V^T (nuclear), u_1 v_1^T (2, the
    largest), u_n v_n^T (-2, the smallest); the matrix axes of x moved last and back."""
    axes = (0, 1) if axis is None else axis
    moved = np.moveaxis(x, axes, (-2, -1))
    u, _, vh = np.linalg.svd(moved, full_matrices=False)
    if ord == "nuc":
        d = u @ vh
    else:
        k = 0 if ord == 2 else -1
        d = u[..., :, k, None] * vh[..., None, k, :]
    return np.moveaxis(d, (-2, -1), axes)


def norm_power(ord, x, axis=None):
    """p for the second derivatives of a vector p-norm (None and 'fro' are 2, +-inf 1);
    1 for the norms whose derivative is piecewise constant (the matrix 1, -1, inf, -inf
    norms, the vector count ord=0): their terms in p - 1 vanish; those of the nuclear and
    spectral matrix norms are not implemented."""
    matrix = (axis is None and np.ndim(x) == 2) or (isinstance(axis, tuple) and len(axis) == 2)
    if ord == 0 or (matrix and ord in (1, -1, np.inf, -np.inf)):
        return 1.0
    if matrix and ord not in (None, "fro"):
        raise MissingDerivativeError(      # (called by the generated second derivative)
            f"s2s_ad has no second derivative of np.linalg.norm with ord={ord!r}, needed to "
            f"differentiate {_caller_origin()} (its first derivative is supported)", None,
            "take second derivatives of the Frobenius norm, or of a vector norm")
    return {None: 2.0, "fro": 2.0, np.inf: 1.0, -np.inf: 1.0}.get(ord, ord)


def vector_norm_layout(x, axis=None):
    """How np.linalg.vector_norm(x, axis=axis) reads x as vectors: (the reduced axes, the
    places they move to (the last ones), x's shape after the move, that shape with the
    reduced axes joined into one). Any number of axes, None for all.

        vector_norm_layout(np.ones((2, 3, 4)), (0, 2))
        -> ((0, 2), (1, 2), (3, 2, 4), (3, 8))
    """
    ndim = np.ndim(x)
    axes = tuple(range(ndim)) if axis is None else \
        tuple(a % ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
    places = tuple(range(ndim - len(axes), ndim))
    moved = np.shape(np.moveaxis(np.empty(np.shape(x)), axes, places)) if ndim else ()
    kept = moved[:ndim - len(axes)]
    return axes, places, moved, kept + (int(np.prod(moved[ndim - len(axes):])),)
