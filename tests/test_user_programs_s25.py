"""Programs a new user writes, each cut down from one that failed in session 25 (repros of
what was left in /work/s25-users-left), checked against central differences on both
derivative paths, to second order (hvp against differences of the gradient)."""
from typing import NamedTuple

import numpy as np
import pytest

from derivative_paths import PATHS, check_against_differences

X2 = np.array([0.5, -1.0])


def unrolled_sgd(x):
    """gradient descent unrolled in f, the parameters a dict rebuilt by a comprehension:
    its keys' loop `[k for k in p]` indexed p by position (KeyError: 0 inside the
    derivative)"""
    p = {"a": x, "b": 0.5 * x[0]}
    for _ in range(3):
        g = {"a": 2.0 * p["a"], "b": 2.0 * (p["b"] - 1.0)}
        p = {k: p[k] - 0.1 * g[k] for k in p}
    return np.sum(p["a"] ** 2) + p["b"] ** 2


def renamed_keys(x):
    """a key made from the key, and a filter"""
    p = {"a": x, "b": 2.0 * x, "c": x * x}
    q = {name.upper(): p[name] * 3.0 for name in p if name != "c"}
    return np.sum(q["A"] * q["B"])


def read_with_get(x):
    """`for k in d: ... d.get(k)` iterates the keys as `d[k]` does (KeyError: 0)"""
    p = {"a": x, "b": 2.0 * x}
    s = 0.0
    for k in p:
        v = p.get(k)
        s = s + np.sum(np.sin(v) * v)
    return s


def names_of_a_dict(x):
    """`[k for k in p]` and `for k in p: out.append(k)` of a dict made in f, which never
    read p[k]: indexed p by position (KeyError: 0 inside the derivative)"""
    p = {"a": x, "b": 2.0 * x}
    names = [k for k in p]
    q = dict(c=x * x, d=x)
    out = []
    for k in q:
        out.append(k)
    return np.sum(p[names[0]] * p[names[1]]) + np.sum(q[out[0]] * np.sin(q[out[1]]))


def enumerated_and_listed_dict(x):
    """enumerate(p) and list(p) of a dict made in f (KeyError: 0, IndexError inside the
    derivative)"""
    p = {"a": x, "b": 2.0 * x}
    return sum(np.sum(p[k] ** 2) * (i + 1) for i, k in enumerate(p)) + np.sum(p[list(p)[1]])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [unrolled_sgd, renamed_keys, read_with_get, names_of_a_dict,
                               enumerated_and_listed_dict],
                         ids=lambda f: f.__name__)
def test_dicts_iterated_by_key(f, path):
    check_against_differences(path, f, X2)


def names_of_a_dict_argument(p):
    """a dict argument iterated without p[k] (`[k for k in p]`, enumerate(p), list(p)):
    indexed p by position, KeyError: 0 inside the derivative; the specialisation's
    signature says p is a dict (the general derivative cannot tell: see README)"""
    names = [k for k in p]
    return sum(np.sum(p[k] ** 2) * (i + 1) for i, k in enumerate(p)) \
        + np.sum(p[names[0]] * np.sin(p[list(p)[1]])) + len([k for k in p])


def test_a_dict_argument_iterated_by_key():
    import s2s_ad
    p = {"a": np.array([0.5, -1.0]), "b": np.array([0.25, 2.0])}
    got = s2s_ad.grad(names_of_a_dict_argument)(p)
    h = 1e-6
    for key in p:
        for j in range(2):
            up = {k: v.copy() for k, v in p.items()}
            down = {k: v.copy() for k, v in p.items()}
            up[key][j] += h
            down[key][j] -= h
            want = (names_of_a_dict_argument(up) - names_of_a_dict_argument(down)) / (2 * h)
            assert got[key][j] == pytest.approx(want, rel=1e-6, abs=1e-9)


def object_array_item(x):
    """an object array holding a number of x and a label"""
    row = np.array([x[0], "label"], dtype=object)
    return row[0] * 2.0 + np.sum(x[1:] ** 2)


def test_an_object_arrays_number_gets_its_gradient():
    """(AttributeError inside s2s_ad's runtime: the dtype of its adjoint was the class
    np.float64, not a dtype)"""
    import s2s_ad
    from gradcheck import numeric_grad
    np.testing.assert_allclose(s2s_ad.grad(object_array_item)(X2),
                               numeric_grad(object_array_item, (X2,), 0), rtol=1e-7)


def squares(*values):
    return sum(v ** 2 for v in values)


def spread_into_a_star_helper(x):
    """h(*x) of a def taking *args, x of more than 4 numbers: a TypeError inside s2s_ad
    ("a call of a function held in a variable with 1 to 4 arguments, not 6")"""
    return squares(*x) + squares(x[0], x[1]) * x[2]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("n", [3, 6, 9])
def test_items_spread_into_a_helper_taking_star_args(n, path):
    check_against_differences(path, spread_into_a_star_helper, np.linspace(-1.0, 1.2, n))


def loss_of_data_loaded_later(w):
    return np.mean((DATA_LOADED_LATER @ w - 1.0) ** 2) * WEIGHT_SET_LATER


