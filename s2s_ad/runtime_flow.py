"""Runtime helpers for adjoints inside control flow, of lists, and of in-place writes.

Inside loops and branches an adjoint may still be the scalar zero 0.0 it was initialised
to; these helpers give it the right shape the first time it needs one.

    scatter_add(a, x, index, g)   a[index] += g, allocating zeros shaped like x if a is 0.0
    sequence_position(x, index)   a namedtuple field's position (how its adjoint is indexed)
    take_adjoint(a, index)        a copy of a[index] (0.0 while a is still the scalar zero)
    copy_adjoint(a)               a copy of an adjoint that will be updated in place
    float_zeros(x)                float zeros shaped like x (x's float dtype kept), to fill in
    float_copy(a)                 a new float array of a's values (float32 and complex kept)
    float_dtype(*values)          the float dtype derivatives of these values take
    copy_argument(x)              a copy of an argument the function writes into
    clear_adjoint(a, index)       a[index] = 0 after an in-place write overwrote x[index]
    add_lists(a, b)               elementwise sum of two lists of adjoints
    pop_adjoint(a)                the adjoint of a list's last item (undoing an append)
    push_adjoint(a, items, g)     undoing a pop: the popped item's adjoint back on the end
    add_adjoints(a, b)            a + b for adjoints of arrays, numbers, dicts, lists, tuples
    match_adjoint(a, x)           a as x's gradient: x's structure and shapes, zeros filled in
                                  (an object's: an object of its type, runtime_objects.py)
    float_gradient(g)             g with integers made floats (a returned gradient)
    sum_repeats(g, items)         the adjoint of a repeated list n * items
    concatenation_part(g, before, items)   the adjoint of items in before + items
"""
import numpy as np

from .runtime import _adjoint_dtype, _float_dtype, _narrowed, sequence_like, unbroadcast
from .runtime_objects import (attribute_adjoints, attributes, check_attribute, is_object,
                              object_gradient, rebuilt)


def _has_integer_array(index):
    parts = index if isinstance(index, tuple) else (index,)
    for part in parts:
        if isinstance(part, (list, np.ndarray)) and np.asarray(part).dtype != bool:
            return True
    return False


def add_adjoints(a, b):
    """a + b for adjoints of any structure: arrays, numbers, dicts, lists, tuples, and
    objects (runtime_objects: added attribute by attribute)."""
    a, b = attribute_adjoints(a), attribute_adjoints(b)
    if a is None or b is None:      # an object's attribute without a derivative (a string)
        return b if a is None else a
    if isinstance(a, (list, tuple, dict)) and _scalar_zero(b):
        # the zero of an item no contribution reached (scatter_add fills a list's other
        # items with 0.0), added to a structured adjoint: nothing to add
        return list(a) if isinstance(a, tuple) else a
    if isinstance(b, dict):
        out = dict(a) if isinstance(a, dict) else {}
        for key, value in b.items():
            out[key] = add_adjoints(out.get(key, 0.0), value) \
                if value is not None or key in out else None
        return out
    if isinstance(b, (list, tuple)) and not isinstance(a, np.ndarray):
        if not isinstance(a, (list, tuple)):
            return list(b)
        return [add_adjoints(p, q) for p, q in zip(a, b)]
    return a + b


def _scalar_zero(value):
    """Is value the number zero (a Python or numpy scalar, not an array)?"""
    return isinstance(value, (int, float, np.number)) and not isinstance(value, bool) \
        and value == 0


