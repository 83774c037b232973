"""A float32 argument of a function that computes in float64 somewhere (a float64 global
in a matrix product, np.float64 numbers, a float64 array added, x.astype(np.float64),
np.concatenate with float64 values): its gradient is float32, as a JAX cotangent keeps
its primal's dtype, on the specialised and the general derivative, and equal to the
float64 gradient. A float64 argument beside it keeps float64. Arguments that stay
float32 throughout get no cast in the generated code."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad import runtime, runtime_creation

from paths import fresh

W64 = np.linspace(-1.0, 1.0, 12).reshape(4, 3)


def global_matmul(x):
    return np.sum(np.tanh(x @ W64))


def float64_number(x):
    return np.sum(x * np.float64(3.0) + x ** 3)


def float64_array_added(x):
    return np.sum(np.sin(x + 1e-3 * np.ones(4)))


def widened_by_astype(x):
    return np.mean(np.exp(x.astype(np.float64)) * x)


def concatenated(x):
    return np.sum(np.concatenate([x, np.ones(2)]) ** 2)


def branch_picks_float64(x):
    return np.sum(np.where(x > 0, x, np.zeros(4)) ** 2)


def loop_with_float64_state(x):
    acc = np.zeros(4)
    for k in range(3):
        acc = acc + x * k
    return np.sum(acc ** 2)


def helper_widens(x):
    def scaled(v):
        return v * np.arange(4.0)
    return np.sum(scaled(x) ** 2)


def narrowed_back(x):
    y = (x.astype(np.float64) * 2.0).astype(np.float32)
    return np.sum(y * y * x)


PROGRAMS = [global_matmul, float64_number, float64_array_added, widened_by_astype,
            concatenated, branch_picks_float64, loop_with_float64_state, helper_widens,
            narrowed_back]
X32 = np.array([0.3, -0.2, 0.5, 0.9], dtype=np.float32)


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_float32_gradient_of_a_widening_function(f, both_paths):
    expected = s2s_ad.grad(fresh(f))(X32.astype(np.float64))
    g = s2s_ad.grad(fresh(f))(X32)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, expected, rtol=1e-4, atol=1e-5)
    value, g = s2s_ad.value_and_grad(fresh(f))(X32)
    assert g.dtype == np.float32
    g = s2s_ad.vjp(fresh(f))(X32, 1.0)
    assert g.dtype == np.float32
    v = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
    hv = s2s_ad.hvp(fresh(f))(X32, v)
    assert hv.dtype == np.float32
    h = s2s_ad.hessian(fresh(f))(X32.astype(np.float64))
    np.testing.assert_allclose(hv, h @ v, rtol=1e-3, atol=1e-4)


def product_of_two(x, w):
    return np.sum((x @ w) ** 2)


def test_each_argument_keeps_its_own_dtype(both_paths):
    gx, gw = s2s_ad.grad(fresh(product_of_two), wrt=(0, 1))(X32, W64)
    assert gx.dtype == np.float32 and gw.dtype == np.float64
    ex, ew = s2s_ad.grad(fresh(product_of_two), wrt=(0, 1))(X32.astype(np.float64), W64)
    np.testing.assert_allclose(gx, ex, rtol=1e-4)
    np.testing.assert_allclose(gw, ew, rtol=1e-4)


def scalar_widens(a):
    return a * np.float64(2.0) + a ** 2


def test_a_numpy_float32_number_stays_one(both_paths):
    g = s2s_ad.grad(fresh(scalar_widens))(np.float32(0.5))
    assert type(g) is np.float32 and g == np.float32(3.0)
    # its derivative differentiated again (the cast of the gradient has one)
    h = s2s_ad.hvp(fresh(scalar_widens))(np.float32(0.5), np.float32(1.0))
    assert float(h) == pytest.approx(2.0)


def stays_float32(x):
    return np.sum(np.tanh(x * 2.0) ** 2)


def test_the_cast_is_written_only_where_floats_widen():
    df = s2s_ad.grad(fresh(global_matmul))
    df(X32)
    assert "astype(np.float32, copy=False)" in s2s_ad.derivative_source(df, X32)
    df = s2s_ad.grad(fresh(stays_float32))
    assert df(X32).dtype == np.float32
    assert "astype" not in s2s_ad.derivative_source(df, X32)


def test_hvp_of_a_widening_function_computes_no_gradient_to_cast():
    """The jvp of the cast `x_bar.astype(np.float32)` casts the tangent: it does not
    compute the gradient itself to read its dtype."""
    h = s2s_ad.hvp(fresh(global_matmul))
    h(X32, X32)
    source = s2s_ad.derivative_source(h, X32, X32)
    assert "through_cast" not in source and "dtype=np.float32" in source


def test_runtime_adjoints_take_a_float32_operand_dtype():
    g = np.ones((2, 4))
    x = np.zeros(4, dtype=np.float32)
    assert runtime.unbroadcast(g, x).dtype == np.float32
    assert runtime.unbroadcast(g[0], x).dtype == np.float32
    assert runtime.unreduce(np.float64(2.0), x).dtype == np.float32
    assert runtime.unreduce(2.0, np.zeros(3, dtype=int)).dtype == np.float64
    y = np.zeros(4, dtype=np.float32)
    assert runtime_creation.through_cast(g[0], y, np.float32).dtype == np.float32


def astype_no_copy(x):
    y = x.astype(np.float64, copy=False)
    return np.sum(y ** 2)


def test_astype_with_copy_false_is_numpy_s(both_paths):
    """x.astype(dt, copy=False) copies where the dtype differs (numpy's meaning), where
    np.asarray(x, dtype=dt, copy=False) would refuse to."""
    g = s2s_ad.grad(fresh(astype_no_copy))(X32)
    np.testing.assert_allclose(g, 2.0 * X32, rtol=1e-6)
    assert g.dtype == np.float32
