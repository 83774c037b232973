"""What a gradient is: floats (integer arguments are differentiated as floats), of the
argument's shape, and an array of its own (never the caller's array or a view of one),
whichever path of the generated code computed it."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.api import general_derivative
from programs import gradient_types as gt
from derivative_paths import PATHS, on_path

W = np.arange(6.0).reshape(3, 2)
V = np.array([0.5, -1.0, 2.0])
X23 = np.ones((2, 3))


@pytest.mark.parametrize("fn, args, expected", [
    (gt.square, (3,), 6.0),
    (gt.square, (np.int64(3),), 6.0),
    (gt.product, (2, 3), 3.0),
    (gt.floor_times, (2.5,), 2.0),
    (gt.quadratic_in_b, (2, 5), 5.0),
])
def test_integer_valued_gradients_are_floats(fn, args, expected):
    g = s2s_ad.grad(fn)(*args)
    assert type(g) is float and g == expected


def test_an_integer_array_argument_gets_a_float_gradient():
    g = s2s_ad.grad(gt.sum_of_doubles)(np.arange(3))
    assert g.dtype == np.float64
    np.testing.assert_array_equal(g, [2.0, 2.0, 2.0])


@pytest.mark.parametrize("fn, args", [
    (gt.times_transpose, (X23, W)),            # gradient W.T: a view of W
    (gt.times_column, (V, W)),                  # W[:, 0]
    (gt.times_reshaped_column, (V, W)),         # W[:, :1] reshaped
    (gt.times_arange, (V, W)),                  # np.arange(3): integers
    (gt.times_integer_list, (V, W)),            # np.array([1, 2, 3]): integers
    (gt.linear_in_b, (V, W)),                   # the gradient of b in b * x is x
])
def test_gradients_are_float_arrays_of_their_own(fn, args):
    before = [a.copy() for a in args]
    g = s2s_ad.grad(fn)(*args)
    assert isinstance(g, np.ndarray) and g.dtype == np.float64 and g.shape == args[0].shape
    np.testing.assert_allclose(g, fn.expected(*args))
    for a in args:
        assert not np.shares_memory(g, a)
    g *= 0.0                        # an in-place update of the gradient (weight decay, ...)
    for a, b in zip(args, before):
        np.testing.assert_array_equal(a, b)


def test_value_and_grad_and_tuple_wrt_cast_each_gradient():
    value, (ga, gb) = s2s_ad.value_and_grad(gt.product, wrt=(0, 1))(2, 3)
    assert value == 6 and type(ga) is float and type(gb) is float and (ga, gb) == (3.0, 2.0)
    value, g = s2s_ad.grad(gt.product, wrt=(0, 1), preserve_result=True)(2, 3)
    assert g == (3.0, 2.0) and all(type(x) is float for x in g)


def test_proved_float_gradients_need_no_cast():
    # the seed example's gradients are floats by construction: no extra call per gradient
    source = s2s_ad.derivative_source(s2s_ad.grad(gt.seed_example, wrt=(0, 1)))
    assert "float_gradient" not in source
    assert "float_gradient(x_bar)" in s2s_ad.derivative_source(s2s_ad.grad(gt.square))


def test_a_cast_gradient_can_be_differentiated_again():
    d2 = s2s_ad.grad(s2s_ad.grad(gt.square))
    assert d2(3.0) == pytest.approx(2.0)
    hv = s2s_ad.hvp(gt.square)
    assert hv(3.0, 1.0) == pytest.approx(2.0)


def eigenvalue_energy(x):
    A = np.outer(x, x) + np.diag(x * x + 3.0)
    r = np.linalg.eigh(A)
    return np.sum(r.eigenvalues ** 2) + np.sum(r[1][:, 0] ** 2 * x)


def rounded_weights(x):
    k = np.floor(x * 3.0).astype(int)
    return np.sum(k * x)


def test_facts_prove_float_gradients_without_a_cast():
    """Arithmetic on values a specialisation knows hold floats makes float arrays: the
    specialised gradient returns them as they are (the general one proves less)."""
    from gradcheck import numeric_grad
    x = np.array([0.3, -0.5, 0.9])
    df = s2s_ad.grad(eigenvalue_energy)
    for grad in (df, general_derivative(df)):
        np.testing.assert_allclose(grad(x), numeric_grad(eigenvalue_energy, (x,), 0),
                                   rtol=1e-6)
    assert "float_gradient" not in s2s_ad.derivative_source(df, x)


def test_an_integer_gradient_of_float_arguments_is_still_cast():
    x = np.linspace(0.5, 1.5, 4)
    for grad in (s2s_ad.grad(rounded_weights), general_derivative(s2s_ad.grad(rounded_weights))):
        g = grad(x)
        assert g.dtype == np.float64
        np.testing.assert_allclose(g, np.floor(x * 3.0))


def _cubed(x, w):
    return np.sum(x * x * x * w)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_zero_d_array_argument_gets_a_zero_d_array_gradient(dtype, path):
    """numpy's arithmetic on a 0-d array gives numbers; the gradient is an array of the
    argument's shape and dtype again, as JAX and autograd return it (the general
    derivative too, which cannot know the argument is one)."""
    x, w = np.array(0.5, dtype=dtype), np.array([1.0, 2.0], dtype=dtype)
    got = on_path(s2s_ad.grad(_cubed), path)(x, w)
    assert isinstance(got, np.ndarray) and got.shape == () and got.dtype == np.dtype(dtype)
    assert float(got) == pytest.approx(3 * 0.25 * 3.0, rel=1e-6)
    both = on_path(s2s_ad.grad(_cubed, wrt=(0, 1)), path)(x, w)
    assert isinstance(both[0], np.ndarray) and both[0].shape == ()
    value, gradient = on_path(s2s_ad.value_and_grad(_cubed), path)(x, w)
    assert isinstance(gradient, np.ndarray) and gradient.dtype == np.dtype(dtype)
    pulled = on_path(s2s_ad.vjp(_cubed), path)(x, w, 2.0)
    assert isinstance(pulled, np.ndarray) and pulled.shape == ()
    assert float(pulled) == pytest.approx(2 * 3 * 0.25 * 3.0, rel=1e-6)
