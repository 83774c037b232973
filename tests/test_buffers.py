"""The in-place schedule (optimize/buffers.py): elementwise arithmetic of a specialised
gradient is done in arrays nothing reads again, without changing any value, never in an
argument, and never in a user's own variable."""
import tracemalloc

import numpy as np
import pytest

import s2s_ad
from s2s_ad.optimize import schedule

from derivative_paths import PATHS
from gradcheck import assert_grad_matches


def tanh_weighted(x):
    return np.sum(np.tanh(x) * x ** 2)


def gaussian_nll(mu, log_sigma, y):
    z = (y - mu) * np.exp(-log_sigma)
    return np.sum(0.5 * z * z + log_sigma)


def log_cosh(pred, target):
    return np.mean(np.log(np.cosh(pred - target)))


def sigmoid_blend(a, b):
    s = 1.0 / (1.0 + np.exp(-a))
    return np.sum(s * b + (1.0 - s) * b * b)


def softplus_loss(z, y):
    return np.mean(np.logaddexp(0.0, z) - y * z)


def weighted_l1(a, b, w):
    return np.sum(np.abs(a - b) * w)


def l1_of_sines(x):
    d = np.abs(np.sin(x))
    return np.sum(d * d * x)


def scaled_shifted(x, gamma, beta):
    y = x * gamma + beta
    return np.sum(np.tanh(y))


def focal(z, y):
    p = 1.0 / (1.0 + np.exp(-z))
    pt = np.where(y > 0.5, p, 1.0 - p)
    return -np.mean((1.0 - pt) ** 2 * np.log(pt))


def tweedie(eta, y, power):
    mu = np.exp(eta)
    return np.mean(-y * mu ** (1.0 - power) / (1.0 - power) + mu ** (2.0 - power) / (2.0 - power))


def triplet(anchor, positive, negative, margin):
    d_pos = np.sum((anchor - positive) ** 2, axis=1)
    d_neg = np.sum((anchor - negative) ** 2, axis=1)
    return np.mean(np.maximum(d_pos - d_neg + margin, 0.0))


CASES = [
    (triplet, lambda rng: tuple(rng.standard_normal((50, 6)) for _ in range(3)) + (1.0,),
     (0, 1, 2)),
    (tweedie, lambda rng: (0.5 * rng.standard_normal(400), rng.random(400), 1.5), 0),
    (tanh_weighted, lambda rng: (rng.standard_normal(1000),), 0),
    (gaussian_nll, lambda rng: (rng.standard_normal((40, 30)), 0.3 * rng.standard_normal(
        (40, 30)), rng.standard_normal((40, 30))), (0, 1)),
    (log_cosh, lambda rng: (rng.standard_normal((4, 5, 6)), rng.standard_normal((4, 5, 6))), 0),
    (sigmoid_blend, lambda rng: (rng.standard_normal(500), rng.standard_normal(500)), (0, 1)),
    (softplus_loss, lambda rng: (rng.standard_normal(500), rng.random(500)), 0),
    (scaled_shifted, lambda rng: (rng.standard_normal((30, 20)), rng.standard_normal(20),
                                  rng.standard_normal(20)), (0, 1, 2)),
    (focal, lambda rng: (rng.standard_normal(500), (rng.random(500) < 0.5) * 1.0), 0),
    (weighted_l1, lambda rng: (rng.standard_normal(500), rng.standard_normal(500),
                               rng.random(500)), (0, 1)),
    (l1_of_sines, lambda rng: (np.concatenate([rng.standard_normal(499), [0.0]]),), 0),
]


def _without_schedule(monkeypatch):
    monkeypatch.setattr(schedule, "schedule_in_place", lambda body, *a, **k: (body, False))


@pytest.mark.parametrize("f, make, wrt", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_schedule_changes_no_value_and_writes_no_argument(f, make, wrt, monkeypatch):
    args = make(np.random.default_rng(0))
    kept = [np.copy(a) for a in args]
    got = s2s_ad.grad(f, wrt=wrt)(*args)
    for a, k in zip(args, kept):
        assert np.array_equal(a, k)                       # no argument written into
    for g in (got if isinstance(got, tuple) else (got,)):
        assert not any(np.shares_memory(g, a) for a in args)
    _without_schedule(monkeypatch)
    plain = s2s_ad.grad(_copy(f), wrt=wrt)(*args)
    for g, p in zip(got if isinstance(got, tuple) else (got,),
                    plain if isinstance(plain, tuple) else (plain,)):
        assert np.array_equal(g, p)                       # bit for bit


def _copy(f):
    import types
    return types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                              f.__closure__)


