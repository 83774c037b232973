"""Forward (tangent) templates of the elementwise families: operators, numpy_math, python_math.

Each tangent is checked against central differences (tests/tangent_check.py) over scalar,
vector, matrix and broadcasting shapes, differentiating each operand alone (the others
get zero directions, as the forward engine's leftover ZERO does) and all together.
"""
import builtins
import math
import operator
import os
import zlib

import numpy as np
import pytest

from s2s_ad.ad.registry import default_registry

from primitive_specs import (ABOVE_ONE, BINARY, MATMUL, NONZERO, POSITIVE, REAL, UNARY, UNIT,
                             sample)
from tangent_check import check_tangent, tangent_of

FILES = ("operators.py", "numpy_math.py", "numpy_arithmetic.py", "python_math.py")

# ---- tables: (primitive, domains per argument) ------------------------------------------
NUMPY_UNARY = [
    (np.exp, REAL), (np.exp2, REAL), (np.expm1, REAL), (np.log, POSITIVE), (np.log1p, POSITIVE),
    (np.log2, POSITIVE), (np.log10, POSITIVE), (np.sqrt, POSITIVE), (np.cbrt, NONZERO),
    (np.square, REAL), (np.reciprocal, NONZERO), (np.sin, REAL), (np.cos, REAL),
    (np.tan, UNIT), (np.arcsin, UNIT), (np.arccos, UNIT), (np.arctan, REAL), (np.sinc, REAL),
    (np.deg2rad, REAL), (np.rad2deg, REAL), (np.radians, REAL), (np.degrees, REAL),
    (np.sinh, REAL), (np.cosh, REAL),
    (np.tanh, REAL), (np.arcsinh, REAL), (np.arccosh, ABOVE_ONE), (np.arctanh, UNIT),
    (np.negative, REAL), (np.positive, REAL), (np.absolute, NONZERO), (np.fabs, NONZERO),
    (operator.neg, REAL), (operator.pos, REAL), (abs, NONZERO),
]

BROADCASTING_BINARY = [
    (operator.add, (REAL, REAL)), (operator.sub, (REAL, REAL)), (operator.mul, (REAL, REAL)),
    (operator.truediv, (REAL, NONZERO)), (operator.pow, (POSITIVE, REAL)),
    (operator.mod, (POSITIVE, POSITIVE)),
    (np.add, (REAL, REAL)), (np.subtract, (REAL, REAL)), (np.multiply, (REAL, REAL)),
    (np.divide, (REAL, NONZERO)), (np.power, (POSITIVE, REAL)),
    (np.float_power, (POSITIVE, REAL)), (np.hypot, (NONZERO, NONZERO)),
    (np.arctan2, (NONZERO, NONZERO)), (np.logaddexp, (REAL, REAL)),
    (np.logaddexp2, (REAL, REAL)), (np.maximum, (REAL, REAL)), (np.minimum, (REAL, REAL)),
    (np.fmax, (REAL, REAL)), (np.fmin, (REAL, REAL)),
    (np.remainder, (POSITIVE, POSITIVE)), (np.fmod, (POSITIVE, POSITIVE)),
]

MATH_UNARY = [
    (math.exp, REAL), (math.expm1, REAL), (math.log, POSITIVE), (math.log1p, POSITIVE),
    (math.log2, POSITIVE), (math.log10, POSITIVE), (math.sqrt, POSITIVE),
    (math.fabs, NONZERO), (math.sin, REAL), (math.cos, REAL), (math.tan, UNIT),
    (math.asin, UNIT), (math.acos, UNIT), (math.atan, REAL), (math.sinh, REAL),
    (math.cosh, REAL), (math.tanh, REAL), (math.asinh, REAL), (math.acosh, ABOVE_ONE),
    (math.atanh, UNIT), (math.erf, REAL), (math.erfc, REAL), (float, REAL), (np.float64, REAL),
]

SCALAR_BINARY = [
    (math.pow, (POSITIVE, REAL)), (math.hypot, (NONZERO, NONZERO)),
    (math.atan2, (NONZERO, NONZERO)), (math.log, (POSITIVE, ABOVE_ONE)),
    (pow, (POSITIVE, REAL)), (max, (REAL, REAL)), (min, (REAL, REAL)),
]

WRT_BINARY = [(0,), (1,), (0, 1)]


