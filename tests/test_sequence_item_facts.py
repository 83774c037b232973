"""An item read at a literal index of a list or tuple argument (`ys[0]`, and `t[1]` of a
tuple built from such items) keeps the item's kind in the facts, so a Python-number loop
started from it is specialised as plain float arithmetic: no shape tape, no placeholders,
no unbroadcast. Gradients are checked on both derivative paths and differentiated again."""
import numpy as np
import pytest

import s2s_ad
from tests.derivative_paths import PATHS, grad_on


def smoothed_errors(alpha, ys):
    level, trend = ys[0], ys[1] - ys[0]
    sse = 0.0
    for k in range(1, len(ys)):
        forecast = level + trend
        err = ys[k] - forecast
        sse = sse + err * err
        new_level = alpha * ys[k] + (1.0 - alpha) * forecast
        trend = 0.5 * (new_level - level) + 0.5 * trend
        level = new_level
    return sse


YS = [1.0, 1.5, 1.7, 2.6, 2.9, 3.8]


def central(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


@pytest.mark.parametrize("container", [list, tuple])
def test_loop_from_items_is_plain_float_code(container):
    ys = container(YS)
    df = s2s_ad.grad(smoothed_errors)
    df(0.3, ys)
    text = s2s_ad.derivative_source(df, 0.3, ys)
    for general in ("placeholder", "unbroadcast", "shape_of", "match_adjoint"):
        assert general not in text, general


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("container", [list, tuple])
def test_gradient_of_a_loop_from_items(path, container):
    ys = container(YS)
    got = grad_on(path, smoothed_errors)(0.3, ys)
    np.testing.assert_allclose(got, central(lambda a: smoothed_errors(a, ys), 0.3), rtol=1e-7)
    if path == "specialised":
        assert type(got) is float


def test_second_derivative_of_a_loop_from_items():
    first = s2s_ad.grad(smoothed_errors)
    second = s2s_ad.grad(first)
    np.testing.assert_allclose(second(0.3, YS), central(lambda a: first(a, YS), 0.3),
                               rtol=1e-6)
