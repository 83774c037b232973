"""Issue 14 (found by random programs): a write into an array that a view of it is read
after is a located error, never the old values; copies (numbers read out of a vector,
integer and boolean indexing) differentiate as before. A loop iterates the object its
iterable named before the body rebinds the name, as Python does.

Every function runs on both paths (`both_paths`): specialised, where the facts tell a
view from a number, and general, where a run-time check tells."""
import os

import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import UnsupportedSyntaxError
from test_call_sites_and_structures import _every_mode
from paths import fresh


def row_view_then_write(x):
    v = np.outer(x, x)
    w = v[0]
    v[0] = x * 3.0
    return np.sum(w * x)


def new_axis_view_then_update(x):
    v = x * 2.0
    w = v[:, None]
    v -= x * x
    return np.sum(w * 1.5)


def reversed_view_then_write(x):
    v = x * 2.0
    w = v[::-1]
    v[0] = 7.0
    return np.sum(w * x)


def flipped_then_update(x):
    v = x * 2.0
    w = np.flip(v)
    v *= x
    return np.sum(w * x)


def number_read_then_write(x):
    v = x * 2.0
    w = v[0]
    v[0] = 7.0
    return w * np.sum(v * x)


def integer_index_then_write(x):
    v = x * 2.0
    w = v[[0, 1]]
    v[0] = 7.0
    return np.sum(w * w) * np.sum(v * x)


def mask_then_write(x):
    v = x * 2.0
    w = v[v > 0]
    v[0] = 7.0
    return np.sum(w) * np.sum(v * x)


X = np.array([0.5, 1.5, -2.0])
WRITES = {row_view_then_write: "v[0] = x * 3.0", new_axis_view_then_update: "v -= x * x",
          reversed_view_then_write: "v[0] = 7.0", flipped_then_update: "v *= x"}


@pytest.mark.parametrize("f", list(WRITES), ids=lambda f: f.__name__)
def test_a_write_seen_through_a_view_is_a_located_error(both_paths, f):
    calls = [lambda: s2s_ad.grad(fresh(f))(X), lambda: s2s_ad.vjp(fresh(f))(X, 1.0),
             lambda: s2s_ad.jvp(fresh(f))(X, np.ones(3)),
             lambda: s2s_ad.hvp(fresh(f))(X, np.ones(3))]
    for call in calls:
        with pytest.raises(UnsupportedSyntaxError) as error:
            call()
        text = str(error.value)
        assert "`v` holds the same numpy array as `w`" in text
        assert os.path.basename(__file__) in text and WRITES[f] in text and "^" in text


@pytest.mark.parametrize("f", [number_read_then_write, integer_index_then_write,
                               mask_then_write], ids=lambda f: f.__name__)
def test_copies_read_before_a_write_differentiate(both_paths, f):
    _every_mode(f, (X,))


def test_the_general_derivative_checks_only_where_the_facts_cannot_tell():
    general = s2s_ad.derivative_source(s2s_ad.grad(fresh(number_read_then_write)))
    assert "check_unshared(v, w," in general
    specialised = s2s_ad.derivative_source(s2s_ad.grad(fresh(number_read_then_write)), X)
    assert "check_unshared" not in specialised


# ---- loops whose body rebinds what they iterate ------------------------------------------
def rows_of_the_first_matrix(W):
    s = 0.0
    for row in W:
        W = W * 2.0
        s = s + np.sum(row * W)
    return s


def zipped_then_rebound(x):
    s = 0.0
    for p, q in zip(x, x):
        x = x * p
        s = s + q * np.sum(x)
    return s


def updated_in_place_while_iterated(x):
    v = x * 1.0
    s = 0.0
    for item in v:
        v *= 0.5
        s = s + item * item
    return s


@pytest.mark.parametrize("f, arg", [
    (rows_of_the_first_matrix, np.arange(6.0).reshape(3, 2) / 5),
    (zipped_then_rebound, np.array([0.5, 1.5, -1.0])),
    (updated_in_place_while_iterated, np.array([0.5, 1.5, -1.0]))],
    ids=lambda v: getattr(v, "__name__", ""))
def test_a_loop_iterates_what_its_iterable_was(both_paths, f, arg):
    value, _ = s2s_ad.value_and_grad(fresh(f))(arg)
    assert value == pytest.approx(f(arg), rel=1e-12)
    value, _ = s2s_ad.jvp(fresh(f))(arg, np.ones_like(arg))
    assert value == pytest.approx(f(arg), rel=1e-12)
    _every_mode(f, (arg,))


# ---- gradient types: a number's gradient is a number, an array's an array ---------------
def where_of_numbers(a):
    return np.sum(np.where(a > 0, a, 0.0) ** 2) + a


def rebound_then_untaken(x, a):
    x = x * 2.0
    if a > 10.0:
        return np.sum(x) * a
    return a * a


