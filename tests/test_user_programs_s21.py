"""Programs written the way users write them that found wrong gradients or crashes in
session 21, each checked against central differences on both derivative paths.

Lists and tuples passed as arguments: `+` concatenates them and `*` by an integer
repeats them. The specialised derivative knows they are sequences from the call's
kinds (analyses/dataflow.is_sequence_operand); the general one cannot, and refuses with
a located error when the values turn out to be sequences
(transforms/sequence_operands.py), never an elementwise sum's gradient. A list argument
that f appends to gets a list tangent (ad/forward.zero_tangent)."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import grad_on, jvp_on
from gradcheck import numeric_grad

W = np.array([1.0, 2.0, 3.0])


def weighted_concatenation(a, b):
    c = a + b
    return np.sum(np.array(c) * W)


def product_of_joined_tuples(t, u):
    v = t + u
    return v[0] * v[1] * v[2]


def appended_to_list(x, items):
    joined = items + [x, 2.0 * x]
    return np.sum(np.array(joined) ** 2)


def grows_its_argument(x, items):
    items.append(x * x)
    return np.sum(np.array(items) * np.arange(len(items)))


def repeated_then_appended(x, items):
    longer = items * 2
    longer.append(x)
    return np.sum(np.array(longer) ** 2)


def _close(got, expected):
    np.testing.assert_allclose(np.asarray(got, dtype=float), expected, rtol=1e-6, atol=1e-8)


def test_concatenated_list_arguments_specialised():
    # was [6.0], the sum of all three items' adjoints, on both paths
    _close(s2s_ad.grad(weighted_concatenation)([1.5], [1.0, 2.0]), [1.0])
    _close(s2s_ad.grad(weighted_concatenation, wrt=1)([1.5], [1.0, 2.0]), [2.0, 3.0])
    _close(s2s_ad.jvp(weighted_concatenation)([1.5], [1.0, 2.0], [1.0])[1], 1.0)


def test_concatenated_tuple_arguments_specialised():
    g = s2s_ad.grad(product_of_joined_tuples)((1.5,), (1.0, 2.0))    # was (6.5,)
    assert isinstance(g, tuple)
    _close(g, [2.0])
    _close(s2s_ad.grad(product_of_joined_tuples, wrt=1)((1.5,), (1.0, 2.0)), [3.0, 1.5])


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_general_derivative_refuses_a_concatenation_it_cannot_see(path):
    df = grad_on(path, weighted_concatenation)
    if path == "specialised":
        _close(df([1.5], [1.0, 2.0]), [1.0])
        return
    with pytest.raises(s2s_ad.errors.UnsupportedSyntaxError) as info:
        df([1.5], [1.0, 2.0])
    message = str(info.value)
    assert "`+` here concatenates" in message and "test_user_programs_s21.py" in message
    assert "c = a + b" in message and "^" in message
    # arrays stay numpy's arithmetic on the general path: no refusal, right gradient
    _close(df(np.array([1.5, 0.5, 1.0]), np.array([1.0, 2.0, 0.0])), W)


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_list_argument_with_items_appended(path):
    items = [1.0, 2.0]
    expected = numeric_grad(lambda x: appended_to_list(x, items), (1.5,), 0)
    if path == "specialised":
        _close(grad_on(path, appended_to_list)(1.5, items), expected)
        _close(jvp_on(path, appended_to_list, (1.5, items), 1.0)[1], expected)
    else:
        with pytest.raises(s2s_ad.errors.UnsupportedSyntaxError, match="concatenates"):
            grad_on(path, appended_to_list)(1.5, items)


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_jvp_of_an_argument_list_that_f_appends_to(path):
    # the list's tangent was zero_tangent's array: `.append` on it raised AttributeError
    _close(jvp_on(path, grows_its_argument, (1.5, [1.0, 2.0]), 1.0), (6.5, 6.0))
    _close(jvp_on(path, repeated_then_appended, (1.5, [1.0, 2.0]), 1.0), (12.25, 3.0))
    _close(grad_on(path, grows_its_argument)(1.5, [1.0, 2.0]), 6.0)


def sum_twice_over(xs):
    return sum(xs) * 2.0 + np.sum(np.asarray(xs) ** 2)


def sum_and_squares(xs):
    return sum(xs) + sum(v * v for v in xs)


def product_with_the_sum(xs):
    return sum(xs) * xs[0] + max(xs)


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_builtin_sum_of_a_list_argument_with_other_contributions(path):
    # the general derivative added sum()'s list of adjoints to the others with `+`,
    # concatenating them: [1.0, 3.0, -2.0] for [3.0, 5.0, 0.0], silently
    xs = [0.5, 1.5, -1.0]
    for f in (sum_twice_over, sum_and_squares, product_with_the_sum):
        expected = numeric_grad(lambda v: f(list(v)), (np.array(xs),), 0)
        _close(grad_on(path, f)(list(xs)), expected)


def tuple_grown_in_a_loop(x):
    acc = ()
    for i in range(3):
        acc = acc + (x[i] * x[i + 1],)
    return acc[0] * acc[1] + acc[2]


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_hvp_of_a_tuple_grown_in_a_loop(path):
    # the general derivative's check is not made again in its own derivative (whose tape
    # pops look unknown): the Hessian-vector product is right, not refused
    from derivative_paths import hvp_on
    x, v = np.array([0.3, -1.2, 0.8, 0.5]), np.array([1.0, 0.5, -0.3, 0.2])
    first = grad_on(path, tuple_grown_in_a_loop)
    expected = (first(x + 1e-5 * v) - first(x - 1e-5 * v)) / 2e-5
    _close(first(x), numeric_grad(tuple_grown_in_a_loop, (x,), 0))
    np.testing.assert_allclose(hvp_on(path, tuple_grown_in_a_loop, (x,), v), expected,
                               rtol=1e-6, atol=1e-8)


def repeated_argument(xs):
    r = xs * 2
    return r[0] * r[3] + r[1]


def test_list_argument_repeated_by_an_integer():
    # its 2 was made 2.0 beside the differentiated argument: TypeError in the derivative
    xs = [0.5, 1.5]
    expected = numeric_grad(lambda v: repeated_argument(list(v)), (np.array(xs),), 0)
    _close(s2s_ad.grad(repeated_argument)(list(xs)), expected)
    _close(s2s_ad.jvp(repeated_argument)(list(xs), [1.0, -0.5])[1], expected @ [1.0, -0.5])


def copied_dict(d):
    e = d.copy()
    e["a"] = e["a"] * 2.0
    return e["a"] * d["a"] + e["b"]


def copied_list_grown(xs):
    c = xs.copy()
    c.append(xs[0] * 2.0)
    return c[0] * c[2] + c[1]


def copied_list_written(xs):
    c = xs.copy()
    c[0] = c[1] * 3.0
    return c[0] * xs[0] + c[1]


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_copy_method_of_a_dict_or_list_argument(path):
    # `.copy()` is read as np.copy before the receiver's kind is known: a dict's or a
    # grown list's copy failed inside the derivative (IndexError, AttributeError). The
    # general derivative gives a located error; the specialised one, knowing the kind,
    # copies the container (session 22, transforms/container_copies.py); a list copy used
    # as an array stays right
    cases = ((copied_dict, {"a": 0.5, "b": 1.5}, {"a": 2.0, "b": 1.0}),
             (copied_list_grown, [0.5, 1.5], [2.0, 1.0]))
    for f, arg, expected in cases:
        if path == "specialised":
            gradient = grad_on(path, f)(arg)
            assert type(gradient) is type(arg)
            _close(list(gradient.values()) if isinstance(arg, dict) else gradient,
                   list(expected.values()) if isinstance(arg, dict) else expected)
            continue
        with pytest.raises(s2s_ad.errors.UnsupportedSyntaxError) as info:
            grad_on(path, f)(arg)
        assert "`.copy()` here copies a list or dict" in str(info.value)
        assert ".copy()" in str(info.value).split("\n")[2] and "^" in str(info.value)
    _close(grad_on(path, copied_list_written)([0.5, 1.5]), [4.5, 2.5])


def list_rebound_in_a_loop(a, x, M):
    for i in range(2):
        items = []
        items.append(M[0, i])
        held = items
        acc = held * x[::1]
    return acc[1]


@pytest.mark.parametrize("path", ["specialised", "general"])
def test_list_times_an_array_in_a_loop(path):
    # (fuzz seed 21270001) the tangent of a list appended to starts as match_adjoint's
    # zero: `held` is None before the loop, where list(zero_tangent(None)) raised. The
    # general derivative read `held * x[::1]` as a repetition of the list (no derivative
    # flows through x[::1]): a zero gradient; it now checks that the count is an integer
    from derivative_paths import hvp_on
    rng = np.random.default_rng(0)
    x, M, V = rng.standard_normal(3), rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    if path == "general":
        with pytest.raises(s2s_ad.errors.UnsupportedSyntaxError) as info:
            grad_on(path, list_rebound_in_a_loop, wrt=2)(0.5, x, M)
        assert "acc = held * x[::1]" in str(info.value) and "^" in str(info.value)
        return
    expected = np.zeros((3, 3))
    expected[0, 1] = x[1]
    _close(grad_on(path, list_rebound_in_a_loop, wrt=2)(0.5, x, M), expected)
    np.testing.assert_array_equal(
        hvp_on(path, list_rebound_in_a_loop, (0.5, x, M), V, wrt=2), np.zeros((3, 3)))


def rotated(xs):
    r = xs[1:] + xs[:1]
    return r[0] * 1.0 + r[1] * 2.0 + r[2] * 3.0


def test_slices_of_a_list_argument_concatenated():
    # a slice of a list argument is a list (analyses/item_kinds.py): `+` concatenates;
    # it was refused as a concatenation of values of unknown kind
    for xs in ([0.5, 1.5, -2.0], (0.5, 1.5, -2.0)):
        g = s2s_ad.grad(rotated)(xs)
        assert type(g) is type(xs)
        _close(g, [3.0, 1.0, 2.0])
        _close(s2s_ad.jvp(rotated)(xs, type(xs)([1.0, 0.0, 0.5]))[1], 4.0)
