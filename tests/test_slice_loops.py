"""Loops over slices whose length the facts do not know (`x[k:k + n]`, k from range):
convolutions written with sum(...) of a generator, an accumulator loop, `+=`, and 2-D
windows. The number times the slice gives the number's adjoint as one np.vdot (no
temporary product), and the slice's adjoint is added into the argument's adjoint in place
(`x_bar[k:k + n] += g`, `w_bar[k] += ...`) where scatter_add was called. Checked on both
derivative paths against finite differences, also where a slice has length 1 or is empty,
and second order (hvp) through the in-place additions."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from golden_files import assert_matches_golden
from gradcheck import numeric_grad

RNG = np.random.default_rng(31)


def conv_sum(w, x):
    K = len(w)
    n = len(x) - K + 1
    out = sum(w[k] * x[k:k + n] for k in range(K))
    return np.sum(np.tanh(out) ** 2)


def conv_loop(w, x):
    n = len(x) - len(w) + 1
    out = np.zeros(n)
    for k in range(len(w)):
        out = out + w[k] * x[k:k + n]
    return np.sum(np.sin(out))


def conv_total(w, x):
    n = len(x) - len(w) + 1
    total = 0
    for k in range(len(w)):
        total += w[k] * x[k:k + n]
    return np.sum(total * total)


def windows_2d(k, img):
    h = img.shape[0] - k.shape[0] + 1
    v = img.shape[1] - k.shape[1] + 1
    out = 0.0
    for i in range(k.shape[0]):
        for j in range(k.shape[1]):
            out = out + k[i, j] * img[i:i + h, j:j + v]
    return np.sum(out ** 2)


def _pair(K, n):
    return RNG.normal(size=K), RNG.normal(size=n)


# (K, len(x)): windows of length 1 (K == len(x)), one tap, and empty windows (K > len(x)+1
# gives x[k:k + n] with n < 0: slices whose length changes with k)
SIZES = [(3, 9), (1, 5), (4, 4), (2, 2), (5, 3), (4, 2)]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [conv_sum, conv_loop, conv_total])
@pytest.mark.parametrize("K, n", SIZES)
def test_convolution_by_slices(f, K, n, path):
    args = _pair(K, n)
    try:
        f(*args)
    except ValueError:
        pytest.skip("f itself cannot add windows of these lengths")
    got = grad_on(path, f, wrt=(0, 1))(*args)
    for k in (0, 1):
        assert got[k].shape == args[k].shape
        np.testing.assert_allclose(got[k], numeric_grad(f, args, k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shapes", [((2, 3), (5, 6)), ((1, 1), (3, 3)), ((3, 2), (3, 2))])
def test_two_dimensional_windows(shapes, path):
    args = (RNG.normal(size=shapes[0]), RNG.normal(size=shapes[1]))
    got = grad_on(path, windows_2d, wrt=(0, 1))(*args)
    for k in (0, 1):
        np.testing.assert_allclose(got[k], numeric_grad(windows_2d, args, k),
                                   rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [conv_sum, conv_loop])
def test_second_order_through_in_place_adds(f, path):
    w, x = _pair(3, 8)
    v = RNG.normal(size=3)
    got = hvp_on(path, f, (w, x), v)
    eps = 1e-5
    grad_w = s2s_ad.grad(f)
    expected = (grad_w(w + eps * v, x) - grad_w(w - eps * v, x)) / (2 * eps)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)


def test_float32_windows_stay_float32():
    w, x = _pair(3, 9)
    got = s2s_ad.grad(conv_sum, wrt=(0, 1))(w.astype(np.float32), x.astype(np.float32))
    assert all(g.dtype == np.float32 for g in got)


def test_generated_convolution_reads_like_one_by_hand():
    df = s2s_ad.grad(conv_sum, wrt=(0, 1))
    args = _pair(3, 9)
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "np.vdot(" in source and "scatter_add" not in source
    assert "x_bar[k_1:t4_0] += " in source and "w_bar[k_1] += " in source
    assert_matches_golden("slice_convolution", source)


# ---- running sums a loop carries (ad/carried_sums.py) -------------------------------------
def heat_steps(u0, r, steps):
    u = u0
    for _ in range(steps):
        u = u + r * (np.roll(u, 1) - 2.0 * u + np.roll(u, -1))
    return np.sum(u * u)


def sum_read_in_a_branch(u0, r, flag):
    u = u0
    for _ in range(3):
        u = u + r * np.sin(u)
    if flag:
        return np.sum(u * u)
    return r * 2.0


def sum_read_inside_too(u0, r):
    u = u0
    s = 0.0
    for _ in range(4):
        s = s + np.sum(u * u)
        u = u - r * np.cos(u)
    return s + np.sum(u)


def _grads(f, args, path, wrt):
    return grad_on(path, f, wrt=wrt)(*args)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [
    (heat_steps, lambda: (RNG.normal(size=7), 0.2, 6)),
    (heat_steps, lambda: (RNG.normal(size=7), 0.2, 0)),          # no step taken
    (heat_steps, lambda: (RNG.normal(size=1), 0.3, 6)),             # a length-1 ring
    (sum_read_in_a_branch, lambda: (RNG.normal(size=5), 0.4, True)),
    (sum_read_in_a_branch, lambda: (RNG.normal(size=5), 0.4, False)),
    (sum_read_inside_too, lambda: (RNG.normal(size=(3, 2)), 0.3)),
])
def test_running_sums_in_loops(f, args, path):
    args = args()
    got = _grads(f, args, path, (0, 1))
    for k in (0, 1):
        np.testing.assert_allclose(got[k], numeric_grad(f, args, k), rtol=1e-6, atol=1e-8)


def test_a_running_sum_needs_no_shape_repair():
    df = s2s_ad.grad(heat_steps, wrt=(0, 1))
    args = (RNG.normal(size=8), 0.2, 6)
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "np.dot(u_bar, " in source
    assert "match_adjoint(t" not in source and "u_bar = u_bar + " not in source
    # u * u's two contributions to u_bar as one fresh sum: u * u itself is not computed
    assert "u_bar = u + u" in source and "u * u\n" not in source.split("# grad of")[0]
    assert_matches_golden("carried_sum_heat", source)


@pytest.mark.parametrize("path", PATHS)
def test_running_sum_second_order(path):
    u0, v = RNG.normal(size=6), RNG.normal(size=6)
    got = hvp_on(path, heat_steps, (u0, 0.2, 6), v)
    eps = 1e-5
    grad_u = s2s_ad.grad(heat_steps)
    expected = (grad_u(u0 + eps * v, 0.2, 6) - grad_u(u0 - eps * v, 0.2, 6)) / (2 * eps)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
