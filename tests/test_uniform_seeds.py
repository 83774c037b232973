"""A full reduction's adjoint is one number spread over an array: specialised gradients keep
it a number until an array of that shape is needed (ad/uniform.py), and a max/min
reduction's adjoint skips counting ties if none (runtime_reductions.unreduce_extremum).
Each source check holds the generated text of a small function; each is also checked
against finite differences on both derivative paths, in float64 and float32 and with
broadcasting shapes."""
import numpy as np
import pytest

import s2s_ad
from golden_files import assert_matches_golden
from derivative_paths import PATHS, grad_on
from gradcheck import assert_grad_matches, numeric_grad
from paths import fresh
from s2s_ad.runtime_reductions import unreduce_extremum

RNG = np.random.default_rng(13)


def gaussian_nll(mu, log_sigma, y):
    z = (y - mu) * np.exp(-log_sigma)
    return np.sum(0.5 * z * z + log_sigma)


def sum_plus_square(x):
    return np.sum(x) + np.sum(x * x)      # x's adjoint: the number 1.0, then 2x


def mean_of_picked(p, rows, cols):
    return -p[rows, cols].mean()          # one number per picked element


def mean_of_slice(x):
    return np.mean(x[1:, :-1])


def broadcast_shift(x, b):
    return np.sum(x + b)                  # b (n,) against x (m, n): b's adjoint is a sum


def _source(f, wrt, *args):
    df = s2s_ad.grad(f, wrt=wrt)
    df(*args)
    return s2s_ad.derivative_source(df, *args)


def test_a_parameter_reached_by_the_seed_gets_the_number_added():
    mu, s, y = (RNG.normal(size=(4, 5)) for _ in range(3))
    source = _source(gaussian_nll, (0, 1), mu, s, y)
    assert "unreduce" not in source                 # no array of ones
    # the number is added in the pass that also takes the negation: 1.0 - e
    assert "np.subtract(1.0, log_sigma_bar, out=log_sigma_bar)" in source


def test_a_parameter_reached_by_nothing_else_gets_the_array():
    source = _source(lambda x: np.sum(x), 0, np.ones(3))
    assert "unreduce(1.0, x, None, False)" in source
    source = _source(sum_plus_square, 0, np.ones(3))
    assert "unreduce" not in source and "x_bar += 1.0" in source


def test_an_index_read_takes_the_number_at_its_elements():
    p = RNG.normal(size=(6, 3))
    source = _source(mean_of_picked, 0, p, np.arange(6), np.array([0, 2, 1, 1, 0, 2]))
    assert "add_at(p_bar, (rows, cols), -1.0 / " in source
    assert "unreduce" not in source


CASES = [
    (gaussian_nll, (0, 1), lambda: tuple(RNG.normal(size=(4, 5)) for _ in range(3))),
    (gaussian_nll, (0, 1), lambda: (RNG.normal(size=(4, 1)), RNG.normal(size=(5,)),
                                    RNG.normal(size=(4, 5)))),
    (sum_plus_square, 0, lambda: (RNG.normal(size=(3, 2)),)),
    (mean_of_picked, 0, lambda: (RNG.normal(size=(6, 3)), np.arange(6),
                                 np.array([0, 2, 1, 1, 0, 2]))),
    # repeated (row, column) pairs: each repeat adds its share
    (mean_of_picked, 0, lambda: (RNG.normal(size=(3, 3)), np.array([0, 0, 2, 0]),
                                 np.array([1, 1, 2, 1]))),
    (mean_of_picked, 0, lambda: (RNG.normal(size=(3, 3)), np.array([[0], [2]]),
                                 np.array([1, 1, 2]))),
    (mean_of_slice, 0, lambda: (RNG.normal(size=(4, 5)),)),
    (broadcast_shift, (0, 1), lambda: (RNG.normal(size=(4, 3)), RNG.normal(size=3))),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, wrt, make", CASES)
def test_gradients_stay_right(f, wrt, make, path):
    assert_grad_matches(f, make(), wrt, rtol=1e-6, atol=1e-8, path=path)


@pytest.mark.parametrize("f, wrt, make", CASES)
def test_float32_stays_float32(f, wrt, make):
    args = tuple(a.astype(np.float32) if a.dtype == np.float64 else a for a in make())
    got = s2s_ad.grad(f, wrt)(*args)
    got = got if isinstance(wrt, tuple) else (got,)
    expected = s2s_ad.grad(f, wrt)(*(a.astype(np.float64) if a.dtype == np.float32 else a
                                     for a in args))
    expected = expected if isinstance(wrt, tuple) else (expected,)
    for g, e in zip(got, expected):
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)


