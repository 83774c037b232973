"""What the facts change in specialised code: float64 numbers read out of arrays computed
as Python floats (transforms/python_floats.py, only where the two kinds of number behave
alike), element counts read off parameters, adjoints started as np.zeros_like, a mean's
seed kept a number through np.where, constants of math computed at build time."""
import math

import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad
from paths import fresh


def euler_fit(theta, x0, obs, dt):
    a, b = theta[0], theta[1]
    x = x0
    loss = 0.0
    for t in range(len(obs)):
        x = x + dt * (a * x - b * x * x)
        loss = loss + (x - obs[t]) ** 2
    return loss


def test_parameters_and_observations_read_from_arrays_are_python_floats():
    theta, obs = np.array([0.8, 0.3]), np.linspace(0.5, 1.2, 7)
    df = s2s_ad.grad(euler_fit)
    g = df(theta, 0.4, obs, 0.1)
    np.testing.assert_allclose(g, numeric_grad(euler_fit, [theta, 0.4, obs, 0.1], 0),
                               rtol=1e-6)
    assert type(g) is np.ndarray and g.dtype == np.float64
    source = s2s_ad.derivative_source(df, theta, 0.4, obs, 0.1)
    assert source.count("float(") >= 3          # a, b and obs[t]
    for bookkeeping in ("shape_of", "placeholder", "unbroadcast"):
        assert bookkeeping not in source
    value, g2 = s2s_ad.value_and_grad(euler_fit)(theta, 0.4, obs, 0.1)
    assert value == euler_fit(theta, 0.4, obs, 0.1)
    np.testing.assert_allclose(g2, g)


def _read_as_object(theta):
    a = theta[0]
    return a * a + a.ndim + np.sum(np.zeros(a.shape))


def _fractional_power(theta):
    a = theta[0]
    return a ** 0.5 + a


def _float32_read(theta):
    a = theta[0]
    return a * a


def test_reads_used_as_numpy_scalars_stay_numpy_scalars():
    theta = np.array([1.5, 2.0])
    df = s2s_ad.grad(_read_as_object)
    np.testing.assert_allclose(df(theta), numeric_grad(_read_as_object, [theta], 0),
                               rtol=1e-6)
    assert "float(" not in s2s_ad.derivative_source(df, theta)
    # a negative base to a fractional power is NaN for numpy and complex for Python
    neg = np.array([-1.5, 2.0])
    dp = s2s_ad.grad(_fractional_power)
    with np.errstate(invalid="ignore"):
        g = dp(neg)
    assert g.dtype == np.float64 and np.isnan(g[0])
    assert "float(" not in s2s_ad.derivative_source(dp, neg)
    # float32 items keep float32 arithmetic
    t32 = np.array([1.5, 2.0], dtype=np.float32)
    d32 = s2s_ad.grad(_float32_read)
    assert d32(t32).dtype == np.float32
    assert "float(" not in s2s_ad.derivative_source(d32, t32)


def _mixed(theta, flag):
    a = theta[0]
    if flag:
        a = np.sum(theta)
    return a * a


@pytest.mark.parametrize("flag", [True, False])
def test_a_name_that_is_a_read_on_one_path_only(flag):
    theta = np.array([1.5, 2.0])
    df = s2s_ad.grad(_mixed)
    np.testing.assert_allclose(df(theta, flag), numeric_grad(
        lambda t: _mixed(t, flag), [theta], 0), rtol=1e-6)