def _name(primitive):
    module = getattr(primitive, "__module__", None) or type(primitive).__module__
    return f"{module}.{getattr(primitive, '__name__', repr(primitive))}"


def _shape_id(shapes):
    return "-".join("x".join(map(str, s)) or "scalar" for s in shapes)


def _rng(case_id):
    return np.random.default_rng(zlib.crc32(case_id.encode()))


def _args(rng, shapes, domains):
    return [sample(rng, shape, domains[k]) for k, shape in enumerate(shapes)]


def _cases(table, all_shapes, wrts):
    cases = []
    for primitive, domains in table:
        domains = domains if isinstance(domains, tuple) else (domains,)
        for shapes in all_shapes:
            for wrt in wrts:
                case_id = f"{_name(primitive)}-{_shape_id(shapes)}-wrt{''.join(map(str, wrt))}"
                cases.append(pytest.param(primitive, shapes, domains, wrt, id=case_id))
    return cases


def _check(primitive, shapes, domains, wrt, kwargs=None, **tolerances):
    case_id = f"{_name(primitive)}-{_shape_id(shapes)}-{wrt}"
    args = _args(_rng(case_id), shapes, domains)
    check_tangent(primitive, args, kwargs, wrt=wrt, **tolerances)


# ---- unary ------------------------------------------------------------------------------
@pytest.mark.parametrize("primitive, shapes, domains, wrt",
                         _cases(NUMPY_UNARY, UNARY, [(0,)]))
def test_unary_tangent(primitive, shapes, domains, wrt):
    _check(primitive, shapes, domains, wrt)


@pytest.mark.parametrize("primitive, shapes, domains, wrt",
                         _cases(MATH_UNARY, [((),)], [(0,)]))
def test_math_unary_tangent(primitive, shapes, domains, wrt):
    _check(primitive, shapes, domains, wrt)


# ---- binary with broadcasting -----------------------------------------------------------
@pytest.mark.parametrize("primitive, shapes, domains, wrt",
                         _cases(BROADCASTING_BINARY, BINARY, WRT_BINARY))
def test_broadcasting_binary_tangent(primitive, shapes, domains, wrt):
    _check(primitive, shapes, domains, wrt)


@pytest.mark.parametrize("primitive, shapes, domains, wrt",
                         _cases([(operator.matmul, (REAL, REAL))], MATMUL, WRT_BINARY))
def test_matmul_tangent(primitive, shapes, domains, wrt):
    _check(primitive, shapes, domains, wrt)


@pytest.mark.parametrize("primitive, shapes, domains, wrt",
                         _cases(SCALAR_BINARY, [((), ())], WRT_BINARY))
def test_scalar_binary_tangent(primitive, shapes, domains, wrt):
    _check(primitive, shapes, domains, wrt)


@pytest.mark.parametrize("primitive, shape", [
    (p, s) for p in (operator.pow, np.power, np.float_power) for s in [(), (4,), (3, 4)]]
    + [(pow, ()), (math.pow, ())])
def test_power_with_constant_exponent(primitive, shape):
    rng = _rng(f"{_name(primitive)}-const-{shape}")
    base = sample(rng, shape, POSITIVE)
    exponent = 3 if primitive in (operator.pow, pow) else 3.0
    check_tangent(primitive, [base, exponent], wrt=(0,))


def test_math_log_default_base():
    check_tangent(math.log, [1.7], wrt=(0,))


@pytest.mark.parametrize("primitive", [max, min])
def test_builtin_extremum_against_constant(primitive):
    check_tangent(primitive, [-1.3, 0.0], wrt=(0,))
    check_tangent(primitive, [1.3, 0.0], wrt=(0,))


def test_float_of_arrays_and_numpy_scalars():
    check_tangent(float, [np.float64(0.7)], wrt=(0,))
    tangent, _ = tangent_of(float, [np.array(0.7)], {}, {"x": np.array(2.0)})
    assert tangent == 2.0 and isinstance(tangent, float)


# ---- clip and where ---------------------------------------------------------------------
CLIP = [((), (), ()), ((4,), (), ()), ((), (4,), (4,)), ((3, 4), (4,), (3, 1)),
        ((3, 4), (3, 4), (3, 4)), ((4,), (3, 1), ()), ((), (), (3, 4))]
CLIP_WRT = [(0,), (1,), (2,), (0, 1), (1, 2), (0, 1, 2)]


