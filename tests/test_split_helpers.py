"""A helper's reverse derivative split in two (transforms/split_calls.py,
backend/split_pair.py): f's forward sweep calls fwd_h(args) -> (value, saved), its
backward sweep bwd_h(saved, cotangent); h's forward runs once per call, never again in
the backward sweep. Gradients on both derivative paths; grad of grad and hvp through the
twin that calls the vjps whole; helpers returning tuples, a list (kept whole), branches
binding what bwd_h reads on some paths only, recursion, keywords."""
import inspect

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad
from paths import fresh
from s2s_ad.derivative_registry import CACHE

X = np.array([0.3, -0.2, 0.5])
W = np.array([1.1, 0.7, -0.4])
M = np.array([[0.9, 0.2, -0.3], [0.1, 1.2, 0.4], [-0.5, 0.3, 0.8]])
# (each helper multiplies by M: one running only arithmetic keeps its whole vjp, cheaper
# to run again than to keep: test_cheap_helpers_keep_the_whole_vjp)


def layer(x, w):
    return np.tanh((x @ M) * w) + np.sin(x)


def stacked(x, w):
    for _ in range(3):
        x = layer(x, w)
    return np.sum(x * x)


def two(x, w):
    a = np.sin(x @ M) * w
    return a, a * x


def with_pairs(x, w):
    s = 0.0
    for _ in range(3):
        p, q = two(x, w)
        x = p + q
        s = s + np.sum(q)
    return s + np.sum(x)


def as_list(x):
    return [x * 2.0, np.cos(x)]


def through_a_list(x):
    u = as_list(x)
    return np.sum(u[0] * u[1])


def branchy(x, c):
    if c > 0:
        y = np.exp(x @ M)
    else:
        y = np.tanh(x @ M)
    return y * x


def branches(x):
    t = 0.0
    for c in (1.0, -1.0, 2.0):
        t = t + np.sum(branchy(x, c))
    return t


def power(x, n):
    if n == 0:
        return np.ones_like(x)
    return x * power(x, n - 1)


def recursive(x):
    return np.sum(power(x, 3))


def scaled(x, scale=2.0, shift=0.0):
    return np.exp((x @ M) * scale) + shift


def by_keyword(x, w):
    return np.sum(scaled(x, scale=w, shift=w * w))


CASES = [(stacked, (X, W)), (with_pairs, (X, W)), (through_a_list, (X,)), (branches, (X,)),
         (recursive, (X,)), (by_keyword, (X, W))]


def _id(case):
    return case[0].__name__


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_gradients_through_split_helpers(case, path):
    f, args = case
    f = fresh(f)
    for k in range(len(args)):
        np.testing.assert_allclose(grad_on(path, f, wrt=k)(*args), numeric_grad(f, args, k),
                                   rtol=1e-6, atol=1e-8)


def _generated(prefix):
    """The sources of the generated functions whose name starts with `prefix`."""
    return [inspect.getsource(function) for function in list(CACHE.by_function)
            if getattr(function, "__name__", "").startswith(prefix)]


def test_the_backward_part_does_not_compute_the_forward_again():
    f = fresh(stacked)
    df = s2s_ad.grad(f)
    df(X, W)
    source = s2s_ad.derivative_source(df, X, W)
    assert "fwd_layer" in source and "bwd_layer" in source and "vjp_layer" not in source
    # in the loop, what each call saved is taped and handed back in reverse order
    assert "_pair = fwd_layer" in source and "_pair[1]" in source
    code = ["\n".join(line for line in text.splitlines() if "#" not in line)
            for text in _generated("bwd_layer")]     # (the provenance comments quote h)
    assert code and all("np.tanh(" not in text and "np.sin(" not in text for text in code)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def gates(x, w):
    return np.sum(sigmoid(x * w) * sigmoid(x + w))


def ramp(z):
    return np.maximum(z, 0.0) * 0.5 + z * z


def ramps(x, w):
    return np.sum(ramp(x * w) * ramp(x + w))


def test_cheap_helpers_keep_the_whole_vjp():
    f = fresh(ramps)
    df = s2s_ad.grad(f)
    np.testing.assert_allclose(df(X, W), numeric_grad(ramps, (X, W), 0), rtol=1e-6)
    source = s2s_ad.derivative_source(df, X, W)
    assert "vjp_ramp" in source and "fwd_" not in source


@pytest.mark.parametrize("path", PATHS)
def test_transcendental_helpers_keep_their_forward(path):
    """sigmoid's np.exp is not run again in the backward sweep: fwd_sigmoid keeps it."""
    f = fresh(gates)
    for wrt in (0, 1):
        np.testing.assert_allclose(grad_on(path, f, wrt)(X, W),
                                   numeric_grad(gates, (X, W), wrt), rtol=1e-6)
    df = s2s_ad.grad(f)
    source = s2s_ad.derivative_source(df, X, W)
    assert "fwd_sigmoid" in source and "bwd_sigmoid" in source
    assert "vjp_sigmoid" not in source


def test_tuple_items_and_lists():
    f = fresh(with_pairs)
    df = s2s_ad.grad(f)
    df(X, W)
    source = s2s_ad.derivative_source(df, X, W)
    assert "fwd_two" in source and "[2]" in source        # (v0, v1, saved)
    g = fresh(through_a_list)
    dg = s2s_ad.grad(g)
    dg(X)
    assert "vjp_as_list" in s2s_ad.derivative_source(dg, X)   # a list stays whole


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [stacked, branches, with_pairs], ids=lambda f: f.__name__)
def test_second_order_reads_the_whole_vjps(f, path):
    f = fresh(f)
    args = (X, W) if len(inspect.signature(f).parameters) == 2 else (X,)
    v = np.array([0.7, -1.1, 0.4])
    g = s2s_ad.grad(f)
    eps = 1e-6
    expected = (g(X + eps * v, *args[1:]) - g(X - eps * v, *args[1:])) / (2 * eps)
    np.testing.assert_allclose(hvp_on(path, f, args, v), expected, rtol=1e-5, atol=1e-7)
    gradgrad = grad_on(path, lambda x, *rest: np.sum(s2s_ad.grad(f)(x, *rest) ** 2))
    np.testing.assert_allclose(
        gradgrad(*args), numeric_grad(lambda x, *rest: np.sum(g(x, *rest) ** 2), args, 0),
        rtol=1e-5, atol=1e-7)


def test_value_and_grad_and_vjp():
    f = fresh(stacked)
    value, gradient = s2s_ad.value_and_grad(f)(X, W)
    assert value == pytest.approx(stacked(X, W))
    np.testing.assert_allclose(gradient, numeric_grad(stacked, (X, W), 0), rtol=1e-6)

    def rows(x, w):
        return layer(layer(x, w), w)
    cotangent = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(
        s2s_ad.vjp(rows)(X, W, cotangent),
        numeric_grad(lambda x: np.sum(cotangent * rows(x, W)), (X,), 0), rtol=1e-6)