def test_elementwise_gradient_works_in_one_array():
    x = np.random.default_rng(1).standard_normal(50)
    df = s2s_ad.grad(tanh_weighted)
    source = s2s_ad.derivative_source(df, x)
    assert "x_bar *= x" in source and "out=x_bar" in source
    assert "out=x)" not in source and "x *=" not in source
    t = np.tanh(x)
    np.testing.assert_allclose(df(x), 2 * x * t + x * x * (1 - t * t), rtol=1e-12)


def _peak(fn, *args):
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn(*args)
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_peak_memory_is_two_arrays_of_the_argument():
    """A hand-written gradient of sum(tanh(x) * x**2) keeps two arrays of x's size; so
    does the generated one (it kept five before the schedule)."""
    x = np.random.default_rng(2).standard_normal(200_000)
    df = s2s_ad.grad(tanh_weighted)
    df(x)
    assert _peak(df, x) <= 2 * x.nbytes + 10_000


def test_peak_memory_without_schedule_is_larger(monkeypatch):
    x = np.random.default_rng(2).standard_normal(200_000)
    _without_schedule(monkeypatch)
    df = s2s_ad.grad(_copy(tanh_weighted))
    df(x)
    assert _peak(df, x) > 2 * x.nbytes + 10_000


def test_an_array_an_update_reads_last_is_a_buffer_after():
    """`pt_bar -= t7_0_bar` reads t7_0_bar for the last time and keeps nothing: its array
    then holds the focal loss's `1.0 - p` (five arrays of z's size and y > 0.5's flags at
    the peak, where six were)."""
    rng = np.random.default_rng(4)
    z, y = rng.standard_normal(100_000), (rng.random(100_000) < 0.5) * 1.0
    df = s2s_ad.grad(focal)
    df(z, y)
    assert _peak(df, z, y) <= 5.5 * z.nbytes      # (6.1 arrays before)


def test_an_update_is_built_in_arrays_read_for_the_last_time():
    """`eta_bar += t2_0_bar * t1_1 * e_1`: the products go into t2_0_bar's array, then one
    update (three arrays of eta's size at the peak, where four were)."""
    rng = np.random.default_rng(8)
    eta, y = 0.5 * rng.standard_normal(100_000), rng.random(100_000)
    df = s2s_ad.grad(tweedie)
    df(eta, y, 1.5)
    assert _peak(df, eta, y, 1.5) <= 3.5 * eta.nbytes     # (4.0 arrays before)
    source = s2s_ad.derivative_source(df, eta, y, 1.5)
    assert "out=t2_0_bar)\n    eta_bar_term *= e_1\n    eta_bar += eta_bar_term\n" in source


def test_a_row_spread_by_expand_dims_meets_an_array_in_its_buffer():
    """`np.expand_dims(d_neg_bar, (1,)) * 2.0 * t1_1` (a sum's adjoint held as a view, a
    mean's 1 / n from reduced_count): the row is its own small array, the product goes
    into t1_1, dead after it; the triplet loss's peak is the three gradients (and the
    two differences), where seven arrays of the embeddings' size were."""
    rng = np.random.default_rng(10)
    args = tuple(rng.standard_normal((20_000, 8)) for _ in range(3)) + (1.0,)
    df = s2s_ad.grad(triplet, wrt=(0, 1, 2))
    df(*args)
    assert "np.multiply(t1_1_bar_row, t1_1, out=t1_1)" in s2s_ad.derivative_source(df, *args)
    assert _peak(df, *args) <= 5.5 * args[0].nbytes


def test_user_variables_lend_their_arrays_only_when_dead():
    def f(x):
        shifted = x - 1.0
        e = np.exp(shifted)
        return np.sum(e * e)

    def g(x):
        z = x * 2.0
        z = z - np.max(z)
        e = np.exp(z)
        return np.sum(e * z)         # z read again: its array is not lent to e
    x = np.linspace(-1.0, 1.0, 7)
    source = s2s_ad.derivative_source(s2s_ad.grad(f), x)
    assert "e = np.exp(shifted, out=shifted)" in source     # shifted is dead there
    np.testing.assert_allclose(s2s_ad.grad(f)(x), 2 * np.exp(x - 1.0) ** 2, rtol=1e-12)
    source = s2s_ad.derivative_source(s2s_ad.grad(g), x)
    assert "e = np.exp(z_1)\n" in source
    from gradcheck import numeric_grad
    np.testing.assert_allclose(s2s_ad.grad(g)(x), numeric_grad(g, (x,), 0), rtol=1e-6)