def scatter_add(a, x, index, g):
    """The adjoint `a` of x after adding g at x[index] (repeated indices accumulate).
    x may be an array, or a dict / list / tuple of values (then `a` mirrors it), or an
    object read by attribute, `index` the attribute's name (runtime_objects)."""
    index = sequence_position(x, index)
    if isinstance(index, str) and not isinstance(x, dict):
        if not check_attribute(x, index):
            return a                # a constant the class holds: no gradient to keep
        else:
            a = attribute_adjoints(a)
            a = a if isinstance(a, dict) else {}
            a[index] = add_adjoints(a.get(index, 0.0), g)
            return a
    if isinstance(x, dict):
        a = a if isinstance(a, dict) else {}
        a[index] = add_adjoints(a.get(index, 0.0), g)
        return a
    if isinstance(x, (list, tuple)):
        if not isinstance(a, list):
            a = _as_list_adjoint(a, len(x))
        if isinstance(index, slice):
            if type(g) is float and not g:
                # the zero 0.0: a loop over an empty slice, or the rest of a list read by
                # nothing (ys.pop(i) unused)
                return a
            for k, part in zip(range(*index.indices(len(x))), g):
                a[k] = add_adjoints(a[k], part)
        else:
            a[index] = add_adjoints(a[index], g)
        return a
    if not isinstance(x, tuple) and is_object(x):   # s[i], s's class unknown: not a zero
        raise TypeError(f"s2s_ad cannot differentiate a subscript of a {type(x).__name__} "
                        f"object here (its __getitem__ is called as a function chosen when "
                        f"the code runs); differentiate with the derivative built for the "
                        f"arguments (not S2S_AD_GENERAL=1), or index the array it holds")
    if type(a) is not np.ndarray or a.shape != np.shape(x):
        a = np.zeros(np.shape(x), dtype=_float_dtype(x)) + a     # float32 stays float32
    if _has_integer_array(index):
        np.add.at(a, index, g)
    else:
        a[index] += g
    return a


def sequence_position(x, index):
    """index as the adjoint of x is indexed: a namedtuple's field name becomes its
    position (its adjoint is a list, or a tuple of x's class read by position)."""
    if isinstance(index, str) and isinstance(x, tuple):
        return type(x)._fields.index(index)
    return index


def take_adjoint(a, index):
    """A copy of a[index], or 0.0 while the adjoint `a` is still the scalar zero. For
    the value written by `y[index] = v` with a repeated integer index, only the last
    write of each element stays in y, so the earlier ones get no adjoint. A gradient
    object given for an object's adjoint is read as the dict of its attributes."""
    if isinstance(index, str) and is_object(a):
        a = attribute_adjoints(a)
    if isinstance(a, dict):
        return copy_adjoint(a.get(index, 0.0))
    if isinstance(a, (np.ndarray, list, tuple)):
        item = a[index]
        if isinstance(item, np.ndarray):
            item = float_copy(item)
            if isinstance(a, np.ndarray) and _has_integer_array(index):
                overwritten = _overwritten_writes(a.shape, index)
                if overwritten is not None:
                    item[overwritten] = 0.0
        return item
    return a


def _overwritten_writes(shape, index):
    """For y[index] = v with integer arrays only (one, or a tuple of them): a mask over
    v's leading axes, True where a later position writes the same element; None when
    nothing repeats (or the index mixes in slices, where numpy gives no order)."""
    parts = index if isinstance(index, tuple) else (index,)
    if not all(isinstance(p, (list, np.ndarray)) for p in parts):
        return None
    try:
        arrays = np.broadcast_arrays(*[np.asarray(p) for p in parts])
        flat = np.ravel_multi_index([np.mod(p, n) for p, n in zip(arrays, shape)],
                                    shape[:len(parts)]).ravel()
    except (ValueError, TypeError):
        return None
    _, last_from_end = np.unique(flat[::-1], return_index=True)
    if len(last_from_end) == len(flat):
        return None
    keep = np.zeros(len(flat), dtype=bool)
    keep[len(flat) - 1 - last_from_end] = True
    return ~keep.reshape(arrays[0].shape)


def copy_argument(x):
    """A copy of an argument the function writes into, so the caller's value stays as it
    was: an array (its dtype kept), or a dict, list or object copied down to its arrays."""
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, dict):
        return {key: copy_argument(value) for key, value in x.items()}
    if isinstance(x, list):
        return [copy_argument(item) for item in x]
    if is_object(x):            # an object: a new one of its type, its arrays copied
        return rebuilt(x, [copy_argument(value) for _, value in attributes(x)])
    return x


def copy_adjoint(a):
    """A copy of an adjoint that is about to be updated in place."""
    if isinstance(a, np.ndarray):       # float32 and complex adjoints keep their dtype
        return float_copy(a)
    if isinstance(a, list):
        return list(a)
    return a


def float_zeros(x):
    """Zeros shaped like x for its adjoint, filled in by index (x_bar[i] += g): of x's dtype
    for a float or complex array (float32 stays float32), float64 otherwise (integers, a
    list numpy reads as an array)."""
    if isinstance(x, np.ndarray) and x.dtype.kind in "fc":
        return np.zeros(x.shape, dtype=x.dtype)
    if hasattr(type(x), "_fields"):         # a namedtuple result: per-field zeros
        return [float_zeros(item) if np.ndim(item) else 0.0 for item in x]
    return np.zeros(np.shape(x))


