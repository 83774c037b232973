"""A library function s2s_ad has no rule for, followed into the library's own source,
fails there: the error is reported at the user's call of it, naming the function, with
the reason from inside (session 16: the location and caret were scipy's own line)."""
import numpy as np
import pytest

import s2s_ad
from paths import fresh

scipy_linalg = pytest.importorskip("scipy.linalg")


def matrix_square_root_loss(A):
    # (expm has templates since session 23; sqrtm has none)
    return np.sum(scipy_linalg.sqrtm(A) ** 2)


@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_an_error_inside_scipy_is_reported_at_the_call(mode):
    f = fresh(matrix_square_root_loss)
    A = 0.1 * np.eye(2) + 1.0
    with pytest.raises(s2s_ad.MissingDerivativeError) as info:
        if mode == "grad":
            s2s_ad.grad(f)(A)
        else:
            s2s_ad.jvp(f)(A, np.ones((2, 2)))
    text = str(info.value)
    assert "`scipy.linalg.sqrtm`" in text
    assert "test_library_sources.py" in text and "scipy_linalg.sqrtm(A)" in text
    assert "site-packages" not in text and "_matfuncs" not in text


def user_helper(x):
    out = np.zeros(3)
    np.einsum("ii->i", np.zeros((3, 3)))[:] = x
    return out


def calls_user_helper(x):
    return np.sum(user_helper(x))


def test_an_error_in_a_users_helper_keeps_its_own_place():
    with pytest.raises(s2s_ad.ADError) as info:
        s2s_ad.grad(fresh(calls_user_helper))(np.ones(3))
    assert 'np.einsum("ii->i"' in str(info.value)
