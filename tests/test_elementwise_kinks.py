"""Cheaper elementwise derivatives that keep their numbers: np.maximum / np.minimum with
both operands active take one mask and one tie test (the second operand's share is what
the first's leaves), and a small integer literal power is written as products
(optimize/fold.py), on both derivative paths."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on
from gradcheck import numeric_grad
from s2s_ad.runtime_pieces import kink_share, where_negated


def larger_times(a, b):
    return np.sum(np.maximum(a, b) * np.arange(1.0, 5.0))


def smaller_times(a, b):
    return np.sum(np.minimum(a, b) * np.arange(1.0, 5.0))


def pinball(r, q):
    return np.mean(np.maximum(q * r, (q - 1.0) * r))


# ties (0.0 == 0.0, 3.0 == 3.0), each side larger, and NaN on either side: the shares are
# the documented ones (half each at a tie, NaN's adjoint to the second operand)
A = [0.0, 3.0, 5.0, -1.0, np.nan, 2.0]
B = [0.0, 3.0, 1.0, 4.0, 1.0, np.nan]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, a_share, b_share", [
    (larger_times, [0.5, 1.0, 3.0, 0.0], [0.5, 1.0, 0.0, 4.0]),
    (smaller_times, [0.5, 1.0, 0.0, 4.0], [0.5, 1.0, 3.0, 0.0]),
])
def test_both_operands_keep_the_tie_convention(path, f, a_share, b_share):
    a, b = np.array(A[:4]), np.array(B[:4])
    ga, gb = grad_on(path, f, (0, 1))(a, b)
    assert np.array_equal(ga, a_share) and np.array_equal(gb, b_share)


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_what_the_first_share_leaves_is_the_second_share_bit_for_bit(first, dtype):
    """The adjoint's rule d[y] - kink_share(d[y], x1, x2, True) against the rule it
    replaces, kink_share(d[y], x1, x2, False), over ties, NaN, signs of the adjoint,
    broadcasting operands and a scalar adjoint (the mean's seed)."""
    rng = np.random.default_rng(13)
    x1 = rng.integers(-2, 3, (5, 1)).astype(dtype)          # many ties with x2
    x2 = rng.integers(-2, 3, (1, 6)).astype(dtype)
    x1[0, 0], x2[0, 1] = np.nan, np.nan
    for g in (rng.standard_normal((5, 6)).astype(dtype), 1.0 / 30, dtype(-0.25)):
        if not first:
            x1, x2 = x2, x1
        share = kink_share(g, x1, x2, True)
        rest = g - share
        expected = kink_share(g, x1, x2, False)
        assert rest.dtype == expected.dtype == dtype
        assert np.array_equal(rest, expected)


def test_both_active_operands_make_one_mask():
    df = s2s_ad.grad(pinball, 0)
    r = np.random.default_rng(1).standard_normal(50)
    g = df(r, 0.3)
    assert np.allclose(g, np.where(r > 0, 0.3, -0.7) / r.size, rtol=1e-12)
    source = s2s_ad.derivative_source(df, r, 0.3)
    assert source.count("kink_share(") == 1


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [larger_times, smaller_times])
def test_broadcast_operands_and_second_order(path, f):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((3, 1)), rng.standard_normal(4)

    def g(a, b):
        return f(a * a, b) + np.sum(np.maximum(a, b) ** 2)
    for k in (0, 1):
        assert np.allclose(grad_on(path, g, k)(a, b), numeric_grad(g, (a, b), k),
                           rtol=1e-6, atol=1e-8)
    u = rng.standard_normal(a.shape)
    dg = grad_on(path, g, 0)
    fd = (dg(a + 1e-6 * u, b) - dg(a - 1e-6 * u, b)) / 2e-6
    assert np.allclose(hvp_on(path, g, (a, b), u), fd, rtol=1e-5, atol=1e-6)


# ---- small integer powers as products ---------------------------------------------------
def gelu(a):
    return np.sum(0.5 * a * (1.0 + np.tanh(0.79788456 * (a + 0.044715 * a ** 3))))


def quartic(x):
    return np.sum(x ** 4 - x ** 3) + np.sum(x) ** 3