def _huber(w, X, y, delta):
    r = X @ w - y
    a = np.abs(r)
    return np.mean(np.where(a <= delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def test_a_mean_through_where_needs_no_array_of_its_seed_nor_the_where_itself():
    rng = np.random.default_rng(1)
    w, X, y = rng.standard_normal(3), rng.standard_normal((30, 3)), rng.standard_normal(30)
    df = s2s_ad.grad(_huber)
    np.testing.assert_allclose(df(w, X, y, 0.7), numeric_grad(_huber, [w, X, y, 0.7], 0),
                               rtol=1e-6)
    source = s2s_ad.derivative_source(df, w, X, y, 0.7)
    # the count is read off the same-shaped parameter y, so the where's value (needed
    # only for the loss) is never computed, and its adjoint stays the number 1/n
    assert "y.size" in source and "unreduce" not in source and "reduced_count" not in source
    # delta > 0, a fact the guard tests (sign_facts.py): the where is the residual clipped
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    assert "np.clip(r, -delta, delta" in source and "np.where(" not in "".join(code), source
    df(w, X, y, -0.7)
    source = s2s_ad.derivative_source(df, w, X, y, -0.7)
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    # (the two branches' adjoints are one np.where: optimize/where_sums.py)
    assert sum(line.count("np.where(") for line in code) == 1


def test_an_indexed_array_parameter_gets_zeros_like_and_keeps_float32():
    theta = np.array([0.8, 0.3], dtype=np.float32)
    obs = np.linspace(0.5, 1.2, 7)
    df = s2s_ad.grad(euler_fit)
    g = df(theta, 0.4, obs, 0.1)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, numeric_grad(euler_fit, [theta.astype(float), 0.4, obs, 0.1],
                                               0), rtol=1e-3)
    source = s2s_ad.derivative_source(df, theta, 0.4, obs, 0.1)
    assert "theta_bar = np.zeros_like(theta)" in source
    assert "scatter_add" not in source and "match_adjoint" not in source


def _log_ratio(S, K, T):
    return math.log(S / K) * math.sqrt(T) + math.log(S, 10.0)


def test_math_of_literals_in_a_template_is_computed_when_the_derivative_is_built():
    df = s2s_ad.grad(_log_ratio, wrt=(0, 2))
    g = df(105.0, 100.0, 0.75)
    np.testing.assert_allclose(g, [numeric_grad(_log_ratio, [105.0, 100.0, 0.75], k)
                                   for k in (0, 2)], rtol=1e-6)
    source = s2s_ad.derivative_source(df, 105.0, 100.0, 0.75)
    # the adjoint of math.log(x) (base e by default) is g / x: no math.log(2.718...) call
    assert "2.718281828459045" not in source and "math.log(10.0)" not in source
    jf = s2s_ad.jvp(_log_ratio, wrt=0)
    assert "2.718281828459045" not in s2s_ad.derivative_source(jf, 105.0, 100.0, 0.75, 1.0)


def _softmax_xent(W, b, X, labels):
    logits = X @ W + b
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return -log_probs[np.arange(len(labels)), labels].mean()


def test_an_adjoint_started_as_zeros_like_is_never_the_shapeless_zero():
    rng = np.random.default_rng(2)
    W, b, X = rng.standard_normal((4, 3)), rng.standard_normal(3), rng.standard_normal((6, 4))
    labels = rng.integers(0, 3, 6)
    df = s2s_ad.grad(_softmax_xent, wrt=(0, 1))
    gW, gb = df(W, b, X, labels)
    np.testing.assert_allclose(gW, numeric_grad(_softmax_xent, [W, b, X, labels], 0), rtol=1e-6)
    np.testing.assert_allclose(gb, numeric_grad(_softmax_xent, [W, b, X, labels], 1), rtol=1e-6)
    # log_probs' adjoint is filled by index into np.zeros_like: broadcasting is reduced
    # over exactly the broadcast axes, with no general unbroadcast
    source = s2s_ad.derivative_source(df, W, b, X, labels)
    assert "unbroadcast" not in source
    assert "np.sum(log_probs_bar, axis=1, keepdims=True)" in source


def test_powers_of_two_meeting_in_a_product_fold_away():
    from s2s_ad.backend.emit import to_source
    from s2s_ad.optimize.fold import fold_constants
    import gast
    body, changed = fold_constants(gast.parse(
        "g = w * 0.5 * 2 * r\nh = w * 0.5 * 3.0\nk = w * 3.0 * 3.0").body)
    text = to_source(gast.Module(body=body, type_ignores=[]))
    assert changed and "g = w * r" in text
    # a power of two moves into the other literal: (w * 0.5) * 3.0 rounds once, as w * 1.5
    assert "h = w * 1.5" in text
    assert "k = w * 3.0 * 3.0" in text      # two other literals: folding would round again


def test_a_power_of_two_folded_into_a_literal_changes_no_bit():
    """(w * 2**k) * c == w * (2**k * c) bit for bit on floats and float arrays (normal
    range): the rule fold.py applies to `d * 0.5 * TWO_OVER_SQRT_PI`."""
    rng = np.random.default_rng(3)
    w = rng.standard_normal(10000) * 10.0 ** rng.integers(-30, 30, 10000)
    for scale in (0.5, 2.0, 0.25, 1024.0):
        for c in (1.1283791670955126, 3.0, 0.7071067811865476, -1.7):
            assert np.array_equal(w * scale * c, w * (scale * c))
            assert np.array_equal(w * c * scale, w * (c * scale))
            assert all(float(v) * scale * c == float(v) * (scale * c) for v in w[:200])


def test_a_power_of_two_scales_the_number_before_the_array():
    """(s * a) * 2.0 -> (s * 2.0) * a when s is arithmetic of literals and sizes: one
    array pass fewer (a focal loss's square), the same bits for float64 and float32."""
    from s2s_ad.backend.emit import to_source
    from s2s_ad.optimize.fold import fold_constants
    import gast
    body, changed = fold_constants(gast.parse(
        "g = -1.0 / x.size * r * 2.0\nh = w * r * 2.0\nk = -1.0 / x.size * r * 3.0").body)
    text = to_source(gast.Module(body=body, type_ignores=[]))
    assert changed and "g = -1.0 / x.size * 2.0 * r" in text
    assert "h = w * r * 2.0" in text and "k = -1.0 / x.size * r * 3.0" in text
    rng = np.random.default_rng(9)
    for dtype in (np.float64, np.float32):
        r = (rng.standard_normal(10000) * 10.0 ** rng.integers(-20, 20, 10000)).astype(dtype)
        for s in (-1.0 / 3000, 0.1, 7.0):
            for c in (2.0, 0.5, -4.0):
                assert np.array_equal(s * r * c, s * c * r)


def linear_pinball(w, X, y, q):
    r = y - X @ w
    return np.mean(np.maximum(q * r, (q - 1.0) * r))


def test_a_negated_matmul_operand_negates_the_product(both_paths):
    """(-a) @ B == -(a @ B) bit for bit (each product and partial sum only changes sign):
    the sign goes on the gradient, not on the residuals (`w_bar = -(r_bar @ X)`)."""
    from s2s_ad.backend.emit import to_source
    from s2s_ad.optimize.fold import fold_constants
    import gast
    body, changed = fold_constants(gast.parse("g = -r @ X").body)
    assert changed and "g = -(r @ X)" in to_source(gast.Module(body=body, type_ignores=[]))
    rng = np.random.default_rng(8)
    r, X = rng.standard_normal(500), rng.standard_normal((500, 20))
    assert np.array_equal(-r @ X, -(r @ X))
    args = (0.1 * rng.standard_normal(20), X, X @ rng.standard_normal(20) + r, 0.8)
    g = s2s_ad.grad(fresh(linear_pinball))(*args)
    s = np.where(args[2] - X @ args[0] > 0.0, -0.8, 0.2)
    np.testing.assert_allclose(g, s @ X / 500, rtol=1e-12, atol=1e-15)
    if both_paths == "specialised":
        df = s2s_ad.grad(fresh(linear_pinball))
        assert "-(r_bar @ X)" in s2s_ad.derivative_source(df, *args)


def call_price(S, sigma, T):
    d1 = (math.log(S) + 0.5 * sigma ** 2 * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    return S * 0.5 * (1.0 + math.erf(d1 / math.sqrt(2.0))) \
        - 0.5 * (1.0 + math.erf(d2 / math.sqrt(2.0)))


def test_math_of_literals_is_computed_once_at_build_time_and_repeated_calls_once(
        both_paths):
    # math.sqrt(2.0) is a number when the derivative is built; math.sqrt(T), written
    # twice, is one pure computation (as a hand-written gradient would hold it)
    args = (1.05, 0.25, 0.75)
    df = s2s_ad.grad(call_price, wrt=(0, 1))
    got = df(*args)
    for k in (0, 1):
        assert got[k] == pytest.approx(numeric_grad(call_price, list(args), k), rel=1e-6)
    code = [line for line in s2s_ad.derivative_source(df, *args).splitlines()
            if not line.strip().startswith("#")]        # not the comments quoting f
    text = "\n".join(code)
    assert "math.sqrt(2.0)" not in text and repr(math.sqrt(2.0)) in text
    assert text.count("math.sqrt(T)") == 1


def square_root_of_negative(x):
    return x * math.sqrt(-1.0)


def test_math_of_literals_that_raises_still_raises_when_the_derivative_runs():
    df = s2s_ad.grad(square_root_of_negative)
    with pytest.raises(ValueError):
        df(2.0)


def diffuse(u0, D, steps):
    u = u0
    for _ in range(steps):
        lap = np.roll(u, 1) - 2.0 * u + np.roll(u, -1)
        u = u + D * lap
    return np.sum(u * u)


def test_a_rolled_array_keeps_its_operands_shape_in_the_facts():
    """np.roll keeps its operand's shape, dtype and length-1 axes: a loop of stencils
    updated with it is specialised without shape tapes or placeholders."""
    u0 = np.linspace(0.0, 1.0, 6)
    df = s2s_ad.grad(diffuse)
    np.testing.assert_allclose(df(u0, 0.2, 3), numeric_grad(diffuse, [u0, 0.2, 3], 0),
                               rtol=1e-6)
    source = s2s_ad.derivative_source(df, u0, 0.2, 3)
    assert "placeholder" not in source and "shape_of" not in source
    assert "unbroadcast" not in source
    g32 = df(u0.astype(np.float32), np.float32(0.2), 3)
    assert g32.dtype == np.float32