def float_copy(a):
    """A new array of a's values that an adjoint may be written into: a float or complex
    dtype kept (float32 stays float32), integers, booleans and lists made float64."""
    array = np.asarray(a)
    return np.array(array, dtype=array.dtype if array.dtype.kind in "fc" else float)


def float_dtype(*values):
    """The float dtype derivatives of these values take: float32 stays float32 (a Python
    number does not widen it, as in numpy), integers and booleans give float64; lists and
    tuples are read item by item (float_dtype([a32, b32]) is float32)."""
    dtypes, pending = set(), list(values)
    while pending:
        value = pending.pop()
        if isinstance(value, (list, tuple)):
            pending.extend(value)
        elif isinstance(value, (np.ndarray, np.generic)):
            dtypes.add(value.dtype)
    return _float_dtype(*dtypes)


def clear_adjoint(a, index):
    """a with a[index] set to zero (nothing to do while a is the scalar zero): the value
    there was overwritten, so what reaches it from later code stops there."""
    if isinstance(a, np.ndarray):
        a[index] = 0.0
    elif isinstance(a, list) and isinstance(index, slice):
        for k in range(*index.indices(len(a))):
            a[k] = 0.0
    elif isinstance(a, (list, dict)) and (isinstance(a, list) or index in a):
        a[index] = 0.0
    return a


def add_lists(a, b):
    """Elementwise sum of two lists (or tuples) of adjoints; 0.0 stands for all zeros."""
    if not isinstance(b, (list, tuple, np.ndarray)):      # the scalar zero: adds nothing
        return a
    if not isinstance(a, (list, tuple, np.ndarray)):      # still the scalar zero
        return list(b)
    return [p + q for p, q in zip(a, b)]


def match_adjoint(a, x):
    """The gradient for argument x from its adjoint a: the same structure and shapes as x
    (0.0 becomes zeros of x's shape; missing dict keys and list items become zeros; an
    object's gradient is an object of its type, runtime_objects.object_gradient; a
    string, None or a function, which has no derivative, gives None)."""
    if is_object(x) and (not isinstance(x, tuple) or isinstance(a, dict)):
        return object_gradient(a, x, match_adjoint)
    if isinstance(x, dict):
        # an object's adjoint inside a derivative is the dict of its attributes: a gradient
        # object given for it (a cotangent a helper's vjp returned) is read as that dict
        a = attribute_adjoints(a)
        a = a if isinstance(a, dict) else {}
        return {key: match_adjoint(a.get(key, 0.0), value) for key, value in x.items()}
    if isinstance(x, (list, tuple)):
        if isinstance(a, (list, tuple)):
            items = a
        elif isinstance(a, np.ndarray) and a.ndim and len(a) == len(x):
            items = list(a)          # numpy read the list as an array: one row per item
        else:
            items = [a] * len(x)     # a zero standing for every item
        return sequence_like(x, [match_adjoint(p, q) for p, q in zip(items, x)])
    if x is None or isinstance(x, (str, bytes)) or callable(x):
        # what has no derivative (a string, None, a function) in a dict, list or tuple:
        # None, as for an object's attribute (runtime_objects.zero_gradient)
        return None
    if isinstance(x, np.ndarray) and isinstance(a, (list, tuple)) and x.ndim \
            and len(a) == len(x):
        # the items' adjoints of list(x): x's rows (an item's zero may be the number 0.0)
        return np.array([match_adjoint(item, row) for item, row in zip(a, x)],
                        dtype=_float_dtype(x))
    if isinstance(x, np.ndarray) and np.shape(a) != x.shape:
        return np.zeros(x.shape, dtype=_adjoint_dtype(a, x)) + a
    if isinstance(x, np.ndarray) and not isinstance(a, np.ndarray):
        return np.asarray(a, dtype=_adjoint_dtype(a, x))   # a 0-d array's: numpy made a number
    if not isinstance(x, np.ndarray) and isinstance(a, (np.ndarray, np.float64)) and not np.ndim(a):
        return type(x)(a) if isinstance(x, np.floating) else float(a)   # np.float32 kept
    if isinstance(a, float) and isinstance(x, np.floating) and type(x) is not np.float64:
        # np.float32 x: its adjoint started as the Python 0.0, or a float64 mask met it
        # (np.where(c, 1.0, 0.0), the seed's share, summed through a helper's pair)
        return type(x)(a)
    return _narrowed(a, x) if isinstance(x, np.ndarray) else a     # float32 x: float32 a


