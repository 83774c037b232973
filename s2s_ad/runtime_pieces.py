"""Runtime helpers for the derivatives of the numpy functions that cut an array into pieces,
join pieces, or pick between arrays (see runtime.py):

    split_column_stacked(g, tup), split_dstacked(g, tup)   np.column_stack's / np.dstack's
                                     adjoint: g cut back into one piece per array
    split_block(g, arrays)           np.block's adjoint: g cut back into the nested blocks
    uninsert(g, arr, obj, values, axis)   np.insert's adjoint: [arr_bar, values_bar]
    unselect(g, condlist, choicelist, default)   np.select's adjoint: each choice's share
                                     of g (the default's last)
    unchoose(g, a, choices, mode)    np.choose's adjoint: each choice's share of g
    kink_share(g, x1, x2, first)     np.maximum's adjoint: one operand's share of g
    where_negated(g, c)              np.where(c, g, -g), as a product with +-1
    unmesh(g, grids, xs, indexing), mesh_tangent(grids, ts, indexing)   np.meshgrid's
                                     adjoint and tangent (each the other's transpose)
    unbroadcast_each(gs, xs), broadcast_each(ts, ys)   np.broadcast_arrays's adjoint and
                                     tangent
    piecewise_masks(x, condlist, count), spread_masked(values, mask)   np.piecewise, as
                                     normalize writes it (transforms/calls.py), and
    masked_values(g, mask)           spread_masked's adjoint
    running_source(y, axis)                the entries np.maximum.accumulate's values
                                           come from (the first on ties)
    along_axis_index(arr, indices, axis)   the index np.take_along_axis reads and
                                     np.put_along_axis writes
    trimmed_region(filt, trim, axis) the slices np.trim_zeros keeps
    diagonal_index(a)                the index np.fill_diagonal(a, v) writes

Each (but piecewise_masks, along_axis_index, running_source, diagonal_index and
trimmed_region, which give
booleans, indices and slices) is
linear in its first argument; templates/runtime_helpers_pieces.py holds their own
templates (grad of grad). An adjoint g may be the scalar zero 0.0 (standing for zeros of
any shape), and a list adjoint a list with 0.0 items; what they return for an array is
shaped like it (generated code may write into it).

    >>> split_column_stacked(np.arange(6.0).reshape(3, 2), [np.ones(3), np.ones(3)])
    [array([0., 2., 4.]), array([1., 3., 5.])]
"""
import numpy as np

from .runtime import _float_dtype, broadcast_tangent, unbroadcast, zero_adjoint
from .runtime_shape import _split, reshape_like


def _is_zero(g):
    return type(g) is float and not g


def _item(g, k):
    """Item k of a list adjoint (0.0 when the whole list is still the scalar zero, or
    when the list is shorter: an input the call was not given)."""
    items = isinstance(g, (list, tuple)) or isinstance(g, np.ndarray) and g.ndim
    return g[k] if items and k < len(g) else 0.0


# ---- joining: column_stack, dstack, block ----------------------------------------------------
def split_column_stacked(g, tup):
    """Adjoint of np.column_stack: 0-d and 1-D arrays were one column each, 2-D arrays
    their columns."""
    if _is_zero(g):
        return [zero_adjoint(a) for a in tup]
    return _split(g, tup, [1 if np.ndim(a) < 2 else np.shape(a)[1] for a in tup], 1)


def split_dstacked(g, tup):
    """Adjoint of np.dstack (concatenation along axis 2 of the arrays made 3-D)."""
    if _is_zero(g):
        return [zero_adjoint(a) for a in tup]
    return _split(g, tup, [np.shape(np.atleast_3d(a))[2] for a in tup], 2)


def _block_depth(arrays):
    return 1 + _block_depth(arrays[0]) if isinstance(arrays, list) else 0


def _block_extent(item, axis, ndim):
    """The length along `axis` of the block that `item` (a nested list or an array given
    ndim axes by leading ones) becomes."""
    if isinstance(item, list):     # the inner lists join along later axes: same extent
        return _block_extent(item[0], axis, ndim)
    shape = (1,) * (ndim - np.ndim(item)) + np.shape(item)
    return shape[axis]


