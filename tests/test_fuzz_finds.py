"""Programs the differential fuzzer (tests/fuzz) found, cut down by hand.

- In-place updates of numbers held in lists: `for r in [number]: r += ...` rebinds r, so
  nothing shares memory and nothing is refused. The specialised derivative knows r is a
  number; the general one checks at run time; an array written through a list item and
  read through the list is still refused.
- `M.T` in the iterable of a loop that rebinds `M` (the loop reads the M bound before it).
- A constant array written in place after the backward sweep of an earlier statement
  reads it (`z = np.sum(y * x); y[1] = 3.0`): its old elements were saved but never
  restored (a silent wrong gradient), or, in a loop, saved without a pop (a crash).
- `y = M.T * 1.0; y[2] = 3.0`: folding `* 1.0` away made y a view of the argument M, and
  the gradient wrote into the caller's array (and came out wrong).
- `s = (x[1] if ... else a); a -= ...` with a float `a`: the update rebinds a number.
- A helper with a loop of its own, inlined in a loop's iterable (`for r in [a, h(x)]`): its
  loop variable became the enclosing loop's (a NameError in generated code).
"""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, on_path, with_vector
from gradcheck import numeric_grad


def numbers_updated_in_place(a, x):
    items = []
    for r in [np.sin(a * x[0]), a * a]:
        r += np.cos(a)
        items.append(r)
    return np.sum(items) + a


def array_item_written_then_list_read(x):
    parts = [x * 1.0, x * 2.0]
    total = 0.0
    for r in parts:
        r *= 3.0
        total = total + np.sum(r)
    return total + np.sum(parts[0])


@pytest.mark.parametrize("path", PATHS)
def test_a_number_item_updated_in_place_is_differentiated(path):
    args = (0.7, np.array([0.3, -0.2, 0.5]))
    got = grad_on(path, numbers_updated_in_place)(*args)
    assert got == pytest.approx(numeric_grad(numbers_updated_in_place, args, 0), rel=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_an_array_item_written_in_place_and_read_through_its_list_is_refused(path):
    x = np.array([0.3, -0.2, 0.5])
    with pytest.raises(s2s_ad.ADError, match="holds the same numpy array"):
        grad_on(path, array_item_written_then_list_read)(x)


def transpose_in_the_iterable_of_a_loop_rebinding_it(a, x, M):
    rows = []
    for r in [x, (np.sum(M.T * M.T, axis=1) if np.sum(x) > 0.0 else x)]:
        M = np.tanh(a * r[:, None] * r[None, :])
        rows.append(r * np.sum(M))
    return a * np.sum(rows)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_a_transpose_in_the_iterable_of_a_loop_that_rebinds_its_array(path, wrt):
    f = transpose_in_the_iterable_of_a_loop_rebinding_it
    args = (0.5, np.array([0.3, -0.2, 0.5]), np.array([[0.2, 0.1, -0.3], [0.4, 0.5, 0.1],
                                                        [-0.2, 0.3, 0.6]]))
    got = grad_on(path, f, wrt)(*args)
    assert np.allclose(got, numeric_grad(f, args, wrt), rtol=1e-6, atol=1e-8)


def constant_written_after_use(x):
    y = np.ones(3)
    z = np.sum(y * x)
    y[1] = 3.0
    return z * np.sum(y * x)


def constant_written_in_a_loop_after_use(x):
    y = np.ones(3)
    z = np.sum(y * x)
    for i in range(2):
        y[i] = 3.0 + i
    return z * np.sum(y * x)


def constant_filled_in_a_loop_then_passed_on(x):
    y = np.zeros(3)
    for i in range(1):
        y[i] = 3.0
    return np.sum(x * x) * scaled_sum(y, x)


def scaled_sum(p, q):
    return q[1] * 0.9 * np.sum(p)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [constant_written_after_use, constant_written_in_a_loop_after_use,
                               constant_filled_in_a_loop_then_passed_on])
def test_a_constant_array_written_in_place_is_restored_for_the_backward_sweep(path, f):
    x = np.array([0.3, -0.2, 0.5])
    assert np.allclose(grad_on(path, f)(x), numeric_grad(f, (x,), 0), rtol=1e-6, atol=1e-8)


