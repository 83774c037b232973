"""Programs the wide fuzzer (`python -m tests.fuzz --wide`) found, cut down by hand, each
run on the specialised and the general derivative (tests/test_fuzz_finds.py holds the
older finds).

- `np.clip(helper(...)[0], lo, hi)` in a Hessian-vector product: the clip's adjoint
  `1.0 * (y == a)` was folded to the comparison alone, a boolean adjoint that the helper's
  forward-over-reverse derivative negated (numpy refuses `-` of booleans).
- grad of grad through `helper(...)[1] @ x` whose gradient is the 0.0 of an unreached
  branch: matmul_adjoint_a gave that 0.0 back, and its own adjoint multiplied the 0.0
  standing for zeros with `@` (matmul refuses a number).
- jvp of `y = x + w; w[0] = ...` (x constant, in a helper or not): y's tangent was w's
  tangent array itself, which the write then changed (a silent wrong tangent).
- np.float32 numbers: np.clip's and np.where's adjoints of the seed are float64 masks;
  the clip's now selects against zeros of its result's dtype, and a float64 number's
  adjoint is narrowed to the np.float32 argument it is the gradient of (as a Python
  float's already was).
- vjp of `w *= b` (w (3, 1), b (1,)) with w overwritten unread afterwards: the 0.0
  standing for w's zero adjoint times b had b's shape (the unbroadcast to w's shape was
  dropped as the shapes agree), which the index writes before it read out of bounds.
- grad of grad through a helper returning (np.swapaxes(q, 0, -1), ...) whose first item
  only drives a loop: its vjp swapped the axes of the 0.0 cotangent the caller passed.
- grad of grad of `w[mask] -= a * (w @ np.cos(w))` then np.tanh(w): the product's operand
  named for the buffer plan (optimize/product_operands.py) was put back into the product
  though the plan had given its buffer to np.tanh (`out=t3_0_operand`, never bound).
"""
import math

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, hvp_on, jvp_on, on_path


def min_of_a_written_copy(q0, q1):
    w = q1.copy()
    w[-2] = np.sum(q0) + 2.0
    return 0.7 - np.min(w * q0), 0.0


def clipped_helper_result(s, x):
    c = np.array([math.sin(s * k + 0.2) for k in range(3)])
    return np.clip(min_of_a_written_copy(0.7 * c, x)[0], -0.61, 0.67) + s ** 3


@pytest.mark.parametrize("path", PATHS)
def test_hvp_through_a_clipped_helper_result(path):
    x = np.full((3, 1), 0.3)
    got = hvp_on(path, clipped_helper_result, (0.4, x), 1.0)
    # the clip is inside its bounds there: the helper's term is linear in c, whose second
    # derivative in s is -0.7 * sum_k k^2 sin(0.4 k + 0.2) * (the min's weight)
    grad = s2s_ad.grad(clipped_helper_result)
    expected = (grad(0.4 + 1e-5, x) - grad(0.4 - 1e-5, x)) / 2e-5
    assert float(got) == pytest.approx(expected, rel=1e-6)
    assert np.asarray(got).dtype == np.float64


def rows_and_differences(q0, q1):
    return q1, np.diff(q1, axis=-1)


def product_read_in_one_branch(a, x):
    y = rows_and_differences(a, x * np.ones((3, 4)))[1] @ x
    if a > 0.3:
        z = x
    else:
        z = y
    return np.sum(z) + a ** 3


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("a", [0.6, 0.1])
def test_grad_of_grad_through_a_product_of_an_unreached_branch(path, a):
    x = np.array([[-0.58], [0.18], [0.187]])
    second = on_path(s2s_ad.grad(s2s_ad.grad(product_read_in_one_branch)), path)(a, x)
    assert second == pytest.approx(6 * a, rel=1e-12)      # f's only term in a is a ** 3


def shifted_then_written(q, x):
    w = q.copy()
    y = x + w
    w[0] = np.sum([w, w])
    return y


def written_after_a_sum_reads_it(a, x):
    w = np.zeros(4)
    w[0] -= a
    return shifted_then_written(w, x) + (x + a * np.ones(4)) * 0.0


def written_after_a_sum_reads_it_inline(a, x):
    w = a * np.ones(4)
    y = x + w
    w[0] = 3.0
    return y


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, expected", [(written_after_a_sum_reads_it, [-1.0, 0.0, 0.0, 0.0]),
                                         (written_after_a_sum_reads_it_inline, [1.0] * 4)])
def test_jvp_of_a_sum_whose_operand_is_written_afterwards(path, f, expected):
    # `y = x + w` with x constant: y's tangent was w's tangent array itself, and the later
    # write `w[0] = ...` changed it
    x = np.array([0.15, -1.07, 0.09, 0.35])
    value, tangent = jvp_on(path, f, (0.3, x), 1.0)
    np.testing.assert_allclose(value, f(0.3, x))
    np.testing.assert_allclose(tangent, expected, rtol=1e-12)


