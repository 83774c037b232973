"""End to end: np.convolve / np.correlate and np.average with weights in real losses.

A FIR smoothing filter (np.convolve, w.r.t. the signal and the kernel), a matched filter
(np.correlate), a weighted mean (np.average(x, weights=w, axis=0)): s2s_ad.grad against
central differences, s2s_ad.jvp against directional differences, s2s_ad.hvp and grad of
grad against differences of the gradient. Then exhaustively over modes and lengths, in
loops (the adjoint is still the scalar zero in an untaken branch), in a standalone file,
and the limits (returned=True).
"""
import importlib.util
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import s2s_ad
from gradcheck import assert_grad_matches, numeric_grad
from tangent_check import check_tangent
from test_tangents_arrays import check_along

EPS = 1e-6


# ---- the programs -----------------------------------------------------------------------
def fir_smoothing_loss(signal, kernel):
    """Smooth with a normalised FIR kernel, fit a target, penalise roughness."""
    smoothed = np.convolve(signal, kernel / np.sum(kernel), mode="same")
    target = np.sin(np.linspace(0.0, 3.0, smoothed.shape[0]))
    return np.sum((smoothed - target) ** 2) + 0.1 * np.sum(np.diff(smoothed) ** 2)


def fir_valid_loss(signal, kernel):
    y = np.convolve(signal, kernel, "valid")
    return np.sum(np.tanh(y) * y)


def matched_filter_loss(signal, template):
    """Soft maximum of the matched-filter response, and its peak sharpness."""
    response = np.correlate(signal, template, mode="valid")
    return np.log(np.sum(np.exp(3.0 * response))) / 3.0 - 0.5 * np.sum(template ** 2)


def autocorrelation_loss(signal, template):
    full = np.correlate(signal, template, "full")
    same = np.correlate(template, signal, "same")
    return np.sum(full ** 2) + np.sum(same * np.cos(same))


def weighted_mean_loss(x, w):
    """Weighted column means of x (w weighs the rows), and the weighted spread around them."""
    m = np.average(x, axis=0, weights=w)
    return np.sum((x - m) ** 2 * 0.5) + np.sum(np.average((x - m) ** 2, axis=0, weights=w)) \
        + np.sum(m ** 2)


def weighted_rows_loss(x, w):
    """Weights shaped like x, a keepdims row mean, and a global weighted average."""
    rows = np.average(x * x, axis=-1, weights=w, keepdims=True)
    return np.sum(np.sin(rows * x)) + np.average(x, weights=w) ** 2


def _rng(seed=0):
    return np.random.default_rng(seed)


SIGNAL = _rng(1).standard_normal(12)
KERNEL = _rng(2).uniform(0.2, 1.0, 5)
X = _rng(3).standard_normal((4, 3))
W_ROWS = _rng(4).uniform(0.5, 2.0, 4)
W_FULL = _rng(5).uniform(0.5, 2.0, (4, 3))

PROGRAMS = [
    (fir_smoothing_loss, (SIGNAL, KERNEL)),
    (fir_smoothing_loss, (KERNEL, SIGNAL)),                 # kernel longer than the signal
    (fir_valid_loss, (SIGNAL, KERNEL)),
    (fir_valid_loss, (KERNEL, SIGNAL)),
    (matched_filter_loss, (SIGNAL, KERNEL - 0.6)),
    (autocorrelation_loss, (SIGNAL[:7], KERNEL - 0.6)),
    (autocorrelation_loss, (KERNEL - 0.6, SIGNAL[:8])),
    (weighted_mean_loss, (X, W_ROWS)),
    (weighted_rows_loss, (X, W_FULL)),
]
IDS = [f"{fn.__name__}-{len(args[0])}-{len(args[1])}" for fn, args in PROGRAMS]


@pytest.mark.parametrize("fn, args", PROGRAMS, ids=IDS)
def test_grad_matches_central_differences(fn, args):
    assert_grad_matches(fn, list(args), wrt=(0, 1))
    assert_grad_matches(fn, list(args), wrt=1)


@pytest.mark.parametrize("fn, args", PROGRAMS, ids=IDS)
def test_jvp_matches_directional_differences(fn, args):
    rng = _rng(6)
    tangent = tuple(rng.standard_normal(np.shape(a)) for a in args)
    value, derivative = s2s_ad.jvp(fn, wrt=(0, 1))(*args, tangent)
    assert value == pytest.approx(fn(*args), rel=1e-12)
    plus = fn(*[a + EPS * t for a, t in zip(args, tangent)])
    minus = fn(*[a - EPS * t for a, t in zip(args, tangent)])
    assert derivative == pytest.approx((plus - minus) / (2 * EPS), rel=1e-5, abs=1e-7)
    # one argument moving alone: the other's tangent is the symbolic zero
    for k in (0, 1):
        _, alone = s2s_ad.jvp(fn, wrt=k)(*args, tangent[k])
        moved = [a + EPS * t if j == k else a for j, (a, t) in enumerate(zip(args, tangent))]
        back = [a - EPS * t if j == k else a for j, (a, t) in enumerate(zip(args, tangent))]
        assert alone == pytest.approx((fn(*moved) - fn(*back)) / (2 * EPS), rel=1e-5, abs=1e-7)


