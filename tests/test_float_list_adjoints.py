"""A list or tuple of Python floats differentiated in reverse mode (adjoint_facts
.fixed_float_lists): its adjoint is a list of floats from the start, `x_bar = [0.0] *
len(x)`, added into by item, `x_bar[k] += g`, and returned as it is (a tuple's as
`tuple(x_bar)`), where scatter_add tested and called for each item and match_adjoint
rebuilt the list. Gradients agree with central differences on both derivative paths,
keep the argument's container, and share no memory with it."""
import math

import pytest

import s2s_ad
from derivative_paths import PATHS, on_path


def polynomial_sse(coeffs, xs, ys):
    """Absolute-ish misfit of a polynomial by Horner's rule over its coefficients
    (highest degree first), in a `for` over them."""
    total = 0.0
    for k in range(len(xs)):
        p = 0.0
        for c in coeffs:
            p = p * xs[k] + c
        total = total + math.sqrt(1.0 + (p - ys[k]) ** 2)
    return total


def unpacked_by_index(p, t):
    """Items read one by one outside any loop, the last by a negative index."""
    a = p[0]
    b = p[1]
    return a * math.exp(b * t) + p[-1] ** 2 + 0.5 * p[1] * a


def head_and_rest(p, s):
    """A slice read in a loop (its contribution added item by item) and an item read."""
    total = p[0] * s
    for v in p[1:]:
        total = total + math.sin(v) * s
    return total * p[0]


def on_a_branch(p, x):
    """An item read on one branch only: the other leaves every item's gradient 0.0."""
    if x > 0.0:
        return p[1] * x + p[1] * p[0]
    return x * x


def weighted_sum(p, w):
    """The list and a float differentiated together."""
    total = 0.0
    for k in range(len(p)):
        total = total + w * p[k] * p[k]
    return total * w


def zipped_tanh(ws, xs):
    """The list zipped with another, one item of each per step."""
    s = 0.0
    for w, x in zip(ws, xs):
        s = s + math.tanh(w * x)
    return s


def unpacked(ws, x):
    """The items unpacked into names."""
    a, b, c = ws
    return a * math.exp(b * x) + c


def central(f, args, k, eps=1e-6):
    """Central differences of f in argument k, a list or tuple of floats, item by item
    (each perturbed argument of the same container as the original)."""
    seq = args[k]
    out = []
    for i in range(len(seq)):
        values = []
        for sign in (1.0, -1.0):
            items = list(seq)
            items[i] = items[i] + sign * eps
            moved = list(args)
            moved[k] = type(seq)(items)
            values.append(f(*moved))
        out.append((values[0] - values[1]) / (2 * eps))
    return out


CASES = [
    (polynomial_sse, ([0.4, -1.0, 0.1, 0.6, 0.0], [-0.9, -0.2, 0.3, 0.8],
                      [1.2, 0.6, 0.2, -0.1])),
    (unpacked_by_index, ([0.7, -0.3, 1.1], 0.8)),
    (head_and_rest, ([0.5, 1.0, -0.4, 2.0], 1.5)),
    (on_a_branch, ([0.5, 1.0, -0.4], 1.5)),
    (on_a_branch, ([0.5, 1.0, -0.4], -1.5)),
    (zipped_tanh, ([0.1, 0.2, -0.3], [1.0, 2.0, 3.0])),
    (unpacked, ([0.1, 0.2, -0.3], 1.3)),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("container", [list, tuple])
@pytest.mark.parametrize("f, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradient_of_a_sequence_of_floats(f, args, container, path):
    args = (container(args[0]),) + args[1:]
    g = on_path(s2s_ad.grad(f, wrt=0), path)(*args)
    assert type(g) is container and len(g) == len(args[0])
    assert all(type(v) is float for v in g)
    assert g is not args[0]
    expected = central(f, args, 0)
    for got, want in zip(g, expected):
        assert got == pytest.approx(want, rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("path", PATHS)
def test_a_list_and_a_float_together(path):
    args = ([0.3, -1.2, 0.8], 1.7)
    gp, gw = on_path(s2s_ad.grad(weighted_sum, wrt=(0, 1)), path)(*args)
    assert type(gp) is list and type(gw) is float
    assert gp == pytest.approx(central(weighted_sum, args, 0), rel=1e-6)
    eps = 1e-6
    assert gw == pytest.approx((weighted_sum(args[0], 1.7 + eps)
                                - weighted_sum(args[0], 1.7 - eps)) / (2 * eps), rel=1e-6)


def test_the_adjoint_is_a_list_added_into_by_item():
    args = ([0.4, -1.0, 0.1], [-0.9, 0.3], [1.2, 0.2])
    df = s2s_ad.grad(polynomial_sse, wrt=0)
    df(*args)
    source = s2s_ad.derivative_source(df, *args)
    assert "coeffs_bar = [0.0] * len(coeffs)" in source
    assert any(line.strip().startswith("coeffs_bar[index") and " += " in line
               for line in source.splitlines()), source
    for helper in ("scatter_add", "match_adjoint", "float_gradient"):
        assert helper not in source
    assert source.rstrip().endswith("return coeffs_bar")
    tuple_args = (tuple(args[0]),) + args[1:]
    df(*tuple_args)
    assert s2s_ad.derivative_source(df, *tuple_args).rstrip().endswith(
        "return tuple(coeffs_bar)")


def test_kinds_that_are_not_a_list_of_floats_keep_the_general_adjoint():
    """Items of ints (their gradient made floats), or one that is an array: not this
    rule; the gradients still agree and keep their kinds."""
    ints = ([1, -2, 3], 0.8)
    df = s2s_ad.grad(unpacked_by_index, wrt=0)
    g = df(*ints)
    assert type(g) is list and all(type(v) is float for v in g)
    assert g == pytest.approx(central(unpacked_by_index, ([1.0, -2.0, 3.0], 0.8), 0), rel=1e-6)
    assert "[0.0] * len(p)" not in s2s_ad.derivative_source(df, *ints)