def transposed_copy_written(a, x, M):
    y = np.zeros((3, 3))
    if np.sum(x) > 5.0:
        y = x * 2.0
    else:
        y = M.T * 1.0
    y[2] = 3.0
    return a * np.sum(y * M)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("wrt", [0, 2])
def test_a_copy_written_in_place_leaves_the_argument_alone(path, wrt):
    M = np.arange(9.0).reshape(3, 3) / 10.0
    args = (0.5, np.ones(3), M)
    got = grad_on(path, transposed_copy_written, wrt)(*args)
    assert np.array_equal(M, np.arange(9.0).reshape(3, 3) / 10.0)
    assert np.allclose(got, numeric_grad(transposed_copy_written, args, wrt), rtol=1e-6)


def number_updated_after_a_conditional_read(a, x):
    s = (x[1] if np.sum(x) > 0.0 else a)
    a -= np.sum(np.sin(x))
    return a * s + a


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("x", [np.array([0.3, 0.2, 0.5]), np.array([-0.3, 0.2, -0.5])])
def test_a_float_updated_in_place_after_a_conditional_read(path, x):
    args = (0.7, x)
    got = grad_on(path, number_updated_after_a_conditional_read)(*args)
    assert got == pytest.approx(numeric_grad(number_updated_after_a_conditional_read, args, 0),
                                rel=1e-6)


def chosen_then_written(M, x):
    v = M.T @ x
    w = (M * 0.5) @ (v if np.sum(v) < 0.5 else M[0])
    v[2] = 3.0
    return np.sum(w * w)


def chosen_in_a_loop_then_written(M, x):
    total = 0.0
    for k in range(2):
        v = M.T @ x * (k + 1.0)
        w = v if np.sum(v) < 0.5 else M[1]
        v[0] = 1.0
        total = total + np.sum(w * M[k])
    return total


@pytest.mark.parametrize("path", PATHS)
def test_an_array_chosen_by_a_conditional_expression_then_written_and_read_is_refused(path):
    """`w = v if c else u; v[0] = 1.0` then w read: numpy's w sees the write on one path;
    s2s_ad follows values, so this is the located error an assignment `w = v` gets (the
    other branch's rebinding hid the alias: a silent wrong gradient)."""
    M = np.eye(3)
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="holds the same numpy array"):
        grad_on(path, chosen_in_a_loop_then_written)(M, -np.ones(3))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [chosen_then_written])
def test_an_array_written_after_a_conditional_expression_chose_it(path, f):
    """`w = v if c else u` makes w the array v itself; `v[2] = 3.0` after that changes w
    too, so the backward sweep must read w's elements as they were (fuzzer seed 3003214:
    the gradient used the written values)."""
    M = np.array([[0.3, -0.2, 0.5], [0.1, 0.4, -0.3], [0.2, 0.6, 0.1]])
    x = -np.ones(3)
    assert np.allclose(grad_on(path, f)(M, x), numeric_grad(f, (M, x), 0), rtol=1e-6,
                       atol=1e-8)


def argument_rebound_by_a_row_sum_then_unused(a, x, M):
    x = np.sum((M.T - a) + (M[:, 2] + x), axis=1)
    m = M.T * 1.0
    for _ in range(2):
        if np.sum(m) > 100.0:
            return np.sum(x)
    return np.sin(m[1, 1]) ** 2 + a


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_a_number_adjoint_spread_back_over_a_reduced_axis(path, wrt):
    """A row sum whose adjoint is still the scalar zero a loop's adjoint starts as: the
    spread back over the summed axis takes the number as it is (fuzzer seed 3006494:
    AxisError)."""
    args = (0.3, np.array([0.1, -0.2, 0.4]), np.array([[0.3, -0.2, 0.5], [0.1, 0.4, -0.3],
                                                         [0.2, 0.6, 0.1]]))
    got = grad_on(path, argument_rebound_by_a_row_sum_then_unused, wrt)(*args)
    np.testing.assert_allclose(got, numeric_grad(argument_rebound_by_a_row_sum_then_unused,
                                                 args, wrt), rtol=1e-6, atol=1e-8)


