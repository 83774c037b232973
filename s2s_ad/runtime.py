"""Runtime helpers that generated derivative code calls.

Self-contained (numpy only) so a standalone generated file can carry their source.
Each helper is small and named for what it does to an adjoint:

    unbroadcast(g, x)        sum g down to x's shape (undo broadcasting)
    unreduce(g, x, axis, keepdims)  spread a reduction's adjoint back over x's shape
    add_at(a, index, g)      a[index] += g, correct for repeated integer indices
    zero_adjoint(x)          the zero derivative shaped like x (0.0 for a scalar; a list,
                             tuple or dict of zeros for one)
    zero_tangent(x), broadcast_tangent(t, y)   the same for forward mode
    logistic(x, shift)       1 / (1 + exp(shift - x)), never overflowing: np.logaddexp's
                             derivative without its value (which costs many exps)
    written_sigmoid(x)       1.0 / (1.0 + np.exp(-x)) as users write it: the primitive
                             that chain is reversed as (its adjoint reads the result only)
    scaled_pair_maximum(r, high, low)   np.maximum(high * r, low * r), high >= low: the
                             primitive that is reversed as (its adjoint compares r with 0)
    power_of_exp(x, c)       np.exp(x) ** c: the primitive `mu ** c` of mu = np.exp(x) is
                             reversed as (its adjoint takes one exp, no pow)

The adjoints of max/min, prod, cumsum and var are in runtime_reductions.py, np.std's
and np.linalg.norm's in runtime_spread.py; shape manipulation (reshape_like, untranspose,
split_concatenated, unstack, untile, ...) lives in runtime_shape.py, linear algebra in
runtime_linalg.py; np.cumprod's, np.pad's, np.convolve's and weighted
np.average's in runtime_arrays.py; the checks of grad's output and vjp's cotangent in
runtime_checks.py. An adjoint of a scalar argument is a float.
"""
import functools
import math
import types

import numpy as np

from .runtime_objects import attributes, is_object

# the modules whose functions generated code may call (standalone files copy them in)
RUNTIME_MODULES = ("s2s_ad.runtime", "s2s_ad.runtime_flow", "s2s_ad.runtime_linalg",
                   "s2s_ad.runtime_arrays", "s2s_ad.runtime_checks", "s2s_ad.runtime_spread",
                   "s2s_ad.runtime_creation", "s2s_ad.runtime_pieces",
                   "s2s_ad.runtime_statistics", "s2s_ad.runtime_calculus",
                   "s2s_ad.runtime_objects", "s2s_ad.runtime_complex",
                   "s2s_ad.runtime_functions", "s2s_ad.runtime_mappings",
                   "s2s_ad.runtime_shape", "s2s_ad.runtime_draws", "s2s_ad.runtime_bessel",
                   "s2s_ad.runtime_polynomials", "s2s_ad.runtime_triangular",
                   "s2s_ad.runtime_blocks", "s2s_ad.runtime_sinc", "s2s_ad.runtime_banded",
                   "s2s_ad.runtime_simplex", "s2s_ad.runtime_keywords",
                   "s2s_ad.runtime_products", "s2s_ad.runtime_reductions")


def unbroadcast(g, x):
    """g summed over the axes broadcasting added to x's shape (spread where g is smaller:
    a number's adjoint times an operand), in x's dtype when x holds narrower floats."""
    if type(g) is np.ndarray and type(x) is np.ndarray and g.shape == x.shape:
        return g if g.dtype == x.dtype else _narrowed(g, x)    # the usual case
    shape = _shape(x)
    g_shape = _shape(g)
    if g_shape == shape:
        # a number's adjoint from np.where(c, a, b) of numbers is a 0-d array
        return g[()] if not shape and type(g) is np.ndarray and type(x) is not np.ndarray \
            else g
    extra = len(g_shape) - len(shape)
    if extra < 0:
        return np.full(shape, g, dtype=_float_dtype(g, x) if type(x) is np.ndarray
                       else _float_dtype(g))     # a number's zero: float32 x stays float32
    if extra:
        g = np.sum(g, axis=tuple(range(extra)))
    kept = tuple(i for i, n in enumerate(shape) if n == 1 and np.shape(g)[i] != 1)
    if kept:
        g = np.sum(g, axis=kept, keepdims=True)
    if np.shape(g) != shape:     # `c * s` of `np.sum(s * x)`, s (1, n), x (m, n)
        g = np.broadcast_to(g, shape).copy()
    return _narrowed(g, x) if type(x) is np.ndarray else g