@pytest.mark.parametrize("mode", ["grad", "value_and_grad", "jvp"])
def test_grad_above_the_data_it_reads(mode):
    """`dloss = grad(loss)` written above `X = load(...)`, as a script is laid out: the
    derivative is made at its first call (grad() raised "`X` is not defined when the
    derivative is built"); a call before the data exists is that located error."""
    import s2s_ad
    from gradcheck import numeric_grad
    made = getattr(s2s_ad, mode)(loss_of_data_loaded_later)
    w = np.array([0.2, -0.4, 0.7])
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="`DATA_LOADED_LATER` is not"):
        made(w, np.ones(3)) if mode == "jvp" else made(w)
    try:
        for weight in (1.0, 2.5, 3):            # a number rebound: a fact no longer
            globals().update(DATA_LOADED_LATER=np.linspace(-1.0, 1.0, 12).reshape(4, 3),
                             WEIGHT_SET_LATER=weight)
            expected = numeric_grad(loss_of_data_loaded_later, (w,), 0)
            if mode == "jvp":
                got = made(w, np.ones(3))[1]
                expected = np.sum(expected)
            else:
                got = made(w)[1] if mode == "value_and_grad" else made(w)
            np.testing.assert_allclose(got, expected, rtol=1e-6)
        extra = (np.ones(3),) if mode == "jvp" else ()
        assert "def " in s2s_ad.derivative_source(made, w, *extra)
    finally:
        globals().pop("DATA_LOADED_LATER", None)
        globals().pop("WEIGHT_SET_LATER", None)


class Doubled:
    """a sequence-like class of the user's: s[i] is twice the item it holds"""

    def __init__(self, xs):
        self.xs = xs

    def __getitem__(self, i):
        return self.xs[i] * 2.0

    def __len__(self):
        return len(self.xs)


def through_getitem_made_in_f(x):
    s = Doubled(x)
    return sum(s[i] ** 2 for i in range(len(s))) + s[0] * s[-1]


def through_getitem_of_an_argument(x, s):
    return sum(s[i] * x[i] ** 2 for i in range(len(s)))


@pytest.mark.parametrize("path", PATHS)
def test_a_subscript_calls_the_classes_getitem(path):
    """s[i] of an object whose class defines __getitem__ was read as an item of a sequence
    of numbers: a zero gradient (0.0 for an array argument), silently"""
    check_against_differences(path, through_getitem_made_in_f, np.array([0.3, -0.7, 1.1]))


def test_an_object_arguments_getitem_in_each_argument():
    import s2s_ad
    from derivative_paths import grad_on
    from gradcheck import numeric_grad
    x, held = np.array([0.3, -0.7, 1.1]), np.array([1.5, 0.2, -0.4])
    for path in PATHS:
        got = grad_on(path, through_getitem_of_an_argument)(x, Doubled(held))
        np.testing.assert_allclose(
            got, numeric_grad(through_getitem_of_an_argument, (x, Doubled(held)), 0))
    got = s2s_ad.grad(through_getitem_of_an_argument, wrt=1)(x, Doubled(held))
    np.testing.assert_allclose(got.xs, 2.0 * x ** 2)
    with pytest.raises(TypeError, match="subscript of a Doubled object"):
        # the general derivative does not know s's class: an error, not a zero
        grad_on("general", through_getitem_of_an_argument, wrt=1)(x, Doubled(held))


class Pair:
    """a value of two numbers with operators of its own (not fieldwise: b multiplies)"""

    def __init__(self, a, b):
        self.a, self.b = a, b

    def __add__(self, other):
        return Pair(self.a + other.a, self.b * other.b)

    def __sub__(self, other):
        return Pair(self.a - other.a, self.b * other.b)

    def __mul__(self, k):
        return Pair(self.a * k, self.b + k)

    def __rmul__(self, k):
        return Pair(self.a * k, self.b - k)

    def __neg__(self):
        return Pair(-self.a, self.b * self.b)

    def __matmul__(self, other):
        return self.a * other.b + self.b * other.a


def pair_operators(x):
    """`+` of two Pairs was differentiated as a fieldwise sum (a wrong gradient, silently);
    `*`, `-`, unary `-` and `@` crashed inside the derivative"""
    p = Pair(x[0], x[1])
    q = Pair(x[1], x[2])
    s = Pair(x[0], x[1]) + Pair(x[1], x[2])
    d = p - q
    m = q * 3.0
    n = -Pair(x[2], x[0])
    r = 2.0 * Pair(x[0], x[2])
    return s.a ** 2 + s.b + d.a * d.b + m.a * m.b + n.a * n.b + r.a * r.b + p @ q


def pair_accumulated(x):
    v = Pair(x[0], x[1])
    v += Pair(x[1], x[2])       # v is no longer made once in f: its class is not known
    return v.a ** 2 + v.b


def pair_of_arguments(p, q):
    s = p + q
    return s.a ** 2 + s.b


@pytest.mark.parametrize("path", PATHS)
def test_operators_of_a_class_call_its_methods(path):
    check_against_differences(path, pair_operators, np.array([0.3, -0.7, 1.1]))


