"""Gathering, cutting, joining, moving and picking array elements (np.take, np.split and
its kin, np.moveaxis, np.column_stack, np.block, np.meshgrid, np.insert / np.delete,
np.select / np.choose, np.piecewise, np.put_along_axis, np.nan_to_num, ...) in losses as
people write them, on both derivative paths, to second order; the facts the specialised
derivative knows about their results; and the located errors where a call is outside what
the templates take.
"""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences
from test_specialisation import _facts

RNG = np.random.default_rng(15)
LABELS = np.array([2, 0, 1, 1, 0, 2])
HOLES = np.array([[0.0, np.nan, 0.0], [np.inf, 0.0, -np.inf]])


def split_heads(x):
    """attention-style: cut the features into heads, mix them, join them back"""
    a = x.reshape(4, 6)
    q, k = np.split(a, 2, axis=1)
    scores = q @ np.moveaxis(k, 0, 1)
    heads = np.array_split(np.tanh(scores), 3, axis=1)
    return np.sum(np.column_stack([heads[0], heads[2] ** 2]) ** 2)


def picked_log_likelihood(x):
    """cross-entropy with the true class's log-probability picked by take_along_axis"""
    logits = x.reshape(6, 3)
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_p = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return -np.sum(np.take_along_axis(log_p, LABELS[:, None], axis=1)) \
        + np.sum(np.take(log_p, [0, 4], axis=0) ** 2)


def piecewise_loss(x):
    """a Huber-like loss by np.select, clipped values by np.choose"""
    r = x.reshape(2, 6)
    huber = np.select([np.abs(r) <= 0.5, r > 0.5], [0.5 * r ** 2, 0.5 * r - 0.125],
                      default=-0.5 * r - 0.125)
    picked = np.choose((r > 0.0).astype(int), [r ** 2, np.sin(r)])
    return np.sum(huber * picked)


def grid_energy(x):
    """a field on a meshgrid, rotated and flipped, with a row inserted and one deleted"""
    gx, gy = np.meshgrid(x[:4], x[4:7] ** 2)
    field = np.rot90(gx * gy) + np.flipud(np.fliplr(np.rot90(gx - gy)))
    grown = np.insert(field, 1, x[6:10], axis=1)
    return np.sum(np.delete(grown, [0, 2], axis=0) ** 2) + np.sum(np.block([[gx, gy]]) ** 3)


def masked_data(x):
    """data with holes: nan_to_num passes the gradient where the data is finite"""
    a = x.reshape(2, 3) + HOLES
    return np.sum(np.nan_to_num(a, posinf=1.0, neginf=-1.0) ** 2) \
        + np.sum(np.append(x, np.cumsum(x[:3] ** 2)) ** 2)


def numpy2_scans(x):
    """numpy 2's cumulative_sum / cumulative_prod with the initial value, and unstack"""
    a, b = np.unstack(x.reshape(2, 3))
    return np.sum(np.cumulative_sum(a ** 2, include_initial=True) * np.sin(b[0])) \
        + np.sum(np.cumulative_prod(x.reshape(3, 2), axis=0, include_initial=True) ** 2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, size", [(split_heads, 24), (picked_log_likelihood, 18),
                                     (piecewise_loss, 12), (grid_energy, 10),
                                     (masked_data, 6)])
def test_losses_against_differences(path, f, size):
    check_against_differences(path, f, RNG.uniform(-1.0, 1.0, size))


@pytest.mark.skipif(not hasattr(np, "cumulative_sum"), reason="numpy 2's names")
@pytest.mark.parametrize("path", PATHS)
def test_numpy2_scans_against_differences(path):
    check_against_differences(path, numpy2_scans, RNG.uniform(-1.0, 1.0, 6))


def unpacked_and_indexed(x):
    a, b = np.split(x, 2)
    parts = np.split(x, [1, 2])
    return np.sum(a * b) + np.sum(parts[0] ** 3) + np.sum(np.hsplit(parts[2], 2)[1])


@pytest.mark.parametrize("path", PATHS)
def test_split_results_unpacked_and_indexed(path):
    check_against_differences(path, unpacked_and_indexed, RNG.standard_normal(6))


def unused_pieces(x):
    a, b, c = np.split(x, 3)
    p, q = np.meshgrid(x, x[:2])
    return np.sum(b ** 2) + np.sum(q)


