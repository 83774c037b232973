"""float32 in, float32 out for whole programs: an MLP, a softmax classifier that gathers
its labels' log-probabilities by index, and an RNN stepping in a loop, through grad,
value_and_grad, vjp, jvp, hvp and hessian, on the specialised and the general derivative
(every output float32, and close to the float64 derivative)."""
import numpy as np
import pytest

import s2s_ad

from paths import fresh


def mlp_loss(w1, b1, w2, x, y):
    h = np.tanh(x @ w1 + b1)
    out = h @ w2
    return np.mean((out - y) ** 2) + 0.01 * np.sum(w1 * w1)


def softmax_nll(w, x, labels):
    logits = x @ w
    logits = logits - np.max(logits, axis=1, keepdims=True)
    logp = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
    return -np.mean(logp[np.arange(x.shape[0]), labels])


def rnn_loss(wh, wx, xs):
    h = np.zeros_like(wh[0])
    for t in range(xs.shape[0]):
        h = np.tanh(wh @ h + wx @ xs[t])
    return 0.5 * np.sum(h ** 2)


def _float32(*arrays):
    return [a.astype(np.float32) if a.dtype.kind == "f" else a for a in arrays]


RNG = np.random.default_rng(13)
PROGRAMS = {
    "mlp": (mlp_loss, _float32(RNG.standard_normal((3, 4)), RNG.standard_normal(4),
                               RNG.standard_normal((4, 2)), RNG.standard_normal((5, 3)),
                               RNG.standard_normal((5, 2)))),
    "softmax": (softmax_nll, _float32(RNG.standard_normal((3, 4)),
                                      RNG.standard_normal((6, 3)),
                                      np.array([0, 3, 1, 1, 2, 0]))),
    "rnn": (rnn_loss, _float32(0.5 * RNG.standard_normal((4, 4)),
                               RNG.standard_normal((4, 2)), RNG.standard_normal((6, 2)))),
}


def _as64(args):
    return [a.astype(np.float64) if a.dtype == np.float32 else a for a in args]


def _is_float32(value):
    return np.asarray(value).dtype == np.float32


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_float32_programs_stay_float32(name, both_paths):
    f, args = PROGRAMS[name]
    f = fresh(f)
    assert _is_float32(f(*args))               # numpy itself keeps float32 here
    w = args[0]
    expected = s2s_ad.grad(fresh(f))(*_as64(args))
    v = np.linspace(-1.0, 1.0, w.size, dtype=np.float32).reshape(w.shape)

    g = s2s_ad.grad(f)(*args)
    assert _is_float32(g)
    np.testing.assert_allclose(g, expected, rtol=1e-3, atol=1e-4)

    value, g = s2s_ad.value_and_grad(f)(*args)
    assert _is_float32(value) and _is_float32(g)

    g = s2s_ad.vjp(f)(*args, np.float32(1.0))
    assert _is_float32(g)
    np.testing.assert_allclose(g, expected, rtol=1e-3, atol=1e-4)

    value, tangent = s2s_ad.jvp(f)(*args, v)
    assert _is_float32(value) and _is_float32(tangent)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-3, atol=1e-4)

    hv = s2s_ad.hvp(f)(*args, v)
    assert _is_float32(hv) and np.shape(hv) == w.shape
    h = s2s_ad.hessian(f)(*args)
    assert _is_float32(h) and h.shape == w.shape + w.shape
    np.testing.assert_allclose(hv, np.tensordot(h, v, axes=w.ndim), rtol=1e-3, atol=1e-4)
    h64 = s2s_ad.hessian(fresh(f))(*_as64(args))
    np.testing.assert_allclose(h, h64, rtol=1e-3, atol=1e-3)


def dot_by_einsum(x):
    return np.einsum("i,i->", x, x)


def order_and_nan_statistics(x):
    m = x.reshape(2, 2)
    return np.sum(np.median(x) * x) + np.percentile(x, 30.0) + np.quantile(x, 0.75) \
        + np.nansum(x) + np.nanmean(m, axis=0)[1] + np.nanstd(x) + np.nanvar(m) \
        + np.nanmax(x) + np.trapezoid(x) + np.sum(np.linalg.svd(m, compute_uv=False)) \
        + np.sum(np.linalg.qr(m)[1]) + np.sum(np.polyval(x[:3], x))


@pytest.mark.parametrize("f", [dot_by_einsum, order_and_nan_statistics])
def test_float32_gradients_of_reductions_found_widening(f, both_paths):
    """grad's seed 1.0 through np.einsum, and the order statistics, nan-reductions,
    np.trapezoid, np.polyval, np.linalg.svd (values) and np.linalg.qr, whose derivatives
    came back float64 for float32 arguments."""
    x = np.array([0.3, -0.2, 0.5, 0.7], dtype=np.float32)
    f = fresh(f)
    assert _is_float32(f(x))
    g = s2s_ad.grad(f)(x)
    assert _is_float32(g)
    np.testing.assert_allclose(g, s2s_ad.grad(fresh(f))(x.astype(np.float64)), rtol=1e-3,
                               atol=1e-4)
    assert _is_float32(s2s_ad.jvp(f)(x, np.ones(4, dtype=np.float32))[1])