def _clip_args(case_id, shapes):
    rng = _rng(case_id)
    a = sample(rng, shapes[0], REAL) * 1.5
    lo = sample(rng, shapes[1], UNIT) - 1.0         # lo < 0 < hi
    hi = sample(rng, shapes[2], UNIT) + 1.0
    return [a, lo, hi]


@pytest.mark.parametrize("shapes", CLIP, ids=_shape_id)
@pytest.mark.parametrize("wrt", CLIP_WRT, ids=str)
def test_clip_tangent(shapes, wrt):
    check_tangent(np.clip, _clip_args(f"clip-{_shape_id(shapes)}-{wrt}", shapes), wrt=wrt)


@pytest.mark.parametrize("shape", [(), (4,), (3, 4)])
def test_clip_one_sided(shape):
    """A None bound has the symbolic tangent ZERO (its term is dropped); an infinite
    bound stands in for it here."""
    rng = _rng(f"clip-one-sided-{shape}")
    a, bound = sample(rng, shape, REAL), sample(rng, shape, UNIT)
    for wrt in [(0,), (1,), (0, 1)]:
        check_tangent(np.clip, [a, -np.inf, bound], wrt=wrt)
        check_tangent(np.clip, [a, bound, np.inf], wrt=wrt)


def test_clip_keywords():
    x = np.array([-2.0, -0.3, 0.1, 1.5])
    tangent = check_tangent(np.clip, [x], {"a_min": -0.5, "a_max": 0.5}, wrt=(0,))
    assert tangent[0] == 0.0 and tangent[3] == 0.0


WHERE = [((), (), ()), ((4,), (4,), (4,)), ((3, 4), (3, 4), (3, 4)), ((3, 4), (3, 4), (4,)),
         ((3, 4), (3, 1), (1, 4)), ((3, 4), (), (3, 4)), ((2, 3, 4), (2, 3, 4), (3, 1)),
         ((3, 1), (4,), ())]


@pytest.mark.parametrize("shapes", WHERE, ids=_shape_id)
@pytest.mark.parametrize("wrt", [(1,), (2,), (1, 2)], ids=str)
def test_where_tangent(shapes, wrt):
    rng = _rng(f"where-{_shape_id(shapes)}-{wrt}")
    condition = rng.standard_normal(shapes[0]) > 0.0
    args = [condition] + [sample(rng, s, REAL) for s in shapes[1:]]
    check_tangent(np.where, args, wrt=wrt)


# ---- builtin sum ------------------------------------------------------------------------
SUM = [((), ()), ((4,), ()), ((3, 4), (3, 4)), ((4,), (3, 4)), ((3, 4), (4,)),
       ((3, 1), (1, 4))]


@pytest.mark.parametrize("shapes", SUM, ids=_shape_id)
@pytest.mark.parametrize("wrt", WRT_BINARY, ids=str)
def test_builtin_sum_tangent(shapes, wrt):
    rng = _rng(f"sum-{_shape_id(shapes)}-{wrt}")
    items = [sample(rng, shapes[0], REAL) for _ in range(3)]
    start = sample(rng, shapes[1], REAL)
    check_tangent(builtins.sum, [items, start], wrt=wrt)


def test_builtin_sum_default_start():
    check_tangent(builtins.sum, [[0.3, -1.2, 2.0]], wrt=(0,))


def test_math_fsum_tangent():
    check_tangent(math.fsum, [[0.3, -1.2, 2.0, 1e-3]], wrt=(0,))


@pytest.mark.parametrize("item_shapes", [[(3, 4), (4,), ()], [(), (3, 1), (1, 4)]],
                         ids=lambda s: _shape_id(s))
def test_builtin_sum_of_broadcasting_items(item_shapes):
    """Items of different shapes: each item's tangent alone, then all of them."""
    rng = _rng(f"sum-items-{_shape_id(item_shapes)}")
    items = [sample(rng, s, REAL) for s in item_shapes]
    directions = [sample(rng, s, REAL) for s in item_shapes]
    for moved in [[k] for k in range(len(items))] + [list(range(len(items)))]:
        dirs = [directions[k] if k in moved else np.zeros(np.shape(items[k]))
                for k in range(len(items))]
        tangent, y = tangent_of(builtins.sum, [items, 0.0], {}, {"iterable": dirs})
        plus = sum(x + 1e-6 * v for x, v in zip(items, dirs))
        minus = sum(x - 1e-6 * v for x, v in zip(items, dirs))
        assert np.shape(tangent) == np.shape(y)
        np.testing.assert_allclose(tangent, (plus - minus) / 2e-6, rtol=1e-5, atol=1e-7)