def _block_leaves(arrays):
    if isinstance(arrays, list):
        return [leaf for item in arrays for leaf in _block_leaves(item)]
    return [arrays]


def split_block(g, arrays):
    """Adjoint of np.block: the innermost lists were joined along the last axis, the lists
    holding them along the one before, and so on (arrays given leading axes of length 1
    up to the result's rank); g is cut the same way, in the same nesting."""
    depth = _block_depth(arrays)
    ndim = max([depth] + [np.ndim(a) for a in _block_leaves(arrays)])

    def cut(g, item, level):
        if not isinstance(item, list):
            return zero_adjoint(item) if _is_zero(g) else reshape_like(g, item)
        if _is_zero(g):
            return [cut(g, part, level + 1) for part in item]
        axis = ndim - depth + level
        sizes = [_block_extent(part, axis, ndim) for part in item]
        pieces = np.split(g, np.cumsum(sizes)[:-1], axis=axis)
        return [cut(p, part, level + 1) for p, part in zip(pieces, item)]
    return cut(g, arrays, 0)


# ---- np.insert --------------------------------------------------------------------------------
def uninsert(g, arr, obj, values, axis=None):
    """Adjoint of np.insert, [arr_bar, values_bar]: np.insert of the elements' numbers
    (arr's 0..n-1, values' n..n+m-1) says where each element of the result came from
    (values broadcast, so one may land in several places); g summed by that number."""
    if _is_zero(g):
        return [zero_adjoint(arr), zero_adjoint(values)]
    n, m = np.size(arr), np.size(values)
    source = np.insert(np.reshape(np.arange(n), np.shape(arr)), obj,
                       np.reshape(np.arange(n, n + m), np.shape(values)), axis)
    sums = np.bincount(np.ravel(source), weights=np.ravel(broadcast_tangent(g, source)),
                       minlength=n + m).astype(_float_dtype(g), copy=False)   # float32 kept
    return [reshape_like(sums[:n], arr), reshape_like(sums[n:], values)]


# ---- np.select and np.choose ------------------------------------------------------------------
def unselect(g, condlist, choicelist, default=0):
    """Adjoint of np.select: for each choice (and the default, last) g where it was the
    one selected (the first true condition; the default where none is), summed back to
    its shape."""
    n = len(choicelist)
    items = list(choicelist) + [default]
    if _is_zero(g):
        return [zero_adjoint(item) for item in items]
    which = np.select(condlist, list(range(n)), n)
    return [unbroadcast(np.where(which == k, g, 0.0), item) for k, item in enumerate(items)]


def unchoose(g, a, choices, mode="raise"):
    """Adjoint of np.choose: each choice's share of g, where a (wrapped or clipped as
    `mode` says) picked it; an array of choices gets an array back."""
    n = len(choices)
    index = np.mod(a, n) if mode == "wrap" else np.clip(a, 0, n - 1) if mode == "clip" else a
    parts = unselect(g, [index == k for k in range(n)], choices, 0.0)[:-1]
    if isinstance(choices, np.ndarray):          # rows of one array: an array back
        stacked = np.array(parts)
        return np.zeros(np.shape(choices), dtype=_float_dtype(stacked)) + stacked
    return parts


def kink_share(g, x1, x2, first, into=None):
    """The share of g, the adjoint of np.maximum(x1, x2), that goes to x1 (`first`) or x2:
    x1's is g where x1 > x2, x2's is g everywhere else (also where either is NaN); at ties
    each gets g / 2. np.minimum's shares are np.maximum's with the operands swapped.
    Written for ReLU, `np.maximum(0, z)`: one comparison and one product, the ties (rare)
    only when there are some. `into`: an array of the share's shape and dtype to write it
    into (optimize/buffers.py passes one nothing reads again, g's own array included;
    the masks are taken before it is written).

        >>> kink_share(np.ones(3), np.array([-1.0, 0.0, 2.0]), 0.0, True)
        array([0. , 0.5, 1. ])
    """
    chosen = np.greater(x1, x2)
    if not first:
        chosen = np.logical_not(chosen, out=chosen if isinstance(chosen, np.ndarray) else None)
    dtype = np.result_type(g, x1, x2)          # float32 stays float32, also for g = 1.0
    dtype = dtype if dtype.kind in "fc" else np.float64
    ties = np.equal(x1, x2)
    if np.any(ties):
        share = np.where(ties, 0.5 * g, np.multiply(g, chosen, dtype=dtype))
        if into is None:
            return share
        np.copyto(into, share)
        return into
    return np.multiply(g, chosen, dtype=dtype, out=into)