def clipped_float32(x):
    return np.sum(np.clip(x, -0.5, 0.5) * x)


@pytest.mark.parametrize("path", PATHS)
def test_the_gradient_of_a_float32_clip_is_float32(path):
    x = np.array([0.2, -0.9, 0.7, 0.1], dtype=np.float32)
    got = on_path(s2s_ad.grad(clipped_float32), path)(x)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, [0.4, -0.5, 0.5, 0.2], rtol=1e-6)


def same_twice(q0, q1):
    return q0, q0


def float32_number_selected_through_a_helper(a, s):
    u2, u3 = same_twice(same_twice(s, a)[0], a)
    return np.where(s > 0.1, u3, 1.0)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("s, expected", [(0.08, 0.0), (0.3, 1.0)])
def test_a_float32_number_selected_by_where_through_a_helper_keeps_float32(path, s, expected):
    # the where's share of the seed, np.where(c, 1.0, 0.0), is float64; summed with the
    # pair's other (float32) item it made the number's gradient an np.float64
    got = on_path(s2s_ad.grad(float32_number_selected_through_a_helper, wrt=1), path)(
        np.float32(-0.8), np.float32(s))
    assert type(got) is np.float32 and got == expected


def scaled_then_overwritten(s, x, b):
    w = x.copy()
    for i in range(3):
        w[i] -= s
    w *= b
    w = b * x + w[0] * 0.0 * s
    return w


def scaled_then_overwritten_unread(s, x, b):
    w = x.copy()
    for i in range(3):
        w[i] -= s
    w *= b
    w = b * x
    return w


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [scaled_then_overwritten, scaled_then_overwritten_unread])
def test_vjp_through_a_product_whose_adjoint_is_still_zero(path, f):
    # seed 17024057: `w *= b` (w (3, 1), b (1,)) after which w is overwritten unread:
    # w's adjoint is the 0.0 standing for zeros, and its contribution `0.0 * b` kept b's
    # shape (1,) (the unbroadcast to w's shape was dropped as the shapes are equal), so
    # the index writes' take_adjoint indexed it out of bounds
    x = np.array([[1.5], [0.5], [0.2]])
    b = np.array([0.3])
    u = np.array([[0.7], [-1.1], [0.4]])
    vjp = on_path(s2s_ad.vjp(f, wrt=0), path)
    got = vjp(0.47, x, b, u) if path == "specialised" else vjp(s=0.47, x=x, b=b, cotangent=u)
    eps = 1e-6
    expected = np.sum(u * (f(0.47 + eps, x, b) - f(0.47 - eps, x, b))) / (2 * eps)
    assert abs(got - expected) < 1e-7



def swapped_and_rooted(q0):
    return np.swapaxes(q0, 0, -1), np.sqrt(1.0 + 4.0 * q0 * q0)


def first_item_only_iterated(a, x):
    acc = np.zeros(1)
    u, v = swapped_and_rooted((np.cos(x) - a) * np.ones((3, 4)))
    for row in u:                      # u's rows are never read: its adjoint is 0.0
        acc[0] -= np.sum(swapped_and_rooted(acc * v)[1])
    return np.sum(acc) + 0.3 * np.sum(np.tanh(v))


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_grad_through_a_helper_item_whose_cotangent_is_zero(path):
    # seed 17028047 (--wide gradgrad): the helper's vjp, differentiated again, read
    # np.swapaxes(cotangent[0], 0, -1) where its caller passed 0.0 for the first item
    # (a 0.0 has no axes to swap); it is given the item's shape first now
    x = np.array([[0.31], [0.61], [0.15]])
    gradgrad = on_path(s2s_ad.grad(s2s_ad.grad(first_item_only_iterated)), path)
    got = gradgrad(-0.29, x) if path == "specialised" else gradgrad(a=-0.29, x=x)
    first = s2s_ad.grad(first_item_only_iterated)
    eps = 1e-6
    expected = (first(-0.29 + eps, x) - first(-0.29 - eps, x)) / (2 * eps)
    assert abs(got - expected) < 1e-5 * max(1.0, abs(expected))


def masked_write_of_a_dot(a, v):
    w = v * 1.0
    w[[False, False, True, True]] -= a * (w @ np.cos(w))
    return np.sum(np.tanh(w))


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_grad_where_a_product_operand_lends_its_buffer(path):
    # seed 2640 (--wide gradgrad): NameError for t3_0_operand in the generated code
    v = np.array([0.3, -0.2, 0.5, 0.1])
    got = on_path(s2s_ad.grad(s2s_ad.grad(masked_write_of_a_dot)), path)(0.7, v)
    first = s2s_ad.grad(masked_write_of_a_dot)
    eps = 1e-6
    expected = (first(0.7 + eps, v) - first(0.7 - eps, v)) / (2 * eps)
    assert abs(got - expected) < 1e-6 * max(1.0, abs(expected))