def _narrowed(g, x):
    """g in x's dtype where x holds narrower real floats (a float32 value's cotangent is
    float32, as in JAX); g otherwise."""
    return g.astype(x.dtype) if x.dtype.kind == "f" and type(g) is np.ndarray and \
        g.dtype.kind == "f" and g.dtype.itemsize > x.dtype.itemsize else g


def unreduce(g, x, axis=None, keepdims=False):
    """Broadcast the adjoint `g` of a reduction over `axis` back to `x`'s shape."""
    shape = np.shape(x)
    if not shape and type(x) is not float and is_object(x):
        # np.mean(s) of an object: numpy calls s.mean(), a method of a class the
        # derivative did not know (a zero gradient); one it knows is called as a method
        raise TypeError(f"s2s_ad cannot differentiate a numpy reduction of a "
                        f"{type(x).__name__} object (it calls the object's method): call "
                        f"the method by its class, {type(x).__name__}.method(obj)")
    dtype = _adjoint_dtype(g, x)     # before expand_dims makes a Python float an array
    if axis is not None and not keepdims and np.ndim(g):
        # (a number, such as the scalar zero a loop's adjoint starts as, spreads as it is)
        g = np.expand_dims(g, _normalize_axes(axis, len(shape)))
    out = np.empty(shape, dtype=dtype)
    out[...] = g
    return out if shape else out[()]


def _float_dtype(*values):
    """The floating dtype derivatives of these values take: float32 stays float32 (a
    Python float does not widen it), integers and booleans become float64."""
    try:
        return np.result_type(*values, 1.0)
    except (TypeError, ValueError):     # (a string, an object array's item): a dtype too
        return np.dtype(np.float64)


def _adjoint_dtype(g, x):
    """The dtype of x's adjoint built from g: _float_dtype's, but x's own where x holds
    real floats (a float32 array's adjoint stays float32 when g is a float64 number)."""
    dtype = _float_dtype(g, x)
    x_dtype = getattr(x, "dtype", None)
    if x_dtype is not None and x_dtype.kind == "f" and np.dtype(dtype).kind == "f":
        return x_dtype
    return dtype


def reduced_count(x, axis=None):
    """How many elements of x each value of a reduction over `axis` combines."""
    if axis is None and type(x) is np.ndarray:
        return x.size or 1
    shape = _shape(x)
    if axis is None:
        return max(math.prod(shape), 1)
    return math.prod([shape[a] for a in _normalize_axes(axis, len(shape))])


def _normalize_axes(axis, ndim):
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(sorted(a % ndim for a in axes))


def extremum_share(x, y, axis=None, keepdims=False):
    """Where x attains the reduction result y (ties share equally), shaped like x."""
    shape = np.shape(x)
    if axis is not None and not keepdims:
        y = np.expand_dims(y, _normalize_axes(axis, len(shape)))
    hit = (np.asarray(x) == y).astype(_float_dtype(x))     # float32 kept
    return hit / np.sum(hit, axis=axis, keepdims=True)


def add_at(a, index, g):
    """a[index] += g, accumulating repeated integer indices; returns a."""
    if _has_integer_array(index):
        np.add.at(a, index, g)
    else:
        a[index] += g
    return a


def _has_integer_array(index):
    parts = index if isinstance(index, tuple) else (index,)
    for part in parts:
        if isinstance(part, (list, np.ndarray)) and np.asarray(part).dtype != bool:
            return True
    return False


def _shape(x):
    """np.shape(x), ten times faster for arrays and floats (every backward sweep runs it)."""
    kind = type(x)
    if kind is np.ndarray:
        return x.shape
    if kind is float or kind is np.float64 or kind is int:
        return ()
    return np.shape(x)


def shape_of(x, _float64=np.dtype(np.float64)):
    """What the tape keeps of a value the backward sweep reads only for its shape. A list,
    tuple or dict (the adjoint of a list of tuples of arrays) may have none numpy can
    take: the value itself is kept, in a list, which no shape is (placeholder). So is a
    float32 (or complex) value: the adjoints made from it take its dtype (unreduce's
    float32 `g` of a float32 `x`), which a float64 stand-in would widen."""
    if type(x) is np.ndarray:
        # first, without the tests below (3 us for an array: hasattr of a missing
        # attribute raises inside; a dtype compared with a type converts it), as a loop
        # tapes one per step where the facts leave a shape open (a GRU's gate slices).
        # (numpy's own float64 dtype, a default argument: it travels with this function
        # into standalone files, as placeholder's dict does)
        dtype = x.dtype
        if dtype is _float64 or dtype.kind not in "fc" \
                or dtype.type is np.float64 and dtype.isnative:
            return x.shape
        return [x]
    if type(x) in (list, tuple, dict) or hasattr(type(x), "_fields") or \
            isinstance(x, (np.ndarray, np.generic)) and x.dtype != np.float64 \
            and x.dtype.kind in "fc":
        return [x]
    return _shape(x)