def argument_rebound_then_read_on_a_branch_not_taken(a, x, M):
    x = x + (a if 3.0 < 0.5 else M[1, 2])
    return M[:, 1] if np.sum(M[:, 2]) > 0.5 else x


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("mode", ["grad", "vjp"])
def test_an_array_gradient_passed_on_from_a_zero_adjoint_keeps_its_shape(path, mode):
    """x's adjoint is x_1's, which starts as the number 0.0 and stays so when the branch
    reading x_1 is not taken: the gradient is zeros of x's shape (fuzzer seed 3100816: vjp
    returned 0.0)."""
    M = np.array([[0.3, -0.2, 0.5], [0.1, 0.4, 0.3], [0.2, 0.6, 0.1]])
    args = (0.3, np.array([0.1, -0.2, 0.4]), M)
    if mode == "grad":
        def loss(a, x, M):
            return np.sum(argument_rebound_then_read_on_a_branch_not_taken(a, x, M) ** 2)
        got = grad_on(path, loss, 1)(*args)
    else:
        got = with_vector(path, s2s_ad.vjp(argument_rebound_then_read_on_a_branch_not_taken,
                                           wrt=1),
                          argument_rebound_then_read_on_a_branch_not_taken, args, np.ones(3))
    assert isinstance(got, np.ndarray) and got.shape == (3,)
    np.testing.assert_array_equal(got, np.zeros(3))


def dead_reads_of_an_argument_rebound_later(a, x, M):
    v = x / (2.0 + np.cos(x * 1.5))
    if a > 0.5:
        return a + np.mean(M)
    x = x * 1.0 + M[2, 0] * (x - a)
    return np.mean(M.T) * a


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("a", [-0.5, 0.7])
def test_a_dead_statements_check_reads_the_arguments_value_it_read(path, a):
    """x is rebound after a dead statement read it: the check standing in for that
    statement reads x itself, not the operands of x's later value (fuzzer seeds 3102477
    and 3102560: UnboundLocalError in grad and hvp)."""
    args = (a, np.array([0.1, -0.2, 0.4]), np.array([[0.3, -0.2, 0.5], [0.1, 0.4, 0.3],
                                                     [0.2, 0.6, 0.1]]))
    got = grad_on(path, dead_reads_of_an_argument_rebound_later)(*args)
    assert got == pytest.approx(numeric_grad(dead_reads_of_an_argument_rebound_later, args, 0),
                                rel=1e-6)


def _cancelled(product):
    def f(p):
        s = math.sin(product(p[::-1], p))
        return s - s
    return f


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("product", [np.matmul, np.dot, np.inner, np.vdot,
                                     lambda a, b: np.tensordot(a, b, axes=1),
                                     lambda a, b: np.einsum("i,i->", a, b)],
                         ids=["matmul", "dot", "inner", "vdot", "tensordot", "einsum"])
def test_a_product_of_vectors_with_a_zero_cotangent_gives_arrays(path, product):
    """The cotangent of v @ w is a number; when it is 0.0 (here s - s), the operands'
    adjoints are still arrays of their shapes, not the 0.0 that stands for an adjoint no
    loop or branch reached (fuzzer seed 3103662: IndexError writing p_bar[::-1])."""
    f = _cancelled(product)
    p = np.array([0.3, -0.2, 0.5])
    got = grad_on(path, f)(p)
    assert isinstance(got, np.ndarray) and got.shape == (3,)
    np.testing.assert_allclose(got, numeric_grad(f, (p,), 0), rtol=1e-6)


def fresh_array_written_after_an_early_return_test(a, x, M):
    for i in range(2):
        if np.sum(x) > 5.0:
            return a * M[i, 2]
        y = np.zeros((3, 3))
        y[1] = np.cos(x)
        M = y.T
    return np.sum(M * x) * a


def written_before_its_rebinding_in_a_branch(a, x, M):
    y = M.T
    if a > 0.0:
        y[0, 0] = a
        y = np.zeros((3, 3))
    return np.sum(M * x)


def written_after_a_branch_rebinding_it(a, x, M):
    y = M.T
    if a > 0.0:
        y = np.zeros((3, 3))
    y[0, 0] = a
    return np.sum(M * x)


def viewed_again_after_its_rebinding_in_a_branch(a, x, M):
    y = M.T
    if a > 0.0:
        y = np.zeros((3, 3)) + x
        M = y.T
        y[0, 0] = a
    return np.sum(M * x)


