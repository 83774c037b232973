"""numpy's integer scalar types called on a value (`np.int64(w[:, -1])`, indices computed
from the array being differentiated): piecewise constant, no derivative through them, the
rest of f differentiated. Forward mode had no rule ("no forward-mode derivative is known
for `np.int64(...)`"), so jvp and hvp were rejected. Both derivative paths."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import check_against_differences
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
