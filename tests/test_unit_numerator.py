"""`1.0 / u` (a sigmoid's `1.0 / (1.0 + np.exp(-z))`, a reciprocal written with `/`): the
adjoint and the tangent read the result alone, `-g * y * y`, where they read u too,
`-g * y / u` (templates/operators.py, the `is_one(a)` test of template_dsl). u is then not
kept for the backward sweep (on a 1000x1000 focal loss, one array of 8 MB less at the
peak) and a multiplication replaces a division. Checked against central differences in
every mode on scalars, vectors, matrices and broadcasting shapes, on both derivative paths;
the generated text is checked too: it must not read u after the forward sweep."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on, jvp_on
from gradcheck import assert_grad_matches, numeric_grad


def weighted_sigmoid(z, w):
    p = 1.0 / (1.0 + np.exp(-z))
    return np.sum(w * p)


def rational_unit(z, w):
    """1.0 / (1.0 + z * z): a unit numerator without the sigmoid's chain, which is reversed
    as one primitive (tests/test_logistic_chains.py)"""
    p = 1.0 / (1.0 + z * z)
    return np.sum(w * p)


def int_reciprocal(a, b):
    return np.sum(1 / (a * b) + a)


def scaled_reciprocal(a, b):
    """a numerator other than 1: the general rule, still right"""
    return np.sum(3.0 / (a * b))


SHAPES = [((), ()), ((5,), (5,)), ((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4))]


def _value(shape, rng, low=0.5, high=1.5):
    if shape == ():
        return float(rng.uniform(low, high))
    return rng.uniform(low, high, shape)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("f", [weighted_sigmoid, int_reciprocal, scaled_reciprocal])
def test_gradient_matches_central_differences(f, shapes, path):
    rng = np.random.default_rng(len(shapes[0]) + 3 * len(shapes[1]))
    a, b = _value(shapes[0], rng), _value(shapes[1], rng)
    if f is weighted_sigmoid:
        a = a - 1.0 if shapes[0] == () else (a - 1.0) * 3.0
    assert_grad_matches(f, (a, b), wrt=(0, 1), path=path)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shapes", SHAPES)
def test_tangent_and_second_derivatives(shapes, path):
    rng = np.random.default_rng(7)
    z, w = _value(shapes[0], rng, -2.0, 2.0), _value(shapes[1], rng)
    v = _value(shapes[0], rng, -1.0, 1.0)

    def along(e):
        return weighted_sigmoid(z + e * v, w)

    value, tangent = jvp_on(path, weighted_sigmoid, (z, w), v)
    np.testing.assert_allclose(value, weighted_sigmoid(z, w), rtol=1e-12)
    np.testing.assert_allclose(tangent, (along(1e-6) - along(-1e-6)) / 2e-6, rtol=1e-6)
    hv = hvp_on(path, weighted_sigmoid, (z, w), v)

    def gradient_along(e):
        return grad_on("general", weighted_sigmoid)(z + e * v, w)

    expected = (np.asarray(gradient_along(1e-6)) - np.asarray(gradient_along(-1e-6))) / 2e-6
    np.testing.assert_allclose(hv, expected, rtol=1e-5, atol=1e-8)


def test_grad_of_grad_of_a_reciprocal():
    def reciprocal(x):
        return 1.0 / x

    second = s2s_ad.grad(s2s_ad.grad(reciprocal))
    for x in (0.5, 2.0, -1.5):
        assert second(x) == pytest.approx(2.0 / x ** 3, rel=1e-12)
    assert numeric_grad(s2s_ad.grad(reciprocal), (2.0,), 0) == pytest.approx(0.25, rel=1e-6)


def test_float32_kept():
    z = np.linspace(-2.0, 2.0, 6, dtype=np.float32)
    w = np.ones(6, dtype=np.float32)
    g = s2s_ad.grad(weighted_sigmoid)(z, w)
    assert g.dtype == np.float32
    p = 1.0 / (1.0 + np.exp(-z.astype(np.float64)))
    np.testing.assert_allclose(g, p * (1.0 - p), rtol=1e-5)


def _backward(source):
    """The code after the blank line between the forward and the backward sweep (its
    provenance comments left out: they quote f)."""
    lines = source.split("\n\n", 1)[1].splitlines()
    return "\n".join(line for line in lines if not line.strip().startswith("#"))


def test_the_denominator_is_not_read_by_the_backward_sweep():
    z = np.linspace(-2.0, 2.0, 12)
    source = s2s_ad.derivative_source(s2s_ad.grad(rational_unit), z, z[:1])
    # (1.0 + z * z is dead once divided: p is built in its array, optimize/buffers.py)
    assert "p_part += 1.0\n    p = np.divide(1.0, p_part, out=p_part)" in source, source
    backward = _backward(source)
    assert "/" not in backward, source            # was: `p_bar * p / t2_0`
    assert "p * p" in backward, source
    source = s2s_ad.derivative_source(s2s_ad.grad(int_reciprocal, wrt=(0, 1)), z, 2.0)
    # the product a * b is overwritten by its reciprocal: nothing reads it after
    assert "np.divide(1, t2_0, out=t2_0)" in source, source


def test_the_tangent_reads_the_result_alone():
    z = np.linspace(-2.0, 2.0, 12)
    source = s2s_ad.derivative_source(s2s_ad.jvp(weighted_sigmoid), z, z, z)
    assert "p_dot = -(p * p * t3_0_dot)" in source, source


def test_another_numerator_keeps_the_quotient_rule():
    z = np.linspace(0.5, 2.0, 12)
    source = s2s_ad.derivative_source(s2s_ad.grad(scaled_reciprocal, wrt=(0, 1)), z, z)
    assert "np.divide(t2_0, t1_0" in _backward(source), source