@pytest.mark.parametrize("path", PATHS)
def test_a_write_into_an_array_made_anew_earlier_in_its_branch_is_differentiated(path):
    """The early return puts the rest of the loop body in a branch; y is made anew there
    before the write, so M (y.T of the last iteration) does not see it (fuzzer seed
    3103970: falsely refused as a write through a shared array)."""
    args = (0.7, np.array([0.1, -0.2, 0.4]), np.eye(3))
    f = fresh_array_written_after_an_early_return_test
    np.testing.assert_allclose(grad_on(path, f, 1)(*args), numeric_grad(f, args, 1),
                               rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [written_before_its_rebinding_in_a_branch,
                               written_after_a_branch_rebinding_it,
                               viewed_again_after_its_rebinding_in_a_branch])
def test_a_write_the_other_name_may_still_see_is_refused(path, f):
    args = (0.7, np.array([0.1, -0.2, 0.4]), np.eye(3) + 0.5)
    with pytest.raises(s2s_ad.ADError, match="holds the same numpy array"):
        grad_on(path, f, 1)(*args)


def rows_read_then_array_written(a, x, M):
    y = np.zeros((3, 3)) + a
    s = sum([row @ M[:, 1] for row in y])
    y[0] = 0.3
    t = y.T
    u = t[1] * 2.0
    y[1, :] = 5.0
    return s + np.sum(u * x)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("wrt", [0, 1, 2])
def test_views_the_backward_sweep_reads_see_the_old_elements(path, wrt):
    """`for row in y` reads rows of y (views); y[0] = 0.3 after it changes what they
    show: the backward sweep reading the rows sees the elements they held (fuzzer seed
    3108626: a silent wrong gradient); so does a transpose read before a write."""
    args = (0.7, np.array([0.1, -0.2, 0.4]), np.arange(9.0).reshape(3, 3) / 4.0)
    f = rows_read_then_array_written
    np.testing.assert_allclose(grad_on(path, f, wrt)(*args), numeric_grad(f, args, wrt),
                               rtol=1e-6, atol=1e-9)


def returns_early_before_a_counted_loop(a, x, M):
    if np.sum(M) > -0.5:
        if np.sum(x) > 0.5:
            M = np.log(M * M)
        else:
            return np.max(x)
        k = 0
        while k < 3:
            k += 1
    return np.max(M[1, 1] + x + a * a * a)


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_grad_puts_back_a_loop_count_popped_in_a_branch(path):
    """The first-order backward sweep pops the while loop's trip count inside `if not
    returned:`; the count has no adjoint, but the second-order sweep must still put it back
    on the tape, or reversing the forward push pops an empty list (fuzzer seed 3200363)."""
    x, M = np.array([0.31, -0.58, 0.96]), np.arange(9.0).reshape(3, 3) / 5 - 0.5
    f = returns_early_before_a_counted_loop
    first = s2s_ad.grad(f, wrt=0)
    second = on_path(s2s_ad.grad(first, wrt=0), path)(0.4, x, M)
    expected = (first(0.4 + 1e-5, x, M) - first(0.4 - 1e-5, x, M)) / 2e-5
    np.testing.assert_allclose(second, expected, rtol=1e-6)
    assert second == pytest.approx(6 * 0.4)


def argument_rebound_after_loops_then_updated(a, x, M):
    acc1 = 0.0
    for i2 in range(2):
        acc1 = acc1 + (M[1, i2] / (2.0 + np.cos(np.sin(a))))
    acc3 = 0.0
    for i4 in range(3):
        a = np.sqrt(1.0 + ((x[0] + acc3) * (acc1 * 0.5)) * ((x[0] + acc3) * (acc1 * 0.5)))
    a += ((a * acc1) - (acc1 * 3.0))
    return (acc1 * 0.5)


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_grad_keeps_the_start_of_a_sum_added_to_in_place(path):
    """In the second-order sweep an adjoint starts `a_bar_1_bar = t1_8_bar * 3.0` and is
    then added to in place (`a_bar_1_bar += ...`); nothing reads it afterwards, and the
    clean-up dropped the start as unread, keeping the `+=` lines: UnboundLocalError
    (fuzzer seed 3200387). An `x += e` reads x."""
    x, M = np.array([0.45, 0.13, -1.4]), np.arange(6.0).reshape(2, 3) / 5 - 0.5
    f = argument_rebound_after_loops_then_updated
    first = s2s_ad.grad(f, wrt=0)
    second = on_path(s2s_ad.grad(first, wrt=0), path)(-0.5, x, M)
    expected = (first(-0.5 + 1e-5, x, M) - first(-0.5 - 1e-5, x, M)) / 2e-5
    np.testing.assert_allclose(second, expected, rtol=1e-6)


