"""Runtime helpers for the adjoints of numpy's shape manipulation (generated code calls them).

Self-contained (numpy and s2s_ad.runtime only) so a standalone generated file can carry
their source:

    reshape_like(g, x)               g reshaped to x's shape (a float for a scalar x)
    untranspose(g, axes)             np.transpose's adjoint: the inverse permutation
    split_concatenated(g, arrays)    np.concatenate's: one piece per array joined
    split_hstacked, split_vstacked, unstack   the same for np.hstack, np.vstack, np.stack
    split_array(g, obj)              np.array(list)'s: the items' adjoints
    untile(g, x, reps), unrepeat(g, x, repeats)   np.tile's and np.repeat's: sums
    outer_operand(a, b)              a with a length-1 axis per axis of b (ufunc.outer)
    array_tolist(x)                  x.tolist() as normalize writes it (a primitive)
"""
import numpy as np

from .runtime import _float_dtype, _scalar_like, sequence_like


def reshape_like(g, x, order="C"):
    """g reshaped to x's shape (a float for a scalar x)."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    return _scalar_like(np.reshape(g, np.shape(x), order=order), x)


def array_tolist(x):
    """`x.tolist()` of an array (normalize writes the method so; templates in
    numpy_pieces.py): nested lists of Python numbers, one level per axis; a number for a
    0-d array. A tangent that is a Python number (a 0-d array's) reads as one.

        array_tolist(np.array([[1.0, 2.0]]))  ->  [[1.0, 2.0]]
    """
    return np.asarray(x).tolist()


def outer_operand(a, b):
    """a with one length-1 axis appended per axis of b, so that np.F.outer(a, b) is
    np.F(outer_operand(a, b), b) for a binary ufunc F (normalize writes it so).

        outer_operand(np.ones(3), np.ones((4, 5))).shape  ->  (3, 1, 1)
    """
    return np.reshape(a, np.shape(a) + (1,) * np.ndim(b))


def untranspose(g, axes=None):
    """Adjoint of np.transpose: transpose back with the inverse permutation."""
    if axes is None:
        return np.transpose(g)
    return np.transpose(g, np.argsort([a % np.ndim(g) for a in axes]))


def _split(g, arrays, sizes, axis):
    bounds = np.cumsum(sizes)[:-1]
    return _pieces_like([reshape_like(p, a) for p, a in zip(np.split(g, bounds, axis=axis), arrays)],
                        arrays)


def _pieces_like(pieces, arrays):
    """The adjoints of the items numpy joined, in the structure of `arrays`: a list for a
    list, a tuple for a tuple, one array for an array (np.hstack(m) joins the rows of the matrix m, and
    m's gradient is a matrix). Pieces are `None` for the scalar zero of a loop or branch.

        _pieces_like([g0, g1], np.ones((2, 3)))  ->  np.array([g0, g1])   # shape (2, 3)
    """
    if isinstance(arrays, np.ndarray):
        if any(p is None for p in pieces):
            return np.zeros(np.shape(arrays))
        return np.reshape(np.array(pieces, dtype=float), np.shape(arrays))
    return sequence_like(arrays, [0.0 if p is None else p for p in pieces])


def split_concatenated(g, arrays, axis=0):
    """Adjoint of np.concatenate: g split back into one piece per array."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return _pieces_like([None] * len(arrays), arrays)
    if axis is None:
        return _split(np.ravel(g), arrays, [np.size(a) for a in arrays], 0)
    return _split(g, arrays, [np.shape(a)[axis] for a in arrays], axis)


def split_hstacked(g, arrays):
    """Adjoint of np.hstack (concatenation along axis 1, axis 0 for vectors)."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return _pieces_like([None] * len(arrays), arrays)
    axis = 0 if np.ndim(g) == 1 else 1
    return _split(g, arrays, [np.shape(np.atleast_1d(a))[axis] for a in arrays], axis)


def split_vstacked(g, arrays):
    """Adjoint of np.vstack (concatenation along axis 0 of the arrays made 2-D)."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return _pieces_like([None] * len(arrays), arrays)
    return _split(g, arrays, [np.shape(np.atleast_2d(a))[0] for a in arrays], 0)


def unstack(g, arrays, axis=0):
    """Adjoint of np.stack: the slices of g along `axis`, one per array."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return _pieces_like([None] * len(arrays), arrays)
    return _pieces_like([_scalar_like(p, a) for p, a in zip(np.moveaxis(g, axis, 0), arrays)],
                        arrays)


def split_array(g, obj):
    """Adjoint of np.array/np.asarray: g itself, or one slice per item of a list."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return [0.0] * len(obj) if isinstance(obj, (list, tuple)) else 0.0
    if isinstance(obj, (list, tuple)):
        g = np.reshape(g, (len(obj),) + np.shape(obj[0]))
        # nested lists get nested lists back: the gradient has the argument's structure
        return [split_array(g[k], item) if isinstance(item, (list, tuple))
                else _scalar_like(g[k], item) for k, item in enumerate(obj)]
    g = reshape_like(g, obj)
    if isinstance(obj, np.ndarray) and obj.dtype.kind == "f" and np.ndim(g) \
            and g.dtype.kind == "f" and g.dtype != obj.dtype:
        # x.astype(np.float64) of a float32 x: x's gradient is float32, like x (as in JAX)
        return g.astype(obj.dtype)
    return g


def untile(g, x, reps):
    """Adjoint of np.tile: sum g over the copies."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    reps = tuple(reps) if isinstance(reps, (tuple, list)) else (reps,)
    n = max(len(reps), np.ndim(x))
    reps = (1,) * (n - len(reps)) + reps
    shape = (1,) * (n - np.ndim(x)) + np.shape(x)
    interleaved = [k for pair in zip(reps, shape) for k in pair]
    summed = np.sum(np.reshape(g, interleaved), axis=tuple(range(0, 2 * n, 2)))
    return reshape_like(summed, x)


def unrepeat(g, x, repeats, axis=None):
    """Adjoint of np.repeat: sum g over each element's copies."""
    if type(g) is float and not g:      # the scalar zero of a loop or branch: zero
        return 0.0
    if axis is None:
        flat = np.ravel(x)
        return reshape_like(unrepeat(g, flat, repeats, 0), x)
    axis = axis % np.ndim(x)
    n = np.shape(x)[axis]
    if np.ndim(repeats) == 0 or np.size(repeats) == 1:
        r = int(np.ravel(repeats)[0])
        shape = np.shape(x)[:axis] + (n, r) + np.shape(x)[axis + 1:]
        return np.sum(np.reshape(g, shape), axis=axis + 1)
    owner = np.repeat(np.arange(n), repeats)
    out = np.zeros((n,) + np.shape(g)[:axis] + np.shape(g)[axis + 1:], dtype=_float_dtype(g))
    np.add.at(out, owner, np.moveaxis(g, axis, 0))
    return np.moveaxis(out, 0, axis)