def where_negated(g, c, into=None):
    """np.where(c, g, -g), the same numbers (-0.0 and inf too; a nan stays nan), as g times an array
    of +1.0 and -1.0 in g's dtype: multiplying by +-1 is exact, and numpy's np.where (with
    the -g it needs) takes ~10 ns an element on numpy 2.4, ordered mask or not, ten times
    these three passes. The adjoint of a branch `1.0 - p` met by its other branch `p`
    (optimize/where_sums.py). `into`: an array of the result's shape and dtype, not g's,
    to write it into (optimize/buffers.py passes one nothing reads again).

        >>> where_negated(np.array([2.0, 3.0]), np.array([True, False]))
        array([ 2., -3.])
    """
    dtype = np.result_type(g)
    dtype = dtype if dtype.kind in "fc" else np.float64
    if into is None:
        signs = np.multiply(c, 2.0, dtype=dtype)
    else:
        signs = np.multiply(c, 2.0, out=into, dtype=dtype)
    signs -= 1.0
    if signs.shape == np.broadcast_shapes(signs.shape, np.shape(g)):
        signs *= g
        return signs
    return np.multiply(signs, g)


# ---- np.meshgrid and np.broadcast_arrays -------------------------------------------------------
def _grid_axis(k, n, indexing):
    """The axis of meshgrid's grids along which input k runs ('xy' swaps the first two)."""
    return {0: 1, 1: 0}.get(k, k) if indexing == "xy" and n > 1 else k


def unmesh(g, grids, xs, indexing="xy"):
    """Adjoint of np.meshgrid: input k's is grid k's adjoint summed over every axis but
    the one k runs along, in k's shape (0.0 for a None in xs, an input not given)."""
    out = []
    for k, x in enumerate(xs):
        gk = _item(g, k)
        if x is None or _is_zero(gk):   # zeros of x's shape: the adjoint may be written into
            out.append(0.0 if x is None else zero_adjoint(x))
            continue
        axis = _grid_axis(k, len(grids), indexing)
        others = tuple(a for a in range(np.ndim(grids[k])) if a != axis)
        summed = np.sum(broadcast_tangent(gk, grids[k]), axis=others)
        out.append(reshape_like(broadcast_tangent(summed, np.ravel(x)), x))
    return out


def mesh_tangent(grids, ts, indexing="xy"):
    """Tangent of np.meshgrid: input k's tangent laid along grid k's axis (ts may hold
    more items than grids: the inputs not given)."""
    out = []
    for k, grid in enumerate(grids):
        axis = _grid_axis(k, len(grids), indexing)
        shape = [1] * np.ndim(grid)
        shape[axis] = np.shape(grid)[axis]
        t = np.reshape(ts[k], shape) if np.size(ts[k]) == shape[axis] else ts[k]  # or 0.0
        out.append(np.broadcast_to(t, np.shape(grid)) * 1.0)
    return tuple(out)


def unbroadcast_each(gs, xs):
    """Adjoint of np.broadcast_arrays: each result's adjoint summed back to its input's
    shape (0.0 for a None in xs, an input not given)."""
    return [0.0 if x is None else zero_adjoint(x) if _is_zero(_item(gs, k))
            else unbroadcast(_item(gs, k), x) for k, x in enumerate(xs)]


def broadcast_each(ts, ys):
    """Tangent of np.broadcast_arrays: each input's tangent broadcast to its result's shape
    (ts may hold more items than ys)."""
    return tuple(broadcast_tangent(t, y) for t, y in zip(ts, ys))


