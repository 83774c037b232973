"""Writes that change an array f reads later, made where f cannot see them by its names:
by a helper writing into a module-level array (`def bump(): X[:] = X + 1`, `X.fill(v)`,
`np.add(X, 1, out=X)`, two calls deep), and by a helper writing into the array f passes
it (`fill_in(buf)`), which an operation computed before the write must not stand for
after it. Each gave a wrong gradient on both paths: the helper ran as an opaque call, or
`X * w` after the write reused the value computed before it."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import UnsupportedSyntaxError
from gradcheck import numeric_grad
from paths import fresh

X = np.linspace(0.1, 1.0, 5)
_X0 = X.copy()


def _bump_by_index():
    X[:] = X + 1.0


def _bump_by_fill():
    X.fill(0.5)


def _bump_by_out():
    np.add(X, 1.0, out=X)


def _bump_slice():
    X[1:3] *= 2.0


def _bump_two_deep():
    _bump_slice()




def _by_index(w):
    a = np.sum(np.sin(X * w))
    _bump_by_index()
    return a + np.sum(np.cos(X * w))


def _by_fill(w):
    a = np.sum(np.sin(X * w))
    _bump_by_fill()
    return a + np.sum(np.cos(X * w))


def _by_out(w):
    a = np.sum(np.sin(X * w))
    _bump_by_out()
    return a + np.sum(np.cos(X * w))


def _two_deep(w):
    a = np.sum(np.sin(X * w))
    _bump_two_deep()
    return a + np.sum(np.cos(X * w))


def _central(f, w, h=1e-6):
    X[:] = _X0
    up = f(w + h)
    X[:] = _X0
    down = f(w - h)
    X[:] = _X0
    return (up - down) / (2 * h)


@pytest.mark.parametrize("f", [_by_index, _by_fill, _by_out, _two_deep],
                         ids=["index", "fill", "out", "two-deep"])
def test_a_helper_writing_into_a_module_array(both_paths, f):
    want = _central(f, 0.7)
    try:
        got = s2s_ad.grad(fresh(f))(0.7)
    finally:
        X[:] = _X0
    assert got == pytest.approx(want, rel=1e-6, abs=1e-8)


def _add_one(a):
    a[:] = a + 1.0


def _local_copy_filled_by_a_helper(w, Y):
    Y = Y.copy()
    a = np.sum(np.sin(Y * w))
    _add_one(Y)                         # Y * w below is another value than above
    return a + np.sum(np.cos(Y * w))


def _local_buffer_filled_twice(w, Y):
    buf = np.zeros_like(Y)
    buf[:] = Y * w
    first = np.sum(buf * buf)
    _add_one(buf)
    return first + np.sum(np.tanh(buf * w))


@pytest.mark.parametrize("f", [_local_copy_filled_by_a_helper, _local_buffer_filled_twice])
def test_a_value_computed_before_a_helper_write_is_not_reused_after_it(both_paths, f):
    Y = np.array([0.5, 0.2, 0.9, 0.1])
    h = 1e-6
    want = (f(0.7 + h, Y) - f(0.7 - h, Y)) / (2 * h)
    assert s2s_ad.grad(fresh(f))(0.7, Y) == pytest.approx(want, rel=1e-6)
    np.testing.assert_array_equal(Y, [0.5, 0.2, 0.9, 0.1])


def _dict_of_parameters_updated_in_place(W, X):
    params = {"W": W}
    for _ in range(3):
        g = X.T @ (X @ params["W"])
        params["W"] -= 0.1 * g          # numpy writes into W itself
    return np.sum(params["W"] ** 2) + np.sum(W ** 2)


def _list_item_written_by_index(w, Y):
    Z = Y * w
    parts = [Z, Z * 2.0]
    s = np.sum(parts[0] ** 2)
    parts[0][1, 1] = 5.0 * w            # writes into Z
    return s + np.sum(Z ** 2)


def _dict_filled_then_updated(w, Y):
    Z = Y * w
    d = {}
    d["z"] = Z
    d["z"] += 1.0                       # writes into Z
    return np.sum(Z ** 2)


def _repeated_list_updated(w, Y):
    Z = Y * w
    lst = [Z] * 2
    lst[1] *= 2.0                       # lst[0] is the same array
    return np.sum(lst[0] ** 2)


@pytest.mark.parametrize("f, args", [
    (_dict_filled_then_updated, (0.7, np.array([[0.5, 0.2, 0.9], [0.1, 0.4, 0.3]]))),
    (_repeated_list_updated, (0.7, np.array([[0.5, 0.2, 0.9], [0.1, 0.4, 0.3]]))),
    (_dict_of_parameters_updated_in_place, (np.array([0.3, -0.2, 0.5]),
                                            np.linspace(-1.0, 1.0, 12).reshape(4, 3))),
    (_list_item_written_by_index, (0.7, np.array([[0.5, 0.2, 0.9], [0.1, 0.4, 0.3]]))),
], ids=["dict-filled", "repeated-list", "dict", "list"])
def test_an_update_of_an_array_a_container_holds_is_refused(both_paths, f, args):
    # `c[k] op= v` and `c[k][j] = v` write into the array c[k] holds, another name's too:
    # refused where it is read after the write (a located error), never a wrong gradient
    with pytest.raises(UnsupportedSyntaxError, match="holds the same numpy array"):
        s2s_ad.grad(fresh(f))(*args)


def _dict_of_copies_updated_in_place(W, X):
    params = {"W": W * 1.0, "b": 0.5}
    for _ in range(3):
        g = X.T @ (X @ params["W"] + params["b"])
        params["W"] -= 0.1 * g
        params["b"] -= 0.05 * float(np.sum(g))
    return np.sum(params["W"] ** 2) + params["b"] ** 2


def _matrix_row_updated(w, Y):
    M = Y * w
    M[0] += M[1] * w                    # an array's own item: follows values right
    M[1][2] = w ** 2
    return np.sum(np.sin(M))


@pytest.mark.parametrize("f, args", [
    (_dict_of_copies_updated_in_place, (np.array([0.3, -0.2, 0.5]),
                                        np.linspace(-1.0, 1.0, 12).reshape(4, 3))),
    (_matrix_row_updated, (0.7, np.array([[0.5, 0.2, 0.9], [0.1, 0.4, 0.3]]))),
], ids=["dict-of-copies", "matrix"])
def test_item_updates_nothing_else_holds_are_differentiated(both_paths, f, args):
    got = s2s_ad.grad(fresh(f))(*args)
    np.testing.assert_allclose(got, numeric_grad(f, args, 0), rtol=1e-6, atol=1e-8)


class _Momentum:
    def __init__(self, lr, beta=0.9):
        self.lr, self.beta, self.m = lr, beta, 0.0

    def step(self, w, g):
        self.m *= self.beta             # a number at first, then the array `+=` made
        self.m += g
        return w - self.lr * self.m


def _meta_loss(lr, w0, X, y):
    opt = _Momentum(lr)
    w = w0
    for _ in range(5):
        g = 2 * X.T @ (X @ w - y) / len(y)
        w = opt.step(w, g)
    return np.mean((X @ w - y) ** 2)


def test_an_optimizer_updating_its_state_in_place_in_a_loop(both_paths):
    # `self.m *= b` in the loop's next step writes into the array the last step's
    # `self.m += g` left: no other name reads it after, so nothing to refuse (it was
    # refused: the update's binding did not count as giving m its new value)
    rng = np.random.default_rng(1)
    X, y, w0 = rng.normal(size=(20, 3)), rng.normal(size=20), np.zeros(3)
    want = numeric_grad(_meta_loss, (0.1, w0, X, y), 0)
    got = s2s_ad.grad(fresh(_meta_loss))(0.1, w0, X, y)
    assert got == pytest.approx(float(want), rel=1e-6)