def test_unused_pieces_get_zero_gradient():
    x = RNG.standard_normal(6)
    expected = np.zeros(6)
    expected[2:4] = 2.0 * x[2:4]
    expected[:2] += 6.0         # q's rows are x[:2], each repeated along the 6 columns
    np.testing.assert_allclose(s2s_ad.grad(unused_pieces)(x), expected)


def real_parts(x):
    return np.sum(np.real(x) * np.conj(x)) + np.sum(np.imag(x)) + np.sum(np.degrees(x))


def test_real_imag_conj_on_real_arrays():
    x = RNG.standard_normal(5)
    np.testing.assert_allclose(s2s_ad.grad(real_parts)(x), 2.0 * x + 180.0 / np.pi)


def facts(x, w):
    a = np.take(x, [0, 1, 1], axis=1)
    b = np.column_stack([w, w])
    c = np.block([[x, x], [x, x]])
    p, q = np.meshgrid(w, w[:2], indexing="ij")
    e = np.select([x > 0.0], [x], 1.0)
    f = np.rot90(x)
    g = np.insert(x, 1, w, axis=0)
    h = np.atleast_3d(w)
    r = np.delete(x, 0, axis=1)
    return a, b, c, e, f, g, h, p, q, r


def test_results_shaped_by_their_operands_are_facts():
    kinds = _facts(facts, np.ones((3, 4)), np.ones(4))
    for name in "abcefgpq":
        assert kinds[name] == "float64[n,n]", name
    assert kinds["h"] == "float64[1,n,1]"
    assert kinds["r"] == "any"          # one column fewer: a length 1 when x has 2


def root_or_line(x):
    """sqrt is nan left of 0: np.piecewise never evaluates it there, nor its derivative"""
    return np.sum(np.piecewise(x, [x > 0.0, x < -1.0], [np.sqrt, lambda v: v ** 2 * SCALE,
                                                        lambda v: -v]))


SCALE = 0.5


@pytest.mark.parametrize("path", PATHS)
def test_piecewise_evaluates_each_function_where_it_applies(path):
    x = np.array([-2.0, -1.5, -0.5, 0.25, 1.0, 4.0])
    check_against_differences(path, root_or_line, x)
    expected = [-4.0 * SCALE, -3.0 * SCALE, -1.0, 1.0, 0.5, 0.25]
    np.testing.assert_allclose(s2s_ad.grad(root_or_line)(x), expected)


def scattered(x):
    """np.put_along_axis writes the squares of one column into other places of a copy"""
    a = x.reshape(3, 4)
    y = a * 1.0
    np.put_along_axis(y, np.array([[0], [1], [3]]), a[:, 1:2] ** 2, axis=1)
    return np.sum(np.sin(y) * a)


def written_argument(a):
    np.put_along_axis(a, np.array([[2], [0], [1]]), 0.0, axis=1)
    return np.sum(a ** 3)


@pytest.mark.parametrize("path", PATHS)
def test_put_along_axis_is_an_index_write(path):
    check_against_differences(path, scattered, RNG.standard_normal(12))
    a = RNG.standard_normal((3, 4))
    before = a.copy()
    expected = 3.0 * a ** 2
    expected[[0, 1, 2], [2, 0, 1]] = 0.0
    np.testing.assert_allclose(s2s_ad.grad(written_argument)(a), expected)
    np.testing.assert_array_equal(a, before)        # the caller's array is not written


def five_grids(x):
    grids = np.meshgrid(x, x, x, x, x)
    return np.sum(grids[0])


def choose_into(x):
    out = np.zeros(3)
    return np.sum(np.choose(np.array([0, 1, 0]), [x, 2.0 * x], out))


def piecewise_listed(x):
    functions = [np.sin, np.cos]
    return np.sum(np.piecewise(x, [x > 0.0, x <= 0.0], functions))


def piecewise_two_arguments(x):
    return np.sum(np.piecewise(x, [x > 0.0], [lambda v, w: v * w]))


@pytest.mark.parametrize("f, words", [(five_grids, "at most"), (choose_into, "out"),
                                      (piecewise_listed, "written as a list"),
                                      (piecewise_two_arguments, "takes one argument")])
def test_calls_outside_the_templates_are_located_errors(f, words):
    with pytest.raises(s2s_ad.errors.ADError) as caught:
        s2s_ad.grad(f)(np.ones(3))
    text = str(caught.value)
    assert words in text and "test_pieces.py" in text and "^" in text
