"""float32 in, float32 out for every row of the primitive spec table, both derivative paths.

Each row's arguments (its richest shape case) are made float32 where they are floats:
arrays become float32 arrays, differentiated numbers np.float32 scalars. Where numpy itself
gives a float32 result, the vjp (with a float32 cotangent; a Python float for a scalar
output, as grad's seed 1.0 is) must give float32 gradients for the float32 arguments, and
the jvp (with float32 tangents) a float32 tangent: a derivative keeps the dtype its
function computes in (as JAX and autograd do). Where numpy widens
(a float64 constant in the row, an integer result), the derivative may follow numpy.
Values are checked by tests/test_primitives.py; this test checks dtypes only.
"""
import inspect
import zlib

import numpy as np
import pytest

import s2s_ad
from s2s_ad.api import general_derivative

from primitive_specs import all_specs, sample
from test_primitives import _case_id

ROWS = all_specs()


def _richest(spec):
    """The shape case with the most axes (ties: the first), where dtypes are likeliest lost."""
    return max(spec.shapes, key=lambda shapes: sum(len(s) for s in shapes))


def _row_id(spec):
    return _case_id((spec, _richest(spec)))


def _as_float32(value):
    if isinstance(value, np.ndarray) and value.dtype == np.float64:
        return value.astype(np.float32)
    return np.float32(value) if type(value) is float else value


def _leaves(value):
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _dtype(value):
    return np.asarray(value).dtype


def _like(value, rng, number=np.float32):
    """A random float32 (co)tangent with `value`'s structure and shape (`number` makes
    the one of a scalar: a cotangent is a Python float, as grad's seed 1.0 is)."""
    if isinstance(value, (tuple, list)):
        return type(value)(_like(item, rng, number) for item in value)
    return number(rng.standard_normal()) if np.ndim(value) == 0 and not isinstance(
        value, np.ndarray) else rng.standard_normal(np.shape(value)).astype(np.float32)


def _call(derivative, path, fn, args, last):
    if path == "specialised":
        return derivative(*args, last)
    general = general_derivative(derivative)
    names = list(inspect.signature(fn).parameters)
    extra = [p for p in inspect.signature(general).parameters if p not in names]
    return general(**dict(zip(names, args)), **{extra[0]: last})


def _float32_case(spec):
    """(args, wrt, output) of the row at float32, or a reason to skip it."""
    shapes = _richest(spec)
    rng = np.random.default_rng(zlib.crc32(_row_id(spec).encode()))
    args = [sample(rng, shape, spec.domain(k)) for k, shape in enumerate(shapes)]
    wrt = spec.wrt if spec.wrt is not None else tuple(range(len(args)))
    args = [_as_float32(a) if k in wrt else a for k, a in enumerate(args)]
    output = spec.fn(*args)
    if not all(_dtype(leaf) == np.float32 for leaf in _leaves(output)):
        pytest.skip(f"numpy itself gives {[str(_dtype(v)) for v in _leaves(output)]}")
    return args, wrt, output, rng


# none known: every row keeps float32 (max/min of np.float32 numbers through their branch,
# ediff1d, logspace, polymul and the norms' tangents were fixed with issue 15's leftovers)
KNOWN = {}
KNOWN_TANGENTS = {}


def _rows(known):
    return [pytest.param(s, id=_row_id(s), marks=pytest.mark.xfail(
        strict=True, reason=known[_row_id(s)])) if _row_id(s) in known else
        pytest.param(s, id=_row_id(s)) for s in ROWS]


GRADIENT_ROWS = _rows(KNOWN)


@pytest.mark.parametrize("path", ["specialised", "general"])
@pytest.mark.parametrize("spec", GRADIENT_ROWS)
def test_float32_gradients(spec, path):
    args, wrt, output, rng = _float32_case(spec)
    gradients = _call(s2s_ad.vjp(spec.fn, wrt=tuple(wrt)), path, spec.fn, args,
                      _like(output, rng, float))
    widened = {k: str(_dtype(g)) for k, g in zip(wrt, gradients)
               if _dtype(args[k]) == np.float32 and _dtype(g) != np.float32}
    assert not widened, f"float32 arguments with gradients of another dtype: {widened}"


@pytest.mark.parametrize("path", ["specialised", "general"])
@pytest.mark.parametrize("spec", _rows(KNOWN_TANGENTS))
def test_float32_tangents(spec, path):
    args, wrt, output, rng = _float32_case(spec)
    tangents = tuple(_like(args[k], rng) for k in wrt)
    _, tangent = _call(s2s_ad.jvp(spec.fn, wrt=tuple(wrt)), path, spec.fn, args, tangents)
    widened = [str(_dtype(t)) for t in _leaves(tangent) if _dtype(t) != np.float32]
    assert not widened, f"the tangent of a float32 output is {widened}"
