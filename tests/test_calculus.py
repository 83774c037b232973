"""np.interp, np.trapezoid, np.gradient and np.polyfit beyond the spec rows: second
derivatives across their operands (hvp in all of them at once against central
differences of the gradient), on both derivative paths; the forms refused with a clear
error; and templates' `if x is None` settled when the derivative is built."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad


def interp_loss(x, xp_steps, fp):
    return np.sum(np.interp(x, np.cumsum(xp_steps) - 2.0, fp) ** 2)


def trapezoid_loss(y, steps):
    return np.trapezoid(y ** 2, np.cumsum(steps)) ** 2


def gradient_loss(f, h):
    return np.sum(np.gradient(f, h, axis=1, edge_order=2) ** 2)


def gradient_axes_loss(f, h, k):
    """every axis, one spacing each (np.gradient returns one array per axis)"""
    gx, gy = np.gradient(f, h, k)
    return np.sum(np.sin(gx) * gy ** 2)


def gradient_some_axes_loss(f, h):
    """two of three axes, one spacing for both, second-order edges"""
    first, last = np.gradient(f, h, axis=(0, -1), edge_order=2)
    return np.sum(first * np.cos(last))


def polyfit_loss(x, y, w):
    return np.sum(np.polyfit(x, y, 2, w=w) ** 2)


RNG = np.random.default_rng(7)
CASES = {
    "interp": (interp_loss, (np.array([-2.5, -0.3, 0.4, 1.7, 3.9]), np.array([0.6, 0.9, 0.5, 1.1]),
                             np.array([0.3, -1.0, 2.0, 0.7]))),
    "trapezoid": (trapezoid_loss, (RNG.standard_normal(5), RNG.uniform(0.5, 1.5, 5))),
    "gradient": (gradient_loss, (RNG.standard_normal((2, 5)), 0.7)),
    "gradient_axes": (gradient_axes_loss, (RNG.standard_normal((4, 5)), 0.7, 1.3)),
    "gradient_some_axes": (gradient_some_axes_loss, (RNG.standard_normal((3, 2, 4)), 0.6)),
    "polyfit": (polyfit_loss, (np.array([-1.0, -0.2, 0.3, 0.9, 1.4, 2.2]), RNG.standard_normal(6),
                               RNG.uniform(0.5, 1.5, 6))),
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivative_in_every_operand(name, path):
    f, args = CASES[name]
    wrt = tuple(range(len(args)))
    gradient = grad_on(path, f, wrt=wrt)
    for k in wrt:
        np.testing.assert_allclose(gradient(*args)[k], numeric_grad(f, args, k), rtol=1e-5,
                                   atol=1e-7)
    v = tuple(np.linspace(0.3, 1.0, np.size(a)).reshape(np.shape(a)) if np.ndim(a) else 0.4
              for a in args)
    hv = hvp_on(path, f, args, v, wrt=wrt)
    plus = gradient(*(a + 1e-6 * u for a, u in zip(args, v)))
    minus = gradient(*(a - 1e-6 * u for a, u in zip(args, v)))
    for k in wrt:
        np.testing.assert_allclose(hv[k], (np.asarray(plus[k]) - minus[k]) / 2e-6, rtol=1e-5,
                                   atol=1e-6)


def gradient_of_matrix(f):
    return np.sum(np.gradient(f)[0])


def gradient_at_coordinates(f):
    return np.sum(np.gradient(f, np.array([0.0, 1.0, 3.0])))


@pytest.mark.parametrize("path", PATHS)
def test_gradient_along_every_axis_reads_one_of_its_arrays(path):
    """np.gradient(f)[0] of a matrix: the other array's adjoint is zero"""
    x = RNG.standard_normal((3, 4))
    np.testing.assert_allclose(grad_on(path, gradient_of_matrix)(x),
                               numeric_grad(gradient_of_matrix, (x,), 0), atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_gradient_at_coordinates_is_an_s2s_ad_error_naming_it(path):
    with pytest.raises(s2s_ad.MissingDerivativeError, match="np.gradient with numbers as "
                       "spacings, not coordinate arrays"):
        grad_on(path, gradient_at_coordinates)(np.ones(3))


def trapezoid_unit(y):
    return np.trapezoid(y)


def test_a_keyword_left_none_picks_its_branch_when_the_derivative_is_built():
    y = np.linspace(0.0, 1.0, 4)
    df = s2s_ad.grad(trapezoid_unit)
    np.testing.assert_allclose(df(y), [0.5, 1.0, 1.0, 0.5])
    for source in (s2s_ad.derivative_source(df), s2s_ad.derivative_source(df, y)):
        assert "None is" not in source and "trapezoid_steps(y, None" not in source


STATS_MODEL = """
import numpy as np


def loss(x, y, fp):
    spread = np.percentile(x, [20, 80]) + np.nanstd(x) + np.median(np.pad(x, 2, "maximum")) \
        + np.partition(x, 2)[:2]
    fit = np.polyfit(x, y, 1) + np.trapezoid(y, x) + np.sum(np.gradient(y, 0.5))
    return np.sum(spread ** 2) + np.sum(fit ** 2) + np.sum(np.interp(x, [-3.0, 0.0, 3.0], fp))
"""


def test_a_standalone_file_carries_the_statistics_helpers(tmp_path, monkeypatch, capsys):
    import sys
    from s2s_ad.cli import main
    (tmp_path / "stats_model.py").write_text(STATS_MODEL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["grad", "stats_model.py:loss", "--wrt", "x,y,fp", "--print"]) == 0
    text = capsys.readouterr().out
    assert "import s2s_ad" not in text and "from s2s_ad" not in text
    for helper in ("def quantile_weights", "def unpad_selected", "def partition_order",
                   "def interp_place", "def trapezoid_steps", "def ungradient"):
        assert helper in text
    namespace = {}
    exec(compile(text, "grad_stats_model.py", "exec"), namespace)
    import stats_model
    args = [np.array([0.3, -1.2, 0.8, 2.1, -0.4, 1.3]), RNG.standard_normal(6),
            np.array([0.5, -1.0, 2.0])]
    got = namespace["grad_loss"](*args)
    for k, g in enumerate(got):
        np.testing.assert_allclose(g, numeric_grad(stats_model.loss, args, k), rtol=1e-5,
                                   atol=1e-6)
    sys.modules.pop("stats_model", None)