def loop_count_from_an_array(x, M):
    total = 0.0
    for r, s in zip(M, M):
        total = total + 1.0
    return total * x


def test_a_silent_zero_through_a_loop_length_points_at_the_loop():
    """The loop over zip(M, M) runs range(min(len(M), len(M))) times: the error about
    differentiating in M points at that iterable, not at the `def` line (seed 3108787)."""
    with pytest.raises(s2s_ad.NonDifferentiableError) as caught:
        s2s_ad.grad(loop_count_from_an_array, wrt=1)(1.0, np.eye(2))
    message = str(caught.value)
    assert "for r, s in zip(M, M):" in message and "def loop_count" not in message
    lines = message.splitlines()
    source = next(i for i, line in enumerate(lines) if "for r, s in zip(M, M):" in line)
    caret = lines[source + 1]
    assert caret.index("^") == lines[source].index("zip") and caret.count("^") == 9


def returns_from_the_first_item_of_a_list_literal(x, M):
    for r in [x, x * np.trace(M.T)]:
        return np.sum(r)


@pytest.mark.parametrize("path", PATHS)
def test_an_item_nothing_reached_gives_a_number_its_zero(path):
    """The loop returns at its first item, so the second item's adjoint taken off the
    list's is the number 0.0; `np.dot(0.0, x)` for the number np.trace(M.T) gave a vector,
    and spreading it on M's diagonal failed (fuzzer seed 3300747)."""
    M = np.arange(6.0).reshape(2, 3)
    got = grad_on(path, returns_from_the_first_item_of_a_list_literal, 1)(np.ones(3), M)
    assert got.shape == (2, 3) and not np.any(got)


def first_item_returned_second_scaled(x, M):
    for r in [x * 0.3 + x[1], x * np.trace(M.T)]:
        return np.sin(r[2])


@pytest.mark.parametrize("path", PATHS)
def test_an_index_added_into_an_adjoint_that_may_still_be_zero(path):
    """x's adjoint starts as (0.0 taken off the list's) * np.trace(M.T), a number; x[1]'s
    contribution then went into it as `x_bar[1] += ...` (IndexError; seed 3300747, wrt x)."""
    args = (np.array([0.1, -0.3, -0.2]), np.arange(6.0).reshape(2, 3))
    f = first_item_returned_second_scaled
    np.testing.assert_allclose(grad_on(path, f, 0)(*args), numeric_grad(f, args, 0),
                               rtol=1e-6, atol=1e-9)


def returns_an_item_or_the_argument(a, x, M):
    y1 = np.zeros(3)
    return y1[0] if np.sum(M) < 0.5 else x
    y1 -= y1[::1]


@pytest.mark.parametrize("path", PATHS)
def test_a_name_bound_in_both_branches_stays_maybe_a_view(path):
    """`t = y1[0]` on one branch (a possible view: its kind joins a number and an array)
    and `t = x` on the other: the second binding forgot the first may be a view, so the
    later write into y1 was refused as certainly seen through the returned value (fuzzer
    seed 4300824, hvp). It is now checked at run time, where the value is x."""
    args = (0.5, np.array([1.0, -2.0, 3.0]), np.eye(3))
    vjp = on_path(s2s_ad.vjp(returns_an_item_or_the_argument, wrt=1), path)
    w = np.array([0.5, 2.0, -1.0])
    got = vjp(*args, w) if path == "specialised" else vjp(*args, cotangent=w)
    np.testing.assert_allclose(got, w)
    jvp = s2s_ad.jvp(returns_an_item_or_the_argument, wrt=1)
    value, tangent = with_vector(path, jvp, returns_an_item_or_the_argument, args, w)
    np.testing.assert_allclose(tangent, w)