def test_an_operator_the_derivative_cannot_follow_is_an_error_not_a_wrong_gradient():
    import s2s_ad
    from derivative_paths import grad_on
    for path in PATHS:
        with pytest.raises(s2s_ad.UnsupportedSyntaxError, match=r"calls Pair\.__add__"):
            grad_on(path, pair_accumulated)(np.array([0.3, -0.7, 1.1]))
    got = s2s_ad.grad(pair_of_arguments)(Pair(0.3, 0.5), Pair(0.2, 0.7))  # its class known
    np.testing.assert_allclose((got.a, got.b), (1.0, 0.7))
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match=r"calls Pair\.__add__"):
        grad_on("general", pair_of_arguments)(Pair(0.3, 0.5), Pair(0.2, 0.7))


class Moments:
    """methods named as an array's (mean, sum, copy)"""

    def __init__(self, xs):
        self.xs = xs

    def mean(self):
        return np.sum(self.xs ** 3) / 2.0

    def sum(self, k=1.0):
        return np.sum(np.sin(self.xs)) * k

    def copy(self):
        return Moments(self.xs * 2.0)


def moments_of_an_argument(x, m):
    """m.mean() of an object whose class the signature gives was read as np.mean(m):
    TypeError inside the derivative (mean() got an unexpected keyword 'axis')"""
    return m.mean() * np.sum(x) + m.sum(2.0)


def moments_copied(x):
    """Moments(x).copy() was read as np.copy: a zero gradient, silently"""
    m = Moments(x).copy()
    return Moments.mean(m) + Moments(x).sum()


def test_methods_named_like_an_arrays_are_the_classes():
    import s2s_ad
    from derivative_paths import grad_on
    from gradcheck import numeric_grad
    x, held = np.array([0.3, -0.7, 1.1]), np.array([1.5, 0.2, -0.4])
    got = s2s_ad.grad(moments_of_an_argument, wrt=(0, 1))(x, Moments(held))
    np.testing.assert_allclose(got[0], numeric_grad(moments_of_an_argument,
                                                    (x, Moments(held)), 0))
    np.testing.assert_allclose(got[1].xs, 1.5 * held ** 2 * np.sum(x) + 2.0 * np.cos(held))
    for path in PATHS:
        np.testing.assert_allclose(grad_on(path, moments_copied)(x),
                                   numeric_grad(moments_copied, (x,), 0))


def moments_of_a_copy_read_as_numpy(x):
    m = Moments(x).copy()        # (session 26: Moments.copy returns a Moments: known)
    return m.mean()


def _moments_or_none(x, keep):
    return Moments(x) if keep else None


def moments_of_unknown_class(x):
    m = _moments_or_none(x, True)   # m's class is not known while normalizing
    return m.mean()


def test_a_numpy_reduction_of_an_object_is_an_error_not_a_zero():
    from derivative_paths import grad_on
    from gradcheck import numeric_grad
    x = np.array([0.3, -0.7, 1.1])
    for path in PATHS:
        with pytest.raises(TypeError, match="numpy reduction of a Moments object"):
            grad_on(path, moments_of_unknown_class)(x)
        np.testing.assert_allclose(grad_on(path, moments_of_a_copy_read_as_numpy)(x),
                                   numeric_grad(moments_of_a_copy_read_as_numpy, (x,), 0))


class Doubling:
    """iterable: its __iter__ is a generator"""

    def __init__(self, xs):
        self.xs = xs

    def __iter__(self):
        for v in self.xs:
            yield v * 2.0


def over_an_iterable_object(x):
    """`for v in bag` crashed inside the derivative ('Doubling' object is not
    subscriptable): the loop indexed the object"""
    total = 0.0
    for v in Doubling(x):
        total = total + v ** 3
    bag = Doubling(x[:2])
    return total + sum(np.sin(v) for v in bag)


@pytest.mark.parametrize("path", PATHS)
def test_a_loop_over_an_object_runs_its_iter(path):
    check_against_differences(path, over_an_iterable_object, np.array([0.3, -0.7, 1.1]))


class Particle(NamedTuple):
    pos: np.ndarray
    vel: np.ndarray


def particle_step(s, dt):
    return s._replace(pos=s.pos + dt * s.vel)


def replaced_state(x):
    s = particle_step(Particle(x, np.ones_like(x)), 0.1)
    return np.sum(s.pos ** 2)


def test_namedtuple_replace_in_a_helper():
    """It was "no derivative is known for `tuple_new(...)`" (collections' own code).
    Session 26: the specialised derivative knows s's class and makes the new Particle; the
    general one (a helper's argument of no known class) refuses it at the user's line."""
    import s2s_ad
    from derivative_paths import grad_on
    np.testing.assert_allclose(grad_on("specialised", replaced_state)(X2), 2 * (X2 + 0.1))
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match=r"`\._replace\(\.\.\.\)`") as info:
        grad_on("general", replaced_state)(X2)
    assert "return s._replace(pos=s.pos + dt * s.vel)" in str(info.value)