def test_a_number_through_where_gets_a_number(both_paths):
    for a in (0.7, -0.3):
        for g in (s2s_ad.grad(fresh(where_of_numbers))(a),
                  s2s_ad.vjp(fresh(where_of_numbers))(a, 1.0),
                  s2s_ad.grad(s2s_ad.grad(fresh(where_of_numbers)))(a),
                  s2s_ad.hvp(fresh(where_of_numbers))(a, 1.0)):
            assert not isinstance(g, np.ndarray), type(g)
        assert s2s_ad.grad(fresh(where_of_numbers))(a) == pytest.approx(2 * max(a, 0) + 1)
        assert s2s_ad.grad(s2s_ad.grad(fresh(where_of_numbers)))(a) == (2.0 if a > 0 else 0.0)


def test_an_array_used_only_on_a_branch_not_taken_gets_zeros(both_paths):
    x = np.ones(3)
    for a in (1.0, 11.0):
        g = s2s_ad.grad(fresh(rebound_then_untaken))(x, a)
        assert isinstance(g, np.ndarray) and g.shape == (3,)
        np.testing.assert_allclose(g, 2.0 * a if a > 10 else 0.0)
        g = s2s_ad.vjp(fresh(rebound_then_untaken))(x, a, 1.0)
        assert isinstance(g, np.ndarray) and g.shape == (3,)
        h = s2s_ad.hvp(fresh(rebound_then_untaken))(x, a, np.ones(3))
        assert isinstance(h, np.ndarray) and h.shape == (3,)
        np.testing.assert_allclose(h, 0.0)


def test_the_check_written_into_generated_code_names_the_file_without_its_directory():
    # CLI files are committed and read on other machines: no absolute path in them
    general = s2s_ad.derivative_source(s2s_ad.grad(fresh(number_read_then_write)))
    assert os.path.dirname(os.path.abspath(__file__)) not in general
    assert f'File "{os.path.basename(__file__)}"' in general


# ---- which writes a later read can see (found by random programs, seed 19000023) ---------
def shared_on_the_other_branch(x):
    y = x * 1.0
    if np.sum(x) > 0:
        z = y
    else:
        y *= 2.0                   # z is not y on this path: it is bound below
        z = y + 1.0
    return np.sum(z * z) + np.sum(y)


def rebound_right_after_the_write(x):
    y = x * 1.0
    for i in range(3):
        y *= 2.0                   # z held y, but is bound again before any read
        z = y
    return np.sum(z * z)


def bound_on_some_iterations(x, n):
    y = x * 1.0
    for i in range(n):
        y *= 2.0
        if i % 2 == 0:
            z = y
    return np.sum(z * z)


@pytest.mark.parametrize("f, arg", [
    (shared_on_the_other_branch, np.array([0.5, 1.5, -1.0])),
    (shared_on_the_other_branch, np.array([-0.5, 1.5, -3.0])),
    (rebound_right_after_the_write, np.array([0.5, 1.5, -1.0])),
    (rebound_right_after_the_write, 0.7)],
    ids=lambda v: getattr(v, "__name__", ""))
def test_a_write_no_later_read_sees_differentiates(both_paths, f, arg):
    _every_mode(f, (arg,))


def test_a_check_reads_a_name_a_run_has_not_bound_yet(both_paths):
    # z is first bound after the first write: the run-time check must not read it unbound
    # (the facts of the specialised path prove y an array: an error when it is built)
    x = np.array([0.5, 1.5, -1.0])
    if both_paths == "general":
        assert np.allclose(s2s_ad.grad(fresh(bound_on_some_iterations))(x, 1), 8.0 * x)
    assert s2s_ad.grad(fresh(bound_on_some_iterations))(0.5, 3) == pytest.approx(128 * 0.5)
    with pytest.raises(UnsupportedSyntaxError) as error:
        s2s_ad.grad(fresh(bound_on_some_iterations))(x, 3)
    assert "`y` holds the same numpy array as `z`" in str(error.value)


def stacked_then_written(x):
    w = x * 1.0
    c = np.stack([w for _ in range(2)])     # the comprehension's list holds w
    w[0] = w[0] + np.sum(c * c)
    return np.sum(np.sin(w))


def test_a_list_holding_a_written_array_in_a_derivative_differentiated_again(both_paths):
    """The gradient reads the comprehension's list in its backward sweep, after it has
    restored w: differentiating it again is no aliasing error (seeds 18240009 gradgrad,
    19110011 hvp --wide)."""
    x, v = np.array([0.3, -0.2, 0.5]), np.array([1.0, 0.5, -1.0])
    g = s2s_ad.grad(fresh(stacked_then_written))
    want = (g(x + 1e-5 * v) - g(x - 1e-5 * v)) / 2e-5
    np.testing.assert_allclose(s2s_ad.hvp(fresh(stacked_then_written))(x, v), want,
                               rtol=1e-6, atol=1e-8)
    scaled = lambda a: stacked_then_written(a * x)     # noqa: E731
    twice = s2s_ad.grad(s2s_ad.grad(scaled))(0.4)
    gs = s2s_ad.grad(lambda a: stacked_then_written(a * x))
    assert twice == pytest.approx((gs(0.4 + 1e-5) - gs(0.4 - 1e-5)) / 2e-5, rel=1e-6)
