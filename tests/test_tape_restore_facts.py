"""What a derivative's tape restores, when that derivative is differentiated again
(hvp, grad of grad): the value a name held, of that name's kind and activity
(analyses/tape_restores.py). Session 16: an integer exponent restored from the tape
counted as carrying a derivative, so hvp's `0 * log(x)` term was nan at negative x (on
the general path)."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, hvp_on
from paths import fresh


def exponents_from_divmod(x):
    total = 0.0
    for i in range(1, 7, 2):
        q, rm = divmod(i, 3)
        total = total + (q + 1) * np.sum(x ** (rm + 1)) / i
    return total


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("x, v", [(-0.7, 0.3), (np.array([-0.7, 0.4, -1.3]),
                                                 np.array([0.3, -1.0, 0.5]))])
def test_hvp_with_an_integer_restored_from_the_tape(x, v, path):
    f = fresh(exponents_from_divmod)
    got = hvp_on(path, f, (x,), v)
    g = s2s_ad.grad(exponents_from_divmod)
    expected = (g(x + 1e-5 * v) - g(x - 1e-5 * v)) / 2e-5
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