def product_with_an_operand_chosen_by_a_branch(a, x):
    y1 = np.zeros(3)
    for i2 in range(2):
        y1[i2] = a
    return np.tanh(np.dot(y1, x if np.sum(y1) < 0.5 else y1))


def squared_product_with_a_branch_chosen_operand(a, x):
    y1 = np.zeros(3) + a
    t = x if np.sum(y1) < 0.5 else y1
    return np.dot(y1, t) ** 2


@pytest.mark.parametrize("f", [product_with_an_operand_chosen_by_a_branch,
                               squared_product_with_a_branch_chosen_operand],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", [-0.83, 0.9])
def test_grad_of_grad_through_a_product_whose_operand_a_branch_chose(f, a):
    """The branch taking x leaves t's second-order adjoint the shapeless 0.0, and the
    adjoint of dot_adjoint_b read it as np.dot(y1, 0.0), an array where a number belongs:
    a wrong second derivative (fuzzer seed 284, gradgrad) or a crash in float(...)."""
    x = np.array([-0.42, 0.37, 0.97])
    first = s2s_ad.grad(f)
    h = 1e-5
    expected = (first(a + h, x) - first(a - h, x)) / (2 * h)
    assert s2s_ad.grad(first)(a, x) == pytest.approx(expected, rel=1e-6, abs=1e-8)


def trace_of_row_sums(a, x, M):
    m1 = np.sum(np.full((3, 3), a), axis=1, keepdims=True)
    s3 = sum([a for _ in x])
    return np.trace(M * m1) * s3


def test_grad_of_grad_through_a_keepdims_sum():
    """np.sum(..., axis=1, keepdims=True)'s adjoint is written unreduce(g, x, None, False)
    with g already of the kept shape; unreduce's own adjoint summed everything back to a
    number, and grad of grad came out twice the second derivative (fuzzer seed 5600000,
    gradgrad). Here f = 9 trace(M) a**2."""
    x = np.array([1.13, 0.77, 1.01])
    M = np.arange(9.0).reshape(3, 3) / 7.0 - 0.5
    second = s2s_ad.grad(s2s_ad.grad(trace_of_row_sums))(-0.24, x, M)
    assert second == pytest.approx(18.0 * np.trace(M), rel=1e-9)
    assert s2s_ad.hessian(trace_of_row_sums)(-0.24, x, M) == pytest.approx(18.0 * np.trace(M))


def spread_of_a_list(x):
    # max and min of one list: the min's adjoint was added into the list's zeros (an
    # array) and then dropped when the max's went in (general path: the min's
    # contribution vanished)
    vals = [x[0] ** 2, x[1] * 3.0, math.sin(x[2])]
    return max(vals) - min(vals) + max(x[0], x[1], 0.1)


@pytest.mark.parametrize("path", PATHS)
def test_max_and_min_of_one_list(path):
    x = np.array([0.7, 0.2, 1.1])
    np.testing.assert_allclose(grad_on(path, spread_of_a_list)(x),
                               [2 * 0.7 * -1.0 + 1.0, 0.0, math.cos(1.1)], rtol=1e-12)


# -- found by the wide generator (tests/fuzz/shaped_program.py) ----------------------------

def scaled_float32_number(a, x):
    return a * 2.0 + np.sum(np.sin(x))


def float32_number_through_math(a, x):
    return math.sin(a) + np.sum(x)


def float32_number_unused(a, x):
    return np.max(x, axis=-1)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, expected", [(scaled_float32_number, 2.0),
                                         (float32_number_through_math, math.cos(0.5)),
                                         (float32_number_unused, 0.0)])
def test_the_gradient_of_an_np_float32_number_is_float32(path, f, expected):
    # the forward-mode gradient of number code folded the direction to the Python 1.0
    # (`a * 2.0` gave the float 2.0), and a zero gradient was the float 0.0
    args = (np.float32(0.5), np.linspace(-1.0, 1.0, 3).astype(np.float32))
    gradient = grad_on(path, f)(*args)
    assert type(gradient) is np.float32
    assert gradient == pytest.approx(expected, rel=1e-6)
    cotangent = on_path(s2s_ad.vjp(f, wrt=0), path)(*args, np.float32(1.0))
    assert type(cotangent) is np.float32
    assert cotangent == pytest.approx(expected, rel=1e-6)