def quartic_number(x):
    return x ** 4 - 2.0 * x ** 3


def _code(source):
    """The generated source without its provenance comments (which quote f)."""
    return "\n".join(line for line in source.splitlines() if not line.strip().startswith("#"))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [gelu, quartic])
def test_integer_powers_have_no_pow_left(path, f):
    x = np.linspace(-1.5, 2.0, 7)
    df = grad_on(path, f)
    assert np.allclose(df(x), numeric_grad(f, (x,), 0), rtol=1e-7, atol=1e-9)
    if path == "specialised":
        code = _code(s2s_ad.derivative_source(df, x))
        assert "** 3" not in code and "** 4" not in code
        g32 = df(x.astype(np.float32))
        assert g32.dtype == np.float32 and np.allclose(g32, df(x), rtol=1e-5)


def test_the_value_stays_within_two_ulps_of_the_power():
    """f's own value, from the forward sweep written with products: within 2 ulp of
    numpy's pow() (each product rounds once)."""
    x = np.random.default_rng(5).uniform(-3.0, 3.0, 1000)
    vg = s2s_ad.value_and_grad(lambda x: np.sum(np.sin(x ** 3)))
    value, grad = vg(x)
    assert abs(value - np.sum(np.sin(x ** 3))) <= 1e-12 * x.size
    cubes = x * x * x
    assert np.all(np.abs(cubes - x ** 3) <= 2 * np.spacing(np.abs(x ** 3)))
    assert np.allclose(grad, np.cos(x ** 3) * 3 * x * x, rtol=1e-13)


@pytest.mark.parametrize("x", [1.7, -0.3, 3])
def test_number_powers_as_products(x):
    df = s2s_ad.grad(quartic_number)
    expected = 4 * x ** 3 - 6.0 * x ** 2
    assert abs(df(x) - expected) <= 1e-12 * max(1.0, abs(expected))
    assert "**" not in _code(s2s_ad.derivative_source(df, x))


# ---- a sum over leading axes: its adjoint broadcasts as it is --------------------------
def column_sum(x):
    return np.sum(np.sin(x), axis=0) * 2.0


def squared_column_sums(x):
    return np.sum(np.sum(x * x, axis=0) ** 2) + np.sum(np.sum(x, axis=(0, 1)))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, shape", [(column_sum, (5,)), (squared_column_sums, (4, 3)),
                                      (squared_column_sums, (4, 1)),
                                      (squared_column_sums, (2, 3, 4))])
def test_sum_over_leading_axes(path, f, shape):
    x = np.random.default_rng(7).standard_normal(shape)
    g = grad_on(path, f)(x)
    assert g.shape == x.shape and np.allclose(g, numeric_grad(f, (x,), 0), rtol=1e-6, atol=1e-8)
    if path == "specialised" and f is column_sum:
        code = _code(s2s_ad.derivative_source(s2s_ad.grad(f), x))
        assert "expand_dims" not in code and "unreduce" not in code


# ---- np.where whose second branch is `1.0 - p`: one np.where in the adjoint ------------
def picked_probability(z, y):
    p = 1.0 / (1.0 + np.exp(-z))
    pt = np.where(y > 0.5, p, 1.0 - p)
    return -np.mean((1.0 - pt) ** 2 * np.log(pt))


def picked_difference(x, c):
    return np.sum(np.sin(np.where(c > 0.0, 3.0 * x, 2.0 - x)))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [picked_probability, picked_difference])
def test_where_with_a_subtracted_branch(path, f):
    rng = np.random.default_rng(11)
    z, y = rng.standard_normal((3, 4)), (rng.random((3, 4)) < 0.5).astype(float)
    g = grad_on(path, f)(z, y)
    assert np.allclose(g, numeric_grad(f, (z, y), 0), rtol=1e-6, atol=1e-9)
    if path == "specialised":
        code = _code(s2s_ad.derivative_source(s2s_ad.grad(f), z, y))
        backward = code.split("\n\n")[-1]
        assert backward.count("np.where(") + backward.count("where_negated(") == 1
        assert "-" in backward


# ---- kink_share's result is a new array: the arithmetic after it is done in it ------------
def soft_threshold_energy(pred, target):
    d = np.abs(pred - target)
    m = np.minimum(d, 1.0)
    return np.mean((d - m) ** 2 + m)


