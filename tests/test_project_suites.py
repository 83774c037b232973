"""Other projects' test functions and examples, written again in our own words (the shapes
of code Tangent's tests/functions.py, autograd's test_numpy / test_systematic / examples
and JAX's numpy-style tutorials differentiate), run through grad on both derivative paths
against central differences (project_suite_functions.py holds the table). Below the table,
each case that came out wrong before it was fixed, with the fact it checks."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, hvp_on, on_path
from gradcheck import numeric_grad

import project_suite_functions as suite


def _float64(value):
    return value.astype(np.float64) if isinstance(value, np.ndarray) else value


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", suite.CASES, ids=[c[0] for c in suite.CASES])
def test_project_suite_function(path, case):
    """The gradient in each differentiated argument equals central differences and has the
    argument's shape; a Python float's is a Python float on both paths (the general
    derivative gave np.float64 where numpy's arithmetic on the number made one, as np.cos(x)
    does: runtime_flow.match_adjoint)."""
    _, f, args, wrt = case
    for k in wrt:
        got = on_path(s2s_ad.grad(f, wrt=k), path)(*args)
        assert np.shape(got) == np.shape(args[k])
        assert type(got) is float or type(args[k]) is not float
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
M = suite.M
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


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [suite.gp_scipy_cholesky, suite.gp_scipy_upper_solve])
def test_scipy_linalg_basics_in_a_marginal_likelihood(path, f):
    """scipy.linalg.cholesky (lower and scipy's default upper factor), solve, det and inv
    have derivatives (templates/scipy_linalg_basics.py): they were refused as having none
    (scipy's own source is not differentiable). Second order too: a Hessian-vector
    product against differences of the gradient."""
    params = np.array([0.1, -0.3, 0.2, 0.4, -0.1])
    args = [params, suite.XGP, suite.YGP]
    np.testing.assert_allclose(on_path(s2s_ad.grad(f), path)(*args),
                               numeric_grad(f, args, 0), rtol=1e-5, atol=1e-7)
    v = np.cos(np.arange(5.0))
    g = s2s_ad.grad(f)
    want = (g(params + 1e-5 * v, *args[1:]) - g(params - 1e-5 * v, *args[1:])) / 2e-5
    np.testing.assert_allclose(hvp_on(path, f, args, v), want, rtol=1e-4, atol=1e-6)


def test_a_structured_scipy_solve_is_a_located_error():
    """assume_a= (scipy then reads one triangle or band of a) is refused at the call, with
    the line and the keyword named."""
    K = suite.SPD
    with pytest.raises(s2s_ad.ADError) as caught:
        s2s_ad.grad(suite.gp_scipy_assumed)(K, suite.V)
    text = str(caught.value)
    assert "assume_a=" in text and "project_suite_functions.py" in text
    assert 'scipy.linalg.solve(K, y, assume_a="pos")' in text


@pytest.mark.parametrize("path", PATHS)
def test_getattr_with_a_literal_name_is_the_attribute_read(path):
    """getattr(p, "w") was a call with no derivative: the gradient in p was refused, and
    through an object built in f from x it was refused too (transforms/expressions.py
    _named_attribute reads it as p.w)."""
    p, x = suite.Weights(np.array([0.5, -1.5, 2.0])), suite.V
    g = on_path(s2s_ad.grad(suite.getattr_of_argument), path)(p, x)
    np.testing.assert_allclose(
        g.w, numeric_grad(lambda w: suite.getattr_of_argument(suite.Weights(w), x), [p.w], 0),
        rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(on_path(s2s_ad.grad(suite.getattr_of_local), path)(x),
                               numeric_grad(suite.getattr_of_local, [x], 0), rtol=1e-6)


def test_getattr_after_an_attribute_write_is_refused_not_zero():
    """p.w = 2.0 * x, then getattr(p, "w"): the gradient was a silent zero (the write is
    a side effect s2s_ad does not differentiate, and getattr hid the read that a written
    `p.w` is refused at)."""
    with pytest.raises(s2s_ad.ADError) as caught:
        s2s_ad.grad(suite.getattr_after_a_write)(suite.V)
    assert "`.w`" in str(caught.value) and 'getattr(p, "w")' in str(caught.value)


@pytest.mark.parametrize("path", PATHS)
def test_a_missing_second_derivative_names_the_function(path):
    """hvp of np.linalg.norm(x, "nuc") (first order works): the error said which norm but
    not where (it is raised while the second derivative runs, runtime_spread.norm_power)."""
    x = M.copy()
    with pytest.raises(s2s_ad.ADError) as caught:
        hvp_on(path, suite.nuclear_norm, [x], np.ones_like(x))
    assert "ord='nuc'" in str(caught.value)
    assert "nuclear_norm (project_suite_functions.py:" in str(caught.value)


def test_setattr_of_a_derivative_is_refused_as_an_attribute_write():
    """setattr(p, "w", 2.0 * x) was refused with advice about arrays (`y = np.multiply(x,
    2.0)`, `y = x.copy()`): it names setattr and the attribute now (refusals.py)."""
    with pytest.raises(s2s_ad.ADError) as caught:
        s2s_ad.grad(suite.setattr_then_read)(suite.V)
    text = str(caught.value)
    assert "`setattr`" in text and "attribute" in text and "np.multiply" not in text
    assert 'setattr(p, "w", 2.0 * x)' in text


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [(suite.dict_of_zip_over_an_array, suite.V5[:4]),
                                  (suite.dict_of_zip_over_an_array, suite.M),
                                  (suite.dict_of_zip_fewer_keys, suite.M)],
                         ids=["vector", "matrix", "fewer_keys"])
def test_dict_of_zip_of_an_array_maps_each_key_to_a_row(path, f, x):
    """dict(zip(keys, x)) for an array x: make_mapping read x as one value for every key,
    so d["a"] was all of x and the gradient wrong without an error (or a refusal saying
    the scalar output was an array); the values are zip's pairs now
    (transforms/mapping_displays.py)."""
    np.testing.assert_allclose(on_path(s2s_ad.grad(f), path)(x), numeric_grad(f, [x], 0),
                               rtol=1e-6, atol=1e-8)