def placeholder(shape, _made={}):
    """A stand-in with `shape` (a read-only zero-stride view: no memory) for shape-only
    reads. Loops restore one per iteration, and np.broadcast_to costs microseconds, so
    each shape's view is made once (the default-argument dict travels with this function
    into standalone files)."""
    if type(shape) is list:            # a structure shape_of kept whole
        return shape[0]
    if not shape:
        return 0.0
    try:
        return _made[shape]
    except KeyError:
        view = _made[shape] = np.broadcast_to(0.0, shape)
        return view


def zero_tangent(x, _depth=0):
    """The zero derivative shaped like x: 0.0 for a scalar, float zeros otherwise; item by
    item for a namedtuple and for a tuple or list of differently shaped values (a helper's
    vjp returns one); entry by entry for a dict, so that a dict f builds (`d = {}`, then
    `d[k] = x`) gets a tangent its entries' tangents can be written into; an empty list
    one it can append to."""
    if type(x) is dict:
        return {key: zero_tangent(value, _depth) for key, value in x.items()}
    if type(x) in (list, tuple) and not x:
        return type(x)()               # `a, b = [], []`: a list appended to later
    if type(x) in (tuple, list) and not _homogeneous(x) or hasattr(type(x), "_fields"):
        # a namedtuple (eigh's, slogdet's result) has per-field zeros even when numpy
        # could read its fields as one array
        return sequence_like(x, [zero_tangent(item, _depth) for item in x])
    if isinstance(x, np.ndarray) or np.ndim(x) > 0:
        return np.zeros(np.shape(x), dtype=_float_dtype(x))
    # (objects that are no model, such as functions and classes, keep the number zero;
    # the types are spelled here: a standalone module copies functions, not constants)
    if _depth < 3 and is_object(x) and not isinstance(x, (
            type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
            types.MethodType, functools.partial)):
        # an object's tangent as the dict of its attributes' (runtime_objects): its
        # attributes' tangents read from it are zeros of their shapes, which products
        # such as `x @ d[W]` take, where the number 0.0 has no axes
        return {name: _attribute_zero(value, _depth) for name, value in attributes(x)}
    return 0.0


def _attribute_zero(value, depth):
    """zero_tangent of an object's attribute; 0.0 for what it cannot shape."""
    try:
        return zero_tangent(value, depth + 1)
    except (TypeError, ValueError):
        return 0.0



def _homogeneous(items):
    """Whether numpy reads these items as one array (all of one shape)."""
    try:
        np.shape(items)
    except ValueError:
        return False
    return True


def broadcast_tangent(t, y):
    """A tangent with y's shape (when a term was known zero, t may be smaller; when y is
    the scalar zero an adjoint starts as, standing for a bigger array, t is summed)."""
    shape = np.shape(y)
    if np.shape(t) == shape:
        return t
    if np.broadcast_shapes(np.shape(t), shape) != shape:
        return unbroadcast(t, y)
    return np.full(shape, t, dtype=_float_dtype(t, y) if type(y) is np.ndarray
                   else _float_dtype(t))         # a number's zero: float32 y stays float32


def zero_adjoint(x):
    """The zero derivative for x: 0.0 for a Python scalar (np.float32(0.0) for an
    np.float32), float zeros otherwise, in x's
    structure for a list, tuple or dict (zero_adjoint([1.0, 2.0]) -> [0.0, 0.0]; an array
    would not be the gradient of a list, and lists of arrays of different shapes have no
    np.shape)."""
    if isinstance(x, dict):
        return {key: zero_adjoint(value) for key, value in x.items()}
    if isinstance(x, (list, tuple)):
        return sequence_like(x, [zero_adjoint(item) for item in x])
    if isinstance(x, np.ndarray) or np.ndim(x) > 0:
        return np.zeros(np.shape(x), dtype=_float_dtype(x))
    if isinstance(x, np.floating) and type(x) is not np.float64:
        return type(x)(0.0)     # np.float32 x: a float32 zero, as match_adjoint gives
    return 0.0