def test_kink_share_result_serves_as_a_buffer():
    import tracemalloc
    rng = np.random.default_rng(0)
    pred, target = 2.0 * rng.standard_normal(10 ** 5), 2.0 * rng.standard_normal(10 ** 5)
    df = s2s_ad.grad(soft_threshold_energy)
    g = df(pred, target)
    r = pred - target
    expected = np.sign(r) * np.where(np.abs(r) < 1.0, 1.0, 2.0 * (np.abs(r) - 1.0)) / r.size
    assert np.allclose(g, expected, rtol=1e-13, atol=0)
    code = _code(s2s_ad.derivative_source(df, pred, target))
    assert "d_bar += " in code         # added into kink_share's array, not a third one
    tracemalloc.start()
    df(pred, target)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 5.6 * pred.nbytes


# ---- a kink share that is zero where it flows (optimize/kink_zeros.py) ------------------
def smooth_l1(pred, target):
    d = np.abs(pred - target)
    m = np.minimum(d, 1.0)
    return np.mean(m * (d - 0.5 * m))


def smooth_l1_beta(pred, target, beta):
    d = np.abs(pred - target)
    m = np.minimum(beta, d)             # the operands in the other order
    return np.sum(m * (d - 0.5 * m)) / beta


def quadratic_above_floor(z):
    h = np.maximum(z, -1.0)
    return np.mean(h * (z - 0.5 * h))


def squared_excess(x, y):
    e = x - y
    p = np.maximum(e, 0.0)
    return np.mean(p * (2.0 * e - p))   # p's adjoint is 2 (e - p) / n, written with -=