# ---- np.piecewise -----------------------------------------------------------------------------
def piecewise_masks(x, condlist, count):
    """Where each of np.piecewise's `count` functions gives the result: one boolean mask
    shaped like x per function, read as numpy reads condlist (a single condition
    stands for [condition]; with one function more than conditions the last one takes
    the places where no condition holds), a later condition overriding an earlier one.
    The masks never overlap."""
    x = np.asarray(x)
    if np.isscalar(condlist) or not isinstance(condlist[0], (list, np.ndarray)) and x.ndim:
        condlist = [condlist]
    conditions = np.asarray(condlist, dtype=bool)
    if len(conditions) == count - 1:
        conditions = np.concatenate(
            [conditions, ~np.any(conditions, axis=0, keepdims=True)], axis=0)
    elif len(conditions) != count:
        raise ValueError(f"np.piecewise: {count} functions for {len(conditions)} conditions; "
                         f"give one function per condition, and one more for 'otherwise'")
    taken = np.zeros(x.shape, dtype=bool)
    masks = []
    for condition in conditions[::-1]:           # the last condition that holds wins
        masks.append(np.broadcast_to(condition, x.shape) & ~taken)
        taken = taken | masks[-1]
    return masks[::-1]


def spread_masked(values, mask):
    """An array shaped like mask: values (one per True place, or one for all) where mask
    holds, 0 elsewhere (np.piecewise's result for one function)."""
    out = np.zeros(np.shape(mask), dtype=np.result_type(values, 1.0))
    out[mask] = values
    return out


def masked_values(g, mask):
    """g's values where mask holds (g may be the scalar zero): spread_masked's transpose."""
    return np.broadcast_to(g, np.shape(mask))[mask]


# ---- np.take_along_axis and np.put_along_axis ---------------------------------------------
def along_axis_index(arr, indices, axis=-1):
    """The index of arr that np.take_along_axis(arr, indices, axis) reads and
    np.put_along_axis writes: arr[along_axis_index(arr, indices, axis)]."""
    positions = np.reshape(np.arange(np.size(arr)), np.shape(arr))
    return np.unravel_index(np.take_along_axis(positions, indices, axis), np.shape(arr))


def diagonal_index(a):
    """The index np.fill_diagonal(a, v) writes (without wrap): the first min(a.shape)
    places of the main diagonal, so `a[diagonal_index(a)] = v` is that call.

        diagonal_index(np.zeros((3, 2)))  ->  (array([0, 1]), array([0, 1]))
    """
    return np.diag_indices(min(np.shape(a)), np.ndim(a))


def running_source(y, axis=0):
    """For y = np.maximum.accumulate(x, axis) (or minimum's): the position along `axis` of
    the entry of x each y takes its value from, so that y = np.take_along_axis(x,
    running_source(y, axis), axis). The source moves only where the running extremum
    changes: on a tie (an entry equal to the extremum so far) the earlier entry keeps it.

        running_source(np.array([1.0, 3.0, 3.0, 2.0, 5.0]))  ->  [0, 1, 1, 1, 4]
    """
    moved = np.moveaxis(np.asarray(y), axis, -1)
    changed = np.ones(moved.shape, dtype=bool)
    changed[..., 1:] = moved[..., 1:] != moved[..., :-1]
    positions = np.where(changed, np.arange(moved.shape[-1]), 0)
    return np.moveaxis(np.maximum.accumulate(positions, axis=-1), -1, axis)


def trimmed_region(filt, trim="fb", axis=None):
    """The index (one slice per axis) of the part np.trim_zeros(filt, trim, axis) keeps:
    along each trimmed axis, from the first to the last place holding a nonzero entry
    ('f' trims the front, 'b' the back); nothing when every entry is zero.

        trimmed_region(np.array([0.0, 2.0, 0.0, 3.0, 0.0]))  ->  (slice(1, 4),)
    """
    a = np.asarray(filt)
    places = np.argwhere(a != 0)
    axes = range(a.ndim) if axis is None else \
        [k % a.ndim for k in (axis if isinstance(axis, (tuple, list)) else (axis,))]
    region = [slice(None)] * a.ndim
    for k in axes:
        if not len(places):
            region[k] = slice(0, 0)
            continue
        start = int(places[:, k].min()) if "f" in trim.lower() else 0
        stop = int(places[:, k].max()) + 1 if "b" in trim.lower() else a.shape[k]
        region[k] = slice(start, stop)
    return tuple(region)
