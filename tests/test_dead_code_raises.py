"""The derivative raises where f raises, also when the statement that raises computes a
value the derivative does not need (dead-code elimination keeps it, or a check of the
same condition). Every mode, both the specialised and the general derivative."""
import numpy as np
import pytest

import s2s_ad
from paths import fresh


def out_of_range(x):
    y = x * 2.0
    z = y[5]
    return np.sum(x * x)


def shapes_that_do_not_broadcast(x, w):
    unused = x + w
    return np.sum(x * x)


def matmul_mismatch(x, w):
    unused = x @ w
    return np.sum(x * x)


def singular_call(x, w):
    unused = np.linalg.inv(w)
    return np.sum(x * x)


def tuple_out_of_range(x, items):
    k = items[3]
    return x * x


def product_of_arguments(a, b):
    return np.sum(a * b)        # used, but the gradient needs only a and b


CASES = [
    (out_of_range, (np.ones(3),), IndexError),
    (shapes_that_do_not_broadcast, (np.ones(3), np.ones(2)), ValueError),
    (matmul_mismatch, (np.ones((2, 3)), np.ones(2)), ValueError),
    (singular_call, (np.ones(3), np.zeros((2, 2))), np.linalg.LinAlgError),
    (tuple_out_of_range, (2.0, (1.0, 2.0)), IndexError),
    (product_of_arguments, (np.ones(3), np.ones(2)), ValueError),
]


@pytest.mark.parametrize("fn, args, error", CASES, ids=[c[0].__name__ for c in CASES])
@pytest.mark.parametrize("mode", ["grad", "value_and_grad", "jvp", "hvp"])
def test_the_derivative_raises_where_f_raises(both_paths, fn, args, error, mode):
    with pytest.raises(error):
        fn(*args)
    derivative = getattr(s2s_ad, mode)(fresh(fn))
    call = args if mode in ("grad", "value_and_grad") else args + (args[0],)
    with pytest.raises(error):
        derivative(*call)


def test_the_check_costs_nothing_for_numbers():
    # a Python-number derivative has no check: numbers always broadcast
    def f(x, y):
        unused = x + y
        return x * y
    source = s2s_ad.derivative_source(s2s_ad.grad(f), 1.0, 2.0)
    assert "check_broadcast" not in source
    assert s2s_ad.grad(f)(1.0, 2.0) == 2.0


def test_dead_code_that_does_not_raise_is_still_dropped():
    def f(x):
        unused = np.exp(x) * 2.0       # a number times an array: cannot raise
        return np.sum(x * x)
    source = s2s_ad.derivative_source(s2s_ad.grad(f), np.ones(3))
    assert "np.exp" not in source and "check_" not in source


def matmul_of(a, b):
    return np.matmul(a, b)


def weighted_product(a, b):
    return np.sum(matmul_of(a, b) * np.linspace(-1.0, 1.0, 15).reshape(3, 5))


def test_a_dropped_np_matmul_is_checked_as_a_product_not_as_broadcasting(both_paths):
    # the cotangent function of matmul_of needs a and b, not their product: the product
    # it drops was checked with check_broadcast(a, b), which (3, 4) and (4, 5) fail
    a = np.arange(12.0).reshape(3, 4) / 10.0
    b = np.arange(20.0).reshape(4, 5) / 10.0
    v = np.ones((3, 4))
    np.testing.assert_allclose(s2s_ad.hvp(weighted_product)(a, b, v), np.zeros((3, 4)))
    mixed = s2s_ad.hvp(weighted_product, wrt=(0, 1))(a, b, (v, np.ones((4, 5))))
    u = np.linspace(-1.0, 1.0, 15).reshape(3, 5)
    np.testing.assert_allclose(mixed[0], u @ np.ones((4, 5)).T)
    np.testing.assert_allclose(mixed[1], v.T @ u)
    with pytest.raises(ValueError):
        s2s_ad.hvp(weighted_product)(a, b[:3], v)


# Statements whose values reach f's output, that the derivative does not need, with
# operands f computes (not its arguments)
def product_of_intermediates(x, w):
    y = x * 2.0
    z = y * w
    return np.sum(z)


def sum_of_intermediates(x, w):
    y = x + 1.0
    v = np.tanh(w)
    return np.sum(y - v)


def sum_through_a_ufunc(x, w):
    y = x * 2.0
    v = w * 2.0
    return np.sum(np.add(y, v))


def also_read_elsewhere(x, w):
    y = x * 2.0
    v = w * 2.0
    u = y + v
    return np.sum(u) + np.sum(y * y)


def inverse_the_derivative_does_not_follow(x, A):
    B = A + 0.0
    c = np.linalg.inv(B)
    return np.sum(x * x) + np.sum(c * 0.0)


def product_of_intermediates_in_a_loop(x, w):
    total = 0.0
    for k in range(2):
        y = x * float(k)
        total = total + np.sum(y + w)
    return total


INTERMEDIATE_CASES = [
    (product_of_intermediates, (np.ones(3), np.ones(2)), ValueError),
    (sum_of_intermediates, (np.ones(3), np.ones(2)), ValueError),
    (sum_through_a_ufunc, (np.ones(3), np.ones(2)), ValueError),
    (also_read_elsewhere, (np.ones(3), np.ones(2)), ValueError),
    (inverse_the_derivative_does_not_follow, (np.ones(2), np.zeros((2, 2))),
     np.linalg.LinAlgError),
    (product_of_intermediates_in_a_loop, (np.ones(3), np.ones(2)), ValueError),
]


