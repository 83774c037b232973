"""Every template checked numerically (inner-product test) over the spec table's shapes."""
import types
import zlib

import numpy as np
import pytest

from s2s_ad.ad.registry import default_registry

from gradcheck import forward_check, inner_product_check
from primitive_specs import all_specs, sample

SPECS = all_specs()

CASES = [(spec, shapes) for spec in SPECS for shapes in spec.shapes]


def _case_id(case):
    spec, shapes = case
    return f"{spec.fn.__name__}-{'-'.join('x'.join(map(str, s)) or 'scalar' for s in shapes)}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_reverse_template_inner_product(case):
    spec, shapes = case
    rng = np.random.default_rng(zlib.crc32(_case_id(case).encode()))
    args = [sample(rng, shape, spec.domain(k)) for k, shape in enumerate(shapes)]
    wrt = spec.wrt if spec.wrt is not None else tuple(range(len(args)))
    inner_product_check(spec.fn, args, wrt)


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_forward_template_matches_finite_differences(case):
    spec, shapes = case
    rng = np.random.default_rng(zlib.crc32(_case_id(case).encode()))
    args = [sample(rng, shape, spec.domain(k)) for k, shape in enumerate(shapes)]
    wrt = spec.wrt if spec.wrt is not None else tuple(range(len(args)))
    forward_check(spec.fn, args, wrt)


def test_every_adjoint_has_a_tangent_beside_it():
    registry = default_registry()
    missing = [p for p in registry.primitives("adjoint") if registry.tangent(p) is None]
    assert not missing, f"templates without a forward (tangent) template: {missing}"


def _same(a, b):
    """The same primitive (a bound method, scipy.stats.norm.logpdf, is a new object at
    each attribute read, equal to the others)."""
    return a is b or (isinstance(a, (types.MethodType, types.BuiltinMethodType)) and a == b)


def test_every_template_has_a_spec_row():
    rows = [spec.primitive for spec in SPECS]
    missing = [p for p in default_registry().primitives("adjoint")
               if not any(_same(p, r) for r in rows)]
    assert not missing, f"templates without a spec row: {missing}"


def test_every_spec_row_has_a_template():
    registry = default_registry()
    missing = [spec.fn.__name__ for spec in SPECS if registry.reverse(spec.primitive) is None]
    assert not missing, f"spec rows without a template: {missing}"
