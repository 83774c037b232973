"""Other projects' test functions and examples, written again in our own words (the shapes
of code Tangent's tests/functions.py, autograd's test_numpy / test_systematic / examples
and JAX's numpy-style tutorials differentiate), run through grad on both derivative paths
against central differences (project_suite_functions.py holds the table). Below the table,
each case that came out wrong before it was fixed, with the fact it checks."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, on_path
from gradcheck import numeric_grad

import project_suite_functions as suite


def _float64(value):
    return value.astype(np.float64) if isinstance(value, np.ndarray) else value


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", suite.CASES, ids=[c[0] for c in suite.CASES])
def test_project_suite_function(path, case):
    """The gradient in each differentiated argument equals central differences and has the
    argument's shape."""
    _, f, args, wrt = case
    for k in wrt:
        got = on_path(s2s_ad.grad(f, wrt=k), path)(*args)
        assert np.shape(got) == np.shape(args[k])
        np.testing.assert_allclose(got, numeric_grad(f, args, k), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", suite.FLOAT32_CASES, ids=[c[0] for c in suite.FLOAT32_CASES])
def test_project_suite_function_in_float32(path, case):
    """float32 arguments get float32 gradients, close to the float64 derivative's values."""
    _, f, args, wrt = case
    narrow = [a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in args]
    for k in wrt:
        got = on_path(s2s_ad.grad(f, wrt=k), path)(*narrow)
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, numeric_grad(f, [_float64(a) for a in narrow], k),
                                   rtol=2e-3, atol=2e-3)


V32 = np.array([0.5, -1.0, 2.0], np.float32)
W32 = np.array([1.5, 0.25, -0.5], np.float32)
M32 = np.arange(9, dtype=np.float32).reshape(3, 3) / 4


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [(suite.inner_of_vectors, (V32, W32)),
                                     (suite.trace_of, (M32,)), (suite.trace_above, (M32,))],
                         ids=["inner", "trace", "trace_offset"])
def test_a_product_returned_as_it_is_keeps_float32(path, f, args):
    """np.inner(x, y) of float32 vectors and np.trace(m) of a float32 matrix, returned as
    the function's value: the seed 1.0 reached np.tensordot / np.expand_dims in the adjoint
    helper as a Python number, which made it a float64 array and the float32 arguments'
    gradients float64 (runtime_linalg._seed_dtype)."""
    grads = on_path(s2s_ad.grad(f, wrt=tuple(range(len(args)))), path)(*args)
    for k, g in enumerate(grads):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, numeric_grad(f, [a.astype(float) for a in args], k),
                                   rtol=1e-5, atol=1e-6)