@pytest.mark.parametrize("fn, args, error", INTERMEDIATE_CASES,
                         ids=[c[0].__name__ for c in INTERMEDIATE_CASES])
@pytest.mark.parametrize("mode", ["grad", "value_and_grad", "vjp", "jvp", "hvp"])
def test_the_derivative_raises_where_a_statement_on_intermediates_raises(both_paths, fn, args,
                                                                         error, mode):
    with pytest.raises(error):
        fn(*args)
    derivative = getattr(s2s_ad, mode)(fresh(fn))
    call = args if mode in ("grad", "value_and_grad") else args + (
        1.0 if mode == "vjp" else args[0],)
    with pytest.raises(error):
        derivative(*call)


def test_a_check_on_intermediates_reads_the_arguments_their_shapes_come_from(both_paths):
    # y and v are made elementwise from x and w: the check reads x and w, and the
    # derivative computes neither y, v nor their sum
    def f(x, w):
        y = x * 2.0
        v = np.exp(w)
        return np.sum(y + v)
    source = _code(s2s_ad.derivative_source(s2s_ad.grad(fresh(f)), np.ones(3), np.ones(3)))
    if both_paths == "specialised":
        # (the general derivative spreads the sum's seed over y + v's shape, so it
        # computes y + v, which raises where f does by itself)
        assert "check_broadcast(x, w)" in source
        assert "np.exp" not in source and "x * 2.0" not in source
    np.testing.assert_allclose(s2s_ad.grad(fresh(f))(np.ones(3), np.ones(3)), 2.0 * np.ones(3))


def test_numbers_made_by_reductions_and_lengths_need_no_check(both_paths):
    # the mean's number and the length always broadcast: the loop accumulating the loss
    # (which the gradient does not need) is not kept for a check
    def f(x):
        loss = 0.0
        for k in range(3):
            loss = loss + np.mean(np.sin(x * float(k)))
        return loss / x.shape[0]
    source = _code(s2s_ad.derivative_source(s2s_ad.grad(fresh(f)), np.ones(3)))
    assert "check_broadcast" not in source and "np.mean" not in source


def _code(source):
    """The generated lines without their comments."""
    return "\n".join(line for line in source.splitlines() if not line.strip().startswith("#"))


def product_with_an_operand_made_from_the_other(a, x):
    v = np.sin(x) - a * a
    v[2] = 0.9
    return v @ x


def test_a_product_check_takes_both_operands_from_one_source(both_paths):
    """v @ x with v made from x elementwise: the check stands for the product of x with
    x, two operands (fuzzer seed 4100346: hvp called check_matmul(x))."""
    x = np.array([0.3, -0.4, 0.8])
    v = s2s_ad.hvp(fresh(product_with_an_operand_made_from_the_other), wrt=1)(0.5, x, x)
    g = s2s_ad.grad(fresh(product_with_an_operand_made_from_the_other), wrt=1)
    h = 1e-6
    expected = (g(0.5, x + h * x) - g(0.5, x - h * x)) / (2 * h)
    np.testing.assert_allclose(v, expected, rtol=1e-5, atol=1e-8)


def unused_sum_in_a_loop(x, w, v):
    total = 0.0
    for row in x:
        unused = row + v
        total = total + np.sum(row * w)
    return total


def test_a_dead_statement_in_a_loop_stands_as_its_check(both_paths):
    # inside a loop the unneeded `unused = row + v` stayed whole (the derivative computed
    # it and never read it: an unused local pyflakes flags in a written file); its check
    # stands in its place, as outside loops
    import ast

    from pyflakes import checker, messages
    x, w, v = np.ones((3, 4)), np.linspace(0.5, 1.5, 4), np.ones(4)
    derivative = s2s_ad.grad(fresh(unused_sum_in_a_loop), wrt=(1,))
    source = s2s_ad.derivative_source(derivative, x, w, v)
    assert "unused =" not in source and "check_broadcast" in source
    found = checker.Checker(ast.parse(source)).messages
    assert not [m for m in found if isinstance(m, messages.UnusedVariable)], found
    assert np.allclose(derivative(x, w, v), np.sum(x, axis=0))
    with pytest.raises(ValueError):
        unused_sum_in_a_loop(x, w, np.ones(3))
    with pytest.raises(ValueError):
        derivative(x, w, np.ones(3))


def quadratic_form_of_rows(P, X):
    return 0.5 * np.sum((X @ P) * X)


@pytest.mark.parametrize("P, X", [(np.ones((3, 3)), np.ones((4, 2))),    # X @ P raises
                                  (np.ones((3, 2)), np.ones((4, 3)))],   # (4, 2) * (4, 3)
                         ids=["product", "broadcast"])
def test_a_product_only_a_check_reads_is_not_computed(both_paths, P, X):
    """`np.sum((X @ P) * X)`'s gradient in P is X^T (0.5 X): the product's value is read by
    the broadcasting check alone, which reads `product_like(X, P)` (its shape, nothing
    multiplied) instead, and still raises where f does."""
    rng = np.random.default_rng(3)
    P0, X0 = rng.standard_normal((3, 3)), rng.standard_normal((5, 3))
    derivative = s2s_ad.grad(fresh(quadratic_form_of_rows))
    if both_paths == "specialised":
        source = _code(s2s_ad.derivative_source(derivative, P0, X0))
        assert "X @ P" not in source and "product_like(X, P)" in source, source
    np.testing.assert_allclose(derivative(P0, X0), 0.5 * X0.T @ X0, rtol=1e-12)
    for fn in (quadratic_form_of_rows, derivative):
        with pytest.raises(ValueError):
            fn(P, X)