def _gradient_difference(df, args, direction):
    plus = df(*[a + EPS * v for a, v in zip(args, direction)])
    minus = df(*[a - EPS * v for a, v in zip(args, direction)])
    return [(p - m) / (2 * EPS) for p, m in zip(plus, minus)]


@pytest.mark.parametrize("fn, args", [PROGRAMS[0], PROGRAMS[1], PROGRAMS[4], PROGRAMS[7],
                                      PROGRAMS[8]], ids=[IDS[0], IDS[1], IDS[4], IDS[7],
                                                         IDS[8]])
def test_hvp_matches_differences_of_the_gradient(fn, args):
    rng = _rng(7)
    direction = tuple(rng.standard_normal(np.shape(a)) for a in args)
    expected = _gradient_difference(s2s_ad.grad(fn, wrt=(0, 1)), args, direction)
    got = s2s_ad.hvp(fn, wrt=(0, 1))(*args, direction)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn, args", [PROGRAMS[0], PROGRAMS[5], PROGRAMS[7]],
                         ids=[IDS[0], IDS[5], IDS[7]])
def test_grad_of_grad(fn, args):
    """vjp of the generated gradient (reverse over reverse: the helpers' reverse templates)."""
    rng = _rng(8)
    for k in (0, 1):
        df = s2s_ad.grad(fn, wrt=k)
        u = rng.standard_normal(np.shape(args[k]))
        got = s2s_ad.vjp(df, wrt=(0, 1))(*args, u)
        for j in (0, 1):
            def projected(*values, j=j):
                return float(np.sum(u * df(*values)))
            np.testing.assert_allclose(got[j], numeric_grad(projected, list(args), j),
                                       rtol=1e-5, atol=1e-6)


# ---- every mode, both length orders -----------------------------------------------------
def convolve_modes(a, v):
    return np.sum(np.convolve(a, v) ** 2) + np.sum(np.sin(np.convolve(a, v, "valid"))) \
        + np.sum(np.convolve(a, v, mode="same") * np.arange(max(a.size, v.size)))


def correlate_modes(a, v):
    return np.sum(np.correlate(a, v, "full") ** 2) + np.sum(np.sin(np.correlate(a, v))) \
        + np.sum(np.correlate(a, v, mode="same") * np.arange(max(a.size, v.size)))


@pytest.mark.parametrize("fn", [convolve_modes, correlate_modes])
@pytest.mark.parametrize("n", range(1, 8))
@pytest.mark.parametrize("m", range(1, 8))
def test_every_mode_and_length_order(fn, n, m):
    rng = _rng(n * 10 + m)
    args = [rng.standard_normal(n), rng.standard_normal(m)]
    assert_grad_matches(fn, args, wrt=(0, 1))
    direction = (rng.standard_normal(n), rng.standard_normal(m))
    _, derivative = s2s_ad.jvp(fn, wrt=(0, 1))(*args, direction)
    plus = fn(*[a + EPS * t for a, t in zip(args, direction)])
    minus = fn(*[a - EPS * t for a, t in zip(args, direction)])
    assert derivative == pytest.approx((plus - minus) / (2 * EPS), rel=1e-5, abs=1e-7)


def average_layouts(x, w3, w4, w34):
    return np.sum(np.average(x, axis=0, weights=w3) ** 2) \
        + np.sum(np.sin(np.average(x, axis=1, weights=w4, keepdims=True) * x)) \
        + np.sum(np.average(x, axis=-1, weights=w4) ** 3) \
        + np.average(x * x, weights=w34) + np.sum(np.average(x, axis=0, weights=w34) ** 2) \
        + np.sum(np.average(x, 0, w3, keepdims=True) * x) + np.sum(np.average(x, axis=1) ** 2)


def test_every_weights_layout_together():
    rng = _rng(9)
    args = [rng.standard_normal((3, 4)), rng.uniform(0.5, 2.0, 3), rng.uniform(0.5, 2.0, 4),
            rng.uniform(0.5, 2.0, (3, 4))]
    assert_grad_matches(average_layouts, args, wrt=(0, 1, 2, 3))


# ---- the tangent templates alone (symbolic zeros simplified as the engine does) -----------
CONVOLUTIONS = [(p, n, m, mode) for p in (np.convolve, np.correlate) for mode in
                ("full", "valid", "same") for n, m in [(5, 3), (3, 5), (4, 4), (1, 3), (2, 6)]]


@pytest.mark.parametrize("primitive, n, m, mode", CONVOLUTIONS,
                         ids=[f"{p.__name__}-{n}-{m}-{mode}" for p, n, m, mode in CONVOLUTIONS])