def float32_sum_added_in_a_while_loop(a, pair):
    total = 0.5
    k = 0
    while k < 3:
        total += np.sum(pair[0])
        k += 1
    return total + np.sum(pair[1])


@pytest.mark.parametrize("path", PATHS)
def test_a_float32_value_a_loop_tapes_for_its_shape_keeps_its_dtype(path):
    # the tape kept only the shape of pair[0] (the backward sweep reads it to spread the
    # sum's adjoint) and restored a float64 stand-in: the gradient came out float64
    pair = (np.linspace(0.1, 0.3, 3).astype(np.float32), np.ones((3, 4), np.float32))
    gradient = grad_on(path, float32_sum_added_in_a_while_loop, wrt=1)(np.float32(0.5), pair)
    assert [g.dtype for g in gradient] == [np.float32, np.float32]
    np.testing.assert_allclose(gradient[0], np.full(3, 3.0))
    np.testing.assert_allclose(gradient[1], np.ones((3, 4)))


def loop_sum_scales_an_element(a, x):
    s = 0.0
    for k in range(3):
        s = s + np.sin(a * k)
    w = x * 1.0
    w[0] = w[0] * s
    return w[0]


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_grad_through_a_loop_and_an_element_write(path):
    # the gradient saves w[0] on its tape before the write (`_tape.append(np.copy(w[0]))`);
    # differentiated again in a only, that saved value's adjoint `pop_adjoint(_tape_bar)`
    # was dead code and removed, so each pop_adjoint of the loop's values read the entry
    # pushed for another one: grad of grad missed all but one iteration's term
    x = np.array([0.5, -0.3, 0.8])
    second = on_path(s2s_ad.grad(s2s_ad.grad(loop_sum_scales_an_element)), path)(0.7, x)
    expected = -x[0] * sum(k * k * math.sin(0.7 * k) for k in range(3))
    assert second == pytest.approx(expected, rel=1e-9)


def flipped_and_number(q):
    return np.flip(q, axis=0), math.cos(2.0)


def reads_only_the_number_of_a_helpers_pair(a, x):
    acc = 0.0
    for r in x:
        acc = acc + a
    c = np.stack([np.log(1.0 + flipped_and_number(acc * np.ones(3))[1] ** 2) for r in x])
    return math.atan(acc * acc) + np.sum(np.tanh(c))


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_grad_of_a_helper_pair_read_by_index(path):
    # the pair's adjoint was the scalar zero where nothing reached its array: the helper's
    # vjp, specialised on the array, crashed on np.flip(0.0, 0)
    x = np.array([0.5, -0.3, 0.8])
    second = on_path(s2s_ad.grad(s2s_ad.grad(reads_only_the_number_of_a_helpers_pair)),
                     path)(0.7, x)
    u = 3 * 0.7                      # f = atan(u * u) + const, u = 3a
    expected = 9 * (2 - 6 * u ** 4) / (1 + u ** 4) ** 2
    assert second == pytest.approx(expected, rel=1e-7)


def _scaled_with_a_loop(p0, p1):
    p1 *= p0
    for i in range(2):
        p0 = p0 * 1.5
    return p0


def helper_with_a_loop_in_an_iterable(a, x):
    s = 0.0
    for r in [a, _scaled_with_a_loop(x, 0.0)]:
        s = s + np.sum(np.sin(r))
    return s


@pytest.mark.parametrize("path", PATHS)
def test_a_helper_with_a_loop_inlined_in_a_loops_iterable(path):
    """The inlined helper's own loop left its variable as the enclosing loop's (`for i in
    ...: r = items[index]`: a NameError in generated code, seed 2250 of the general fuzz)."""
    args = (0.4, np.array([0.3, -0.2, 0.7]))
    np.testing.assert_allclose(grad_on(path, helper_with_a_loop_in_an_iterable, wrt=1)(*args),
                               numeric_grad(helper_with_a_loop_in_an_iterable, args, 1),
                               rtol=1e-6, atol=1e-9)
