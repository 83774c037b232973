"""Helpers that write into an array, list or dict they are given: the caller's derivative
sees the write (the helper is inlined where it is called), or a located error says why it
cannot. These were silently wrong gradients: the caller never learnt its array changed, and
the helper's own derivative ran it again on the changed argument."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad.analyses.argument_writes import parameters_written
from s2s_ad.errors import UnsupportedSyntaxError
from derivative_paths import PATHS, check_against_differences, grad_on
from gradcheck import numeric_grad

X = np.array([0.3, -0.5, 0.8, 0.4])


def set_first(q):
    q[0] = q[1] * 3.0
    return np.sum(q)


def read_after_write(x):
    t = x * 1.0
    s = set_first(t)
    return s + np.sum(t ** 2)


def shrink_positive(q):
    q[q > 0] *= np.tanh(q[q > 0])
    return q


def temporary_written(x):
    return np.sum(shrink_positive(x * 1.0) ** 2)


def parameter_written(x):
    # the helper writes into f's own argument: f copies it on entry, the caller's x is kept
    return set_first(x) * np.sum(x)


def heat_step(u, dt):
    u[1:-1] += dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])


def heat(u0):
    u = u0 * 1.0
    for _ in range(4):
        heat_step(u, 0.1)
    return np.sum(np.sin(u) * u)


def through_view(out, v):
    row = out[0]
    row[:] = v


def fill_row(x):
    grid = np.zeros((2, x.size))
    through_view(grid, np.cos(x))
    return np.sum(grid * grid[::-1] + grid)


def twice_nested(q):
    set_first(q)
    return 1.0


def nested_write(x):
    t = x ** 2
    twice_nested(t)
    return np.sum(t * x)


def add_item(items, v):
    items.append(v * 2.0)


def list_written(x):
    acc = [x]
    add_item(acc, np.sin(x))
    return np.sum(acc[-1] * acc[0])


def put_entry(d, v):
    d["b"] = v * 3.0


def dict_written(x):
    d = {"a": x}
    put_entry(d, x ** 2)
    return np.sum(d["b"] * d["a"])


def copies_first(q):
    q = q.copy()
    q[0] = 1.0
    return np.sum(q * q)


def copy_in_helper(x):
    t = x * 2.0
    return copies_first(t) + np.sum(t)


def doubled(q):
    q *= 2.0
    return q


def number_rebound(x):
    a = x[0]
    b = doubled(a)
    return a * b * np.sum(x)


WRITTEN = [read_after_write, temporary_written, parameter_written, heat,
           nested_write, list_written, dict_written, copy_in_helper, number_rebound]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", WRITTEN, ids=lambda f: f.__name__)
def test_gradient_sees_the_helper_write(f, path):
    x = X.copy()
    g = grad_on(path, f)(x)
    np.testing.assert_array_equal(x, X)          # the caller's array is never changed
    np.testing.assert_allclose(g, numeric_grad(f, (X.copy(),), 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [read_after_write, temporary_written, heat, nested_write], ids=lambda f: f.__name__)
def test_forward_and_second_order(f, path):
    check_against_differences(path, f, X.copy())


def scale(q):
    q *= 2.0
    return np.sum(q)


def whole_array_updated(x):
    t = x * 1.0
    s = scale(t)
    return s * np.sum(t ** 2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, write, name", [(whole_array_updated, "q *= 2.0", "`q`"),
                                            (fill_row, "row[:] = v", "`row`")],
                         ids=["whole_array_update", "write_through_view"])
def test_write_into_a_value_read_later_is_a_located_error(f, write, name, path):
    # `q *= 2.0` changes f's t in place; the inlined helper's q is a new name for t (it
    # may be a number, where `*=` binds anew), so the write is refused, not mis-derived;
    # a write through a view (`row = out[0]; row[:] = v`) is refused as it is in f itself.
    # The error points at the write in the helper and says where f calls it
    with pytest.raises(UnsupportedSyntaxError) as info:
        grad_on(path, f)(X.copy())
    text = str(info.value)
    assert write in text and "^" in text and "test_helper_argument_writes.py" in text
    assert text.startswith(name) and f"called from {f.__name__} at line" in text


def test_written_parameters_are_read_from_the_source():
    def keeps(q, W):
        out = np.zeros_like(q)
        out[0] = q[0] @ W
        out += 1.0
        rows = [q[0], q[1]]
        return out + rows[0]

    def loop_rows(q):
        for r in q:
            r.fill(0.0)

    def into_out(q, y):
        np.exp(y, out=q)

    def in_branch(q, c):
        if c:
            q = q.copy()
        q[0] = 1.0

    def shuffled(q, rng):
        rng.shuffle(q)

    def shuffled_rows(q):
        np.random.shuffle(q[0])

    assert parameters_written(shuffled) == {"q"}
    assert parameters_written(shuffled_rows) == {"q"}
    assert parameters_written(keeps) == set()
    assert parameters_written(copies_first) == set()
    assert parameters_written(loop_rows) == {"q"}
    assert parameters_written(into_out) == {"q"}
    assert parameters_written(in_branch) == {"q"}
    assert parameters_written(through_view) == {"out"}
    assert parameters_written(twice_nested) == {"q"}
    assert parameters_written(add_item) == {"items"}


def count_down(q, n):
    q[0] = q[0] * 0.5
    return np.sum(q) if n == 0 else count_down(q, n - 1)


def recursive_writer(x):
    t = x * 1.0
    return count_down(t, 2)


@pytest.mark.parametrize("path", PATHS)
def test_recursive_writer_is_a_located_error(path):
    with pytest.raises(UnsupportedSyntaxError) as info:
        grad_on(path, recursive_writer)(X.copy())
    assert "calls itself" in str(info.value) and "count_down" in str(info.value)


def grown_through_second_name(x):
    acc = [x]
    more = acc
    more.append(np.sin(x) * 2.0)
    return np.sum(acc[-1] * acc[0])


@pytest.mark.parametrize("path", PATHS)
def test_append_through_a_second_name_is_a_located_error(path):
    # one list under two names: the append is seen through `acc` (was a wrong gradient)
    with pytest.raises(UnsupportedSyntaxError) as info:
        grad_on(path, grown_through_second_name)(X.copy())
    text = str(info.value)
    assert "same list" in text and "more.append(" in text and "list(more)" in text


def first_row(M):
    return M[0]


def same(a):
    return a


def write_into_returned_row(x):
    M = x * 1.0
    r = first_row(M)
    r[0] = 5.0 * r[1]
    return np.sum(M ** 2)


def update_returned_array(x):
    y = x * 2.0
    z = same(y)
    z *= 3.0
    return np.sum(y * x)


def returned_row_only_read(x):
    M = x * 1.0
    r = first_row(M)
    return np.sum(r * M)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [write_into_returned_row, update_returned_array],
                         ids=lambda f: f.__name__)
def test_write_into_what_a_helper_returned_of_its_argument(f, path):
    # the helper's result is (a view of) f's array: writing into it changes that array,
    # which is read later: a located error, as the same write in f is (was a wrong gradient)
    with pytest.raises(UnsupportedSyntaxError) as info:
        grad_on(path, f)(np.array([[0.5, -0.3], [0.2, 0.9]]))
    assert "holds the same numpy array" in str(info.value)


@pytest.mark.parametrize("path", PATHS)
def test_returned_view_only_read(path):
    x = np.array([[0.5, -0.3], [0.2, 0.9]])
    np.testing.assert_allclose(grad_on(path, returned_row_only_read)(x),
                               numeric_grad(returned_row_only_read, (x,), 0), rtol=1e-6)


class Stepper:
    def __init__(self, dt):
        self.dt = dt

    def step(self, u):
        u[1:-1] += self.dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])

    @staticmethod
    def clip_(w):
        w[w > 1.0] = 1.0


STEPPER = Stepper(0.1)


def method_of_local_object(x):
    s = Stepper(0.1)
    u = x * 1.0
    for _ in range(3):
        s.step(u)
    return np.sum(u ** 3)


def method_of_module_object(x):
    u = x * 1.0
    STEPPER.step(u)
    return np.sum(u ** 3)


def static_method(x):
    w = x * 2.0
    Stepper.clip_(w)
    return np.sum(w * x)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [method_of_local_object, method_of_module_object, static_method],
                         ids=lambda f: f.__name__)
def test_methods_writing_into_their_argument(f, path):
    x = np.array([0.45, -0.3, 0.2, 0.9, 0.7])
    np.testing.assert_allclose(grad_on(path, f)(x), numeric_grad(f, (x.copy(),), 0),
                               rtol=1e-6, atol=1e-8)


def euler(x0, steps):
    # the states list starts with the argument; appending to it writes into no argument
    x = x0
    states = [x]
    for _ in range(steps):
        x = x + 0.1 * np.sin(x)
        states.append(x)
    return np.stack(states)


def trajectory_loss(x):
    return np.sum(euler(x, 4) ** 2)


def test_containers_made_here_are_not_the_arguments():
    def appends_to_copy(d, v):
        e = d.copy()
        e["w"] = v

    def writes_through_copy(d):
        e = d.copy()
        e["w"][0] = 1.0

    def row_of_list(rows):
        for r in list(rows):
            r[0] = 0.0

    assert parameters_written(euler) == set()
    assert parameters_written(appends_to_copy) == set()
    assert parameters_written(writes_through_copy) == {"d"}
    assert parameters_written(row_of_list) == {"rows"}


@pytest.mark.parametrize("path", PATHS)
def test_helper_appending_its_argument_to_a_list_is_not_inlined(path):
    np.testing.assert_allclose(grad_on(path, trajectory_loss)(X.copy()),
                               numeric_grad(trajectory_loss, (X.copy(),), 0), rtol=1e-6)


def normalise_augmented(v):
    v -= np.mean(v)
    v /= np.sqrt(np.mean(v ** 2) + 1.0)


def normalise_through_an_index(v):
    v[...] -= np.mean(v)
    v[...] /= np.sqrt(np.mean(v ** 2) + 1.0)


def normalised_by_augmented_helper(x):
    y = x * 1.5 + 0.1
    normalise_augmented(y)
    return np.sum(y ** 3) + np.sum(np.sin(y))


def normalised_by_index_helper(x):
    y = x * 1.5 + 0.1
    normalise_through_an_index(y)
    return np.sum(y ** 3) + np.sum(np.sin(y))


def test_an_augmented_write_into_a_helpers_argument_says_how_to_write_it():
    # `v -= m` in a helper is a new binding when v is a number, so the helper's v is not
    # the caller's y; for an array it writes into y: a located error, whose hint used to
    # say only "copy before writing" (which drops the write the user wants)
    with pytest.raises(UnsupportedSyntaxError) as info:
        s2s_ad.grad(normalised_by_augmented_helper)(X)
    assert "`v[...] *= ...`" in str(info.value) and "^" in str(info.value)


@pytest.mark.parametrize("path", PATHS)
def test_the_write_through_an_index_the_hint_gives_is_differentiated(path):
    check_against_differences(path, normalised_by_index_helper, X)
    check_against_differences(path, normalised_by_index_helper, X.reshape(2, 2))
