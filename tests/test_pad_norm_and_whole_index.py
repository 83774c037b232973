"""Issue 14's crashes when the gradient ran: np.pad in modes other than 'constant',
np.linalg.norm(x, ord='nuc'), and x[()] on a 0-d array (what `x.item()` reads). Spec rows (specs_pad_modes.py, specs_zero_spread.py) check the rules over
shapes; these check whole functions on both derivative paths."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences

WEIGHTS = np.linspace(-1.0, 2.0, 8)


def reflected(x):
    return np.sum(np.pad(x, 2, mode="reflect") * WEIGHTS * x[0])


def averaged(x):
    return np.sum(np.sin(np.pad(x, (1, 3), "mean", stat_length=2)) * WEIGHTS)


def ramped(x):
    return np.sum(np.pad(x, (3, 1), "linear_ramp", end_values=x[1]) ** 2)


def edged(x):
    return np.sum(np.pad(x.reshape(2, 2), 1, "edge") ** 2)


def nuclear(x):
    return np.linalg.norm(x.reshape(2, 2) + np.eye(2), ord="nuc")


def whole_of_number(x):
    return x[()] * 2.0 + np.sum(x * x)


def whole_of_array(x):
    return np.sum(x[()] * x[...] * WEIGHTS[:4])


X = np.array([0.3, -0.8, 1.4, 0.6])
CASES = [(reflected, X), (averaged, X), (ramped, X), (edged, X), (nuclear, X),
         (whole_of_number, np.array(0.7)), (whole_of_array, X)]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradient_and_tangent_match_differences(f, x, path):
    check_against_differences(path, f, x, second_order=f is not nuclear)


def test_second_derivatives_of_the_nuclear_norm_are_a_clear_error():
    with pytest.raises(s2s_ad.MissingDerivativeError,
                       match="second derivative of np.linalg.norm with ord='nuc'"):
        s2s_ad.hvp(nuclear)(X, X)

