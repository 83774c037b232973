"""Numerical oracles for tests: central differences and the inner-product test."""
import numpy as np

import s2s_ad

EPS = 1e-6


def _perturb(args, wrt, direction, scale):
    out = list(args)
    for k, v in zip(wrt, direction):
        out[k] = np.asarray(args[k], dtype=float) + scale * v
        if np.ndim(args[k]) == 0 and not isinstance(args[k], np.ndarray):
            out[k] = float(out[k])
    return out


def _inner(a, b):
    return float(np.sum(np.asarray(a, dtype=float) * np.asarray(b, dtype=float)))


def inner_product_check(fn, args, wrt, seed=0, rtol=1e-5, atol=1e-7):
    """<v, J^T u> == d/de <u, f(x + e v)> for random u, v; returns the vjp result."""
    rng = np.random.default_rng(seed)
    y = fn(*args)
    u = rng.standard_normal(np.shape(y))
    if np.ndim(y) == 0:
        u = float(u)
    vjp_fn = s2s_ad.vjp(fn, wrt=tuple(wrt))
    cotangents = vjp_fn(*args, u)
    for k, c in zip(wrt, cotangents):
        assert np.shape(c) == np.shape(args[k]), (
            f"adjoint of argument {k} has shape {np.shape(c)}, argument has {np.shape(args[k])}")
        # a real argument's adjoint is real, also through complex intermediates (np.fft)
        assert not np.iscomplexobj(c), f"adjoint of real argument {k} is complex"
    direction = [rng.standard_normal(np.shape(args[k])) for k in wrt]
    analytic = sum(_inner(v, c) for v, c in zip(direction, cotangents))
    plus = _inner(u, fn(*_perturb(args, wrt, direction, EPS)))
    minus = _inner(u, fn(*_perturb(args, wrt, direction, -EPS)))
    numeric = (plus - minus) / (2 * EPS)
    assert abs(analytic - numeric) <= atol + rtol * max(1.0, abs(numeric)), (
        f"inner-product test failed: analytic {analytic!r} vs numeric {numeric!r}")
    return cotangents


def numeric_grad(fn, args, k, eps=EPS):
    """Central-difference gradient of scalar fn w.r.t. argument k."""
    x = np.asarray(args[k], dtype=float)
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        for sign in (1, -1):
            xp = x.copy()
            xp[idx] += sign * eps
            a = list(args)
            a[k] = float(xp) if np.ndim(args[k]) == 0 and not isinstance(args[k], np.ndarray) \
                else xp
            g[idx] += sign * fn(*a)
    g /= 2 * eps
    return float(g) if x.ndim == 0 else g


def assert_grad_matches(fn, args, wrt=0, rtol=1e-5, atol=1e-6, path="specialised",
                        **grad_kwargs):
    """s2s_ad.grad(fn) agrees with central differences at `args` for each wrt position
    (`path`: the specialised derivative or the general one, derivative_paths.PATHS)."""
    from derivative_paths import on_path
    positions = wrt if isinstance(wrt, tuple) else (wrt,)
    df = on_path(s2s_ad.grad(fn, wrt=wrt, **grad_kwargs), path)
    got = df(*args)
    got = got if isinstance(wrt, tuple) else (got,)
    for k, g in zip(positions, got):
        expected = numeric_grad(fn, args, k)
        assert np.shape(g) == np.shape(args[k])
        np.testing.assert_allclose(g, expected, rtol=rtol, atol=atol,
                                   err_msg=f"gradient w.r.t. argument {k}")
    return got


def forward_check(fn, args, wrt, seed=0, rtol=1e-5, atol=1e-7):
    """jvp(fn) along a random direction agrees with central differences."""
    rng = np.random.default_rng(seed)
    direction = []
    for k in wrt:
        v = rng.standard_normal(np.shape(args[k]))
        direction.append(float(v) if np.ndim(args[k]) == 0
                         and not isinstance(args[k], np.ndarray) else v)
    tangent = direction[0] if len(wrt) == 1 else tuple(direction)
    jf = s2s_ad.jvp(fn, wrt=wrt[0] if len(wrt) == 1 else tuple(wrt))
    value, derivative = jf(*args, tangent)
    np.testing.assert_allclose(value, fn(*args), rtol=1e-12, atol=1e-12)
    plus = np.asarray(fn(*_perturb(args, wrt, direction, EPS)), dtype=float)
    minus = np.asarray(fn(*_perturb(args, wrt, direction, -EPS)), dtype=float)
    numeric = (plus - minus) / (2 * EPS)
    assert np.shape(derivative) == np.shape(numeric), \
        f"tangent has shape {np.shape(derivative)}, the output {np.shape(numeric)}"
    assert not np.iscomplexobj(derivative), "the tangent of a real output is complex"
    np.testing.assert_allclose(derivative, numeric, rtol=rtol, atol=atol)
    return derivative
