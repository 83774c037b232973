"""numpy's integer scalar types called on a value (`np.int64(w[:, -1])`, indices computed
from the array being differentiated): piecewise constant, no derivative through them, the
rest of f differentiated. Forward mode had no rule ("no forward-mode derivative is known
for `np.int64(...)`"), so jvp and hvp were rejected. Both derivative paths."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import check_against_differences, grad_on, jvp_on
from paths import fresh


def rows_chosen_by_last_column(w):
    x = np.reshape(w, (5, 3))
    rows = np.int64(x[:, -1])
    picked = x[:, :-1][rows]
    return np.sum(np.sin(picked) * picked) + np.sum(x[:, -1] ** 2)


def scaled_by_count(w):
    n = np.int32(np.sum(w > 0.0)) + np.uint8(2)
    return np.sum(np.exp(w)) * n


@pytest.mark.parametrize("f", [rows_chosen_by_last_column, scaled_by_count])
def test_integer_cast_of_an_active_value(both_paths, f):
    w = np.random.RandomState(5).uniform(-1.0, 1.0, 15)
    w[2::3] = [0.2, 1.3, 2.4, 1.1, 0.4]      # indices 0, 1, 2, 1, 0 away from a jump
    check_against_differences(both_paths, fresh(f), w)


def only_through_a_cast(w):
    return np.sum(np.int64(w * 3.0))


def test_output_through_a_cast_alone_is_refused(both_paths):
    with pytest.raises(s2s_ad.errors.NonDifferentiableError):
        s2s_ad.jvp(fresh(only_through_a_cast))(np.ones(3), np.ones(3))


# dtype=object arrays hold the Python numbers they are given: the derivative passes
# through them (it was a silent zero: object is neither a float nor an integer dtype).
# The gradient may come back as an object array of the right numbers (left alone: no
# tool of this kind takes object arrays at all).
def sum_of_an_object_array(w):
    return np.sum(np.array([w[0], 2.0 * w[1], w[0] * w[1]], dtype=object) ** 2)


def object_cast_times_itself(w):
    return float(np.sum(w.astype(object) * w))


def object_dtype_in_a_variable(w):
    kind = "O"
    return float(np.sum(np.asarray([w, w * w], dtype=kind)))


@pytest.mark.parametrize("f", [sum_of_an_object_array, object_cast_times_itself,
                               object_dtype_in_a_variable])
def test_object_arrays_pass_the_derivative_on(both_paths, f):
    from gradcheck import numeric_grad
    w = np.array([1.5, -0.5])
    expected = numeric_grad(f, (w,), 0)
    got = grad_on(both_paths, fresh(f))(w)
    np.testing.assert_allclose(np.asarray(got, dtype=float), expected, rtol=1e-6)
    v = np.array([0.5, 2.0])
    value, tangent = jvp_on(both_paths, fresh(f), (w,), v)
    np.testing.assert_allclose(float(tangent), expected @ v, rtol=1e-6)