# ---- kinks: the same conventions as the adjoints ----------------------------------------
@pytest.mark.parametrize("primitive", [np.maximum, np.minimum, np.fmax, np.fmin, max, min])
def test_extremum_ties_split_half(primitive):
    tangent, _ = tangent_of(primitive, [1.5, 1.5], {}, {"x1": 2.0, "x2": 4.0, "a": 2.0,
                                                       "b": 4.0})
    assert tangent == 3.0


@pytest.mark.parametrize("primitive", [np.fmax, np.fmin])
def test_fmax_fmin_nan_passes_to_the_other(primitive):
    x1 = np.array([np.nan, 1.0, 2.0])
    x2 = np.array([0.5, np.nan, 3.0])
    tangent, _ = tangent_of(primitive, [x1, x2], {},
                            {"x1": np.array([10.0, 20.0, 30.0]),
                             "x2": np.array([1.0, 2.0, 3.0])})
    expected_last = 3.0 if primitive is np.fmax else 30.0
    np.testing.assert_array_equal(tangent, [1.0, 20.0, expected_last])


@pytest.mark.parametrize("primitive", [np.absolute, np.fabs, abs, math.fabs])
def test_abs_at_zero_is_zero(primitive):
    tangent, _ = tangent_of(primitive, [0.0], {}, {"x": 1.0})
    assert tangent == 0.0


def test_sinc_at_zero():
    tangent, _ = tangent_of(np.sinc, [np.array([0.0, 0.5])], {},
                            {"x": np.array([1.0, 1.0])})
    assert tangent[0] == 0.0
    np.testing.assert_allclose(tangent[1], (np.cos(np.pi * 0.5) - np.sinc(0.5)) / 0.5)


def test_clip_selects_the_active_bound():
    a = np.array([-3.0, 0.0, 3.0])
    tangent, _ = tangent_of(np.clip, [a, -1.0, 1.0], {},
                            {"a": np.array([1.0, 2.0, 4.0]), "a_min": 10.0, "a_max": 100.0})
    np.testing.assert_array_equal(tangent, [10.0, 2.0, 100.0])


# ---- completeness and placement ---------------------------------------------------------
def _in_my_files(template):
    return os.path.basename(template.location.filename) in FILES


def _adjoint_primitives():
    registry = default_registry()
    return [p for p in registry.primitives("adjoint") if _in_my_files(registry.reverse(p))]


def test_every_elementwise_adjoint_has_a_tangent():
    registry = default_registry()
    primitives = _adjoint_primitives()
    assert len(primitives) > 80
    missing = [_name(p) for p in primitives if registry.tangent(p) is None]
    assert not missing, f"adjoints without a tangent: {missing}"


def test_every_tangent_is_tested():
    """Each primitive of the three files appears in this module's tables."""
    tested = [p for p, _ in NUMPY_UNARY + BROADCASTING_BINARY + MATH_UNARY + SCALAR_BINARY]
    tested += [operator.matmul, np.clip, np.where, builtins.sum, math.fsum]
    untested = [_name(p) for p in _adjoint_primitives() if not any(p is t for t in tested)]
    assert not untested, f"tangents without a test: {untested}"


def test_tangent_sits_right_after_its_adjoint():
    registry = default_registry()
    lines = {}      # file -> sorted template definition lines
    for kind, lookup in [("adjoint", registry.reverse), ("tangent", registry.tangent)]:
        for p in registry.primitives(kind):
            template = lookup(p)
            if _in_my_files(template):
                lines.setdefault(template.location.filename, set()).add(
                    template.location.lineno)
    for p in _adjoint_primitives():
        adjoint, tangent = registry.reverse(p), registry.tangent(p)
        assert tangent.location.filename == adjoint.location.filename, _name(p)
        following = sorted(n for n in lines[adjoint.location.filename]
                           if n > adjoint.location.lineno)
        assert following and following[0] == tangent.location.lineno, \
            f"{_name(p)}: the tangent does not follow the adjoint"
        assert tangent.params == adjoint.params and tangent.defaults == adjoint.defaults, \
            _name(p)