_FEW = 4096       # below this many elements, a Python-level np.errstate costs more than a pass
_EXP_LIMIT = {np.dtype(np.float64): 709.0, np.dtype(np.float32): 88.0}   # below log(max)


def logistic(x, shift=0.0):
    """1 / (1 + exp(shift - x)), the logistic function of x - shift, without overflow
    warnings; the small side keeps its relative precision (a number from e = exp(-|x -
    shift|) <= 1 as e / (1 + e); an array down to the smallest normal number, then 0.0 or
    a subnormal below it). A number for numbers, float32 kept: the derivative of
    np.logaddexp(a, b) in a is logistic(a, b), which needs neither the sum's value nor the
    several exps and logs np.logaddexp costs (a shift of 0.0, the usual softplus, costs no
    subtraction).

        logistic(0.0) -> 0.5    logistic(np.array([-40.0, 40.0])) -> [4.25e-18, 1.0]"""
    if not (type(shift) in (int, float) and shift == 0):
        x = np.subtract(x, shift)
    limit = _EXP_LIMIT.get(x.dtype) if type(x) is np.ndarray and x.ndim and x.size < _FEW \
        else None
    if limit is not None:
        # a small float array (the usual case, checked first): a pass capping exp's
        # argument (the logistic there is a subnormal, 1 / (1 + exp(limit)), where 0.0
        # would be) costs less than the Python-level np.errstate, which entering and
        # leaving costs as much as ~3000 elements
        e = np.negative(x)
        np.minimum(e, limit, out=e)
        np.exp(e, out=e)
    elif np.ndim(x) == 0:
        e = np.exp(-np.abs(x))
        ratio = 1.0 / (1.0 + e)
        return _scalar_like(ratio if x >= 0 else e * ratio, x)
    else:
        # passes in one array, 1 / (1 + exp(-x)): exp(-x) overflows to inf only where the
        # logistic is below the smallest normal number (x < -708 in float64, -87 in
        # float32), and 1 / inf gives the 0.0 it rounds to there; everywhere else the
        # small side keeps its relative precision too
        e = np.negative(x, dtype=_float_dtype(x))
        with np.errstate(over="ignore"):
            np.exp(e, out=e)
    e += 1.0
    return np.divide(1.0, e, out=e)


def written_sigmoid(x):
    """1.0 / (1.0 + np.exp(-x)), the sigmoid as users write it, computed as they do. The
    backward sweep reverses those four statements as this one primitive when nothing else
    reads their temporaries (ad/composites.py): its adjoint, y (1 - y) dy, reads the
    result alone, since y exp(-x) = 1 - y, so exp(-x) need not live to the backward sweep.

        written_sigmoid(0.0) -> 0.5"""
    return 1.0 / (1.0 + np.exp(-x))


def scaled_pair_maximum(r, high, low):
    """np.maximum(high * r, low * r) for coefficients high >= low, as users write it (the
    pinball loss's `np.maximum(q * r, (q - 1.0) * r)`): the primitive that statement is
    reversed as (ad/composites.py). Its kink is at r = 0, where the products differ by
    (high - low) r, so its adjoint compares r with 0 and needs neither product."""
    return np.maximum(high * r, low * r)


def power_of_exp(x, c):
    """np.exp(x) ** c as users write it (a Tweedie loss's `mu = np.exp(eta)` and
    `mu ** (1.0 - p)`): the primitive that power is reversed as (ad/composites.py), its
    derivative exp(c x)'s, one exp where the pow's rule takes a pow."""
    return np.exp(x) ** c


def _scalar_like(g, x):
    """A number for a scalar `x` (never a 0-d array; np.float32 stays np.float32), `g`
    itself otherwise."""
    return _float_dtype(g, x).type(g) if np.ndim(x) == 0 else g


def _expand(g, x, axis, keepdims):
    """The reduced `g` with the reduced axes of `x` restored (length 1), for broadcasting.
    A number broadcasts as it is (also the 0.0 standing for a loop's zero adjoint)."""
    if axis is None or keepdims or np.ndim(g) == 0:
        return g
    return np.expand_dims(g, _normalize_axes(axis, np.ndim(x)))


def sequence_like(x, items):
    """`items` in a sequence of x's type: a list, a tuple, or x's namedtuple class."""
    if isinstance(x, list):
        return items
    if hasattr(type(x), "_fields"):             # a namedtuple: its fields, by position
        return type(x)(*items)
    return tuple(items)
