"""`xs, ys = zip(*rows)` raises where Python raises (it gave a gradient before): rows of 3
values unpacked into 2 names, no rows at all. From the facts (a literal, a tuple or list
argument's kinds) a located error when the derivative is built; else the generated code
checks and raises Python's ValueError. Where the facts prove the unpacking right, the
generated code has no check, or one reading the number of rows only."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, jvp_on
from gradcheck import numeric_grad

X = np.array([0.3, -0.7, 1.2])


def three_into_two(x):
    a, b = zip(*[(x[0], x[1], x[2])])
    return a[0]


def pairs_times(x, pairs):
    xs, ys = zip(*pairs)
    return np.sum(x) * len(xs) + sum(ys)


def rows_into_two(x, M):
    a, b = zip(*(M * x[0]))
    return np.sum(np.array(a) * np.array(b))


def python_error(f, *args):
    with pytest.raises(ValueError) as error:
        f(*args)
    return str(error.value)


@pytest.mark.parametrize("f, args", [
    (three_into_two, (X,)),
    (pairs_times, (X, [])),
    (pairs_times, (X, [(1.0,), (2.0,)])),
    (pairs_times, (X, ((1.0, 2.0, 3.0),) * 4)),
], ids=["literal_3_into_2", "no_rows", "rows_of_1", "tuple_of_triples"])
def test_facts_certain_to_fail_give_a_located_error(f, args, monkeypatch):
    """The specialised derivative is not built (a located error, shown with
    S2S_AD_STRICT_PASSES=1, as in the tests); a user's call raises Python's ValueError,
    from the general derivative's run-time check."""
    expected = python_error(f, *args)
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as error:
        s2s_ad.grad(f)(*args)
    message = str(error.value)
    assert "zip(*" in message and "^" in message and "raises ValueError" in message
    assert f.__code__.co_filename in message or "test_unzip_counts.py" in message
    if "got" in expected:
        assert expected.split(": ")[-1] in message or "other than 2" in message
    monkeypatch.delenv("S2S_AD_STRICT_PASSES")
    for path in PATHS:
        with pytest.raises(ValueError) as raised:
            grad_on(path, f)(*args)
        assert str(raised.value) == expected


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("M", [np.ones((3, 3)), np.ones((3, 1)), np.ones((0, 2)),
                               np.ones((1, 5))], ids=["3x3", "3x1", "0x2", "1x5"])
def test_rows_of_an_array_checked_when_it_runs(M, path):
    """An array's columns are not a fact (its kind holds rank and length-1 axes): the
    check runs, and raises what Python raises."""
    expected = python_error(rows_into_two, X, M)
    with pytest.raises(ValueError) as raised:
        grad_on(path, rows_into_two)(X, M)
    assert str(raised.value) == expected


@pytest.mark.parametrize("path", PATHS)
def test_rows_of_unequal_lengths_unzip_as_python_does(path):
    """zip stops at the shortest row: rows of 3 and 2 values give 2 columns."""
    rows = [(1.0, 2.0, 3.0), (4.0, 5.0)]
    assert pairs_times(X, rows) == np.sum(X) * 2 + 7.0
    np.testing.assert_allclose(grad_on(path, pairs_times)(X, rows), np.full(3, 2.0))


def scaled_pairs(x, pairs):
    xs, ys = zip(*pairs)
    return x * sum(xs) + x ** 2 * sum(ys)


def literal_pairs(x):
    xs, ys = zip(*[(x, 2.0 * x), (x ** 2, 1.0)])
    return sum(xs) * sum(ys)


@pytest.mark.parametrize("path", PATHS)
def test_right_unpackings_keep_their_derivatives(path):
    pairs = tuple((0.1 * i, 0.2 * i - 1.0) for i in range(6))
    for f, args in ((scaled_pairs, (0.7, pairs)), (literal_pairs, (0.7,))):
        np.testing.assert_allclose(grad_on(path, f)(*args), numeric_grad(f, args, 0),
                                   rtol=1e-6)
        _, tangent = jvp_on(path, f, args, 1.0)
        np.testing.assert_allclose(tangent, numeric_grad(f, args, 0), rtol=1e-6)


def test_facts_that_prove_it_right_leave_no_per_row_check():
    """A tuple of pairs of floats (any number of them): only the number of rows is read;
    a literal of two pairs: no check. A list whose items' lengths are not facts: the
    check over the rows."""
    pairs = tuple((0.1 * i, 0.2 * i) for i in range(30))
    source = s2s_ad.derivative_source(s2s_ad.grad(scaled_pairs), 0.7, pairs)
    assert "check_unzipped(pairs, 2, 2)" in source
    assert "check_unzipped" not in s2s_ad.derivative_source(s2s_ad.grad(literal_pairs), 0.7)
    rows = [[0.1, 0.2], [0.3, 0.4]]
    source = s2s_ad.derivative_source(s2s_ad.grad(scaled_pairs), 0.7, rows)
    assert "check_unzipped(pairs, 2)" in source