def float_gradient(g):
    """g with integers made floats, arrays copied: a returned gradient that may hold
    integers (of an integer argument, differentiated as a float) or be the caller's own
    array (the gradient of b in b * x is x). Generated code calls it only there."""
    if type(g) is float:
        return g
    if isinstance(g, np.ndarray):
        return g.copy() if g.dtype.kind in "fc" else g.astype(float)
    if isinstance(g, (int, np.integer, np.bool_)):
        return float(g)
    if isinstance(g, (list, tuple)):
        return sequence_like(g, [float_gradient(item) for item in g])
    if isinstance(g, dict):
        return {key: float_gradient(value) for key, value in g.items()}
    return g


def sum_repeats(g, items):
    """Adjoint of a repeated list `n * items`: each item's is the sum over its copies."""
    if not isinstance(g, (list, tuple)):
        return g                # still the scalar zero
    n = len(items)
    out = list(g[:n])
    for k in range(n, len(g)):
        out[k % n] = add_adjoints(out[k % n], g[k])
    return out


def concatenation_part(g, before, items):
    """Adjoint of `items` in a concatenated list `before + items (+ ...)`: its slice of g
    (an array g holds the items' adjoints as rows)."""
    if isinstance(g, np.ndarray) and g.ndim:
        g = list(g)
    if not isinstance(g, (list, tuple)):
        return g                # still the scalar zero
    start = len(before)
    return list(g[start:start + len(items)])


def spread_adjoint(g, items):
    """The adjoint of each item of `sum(items)`: g, reduced to that item's shape. For an
    array (summed over its first axis) an array of its shape."""
    if isinstance(items, np.ndarray):
        return np.zeros(items.shape) + unbroadcast(g, items[0]) if len(items) else \
            np.zeros(items.shape)
    return [unbroadcast(g, item) for item in items]


def pop_adjoint(a):
    """The adjoint of a list's last item, removed from the list adjoint `a` (undoing an
    append); 0.0 while `a` is still the scalar zero."""
    if isinstance(a, list):
        return a.pop() if a else 0.0
    return 0.0


def stop_gradient(x):
    """The value of x, through which no gradient flows (s2s_ad.stop_gradient)."""
    return x


class insert_grad_of:
    """`with s2s_ad.insert_grad_of(x) as g:` runs its block in the backward sweep on x's
    adjoint `g` (print it, clip it, replace it). Run as plain Python (f called without
    s2s_ad), the block sees x's value instead and its result is discarded."""

    def __init__(self, value):
        self.value = value

    def __enter__(self):
        return self.value

    def __exit__(self, *exc):
        return False


def _as_list_adjoint(a, n):
    """A list adjoint of n items from `a`: a tuple's or an array's items (float_zeros of
    the list, which add_at may have added into already), else n zeros (the scalar zero)."""
    if isinstance(a, tuple) or isinstance(a, np.ndarray) and a.ndim and len(a) == n:
        return list(a)
    return [0.0] * n


def push_adjoint(a, items, g):
    """Undo a pop in the backward sweep: the list adjoint `a` (of `items`, the list after
    the pop) gets the popped item's adjoint g back at the end. Items that are not a list
    (a gradient's pop_adjoint of the scalar zero, differentiated again) popped nothing:
    `a` is unchanged."""
    if not isinstance(items, list):
        return a
    a = list(a) if isinstance(a, list) else _as_list_adjoint(a, len(items))
    a.append(g)
    return a


def mapping_keys(mapping):
    """The keys of a dict (iterating `.items()`, or `for k in d: ... d[k]`), as a list;
    the items of any other iterable (a list's `for i in idx: ... xs[i]`)."""
    return list(mapping.keys()) if isinstance(mapping, dict) else list(mapping)


def extremum_index(values, largest):
    """The position of the first largest (smallest) of `values`, as builtin max (min)
    chooses it: `max(a, b)` is `[a, b][extremum_index([a, b], True)]`."""
    if len(values) == 0:
        raise ValueError(f"{'max' if largest else 'min'}() arg is an empty sequence")
    best = 0
    for k in range(1, len(values)):
        if (values[k] > values[best]) if largest else (values[k] < values[best]):
            best = k
    return best


def sorted_order(keys, reverse):
    """The positions of `keys` in the order builtin sorted puts them (stable, reverse
    keeping equal keys in their order): `sorted(xs)` is `[xs[i] for i in sorted_order(xs)]`."""
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)