def test_convolution_tangents(primitive, n, m, mode):
    a, v = _rng(n).standard_normal(n), _rng(m + 10).standard_normal(m)
    check_tangent(primitive, [a, v, mode], wrt=(0, 1))
    for moving in (0, 1):
        check_along(primitive, lambda t, k=moving: [t if k == 0 else a, t if k == 1 else v,
                                                    mode], [(a, v)[moving]])


LAYOUTS = [((3, 4), None, {}), ((3, 4), (3, 4), {}), ((3, 4), (3,), {"axis": 0}),
           ((3, 4), (4,), {"axis": 1, "keepdims": True}), ((2, 3, 4), (4,), {"axis": -1}),
           ((2, 3, 4), (4, 2), {"axis": (2, 0)}), ((2, 3, 4), (2, 3, 4), {"axis": 1}),
           ((3, 4), (), {"axis": ()}), ((3, 4), None, {"axis": 0, "keepdims": True})]


@pytest.mark.parametrize("a, w, kwargs", LAYOUTS, ids=[str(c) for c in LAYOUTS])
def test_weighted_average_tangents(a, w, kwargs):
    x = _rng(11).standard_normal(a)
    weights = None if w is None else _rng(12).uniform(0.5, 2.0, w)
    weights = float(weights) if w == () else weights
    check_tangent(np.average, [x], dict(kwargs, weights=weights), wrt=(0,))
    keepdims = {"keepdims": kwargs.get("keepdims", False)}
    axis = kwargs.get("axis")
    check_along(np.average, lambda t: [t, axis, weights], [x], keepdims)
    if weights is not None:
        check_along(np.average, lambda t: [x, axis, t], [weights], keepdims)


# ---- loops, standalone files, limits ----------------------------------------------------
def filtered_in_a_loop(x, k, w, n):
    s = 0.0
    for i in range(n):
        y = np.convolve(x * 1.0, k, "same")
        z = np.correlate(x * 1.0, k, "valid")
        m = np.average(np.outer(x, x), axis=0, weights=w)
        if i == 0:          # later iterations leave the adjoints the scalar zero
            s = s + np.sum(y * y) + np.sum(z ** 3) + np.sum(m * m)
    return s


def test_adjoints_that_are_still_the_scalar_zero_of_a_loop():
    x = np.array([1.0, 2.0, 4.0, 7.0, -1.0])
    k, w = np.array([0.5, -0.2, 0.3]), np.array([1.0, 2.0, 0.5, 1.5, 0.7])
    for wrt in (0, 1, 2):
        assert_grad_matches(filtered_in_a_loop, [x, k, w, 3], wrt=wrt)


def test_positional_weights_and_scalar_convolve_operands():
    def positional(x):
        return np.sum(np.average(np.outer(x, x), 0, np.array([1.0, 2.0, 3.0])) ** 2)

    def scaled(x, c):
        return np.sum(np.convolve(x, c) ** 2) + np.sum(np.convolve(c, x, "same"))

    assert_grad_matches(positional, [np.array([1.0, 2.0, 4.0])])
    g = assert_grad_matches(scaled, [np.array([1.0, -2.0, 0.5]), 1.5], wrt=(0, 1))
    assert isinstance(g[1], float)


def test_returned_is_a_located_error():
    def both(x, w):
        avg, total = np.average(x, weights=w, returned=True)
        return avg * total

    with pytest.raises(s2s_ad.MissingDerivativeError, match="`returned=` is not supported") \
            as info:
        s2s_ad.grad(both)(np.ones(3), np.ones(3))
    assert "np.average(x, weights=w, returned=True)" in str(info.value)


MODULE = '''
import numpy as np


def fir(x, w):
    y = np.convolve(x, w, "same") + np.correlate(x, w, "same")
    return np.sum(y ** 2)


def weighted(x, w):
    return np.sum(np.average(x, axis=0, weights=w) ** 2) + np.average(x, weights=x * x)
'''


@pytest.mark.slow
def test_standalone_files_carry_the_helpers(tmp_path):
    (tmp_path / "signal_model.py").write_text(textwrap.dedent(MODULE))
    out = subprocess.run([sys.executable, "-m", "s2s_ad", "grad", "signal_model.py:fir",
                          "signal_model.py:weighted", "--wrt", "x,w", "-o", "grads.py"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    text = (tmp_path / "grads.py").read_text()
    assert "import s2s_ad" not in text and "def spread_weights(" in text
    sys.path.insert(0, str(tmp_path))
    try:
        model = importlib.import_module("signal_model")
        spec = importlib.util.spec_from_file_location("grads", tmp_path / "grads.py")
        grads = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(grads)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("signal_model", None)
    rng = _rng(10)
    s, k = rng.standard_normal(7), rng.standard_normal(4)
    x, w = rng.standard_normal((3, 2)), rng.uniform(0.5, 2.0, 3)
    for got, expected in zip(grads.grad_fir(s, k), s2s_ad.grad(model.fir, wrt=(0, 1))(s, k)):
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    for got, expected in zip(grads.grad_weighted(x, w),
                             s2s_ad.grad(model.weighted, wrt=(0, 1))(x, w)):
        np.testing.assert_allclose(got, expected, rtol=1e-12)