def test_user_variables_take_one_statement():
    def f(x):
        y = x * 2.0
        u = np.exp(y) * 3.0 + y * y
        return np.sum(u * u)
    x = np.linspace(-1.0, 1.0, 7)
    source = s2s_ad.derivative_source(s2s_ad.grad(f), x)
    body = [line.strip() for line in source.splitlines()]
    assert sum(line.startswith("u =") or line.startswith("u ") for line in body) == 1


def test_a_user_variable_is_built_in_an_array_of_its_own_and_assigned_once():
    """`y = x * gamma + beta` (layer norm's scale and shift) and the sigmoid's
    `p = 1.0 / (1.0 + e)` each took two arrays; the steps now go into one array of
    s2s_ad's, and the user's variable is bound by the last step alone."""
    rng = np.random.default_rng(4)
    args = (rng.standard_normal((30, 20)), rng.standard_normal(20), rng.standard_normal(20))
    source = s2s_ad.derivative_source(s2s_ad.grad(scaled_shifted, wrt=(0, 1, 2)), *args)
    assert "y_part = x * gamma\n    y = np.add(y_part, beta, out=y_part)\n" in source, source
    body = [line.strip() for line in source.splitlines()]
    assert sum(line.startswith("y =") or line.startswith("y ") for line in body) == 1
    source = s2s_ad.derivative_source(s2s_ad.grad(sigmoid_blend, wrt=(0, 1)), *args[1:])
    assert "s = np.divide(1.0, s_part, out=s_part)" in source, source


def test_no_second_array_is_named_for_a_user_variable():
    """`K = sf2 * E + sn2 * I` needs two arrays for its two products whatever the plan:
    named, the second would live to the end of the function (an expression's temporary is
    freed at once), so K stays one statement."""
    def kernel_logdet(sf2, sn2, E):
        K = sf2 * E + sn2 * np.eye(len(E))
        return np.linalg.slogdet(K)[1]
    E = np.exp(-np.subtract.outer(np.arange(5.0), np.arange(5.0)) ** 2)
    source = s2s_ad.derivative_source(s2s_ad.grad(kernel_logdet, wrt=(0, 1)), 1.5, 0.3, E)
    assert "K_part" not in source and "K = sf2 * E + sn2 * " in source, source


@pytest.mark.parametrize("path", PATHS)
def test_a_user_variable_built_in_parts_against_differences(path):
    rng = np.random.default_rng(5)
    args = (rng.standard_normal((3, 4)), rng.standard_normal(4), rng.standard_normal((3, 1)))
    assert_grad_matches(scaled_shifted, args, wrt=(0, 1, 2), path=path)


def test_float32_stays_float32_in_place():
    x = np.random.default_rng(3).standard_normal(64).astype(np.float32)
    g = s2s_ad.grad(tanh_weighted)(x)
    assert g.dtype == np.float32
    t = np.tanh(x.astype(np.float64))
    np.testing.assert_allclose(g, 2 * x * t + x * x * (1 - t * t), rtol=1e-5)


def test_general_path_and_value_and_grad_agree():
    x = np.random.default_rng(4).standard_normal(30)
    value, g = s2s_ad.value_and_grad(tanh_weighted)(x)
    assert value == pytest.approx(tanh_weighted(x))
    general = s2s_ad.api.general_derivative(s2s_ad.grad(tanh_weighted))
    np.testing.assert_allclose(g, general(x), rtol=1e-12)
    assert not np.shares_memory(g, x)


def test_a_helpers_new_array_is_a_buffer():
    """runtime.logistic returns a new array of its operand's shape and dtype: the rest of
    the softplus adjoint works in it (no array for `- y`, none for `/ n`)."""
    rng = np.random.default_rng(5)
    z, y = rng.standard_normal(1000), rng.random(1000)
    source = s2s_ad.derivative_source(s2s_ad.grad(softplus_loss), z, y)
    assert "z_bar = logistic(z, 0.0)" in source and "z_bar -= y" in source
    g = s2s_ad.grad(softplus_loss)(z.astype(np.float32), y.astype(np.float32))
    assert g.dtype == np.float32


@pytest.mark.parametrize("f, make, wrt", CASES[-2:], ids=lambda c: getattr(c, "__name__", ""))
def test_sign_is_never_written_into_its_operand(f, make, wrt):
    """np.sign of 10^6 float64 takes ~9x longer in place than into another array (numpy
    2.4): abs's adjoint `d[y] * np.sign(x)` takes a free buffer or a new array instead."""
    import re
    args = make(np.random.default_rng(6))
    source = s2s_ad.derivative_source(s2s_ad.grad(f, wrt=wrt), *args)
    calls = re.findall(r"np\.sign\((\w+)(?:, out=(\w+))?\)", source)
    assert calls and all(out != operand for operand, out in calls)


