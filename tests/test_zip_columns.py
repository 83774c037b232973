"""`for col in zip(*m)`: the columns of m's rows, as zip makes them (it was the starred-call
error, whose advice, passing the items one by one, did not fit). A 2-D array gives its
columns' numbers, a list of tuples the transposed tuples, as many as the shortest row has
values; loops, comprehensions and unpacking targets alike, grad / jvp / hvp against
central differences on both derivative paths."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on, hvp_on
from gradcheck import numeric_grad

M = np.linspace(-0.9, 1.3, 6).reshape(3, 2)


def column_products(m):
    s = 0.0
    for col in zip(*m):
        s = s + sum(col) * col[0] ** 2
    return s


def column_comprehension(m):
    return sum(c[0] * np.sin(c[-1]) for c in zip(*m))


def unpacked_columns(m):
    s = 0.0
    for a, b, c in zip(*m):
        s = s + a * np.exp(b) - c ** 3
    return s


def columns_of_a_product(m):
    out = [np.tanh(c[1]) * c[0] for c in zip(*(m * m[0, 0]))]
    return np.sum(np.array(out) ** 2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, x", [(column_products, M), (column_products, M.T.copy()),
                                  (column_comprehension, M), (unpacked_columns, M),
                                  (columns_of_a_product, M)],
                         ids=["loop", "loop_wide", "comprehension", "unpacked", "product"])
def test_columns_of_an_array(f, x, path):
    check_against_differences(path, f, x)


def record_columns(x, records):
    s = 0.0
    for col in zip(*records):
        s = s + x * sum(col) + x ** 2 * col[-1]
    return s


def built_records(x):
    rows = [(x, 2.0 * x, x ** 3), (np.sin(x), x, 1.0)]
    return sum(c[0] * c[1] + c[-1] ** 2 for c in zip(*rows))


@pytest.mark.parametrize("path", PATHS)
def test_columns_of_a_list_of_tuples(path):
    """The transposed tuples; rows of unequal lengths give as many as the shortest has."""
    for records in ([(0.5, 1.5), (2.0, -1.0), (0.25, 3.0)], ((1.0, 2.0, 3.0), (4.0, 5.0)),
                    []):
        args = (0.7, records)
        assert record_columns(*args) == pytest.approx(
            sum(0.7 * sum(c) + 0.49 * c[-1] for c in zip(*records)))
        np.testing.assert_allclose(grad_on(path, record_columns)(*args),
                                   numeric_grad(record_columns, args, 0), rtol=1e-6,
                                   atol=1e-9)
    np.testing.assert_allclose(grad_on(path, built_records)(0.4),
                               numeric_grad(built_records, (0.4,), 0), rtol=1e-6)
    np.testing.assert_allclose(hvp_on(path, built_records, (0.4,), 1.0),
                               numeric_grad(s2s_ad.grad(built_records), (0.4,), 0), rtol=1e-5)


def test_records_gradient_has_their_structure():
    records = [(0.5, 1.5), (2.0, -1.0)]
    g = s2s_ad.grad(record_columns, wrt=1)(0.7, records)
    # each value once in sum(col); the last row's again as its column's col[-1]
    np.testing.assert_allclose(g, [(0.7, 0.7), (0.7 + 0.49, 0.7 + 0.49)])
    assert isinstance(g, list) and all(isinstance(r, tuple) for r in g)


def listed_columns(m):
    cols = list(zip(*m))
    return sum(c[0] for c in cols)


def iterated_columns(m):
    cols = [col for col in zip(*m)]
    return sum(c[0] * c[1] for c in cols)


@pytest.mark.parametrize("path", PATHS)
def test_zip_of_a_starred_argument_elsewhere_is_a_located_error_that_fits(path):
    """`list(zip(*m))`: the error points at zip(*m) and says what works (`m.T`, or the
    list made by iterating, which is differentiated), not the starred-call advice."""
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as error:
        grad_on(path, listed_columns)(M)
    message = str(error.value)
    assert "zip(*m)" in message and "^" in message and "m.T" in message
    assert "one by one" not in message
    np.testing.assert_allclose(grad_on(path, iterated_columns)(M),
                               numeric_grad(iterated_columns, (M,), 0), rtol=1e-6)