_VANISHING = [
    (smooth_l1, lambda p, t: np.clip(p - t, -1.0, 1.0) / p.size, 2),
    (lambda p, t: smooth_l1_beta(p, t, 0.7),
     lambda p, t: np.clip(p - t, -0.7, 0.7) / 0.7, 2),
    (quadratic_above_floor, lambda z: np.maximum(z, -1.0) / z.size, 1),
    (squared_excess, lambda x, y: 2.0 * np.maximum(x - y, 0.0) / x.size, 2),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", range(len(_VANISHING)))
def test_kink_share_zero_where_it_flows(path, case):
    f, expected, arity = _VANISHING[case]
    rng = np.random.default_rng(case)
    args = tuple(2.0 * rng.standard_normal((40, 30)) for _ in range(arity))
    df = grad_on(path, f)
    assert np.allclose(df(*args), expected(*args), rtol=1e-13, atol=1e-300)
    if path == "specialised" and f is not _VANISHING[1][0]:
        code = _code(s2s_ad.derivative_source(s2s_ad.grad(f), *args))
        assert "kink_share" not in code and "np.subtract" not in code


def test_kink_share_zero_where_it_flows_keeps_peak_memory_low():
    import tracemalloc
    rng = np.random.default_rng(0)
    pred, target = 2.0 * rng.standard_normal(10 ** 5), 2.0 * rng.standard_normal(10 ** 5)
    df = s2s_ad.grad(smooth_l1)
    df(pred, target)
    tracemalloc.start()
    df(pred, target)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 3.6 * pred.nbytes          # was 4.3 arrays of pred's size


def both_from_one(r):
    return np.sum(np.maximum(np.sin(r), r * r) * np.arange(1.0, r.size + 1.0)) \
        + np.sum(np.minimum(np.cos(r), 0.5 * r) ** 2)


@pytest.mark.parametrize("path", PATHS)
def test_both_operands_from_one_argument_to_second_order(path):
    r = np.random.default_rng(12).uniform(-2.0, 2.0, 6)
    assert np.allclose(grad_on(path, both_from_one)(r), numeric_grad(both_from_one, (r,), 0),
                       rtol=1e-6, atol=1e-8)
    u = np.random.default_rng(13).standard_normal(6)
    dg = grad_on(path, both_from_one)
    fd = (dg(r + 1e-6 * u) - dg(r - 1e-6 * u)) / 2e-6
    assert np.allclose(hvp_on(path, both_from_one, (r,), u), fd, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kink_share_into_out_is_the_same_share(first, dtype):
    """kink_share(..., into=a) writes the share into a (also g's own array, also an
    operand's: the masks are taken before it writes), ties and NaN included."""
    x1, x2 = np.array(A, dtype), np.array(B, dtype)
    g = np.linspace(1.0, 2.0, 6).astype(dtype)
    want = kink_share(g, x1, x2, first)
    for into in ("g", "x1", "x2", "new"):
        gg, a, b = g.copy(), x1.copy(), x2.copy()
        out = {"g": gg, "x1": a, "x2": b, "new": np.empty_like(g)}[into]
        got = kink_share(gg, a, b, first, into=out)
        assert got is out and got.dtype == dtype
        np.testing.assert_array_equal(got, want)
    no_ties = np.array([0.5, 3.5, 5.0, -1.0, 2.0, 7.0], dtype)
    want = kink_share(g, no_ties, x2, first)
    gg = g.copy()
    np.testing.assert_array_equal(kink_share(gg, no_ties, x2, first, into=gg), want)


def laplace_like(mu, log_b, y):
    return np.sum(np.minimum(np.abs(y - mu), 2.0) * np.exp(-log_b) + log_b)


@pytest.mark.parametrize("path", PATHS)
def test_kink_share_writes_into_an_array_nothing_reads_again(path):
    rng = np.random.default_rng(7)
    args = (rng.standard_normal((6, 5)), 0.3 * rng.standard_normal((6, 5)),
            3.0 * rng.standard_normal((6, 5)))
    got = grad_on(path, laplace_like, (0, 1))(*args)
    for k in (0, 1):
        np.testing.assert_allclose(got[k], numeric_grad(laplace_like, args, k),
                                   rtol=1e-6, atol=1e-8)
    source = s2s_ad.derivative_source(s2s_ad.grad(soft_threshold_energy), args[0], args[2])
    assert "d_bar = kink_share(m_bar, 1.0, d, True, into=m_bar)" in source


# ---- np.where(c, g, -g) in an adjoint: g times +-1 (runtime_pieces.where_negated) -------
def abs_by_hand(x):
    return np.sum(np.where(x > 0.0, x, -x) * np.arange(1.0, x.shape[-1] + 1.0))


def bernoulli_loglik(x, y):
    p = 0.5 + 0.4 * np.tanh(x)
    return np.sum(np.log(np.where(y > 0.5, p, 1.0 - p)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_where_negated_is_np_where_bit_for_bit(dtype):
    g = np.array([1.5, -2.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 3.0], dtype)
    c = np.array([True, False, False, False, False, True, False, True])
    for got in (where_negated(g, c), where_negated(g, c, into=np.empty_like(g))):
        want = np.where(c, g, -g)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, want)
        numbers = ~np.isnan(want)                 # (a nan's sign bit says nothing)
        assert np.array_equal(np.signbit(got[numbers]), np.signbit(want[numbers]))
    rows = np.array([[True], [False]])                  # a mask smaller than g, and larger
    np.testing.assert_array_equal(where_negated(g[:3], rows), np.where(rows, g[:3], -g[:3]))
    np.testing.assert_array_equal(where_negated(2.0, c), np.where(c, 2.0, -2.0))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [picked_probability, abs_by_hand, bernoulli_loglik])
def test_where_of_a_value_and_its_negation_is_a_product(path, f):
    rng = np.random.default_rng(14)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    if f is not abs_by_hand:
        b = (b > 0.0).astype(float)
    args = (a,) if f is abs_by_hand else (a, b)
    g = grad_on(path, f)(*args)
    assert np.allclose(g, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-9)
    u = rng.standard_normal((3, 4))
    dg = grad_on(path, f)
    fd = (dg(a + 1e-6 * u, *args[1:]) - dg(a - 1e-6 * u, *args[1:])) / 2e-6
    assert np.allclose(hvp_on(path, f, args, u), fd, rtol=1e-5, atol=1e-6)
    if path == "specialised":
        backward = _code(s2s_ad.derivative_source(s2s_ad.grad(f), *args)).split("\n\n")[-1]
        assert "where_negated(" in backward and "np.where(" not in backward
