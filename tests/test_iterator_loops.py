"""Loops over what itertools (or filter / map / iter) return: one-pass iterators, with no
len and no indexing. The normalized loop indexes what it iterates, so the iterator's items
are taken as a list first, where the loop names the call and where a name bound to it is
read by the loop. Before, the generated code crashed (`TypeError: object of type
'itertools.combinations' has no len()`), for the usual pairwise energy."""
import itertools

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on


def pair_energy(x):
    e = 0.0
    for i, j in itertools.combinations(range(len(x)), 2):
        e = e + 1.0 / (x[i] - x[j]) ** 2
    return e


def pairs_named_first(x):
    pairs = itertools.combinations(range(len(x)), 2)
    e = 0.0
    for i, j in pairs:
        e += (x[i] - x[j]) ** 2 * x[i]
    return e


def grid_of_products(x):
    e = 0.0
    for i, j in itertools.product(range(2), repeat=2):
        e += x[i] * x[j + 2] ** 2
    return e


def chained_ranges(x):
    e = 0.0
    for k in itertools.chain(range(2), range(3, 4)):
        e += np.sin(x[k]) * x[k]
    return e


def neighbours(x):
    e = 0.0
    for a, b in itertools.pairwise(range(len(x))):
        e += x[a] * x[b] ** 3
    return e


X = np.array([0.1, 1.0, 2.3, 3.1])
PROGRAMS = [pair_energy, pairs_named_first, grid_of_products, chained_ranges, neighbours]


def _differences(f, x, eps=1e-6):
    return np.array([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(len(x))])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_loops_over_itertools_iterators_differentiate(f, path):
    np.testing.assert_allclose(grad_on(path, f)(X), _differences(f, X), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [pair_energy, pairs_named_first], ids=lambda f: f.__name__)
def test_second_order_through_an_iterator_loop(f, path):
    v = np.array([0.3, -1.0, 0.5, 2.0])
    hessian = np.array([_differences(lambda y: s2s_ad.grad(f)(y)[k], X) for k in range(len(X))])
    np.testing.assert_allclose(hvp_on(path, f, (X,), v), hessian @ v, rtol=1e-5, atol=1e-6)


def test_an_iterator_read_by_next_is_not_listed():
    # `next(it)` needs the iterator itself: the name keeps it, and next has no derivative
    # (a located error, not a list that next would reject when the code runs)
    def head_and_rest(x):
        it = iter(x)
        first = next(it)
        return first * 2.0

    with pytest.raises(s2s_ad.MissingDerivativeError, match="next"):
        s2s_ad.grad(head_and_rest)(X)


def consumed_by_two_loops(x):
    it = iter(range(len(x)))
    e = 0.0
    for i in it:
        e = e + x[i] ** 2
        if i >= 1:
            break
    for i in it:        # takes up after the break: items 2, 3
        e = e + 10.0 * x[i] ** 3
    return e


def pairs_by_zip(x):
    it = iter(range(len(x)))
    e = 0.0
    for a, b in zip(it, it):     # (0, 1), (2, 3)
        e = e + x[a] * x[b]
    return e


def made_outside_the_outer_loop(x):
    pairs = itertools.combinations(range(len(x)), 2)
    e = 0.0
    for r in range(2):
        for i, j in pairs:      # exhausted after the first pass
            e = e + x[i] * x[j] * (r + 1)
    return e


def counted_until_break(x):
    e = 0.0
    for i in itertools.count():
        if i >= 3:
            break
        e = e + x[i] ** 3
    return e


@pytest.mark.parametrize("f", [consumed_by_two_loops, pairs_by_zip, made_outside_the_outer_loop],
                         ids=lambda f: f.__name__)
def test_an_iterator_read_again_after_a_pass_is_a_located_error(f):
    # its items as a list would be read again from the start: a wrong gradient before
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="one-pass iterator") as caught:
        s2s_ad.grad(f)(X)
    assert caught.value.lineno is not None and "^" in str(caught.value)


def test_an_endless_iterator_is_a_located_error():
    # listing itertools.count() took all the memory there was
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="endless iterator `itertools.count"):
        s2s_ad.grad(counted_until_break)(X)


def test_an_iterator_made_in_the_loop_that_reads_it_is_listed():
    def fresh_each_pass(x):
        e = 0.0
        for r in range(2):
            pairs = itertools.combinations(range(len(x)), 2)
            e = e + sum(x[i] * x[j] * (r + 1) for i, j in pairs)
        return e

    np.testing.assert_allclose(s2s_ad.grad(fresh_each_pass)(X), _differences(fresh_each_pass, X),
                               rtol=1e-6, atol=1e-8)
