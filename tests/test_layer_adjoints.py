"""The adjoints of the pieces of neural-network layers, as users write them: ReLU as
np.maximum(0, z) (one mask times the adjoint, ties at 0 keep half), on both derivative
paths, float32 kept, and the gradients of those gradients."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad


def relu_mlp(W, X, v):
    h = np.maximum(0, X @ W)
    return np.sum((h @ v) ** 2)


def relu_after(z):
    return np.sum(np.maximum(z, 0.0) * np.arange(1.0, z.size + 1.0))


def capped(z):
    return np.sum(np.minimum(1.0, z) * np.arange(1.0, z.size + 1.0))


def _mlp_args(dtype=np.float64):
    rng = np.random.default_rng(3)
    return (rng.standard_normal((4, 5)).astype(dtype), rng.standard_normal((6, 4)).astype(dtype),
            rng.standard_normal(5).astype(dtype))


@pytest.mark.parametrize("path", PATHS)
def test_relu_mlp_gradient_matches_differences(path):
    W, X, v = _mlp_args()
    g = grad_on(path, relu_mlp, 0)(W, X, v)
    assert np.allclose(g, numeric_grad(relu_mlp, (W, X, v), 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, z, expected", [
    # z == 0 is a tie of np.maximum(z, 0.0): half the adjoint; NaN passes nothing to z
    (relu_after, [-1.0, 0.0, 2.0, np.nan], [0.0, 1.0, 3.0, 0.0]),
    # np.minimum(1.0, z): z takes the adjoint where z < 1, half at 1, all of it at NaN
    (capped, [-1.0, 1.0, 2.0, np.nan], [1.0, 1.0, 0.0, 4.0]),
])
def test_kink_adjoints_keep_the_tie_and_nan_conventions(path, f, z, expected):
    g = grad_on(path, f)(np.array(z))
    assert np.array_equal(g, expected)


@pytest.mark.parametrize("path", PATHS)
def test_relu_float32_stays_float32(path):
    W, X, v = _mlp_args(np.float32)
    g = grad_on(path, relu_mlp, 0)(W, X, v)
    assert g.dtype == np.float32
    g64 = grad_on(path, relu_mlp, 0)(*(a.astype(np.float64) for a in (W, X, v)))
    assert np.allclose(g, g64, rtol=1e-4, atol=1e-5)


def test_relu_adjoint_is_one_mask_times_the_adjoint():
    """np.maximum(0, z)'s adjoint is one kink_share call: no np.where, nothing for the
    constant operand."""
    df = s2s_ad.grad(relu_mlp, 0)
    args = _mlp_args()
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert source.count("kink_share(") == 1 and "np.where" not in source


@pytest.mark.parametrize("path", PATHS)
def test_hvp_through_relu(path):
    W, X, v = _mlp_args()
    u = np.random.default_rng(4).standard_normal(W.shape)
    hv = hvp_on(path, relu_mlp, (W, X, v), u)
    dg = grad_on(path, relu_mlp, 0)
    step = 1e-6
    fd = (dg(W + step * u, X, v) - dg(W - step * u, X, v)) / (2 * step)
    assert np.allclose(hv, fd, rtol=1e-5, atol=1e-6)


# ---- np.var over an axis: its adjoint centres x on the mean the forward sweep took -------
def layer_norm(x, gamma, beta):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    y = (x - mu) / np.sqrt(var + 1e-5) * gamma + beta
    return np.sum(y * np.cos(y))


def batch_norm(x, gamma):
    mu = np.mean(x, axis=0)
    var = np.var(x, axis=0)
    return np.sum(np.sin(gamma * (x - mu) / np.sqrt(var + 1e-5)))


def spreads(x):
    """var over the last axis without keepdims (its adjoint is expanded back), with ddof,
    over a middle axis, over everything, over a tuple of axes (the helper's case)."""
    return np.sum(np.sin(np.var(x, axis=-1))) + np.sum(np.var(x, axis=1, ddof=1) ** 2) \
        + np.var(x) * 3.0 + np.sum(np.cos(np.var(x, axis=(0, 2))))


def _norm_args(dtype=np.float64):
    rng = np.random.default_rng(5)
    return (rng.standard_normal((4, 6)).astype(dtype) * 2.0 + 0.5,
            (1.0 + 0.1 * rng.standard_normal(6)).astype(dtype),
            (0.1 * rng.standard_normal(6)).astype(dtype))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [
    (layer_norm, _norm_args()),
    (batch_norm, _norm_args()[:2]),
    (spreads, (np.random.default_rng(6).standard_normal((3, 4, 5)),)),
])
def test_variance_adjoints_match_differences(path, f, args):
    for k in range(len(args)):
        g = grad_on(path, f, k)(*args)
        assert np.allclose(g, numeric_grad(f, args, k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_layer_norm_float32_stays_float32(path):
    args = _norm_args(np.float32)
    got = grad_on(path, layer_norm, (0, 1, 2))(*args)
    want = grad_on(path, layer_norm, (0, 1, 2))(*(a.astype(np.float64) for a in args))
    for g, w in zip(got, want):
        assert g.dtype == np.float32 and np.allclose(g, w, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("f, args", [(layer_norm, _norm_args()), (batch_norm, _norm_args()[:2])])
def test_variance_adjoint_reads_the_users_mean(f, args):
    """No second mean, no helper: x centred on the user's `mu`."""
    df = s2s_ad.grad(f, (0, 1))
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "unreduce_var" not in source and "(x - mu)" in source
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    assert sum(line.count("mean(") for line in code) == 1


@pytest.mark.parametrize("path", PATHS)
def test_hvp_through_layer_norm(path):
    args = _norm_args()
    u = np.random.default_rng(7).standard_normal(args[0].shape)
    hv = hvp_on(path, layer_norm, args, u)
    dg = grad_on(path, layer_norm, 0)
    step = 1e-6
    fd = (dg(args[0] + step * u, *args[1:]) - dg(args[0] - step * u, *args[1:])) / (2 * step)
    assert np.allclose(hv, fd, rtol=1e-5, atol=1e-6)


# ---- RMSNorm: the mean of x * x over a row, a linear map after it -------------------------
def rms_norm(x, w, W, target):
    ms = np.mean(x * x, axis=-1, keepdims=True)
    h = x / np.sqrt(ms + 1e-6) * w
    return np.mean((h @ W - target) ** 2)


def _rms_args():
    rng = np.random.default_rng(8)
    return (rng.standard_normal((4, 5)) + 0.3, 1.0 + 0.1 * rng.standard_normal(5),
            rng.standard_normal((5, 3)), rng.standard_normal((4, 3)))


@pytest.mark.parametrize("path", PATHS)
def test_rms_norm_gradient_matches_differences(path):
    args = _rms_args()
    got = grad_on(path, rms_norm, (0, 1, 2))(*args)
    for k, g in enumerate(got):
        assert np.allclose(g, numeric_grad(rms_norm, args, k), rtol=1e-6, atol=1e-8)


def test_rms_norm_adjoint_builds_no_spread_array_and_writes_each_adjoint_once():
    """x * x's adjoint takes the row's number as an (n, 1) array broadcast against x (no
    unreduce of it over x first), and the closed form writes the seed's adjoint, which two
    matrix products read, once."""
    args = _rms_args()
    df = s2s_ad.grad(rms_norm, (0, 1, 2))
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "unreduce(" not in source
    targets = [line.split("=")[0].strip() for line in source.splitlines()
               if " = " in line and not line.strip().startswith(("#", '"'))]
    assert len(targets) == len(set(targets)), source


# ---- rows of sums broadcast against their matrix: arithmetic in buffers -----------------
def soft_cross_entropy(W, X, teacher):
    z = X @ W
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -np.sum(teacher * log_p) / len(X)


def _soft_args(dtype=np.float64):
    rng = np.random.default_rng(9)
    teacher = rng.uniform(0.1, 1.0, (6, 5))
    return tuple(a.astype(dtype) for a in (rng.standard_normal((4, 5)),
                                           rng.standard_normal((6, 4)), teacher))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, args", [(soft_cross_entropy, _soft_args()),
                                     (layer_norm, _norm_args())])
def test_row_broadcasting_adjoints_match_differences(path, f, args):
    g = grad_on(path, f, 0)(*args)
    assert np.allclose(g, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("f, args", [(soft_cross_entropy, _soft_args(np.float32)),
                                     (layer_norm, _norm_args(np.float32))])
def test_row_broadcasting_adjoints_keep_float32(f, args):
    assert s2s_ad.grad(f, 0)(*args).dtype == np.float32


@pytest.mark.parametrize("f, args, row", [
    (soft_cross_entropy, _soft_args(), "np.sum(log_p_bar, axis=1, keepdims=True)"),
    (layer_norm, _norm_args(), "np.expand_dims(np.einsum('ab,ab->a', t4_0_bar, t4_0), 1)"),
])
def test_a_row_is_computed_apart_and_the_matrix_arithmetic_done_in_place(f, args, row):
    """The (n, 1) row is its own statement; the (n, d) operations write into arrays
    nothing reads again (`np.multiply(row, t, out=t)`), one allocation at most."""
    df = s2s_ad.grad(f, 0)
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert any(line.strip().startswith("x_bar_row = " + row) or
               line.strip().startswith("z_1_bar_row = " + row) for line in source.splitlines()), \
        source
    assert "out=" in source.split("_row = ")[1]