def test_no_gradient_shares_memory_with_an_argument():
    x = RNG.normal(size=(3, 2))
    assert not np.shares_memory(s2s_ad.grad(lambda v: np.sum(v))(x), x)
    mu, s, y = (RNG.normal(size=(2, 3)) for _ in range(3))
    for g, a in zip(s2s_ad.grad(gaussian_nll, (0, 1))(mu, s, y), (mu, s)):
        assert not np.shares_memory(g, a)


def _ties_counted(g, x, y, axis=None, keepdims=False):
    """unreduce_extremum as it was: ties counted along the axis every time."""
    hit = x == (np.expand_dims(y, axis) if axis is not None and not keepdims else y)
    ties = np.sum(hit, axis=axis, keepdims=True, dtype=np.result_type(g, x, 1.0))
    share = (np.expand_dims(g, axis) if axis is not None and not keepdims
             and np.ndim(g) else g) / ties
    return np.where(hit, share, 0.0)


@pytest.mark.parametrize("x, axis", [
    (np.array([1.0, 3.0, 2.0]), None),
    (np.array([1.0, 3.0, 3.0]), None),                          # a tie: halves
    (np.array([[1.0, 3.0, 3.0], [np.nan, 0.0, 1.0], [2.0, 1.0, 0.0]]), 1),
    # as many hits as rows, but a nan row has none and another row has two
    (np.array([[1.0, 3.0, 3.0], [np.nan, 0.0, 1.0], [2.0, 1.0, 0.0]]).T, 0),
    (np.array([[1.0, 3.0, 3.0], [5.0, 0.0, 1.0], [2.0, 7.0, 0.0]]), 1),
    (np.array([[0.0, -0.0], [1.0, 1.0]]), 1),                     # 0.0 == -0.0: a tie
])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_extremum_adjoint_keeps_the_tie_convention(x, axis, dtype):
    x = x.astype(dtype)
    for keepdims in (False, True):
        with np.errstate(invalid="ignore"):
            y = np.max(x, axis=axis, keepdims=keepdims)
        g = np.linspace(0.5, 1.5, np.size(y)).reshape(np.shape(y)).astype(dtype) \
            if axis is not None else dtype(0.7)
        with np.errstate(divide="ignore", invalid="ignore"):
            got = unreduce_extremum(g, x, y, axis, keepdims)
            expected = _ties_counted(g, x, y, axis, keepdims)
        assert got.dtype == expected.dtype == dtype
        np.testing.assert_array_equal(got, expected)


def softmax_cross_entropy(W, b, X, labels):
    logits = X @ W + b
    logits = logits - logits.max(axis=1, keepdims=True)
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return -log_probs[np.arange(len(labels)), labels].mean()


GOLDEN = {
    # before: t6_0_bar = unreduce(1.0, mu, None, False) multiplied into z_bar and added
    # to log_sigma_bar (an array of ones the size of the arguments)
    "uniform_seed_gaussian_nll": lambda: _source(
        gaussian_nll, (0, 1), *(np.ones((2, 3)) for _ in range(3))),
    # before: t9_0_bar = unreduce(-1.0 / reduced_count(t9_0, None), t9_0, None, False)
    # then add_at(log_probs_bar, (t2_0, labels), t9_0_bar)
    "uniform_seed_softmax_cross_entropy": lambda: _source(
        softmax_cross_entropy, (0, 1), np.ones((4, 3)), np.ones(3), np.ones((5, 4)),
        np.arange(5) % 3),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_generated_source_matches_golden(name):
    """Held byte for byte in tests/golden/ (golden_files.py)."""
    assert_matches_golden(name, GOLDEN[name]())


@pytest.mark.parametrize("path", PATHS)
def test_softmax_cross_entropy_gradient(path):
    args = (RNG.normal(size=(4, 3)), RNG.normal(size=3), RNG.normal(size=(6, 4)),
            np.array([0, 2, 1, 1, 0, 2]))
    got = grad_on(path, softmax_cross_entropy, (0, 1))(*args)
    for k in (0, 1):
        np.testing.assert_allclose(got[k], numeric_grad(softmax_cross_entropy, args, k),
                                   rtol=1e-6, atol=1e-8)


def centred_rows(x, w):
    mu = np.mean(x, axis=-1, keepdims=True)
    return np.sum(w * (x - mu) ** 2)


def centred_columns(x, w):
    mu = np.mean(x, axis=0)
    return np.sum(w * np.tanh(x - mu))


def centred_all(x):
    return np.sum(np.sin(x - np.mean(x)) * x)


# (added to the full-shape adjoint, in place where buffers.py can: `np.add(t2_0_bar,
# mu_bar / x.shape[-1], out=t2_0_bar)`)
@pytest.mark.parametrize("f, spread", [(centred_rows, "mu_bar / x.shape[-1]"),
                                       (centred_columns, "mu_bar / x.shape[0]")])
def test_a_mean_adjoint_broadcasts_into_an_adjoint_of_the_full_shape(f, spread):
    x, w = RNG.normal(size=(4, 3)), RNG.normal(size=(4, 3))
    source = _source(f, (0, 1), x, w)
    assert spread in source and "unreduce(" not in source


SPREAD_CASES = [
    (centred_rows, (0, 1), lambda: (RNG.normal(size=(4, 3)), RNG.normal(size=(4, 3)))),
    (centred_rows, (0, 1), lambda: (RNG.normal(size=(4, 3)), RNG.normal(size=3))),
    (centred_rows, (0, 1), lambda: (RNG.normal(size=(2, 4, 3)), RNG.normal(size=(4, 1)))),
    (centred_columns, (0, 1), lambda: (RNG.normal(size=(5, 3)), RNG.normal(size=(5, 3)))),
    (centred_columns, (0, 1), lambda: (RNG.normal(size=(2, 5, 3)), RNG.normal(size=3))),
    (centred_columns, (0, 1), lambda: (RNG.normal(size=5), RNG.normal(size=5))),
    (centred_all, 0, lambda: (RNG.normal(size=(3, 2)),)),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, wrt, make", SPREAD_CASES)
def test_spread_gradients_stay_right(f, wrt, make, path):
    test_gradients_stay_right(f, wrt, make, path)


@pytest.mark.parametrize("f, wrt, make", SPREAD_CASES)
def test_spread_float32_stays_float32(f, wrt, make):
    test_float32_stays_float32(f, wrt, make)


def item_of_a_tuple(x, y):
    t = (x, y)
    return np.mean(t[0]) + np.sum(t[1] * 2.0)


@pytest.mark.parametrize("path", PATHS)
def test_an_item_of_a_tuple_gets_an_array(path):
    # t[0] is x itself: its adjoint is x's array, not the number at "elements" of a tuple
    x, y = RNG.normal(size=2), RNG.normal(size=3)
    gx, gy = grad_on(path, item_of_a_tuple, (0, 1))(x, y)
    assert np.shape(gx) == (2,) and np.shape(gy) == (3,)
    np.testing.assert_array_equal(gx, np.full(2, 0.5))
    np.testing.assert_array_equal(gy, np.full(3, 2.0))


def sum_of_sum(y, v):
    return np.sum(y + v)


@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((4,), (4,)), ((3, 1), (1, 4))])
@pytest.mark.parametrize("dtypes", [(np.float64, np.float64), (np.float32, np.float64),
                                    (np.float32, np.float32)])