def huber_fit(w, X, y):
    a = np.abs(X @ w - y)
    q = np.minimum(a, 1.35)
    return np.mean(0.5 * q * q + 1.35 * (a - q))


def matrix_fit(W, X, Y):
    """The product's elementwise operand on its right: X.T @ (2 E / n)."""
    E = X @ W - Y
    return np.mean(E * E)


@pytest.mark.parametrize("f, shapes", [(huber_fit, ((3,), (40, 3), (40,))),
                                       (matrix_fit, ((3, 2), (40, 3), (40, 2)))])
def test_an_elementwise_operand_of_a_product_is_evaluated_in_place(f, shapes):
    """A closed form's adjoint read by `@` (product_operands.py): named first, then
    planned as any elementwise assignment, in the residual's own array."""
    from tests.gradcheck import numeric_grad
    rng = np.random.default_rng(5)
    w, X, y = (2.0 * rng.standard_normal(shape) for shape in shapes)
    source = s2s_ad.derivative_source(s2s_ad.grad(f), w, X, y)
    assert "_operand = " in source and ", out=" in source, source
    np.testing.assert_allclose(s2s_ad.grad(f)(w, X, y), numeric_grad(f, (w, X, y), 0),
                               rtol=1e-6, atol=1e-8)
    X0, y0 = X.copy(), y.copy()
    s2s_ad.grad(f)(w, X, y)
    assert np.array_equal(X, X0) and np.array_equal(y, y0)


# ---- a slice's difference, whose length is no fact, is a buffer too ----------------------
def central_slope_penalty(u, target, lam):
    """Differences two apart along the last axis: `g`'s axes are no fact (its length may
    be 1), yet it is an array, and its adjoint `(g + g) * lam` may be written into it."""
    g = u[:, 2:] - u[:, :-2]
    return 0.5 * np.sum((u - target) ** 2) + lam * np.sum(g * g)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("shape", [(3, 7), (2, 3), (1, 4)])
def test_slice_difference_gradient_against_differences(path, shape):
    rng = np.random.default_rng(5)
    args = [rng.standard_normal(shape), rng.standard_normal(shape), 0.4]
    assert_grad_matches(central_slope_penalty, args, wrt=0, path=path)


def test_slice_difference_takes_its_own_adjoint():
    rng = np.random.default_rng(6)
    args = [rng.standard_normal((4, 9)), rng.standard_normal((4, 9)), 0.4]
    kept = [a.copy() for a in args[:2]]
    df = s2s_ad.grad(central_slope_penalty)
    got = df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "g_bar = np.add(g, g, out=g)" in source and "g_bar *= lam" in source, source
    assert all(np.array_equal(a, k) for a, k in zip(args, kept))
    assert not np.shares_memory(got, args[0]) and not np.shares_memory(got, args[1])
    g = args[0][:, 2:] - args[0][:, :-2]
    want = args[0] - args[1]
    want[:, 2:] += 0.8 * g
    want[:, :-2] -= 0.8 * g
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_a_slice_of_an_argument_is_never_a_buffer():
    """`t = u[1:]` is a view of the argument: arithmetic reading it takes a new array."""
    def f(u, lam):
        t = u[1:]
        return lam * np.sum(t * t)
    u = np.random.default_rng(7).standard_normal(8)
    kept = u.copy()
    df = s2s_ad.grad(f)
    got = df(u, 0.5)
    assert "out=t" not in s2s_ad.derivative_source(df, u, 0.5)
    assert np.array_equal(u, kept)
    np.testing.assert_allclose(got, np.concatenate([[0.0], u[1:]]), rtol=1e-12)


def masked_update_read_by_a_product(a, x):
    """the product's operand np.cos(w), named to be planned in place, lent its array to
    np.tanh(w) and was put back into the product: `out=t3_0_operand` of no such name
    (NameError inside the derivative; fuzz seed 2640 --wide, grad of grad)"""
    w = x * 0.5
    w[[False, False, True, True]] -= a * (w @ np.cos(w))
    return np.sum(np.tanh(w))


def test_an_operand_whose_array_is_lent_keeps_its_name():
    from gradcheck import numeric_grad
    x = np.array([0.3, -0.7, 1.1, 0.4])
    for k in (0, 1):
        np.testing.assert_allclose(s2s_ad.grad(masked_update_read_by_a_product, wrt=k)(0.7, x),
                                   numeric_grad(masked_update_read_by_a_product, (0.7, x), k),
                                   rtol=1e-6, atol=1e-9)