def test_the_gradient_of_a_sum_of_a_broadcast_sum(shapes, dtypes):
    """`y + v` read only for its shape (the seed's): either derivative spreads the seed
    over the broadcast shape and sums it back to each operand's, in the operand's own
    dtype (a float32 y beside a float64 v: y's gradient float32, as in JAX)."""
    from s2s_ad.api import general_derivative
    y, v = (RNG.standard_normal(s).astype(d) for s, d in zip(shapes, dtypes))
    df = s2s_ad.grad(sum_of_sum, wrt=(0, 1))
    for grad in (df, general_derivative(df)):
        gy, gv = grad(y, v)
        count = np.prod(np.broadcast_shapes(*shapes))    # terms each element is in: count / size
        np.testing.assert_allclose(gy, np.full(y.shape, count / y.size))
        np.testing.assert_allclose(gv, np.full(v.shape, count / v.size))
        assert gy.dtype == y.dtype and gv.dtype == v.dtype


def mean_square_of_differences(z):
    d = z[2:] - z[:-2]             # the facts know no axes of a slice of unknown length
    return np.mean(d ** 2)


def categorical_nll(Z, labels):
    m = np.max(Z, axis=1)
    lse = m + np.log(np.sum(np.exp(Z - m[:, None]), axis=1))
    return np.mean(lse - Z[np.arange(len(labels)), labels])


def test_a_specialisation_reads_element_counts_off_values_it_keeps(both_paths):
    """A value read only for its shape (a mean's element count) is read off one of the
    same shape that the gradient reads anyway (kinds' shape classes: `d ** 2` has d's
    shape even where the facts know no axes of d): `d ** 2` and `lse - Z[...]` are not
    computed by the specialisation."""
    z = RNG.standard_normal(7)
    Z, labels = RNG.standard_normal((5, 3)), np.array([0, 2, 1, 1, 0])
    for f, args in ((mean_square_of_differences, (z,)), (categorical_nll, (Z, labels))):
        df = s2s_ad.grad(fresh(f))
        np.testing.assert_allclose(df(*args), numeric_grad(f, list(args), 0), rtol=1e-6)
    if both_paths == "specialised":
        source = s2s_ad.derivative_source(s2s_ad.grad(mean_square_of_differences), z)
        assert "d * d" not in source and "reduced_count(d, None)" in source
        source = s2s_ad.derivative_source(s2s_ad.grad(categorical_nll), Z, labels)
        assert "lse" not in source.split("# grad of")[0] and "shaped_like" not in source
