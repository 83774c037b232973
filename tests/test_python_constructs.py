"""Python as it is written (issue 15): builtins, container methods, starred names, random
draws and functions as values, each against central differences on both derivative
paths."""
import copy

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, grad_on, hvp_on, jvp_on, central_difference
from gradcheck import numeric_grad


def relu(z):
    return np.maximum(z, 0.0)


def softplus(z):
    return np.log1p(np.exp(z))


ACTIVATIONS = {"relu": relu, "tanh": np.tanh, "softplus": softplus}


def pair(a, b):
    return a * b


def max_min_numbers(x):
    y = 1.0 - x
    return max(x, y) + 3.0 * min([x, y])


def max_three_key(x):
    y = 0.4 * x
    return max(x, 2.0 * y, -x) * min(x, y, key=lambda v: -v)


def max_of_array(x):
    return max(x) + 2.0 * min(x)


def sorted_values(x):
    return sum(sorted([x, 2 * x, -x])[:2])


def sorted_key_reverse(x):
    return sorted([x, 2 * x, -x], key=lambda v: v * v, reverse=True)[0]


def reversed_list(x):
    return list(reversed([x, x * x]))[0] * 1.0 + [x, 3 * x][::-1][0]


def divmod_remainder(x):
    q, r = divmod(x, 2.0)
    return r * x


def list_updates(x):
    items = [x]
    items.extend([2 * x, 3 * x])
    items.insert(0, x * x)
    v = items.pop(1)
    return v * sum(items)


def list_updates_tuple(x):
    items = [x, 2 * x]
    items.extend((x * x, x))
    items.pop(0)
    return items[0] * items[1] * items[2]


def pops_in_a_loop(x):
    items = [x, 2 * x, 3 * x, x * x]
    total = 0.0
    for k in range(3):
        v = items.pop(0)
        total = total + v * items[0]
    return total


def inserts_in_a_loop(x):
    items = [x]
    for k in range(3):
        items.insert(0, items[0] * x)
        items.extend([x])
    return sum(items) * items[1]


def pop_then_read(x):
    items = [x, 2 * x, 3 * x]
    return items.pop(1) * items[1]


def sliced_concatenation(x):
    items = [x, 2 * x, 3 * x]
    joined = items[:1] + [x * x] + items[1:]
    return sum(joined) * joined[1]


def map_sin(xs):
    return sum(map(np.sin, xs))


def map_lambda_two(x):
    return sum(map(lambda a, b: a * b, [x, 2 * x], [x, x]))


def zip_three(x):
    total = 0.0
    for a, b, c in zip(x, x * x, 2.0 * x):
        total = total + a * b * c
    return total


def enumerate_start(x):
    total = 0.0
    for i, v in enumerate(x, start=1):
        total = total + i * v
    return total


def range_step(x):
    total = 0.0
    for i in range(0, 6, 2):
        total = total + x[i] * x[i + 1]
    return total


def star_unpack(x):
    a, *middle, b = [x, 2 * x, x * x, 3 * x]
    return a * b * middle[1] + middle[0]


def star_unpack_tail(x):
    *first, last = (x, 2 * x, x * x)
    return last * first[1]


def starred_call(x, y):
    xs = (x, y)
    return pair(*xs) + pair(x, *[y])


def apply(f, x):
    return np.sum(f(x) * x)


def from_dict(x):
    return np.sum(ACTIVATIONS["softplus"](x) + ACTIVATIONS["tanh"](x))


def local_alias(x):
    g = ACTIVATIONS["tanh"]
    h = np.sin
    return np.sum(g(x) * h(x)) + apply(h, x)


def _inner_loss(x):
    return np.sum(np.sin(x) * x)


def grad_inside(x):
    g = s2s_ad.grad(_inner_loss)(x)
    return np.sum(g * g)


def number_alias_write(x):
    y = x
    y += 2.0 * x
    return y * y


def item_write(x):
    s = x[0]
    s += x[1] * 2.0
    return s * s


X = np.array([0.3, -0.5, 1.2])
SCALAR_CASES = [max_min_numbers, max_three_key, sorted_values, sorted_key_reverse,
                reversed_list, divmod_remainder, list_updates, list_updates_tuple,
                pops_in_a_loop, inserts_in_a_loop, pop_then_read,
                sliced_concatenation, map_lambda_two, star_unpack, star_unpack_tail,
                number_alias_write]
ARRAY_CASES = [max_of_array, map_sin, zip_three, enumerate_start, range_step, from_dict,
               local_alias, grad_inside, item_write]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", SCALAR_CASES, ids=lambda f: f.__name__)
def test_scalar_constructs(f, path):
    x = 1.3
    expected = numeric_grad(f, (x,), 0)
    np.testing.assert_allclose(grad_on(path, f)(x), expected, rtol=1e-6, atol=1e-8)
    value, tangent = jvp_on(path, f, (x,), 0.7)
    np.testing.assert_allclose(value, f(x))
    np.testing.assert_allclose(tangent, 0.7 * expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", ARRAY_CASES, ids=lambda f: f.__name__)
def test_array_constructs(f, path):
    x = np.linspace(0.2, 1.4, 6) if f in (range_step,) else X
    expected = numeric_grad(f, (x,), 0)
    np.testing.assert_allclose(grad_on(path, f)(x), expected, rtol=1e-6, atol=1e-8)
    if f is not grad_inside:
        v = np.linspace(0.5, 1.5, x.size)
        value, tangent = jvp_on(path, f, (x,), v)
        np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("f", [max_min_numbers, sorted_values, star_unpack, list_updates,
                               number_alias_write], ids=lambda f: f.__name__)
def test_second_order(f):
    x = 1.3
    np.testing.assert_allclose(hvp_on("specialised", f, (x,), 1.0),
                               central_difference(s2s_ad.grad(f), x, 1.0), rtol=1e-5)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [np.tanh, softplus, relu, lambda z: z ** 3],
                         ids=["ufunc", "def", "relu", "lambda"])
def test_function_argument(f, path):
    expected = numeric_grad(apply, (f, X), 1)
    np.testing.assert_allclose(grad_on(path, apply, wrt=1)(f, X), expected, rtol=1e-6,
                               atol=1e-8)
    v = np.linspace(0.5, 1.5, 3)
    _, tangent = jvp_on(path, apply, (f, X), v, wrt=1)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-8)


def test_function_identity_is_part_of_the_signature():
    grad_apply = s2s_ad.grad(apply, wrt=1)
    for f in (np.tanh, softplus, np.tanh):
        np.testing.assert_allclose(grad_apply(f, X), numeric_grad(apply, (f, X), 1),
                                   rtol=1e-6, atol=1e-8)
    assert "apply is" not in s2s_ad.derivative_source(grad_apply)
    source = s2s_ad.derivative_source(grad_apply)
    assert "f is tanh" in source and "f is softplus" in source


def test_dict_argument_methods():
    def loss(d):
        total = 0.0
        for k, v in sorted(d.items(), key=lambda kv: kv[0]):
            total = total * 2.0 + v
        return total + sum(d.values()) + d.get("c", 2.0) * d["a"]
    for path in PATHS:
        g = grad_on(path, loss)({"b": 2.0, "a": 3.0})
        assert g == {"b": 2.0, "a": 5.0}


def vae_like(mu, rs):
    eps = rs.randn(3)
    unused = rs.standard_normal(2)
    return np.sum((mu + 0.5 * rs.normal(size=3) * eps) ** 2)


def local_generator(mu):
    rs = np.random.RandomState(0)
    return np.sum(mu * rs.randn(3) + mu * mu * rs.uniform(size=3))


@pytest.mark.parametrize("path", PATHS)
def test_random_draws_are_constants_in_order(path):
    mu = np.array([0.1, 0.2, 0.3])
    value = vae_like(mu, np.random.RandomState(3))
    expected = numeric_grad(lambda m: vae_like(m, np.random.RandomState(3)), (mu,), 0)
    g = grad_on(path, vae_like)(mu, np.random.RandomState(3))
    np.testing.assert_allclose(g, expected, rtol=1e-6)
    value_and = s2s_ad.value_and_grad(vae_like)(mu, np.random.RandomState(3))
    np.testing.assert_allclose(value_and[0], value)
    np.testing.assert_allclose(grad_on(path, local_generator)(mu),
                               numeric_grad(local_generator, (mu,), 0), rtol=1e-6)


def test_generator_argument():
    def loss(mu, rng):
        return np.sum(mu * rng.standard_normal(3) + rng.uniform(0.0, 1.0, 3) * mu ** 2)
    mu = np.array([0.1, 0.2, 0.3])
    expected = numeric_grad(lambda m: loss(m, np.random.default_rng(5)), (mu,), 0)
    for path in PATHS:
        np.testing.assert_allclose(grad_on(path, loss)(mu, np.random.default_rng(5)),
                                   expected, rtol=1e-6)


def test_starred_call_checks_the_count():
    f = s2s_ad.grad(starred_call)
    np.testing.assert_allclose(f(1.5, 2.5), numeric_grad(starred_call, (1.5, 2.5), 0))
    def bad(x):
        return pair(*[x, x, x])
    with pytest.raises(AssertionError):
        s2s_ad.grad(bad)(1.0)


def given_force(x, force=np.sin):
    return np.sum(x + 0.1 * force(x))


def choose(x, name):
    return np.sum(ACTIVATIONS[name](x) * x)


def _activation(kind):
    return ACTIVATIONS[kind]


def from_helper(x):
    act = _activation("softplus")
    return np.sum(act(x))


@pytest.mark.parametrize("path", PATHS)
def test_function_chosen_when_the_code_runs(path):
    """A default function argument, a dict item chosen by a string argument, a helper's
    result: differentiated through the function the call reaches."""
    np.testing.assert_allclose(grad_on(path, given_force)(X),
                               numeric_grad(given_force, (X,), 0), rtol=1e-6)
    for name in ("relu", "tanh", "softplus"):
        np.testing.assert_allclose(grad_on(path, choose)(X, name),
                                   numeric_grad(lambda v: choose(v, name), (X,), 0),
                                   rtol=1e-6, atol=1e-8)
        v = np.linspace(0.5, 1.5, 3)
        _, tangent = jvp_on(path, choose, (X, name), v)
        np.testing.assert_allclose(
            tangent, np.sum(numeric_grad(lambda u: choose(u, name), (X,), 0) * v), rtol=1e-6)
    np.testing.assert_allclose(grad_on(path, from_helper)(X),
                               numeric_grad(from_helper, (X,), 0), rtol=1e-6)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", ["tanh", "softplus"])
def test_hessian_through_a_function_chosen_when_the_code_runs(path, name):
    v = np.array([1.0, 0.5, -0.3])
    np.testing.assert_allclose(
        hvp_on(path, choose, (X, name), v),
        central_difference(lambda u: s2s_ad.grad(choose)(u, name), X, v), rtol=1e-5)
    np.testing.assert_allclose(
        hvp_on(path, apply, (ACTIVATIONS[name], X), v, wrt=1),
        central_difference(lambda u: s2s_ad.grad(apply, wrt=1)(ACTIVATIONS[name], u), X, v),
        rtol=1e-5)


def test_jvp_of_a_vjp_along_its_cotangent():
    """The cotangent check a vjp starts with passes the cotangent's tangent on (it was
    dropped: a zero derivative)."""
    def f(x):
        return np.tanh(x) * 2.0
    vf = s2s_ad.vjp(f)
    c, w = np.array([0.2, 0.4, 0.9]), np.array([0.1, -0.2, 0.3])
    _, tangent = s2s_ad.jvp(vf, wrt=1)(X, c, w)
    np.testing.assert_allclose(tangent, vf(X, w), rtol=1e-12)


LOGGED = []


def _log(step, value):
    LOGGED.append(f"{step}: {float(np.sum(value)):.3f}")


def _show(value):
    print("loss", value)
    _log(0, value)


def _clip_(w):
    w[w > 1.0] = 1.0


def logs_and_returns(x):
    _log(1, x)
    _show(np.sum(x * x))
    return np.sum(np.sin(x) * x)


def clips_in_place(x):
    w = x * 2.0
    _clip_(w)
    return np.sum(w)


@pytest.mark.parametrize("path", PATHS)
def test_helper_called_for_its_effect(path, capsys):
    LOGGED.clear()
    np.testing.assert_allclose(grad_on(path, logs_and_returns)(X),
                               numeric_grad(logs_and_returns, (X,), 0), rtol=1e-6)
    assert LOGGED and "loss" in capsys.readouterr().out


@pytest.mark.parametrize("path", PATHS)
def test_helper_writing_into_its_argument(path):
    # the helper is inlined where it is called: f's derivative sees the write into w
    np.testing.assert_allclose(grad_on(path, clips_in_place)(X),
                               numeric_grad(clips_in_place, (X,), 0), rtol=1e-6)


def dict_display(x):
    d = {"a": x, "b": 2 * x}
    return np.sum(d["a"] * d["b"])


def dict_call(x):
    d = dict(a=x, b=x * x)
    return np.sum(d["a"] * d.get("b") + d.get("c", 1.0))


def dict_comprehension(x):
    d = {k: v * 2.0 for k, v in zip(["a", "b"], [x, x * x])}
    return np.sum(d["b"] * d["a"])


def dict_new_key(x):
    d = {"a": x}
    d["b"] = x * 3.0
    return np.sum(d["a"] * d["b"])


def dict_loop(x):
    d = {"a": x, "b": np.sin(x)}
    total = 0.0
    for k, v in d.items():
        total = total + np.sum(v * v)
    return total


def _dict_loss(p):
    return np.sum(p["w"] ** 2 + p["b"])


def dict_to_helper(x):
    return _dict_loss({"w": x, "b": 1.0})


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [dict_display, dict_call, dict_comprehension, dict_new_key,
                               dict_loop, dict_to_helper], ids=lambda f: f.__name__)
def test_dicts_built_inside(f, path):
    expected = numeric_grad(f, (X,), 0)
    np.testing.assert_allclose(grad_on(path, f)(X), expected, rtol=1e-6, atol=1e-8)
    v = np.linspace(0.5, 1.5, 3)
    _, tangent = jvp_on(path, f, (X,), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(hvp_on(path, f, (X,), v),
                               central_difference(s2s_ad.grad(f), X, v), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("path", PATHS)
def test_dict_argument_gets_a_new_key(path):
    def f(p):
        p["c"] = p["a"] * 2.0
        return p["c"] * p["b"]
    params = {"a": 1.5, "b": 2.0}
    assert grad_on(path, f)(params) == {"a": 4.0, "b": 3.0}
    assert params == {"a": 1.5, "b": 2.0}


def product_of(*args):
    return args[0] * args[1]


def scaled_mean(scale, *xs):
    return scale * sum(xs) / len(xs) + xs[0] * xs[-1]


def calls_star_helpers(x):
    return product_of(x, 2.0 * x) + scaled_mean(1.5, x, x * x, np.sin(x)) \
        + scaled_mean(2.0, x)


@pytest.mark.parametrize("general", [False, True])
def test_star_args_parameters(general, monkeypatch):
    if general:
        monkeypatch.setenv("S2S_AD_GENERAL", "1")
    assert s2s_ad.grad(product_of)(1.5, 2.5) == 2.5
    assert s2s_ad.grad(product_of, wrt=1)(1.5, 2.5) == 1.5
    args = (1.5, 2.0, 3.0, 4.0)
    np.testing.assert_allclose(s2s_ad.grad(scaled_mean, wrt=2)(*args),
                               numeric_grad(scaled_mean, args, 2), rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.grad(scaled_mean, wrt=(0, 3))(*args),
                               [numeric_grad(scaled_mean, args, 0),
                                numeric_grad(scaled_mean, args, 3)], rtol=1e-6)
    x = 0.7
    expected = numeric_grad(calls_star_helpers, (x,), 0)
    np.testing.assert_allclose(s2s_ad.grad(calls_star_helpers)(x), expected, rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.jvp(calls_star_helpers)(x, 0.5)[1], 0.5 * expected,
                               rtol=1e-6)
    np.testing.assert_allclose(s2s_ad.jvp(product_of, wrt=1)(1.5, 2.5, 2.0), (3.75, 3.0))
    np.testing.assert_allclose(s2s_ad.hvp(calls_star_helpers)(x, 1.0),
                               central_difference(s2s_ad.grad(calls_star_helpers), x, 1.0),
                               rtol=1e-5)


def test_star_args_errors_point_at_the_function():
    def broken(*args):
        return args[0] + not_defined_anywhere  # noqa: F821
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(broken)(1.0)
    assert info.value.filename == __file__


def reversed_rows(x):
    total = 0.0
    for k, row in enumerate(reversed(list(x))):
        total = total + k * np.sum(row * row)
    return total


def listed_rows(x):
    rows = list(x)
    return np.sum(rows[0] * rows[-1])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [reversed_rows, listed_rows], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(3,), (3, 2)])
def test_list_of_an_array(f, shape, path):
    """list(x) of an array: the items' adjoints become x's rows (the general derivative
    added the list itself to x's adjoint)."""
    x = np.linspace(0.3, 1.5, int(np.prod(shape))).reshape(shape)
    np.testing.assert_allclose(grad_on(path, f)(x), numeric_grad(f, (x,), 0), rtol=1e-6)


def zipped_list(x):
    triples = list(zip(x, x * x, np.sin(x)))
    return triples[1][2] * triples[0][1] + sum([a * b * c for a, b, c in triples])


def pairs_in_loop(x):
    pairs = [(a, 2.0 * a) for a in x]
    return pairs[1][1] * pairs[2][0]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [zipped_list, pairs_in_loop], ids=lambda f: f.__name__)
def test_lists_of_tuples(f, path):
    expected = numeric_grad(f, (X,), 0)
    np.testing.assert_allclose(grad_on(path, f)(X), expected, rtol=1e-6, atol=1e-8)
    v = np.linspace(0.5, 1.5, 3)
    _, tangent = jvp_on(path, f, (X,), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-8)


def draws_from_active_mean(mu, rng):
    return np.sum(rng.normal(mu, 1.0))


def shuffles(x, rng):
    rng.shuffle(x)
    return np.sum(x)


def test_random_draws_taking_a_differentiated_value_are_located_errors():
    with pytest.raises(s2s_ad.MissingDerivativeError, match="reparameterise"):
        s2s_ad.grad(draws_from_active_mean)(X, np.random.default_rng(0))
    with pytest.raises(s2s_ad.MissingDerivativeError, match="reparameterise"):
        s2s_ad.jvp(draws_from_active_mean)(X, np.random.default_rng(0), X)
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="permutation"):
        s2s_ad.grad(shuffles)(X, np.random.default_rng(0))


def calls_grad_through_alias(x):
    dh = s2s_ad.grad(_inner_loss)
    g = dh(x)
    return np.sum(g * np.cos(x))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [grad_inside, calls_grad_through_alias],
                         ids=lambda f: f.__name__)
def test_gradient_taken_inside(f, path):
    expected = numeric_grad(f, (X,), 0)
    np.testing.assert_allclose(grad_on(path, f)(X), expected, rtol=1e-6, atol=1e-8)
    v = np.linspace(0.5, 1.5, 3)
    _, tangent = jvp_on(path, f, (X,), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6, atol=1e-8)


def starred_display(x):
    xs = [x, x]
    return sum([*xs, x])


def unnamed_lambda(x):
    return (lambda v: v * v)(x)


@pytest.mark.parametrize("f, words", [(starred_display, "concatenate"),
                                      (unnamed_lambda, "key=")])
def test_remaining_rejections_say_what_to_write(f, words):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(f)(1.0)
    assert words in str(info.value) and info.value.filename == __file__


def test_source_of_a_star_args_derivative():
    df = s2s_ad.grad(scaled_mean, wrt=1)
    source = s2s_ad.derivative_source(df, 1.0, 2.0, 3.0)
    assert "xs_0, xs_1" in source
    with pytest.raises(s2s_ad.APIUsageError, match="pass the arguments"):
        s2s_ad.derivative_source(df)


def vae_loss(mu, log_sigma, rs):
    eps = rs.randn(*mu.shape)
    z = mu + np.exp(log_sigma) * eps
    return np.sum(z ** 2) + np.sum(rs.rand(*mu.shape) * mu)


def global_draws(x):
    return np.sum(x * np.random.randn(*x.shape) + x * x * np.random.rand(*x.shape))


def reshaped_by_items(x):
    shape = (3, 1)
    return np.sum(x.reshape(*shape) * x)


@pytest.mark.parametrize("path", PATHS)
def test_shapes_given_as_items(path):
    mu, log_sigma = np.array([0.1, 0.2]), np.array([-0.3, 0.1])
    got = grad_on(path, vae_loss, wrt=(0, 1))(mu, log_sigma, np.random.RandomState(0))
    np.testing.assert_allclose(got[0], numeric_grad(
        lambda m: vae_loss(m, log_sigma, np.random.RandomState(0)), (mu,), 0), rtol=1e-6)
    np.testing.assert_allclose(got[1], numeric_grad(
        lambda s: vae_loss(mu, s, np.random.RandomState(0)), (log_sigma,), 0), rtol=1e-6)
    np.random.seed(1)
    got = grad_on(path, global_draws)(X)
    np.random.seed(1)
    eps, u = np.random.randn(3), np.random.rand(3)
    np.testing.assert_allclose(got, eps + 2.0 * X * u, rtol=1e-12)
    np.testing.assert_allclose(grad_on(path, reshaped_by_items)(X),
                               numeric_grad(reshaped_by_items, (X,), 0), rtol=1e-6)


def enumerated_list(x):
    pairs = list(enumerate(x, start=2))
    return pairs[1][0] * pairs[1][1] + sum([k * v for k, v in enumerate(x)])


@pytest.mark.parametrize("path", PATHS)
def test_enumerate_as_a_value(path):
    np.testing.assert_allclose(grad_on(path, enumerated_list)(X),
                               numeric_grad(enumerated_list, (X,), 0), rtol=1e-6)


CLI_MODEL = '''
import numpy as np


def softplus(z):
    return np.log1p(np.exp(z))


ACTS = {"tanh": np.tanh, "softplus": softplus}


def choose(x, name):
    return np.sum(ACTS[name](x) * x)


def dicts(x):
    d = {"a": x, "b": 2.0 * x}
    items = sorted([d["a"][0], d["b"][1]])
    return np.sum(d["a"] * d["b"]) + max(items)
'''


@pytest.mark.slow
def test_cli_file_with_dicts_and_a_function_chosen_when_it_runs(tmp_path):
    import json
    import subprocess
    import sys
    (tmp_path / "model.py").write_text(CLI_MODEL)
    run = subprocess.run([sys.executable, "-c", "import sys; from s2s_ad.cli import main; "
                          "sys.exit(main())", "grad", "model.py:choose", "model.py:dicts",
                          "-o", "grads.py"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    check = ("import json, numpy as np, grads; x = np.array([0.3, -0.5, 1.2]); "
             "print(json.dumps([[float(v) for v in grads.grad_choose(x, 'softplus')], "
             "[float(v) for v in grads.grad_dicts(x)]]))")
    out = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    namespace = {}
    exec(compile(CLI_MODEL, "model", "exec"), namespace)
    choose_grad, dicts_grad = json.loads(out.stdout)
    np.testing.assert_allclose(choose_grad, numeric_grad(
        lambda v: namespace["choose"](v, "softplus"), (X,), 0), rtol=1e-6)
    np.testing.assert_allclose(dicts_grad, numeric_grad(namespace["dicts"], (X,), 0),
                               rtol=1e-6)


def passes_functions_by_name(x):
    return apply(np.tanh, x) + apply(softplus, 2.0 * x)


@pytest.mark.parametrize("path", PATHS)
def test_helper_given_a_function_by_name(path):
    """apply(np.tanh, x) inside differentiated code: the helper's derivative is built for
    np.tanh on both paths (no run-time vjp), so it is differentiable again."""
    v = np.array([1.0, 0.5, -0.3])
    expected = numeric_grad(passes_functions_by_name, (X,), 0)
    np.testing.assert_allclose(grad_on(path, passes_functions_by_name)(X), expected,
                               rtol=1e-6)
    _, tangent = jvp_on(path, passes_functions_by_name, (X,), v)
    np.testing.assert_allclose(tangent, np.sum(expected * v), rtol=1e-6)
    np.testing.assert_allclose(
        hvp_on(path, passes_functions_by_name, (X,), v),
        central_difference(s2s_ad.grad(passes_functions_by_name), X, v), rtol=1e-5)
    source = s2s_ad.derivative_source(s2s_ad.grad(passes_functions_by_name), X)
    assert "call_function" not in source and "function_vjp" not in source


def pops_a_dict_entry(x):
    d = {"a": x, "b": 2.0 * x}
    return d.pop("a") * d["b"]


def test_dict_pop_is_a_located_error():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="d\\[key\\]"):
        s2s_ad.grad(pops_a_dict_entry)(1.0)


def number_alias_read_later(x):
    y = x
    y += 2.0 * x
    return y * x


def item_updates(x):
    s = x[0]
    s += x[1] * 2.0
    s *= x[2]
    return s * x[0]


def item_updates_in_a_loop(x):
    s = x[0]
    for i in range(3):
        s += x[i] * s
    return s + x[0]


def scaled_alias(x):
    y = x
    y *= 3.0
    return y + x


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f, arg", [(number_alias_read_later, 1.5), (item_updates, X),
                                    (item_updates_in_a_loop, X), (scaled_alias, 1.5)],
                         ids=["alias", "item", "item-loop", "scaled"])
def test_updating_a_number_is_no_shared_write(f, arg, path):
    """`y = x; y += ...` with x a number, `s = x[0]; s += ...`: numbers share no memory,
    so x keeps its value (an error before, even when x was read after the update)."""
    np.testing.assert_allclose(grad_on(path, f)(arg), numeric_grad(f, (arg,), 0), rtol=1e-6)


@pytest.mark.parametrize("path", PATHS)
def test_updating_an_array_alias_is_still_an_error(path):
    """The same update on an array writes into x: an error (at build time when the facts
    say x is an array, when the derivative runs otherwise)."""
    with pytest.raises(s2s_ad.UnsupportedSyntaxError, match="same numpy array"):
        grad_on(path, number_alias_read_later)(X)


def largest_part(x):
    # a key lambda calling a method of its parameter (it was "`item.sum` is not
    # defined": the lambda's renamed parameter was not known as a value)
    parts = [x[:2], x[2:] * 2.0, np.sin(x)]
    best = max(parts, key=lambda p: p.sum())
    ordered = sorted(parts, key=lambda p: p.max())
    return np.sum(best ** 2) + np.sum(ordered[0]) * 3.0


@pytest.mark.parametrize("path", PATHS)
def test_key_lambda_calls_a_method_of_its_parameter(path):
    x = np.array([0.7, 0.2, 1.1, -0.4, 0.5])
    np.testing.assert_allclose(grad_on(path, largest_part)(x),
                               numeric_grad(largest_part, (x,), 0), rtol=1e-6)


def chained_products(x):
    # d.get(k, e) reads `k in d`: forward mode had no rule for `in` ("no forward-mode
    # derivative is known for `contains`"); it is a test, without a derivative
    d = {}
    for k in range(3):
        d[k] = d.get(k - 1, 1.0) * x[k]
    return sum(d.values()) + max(d.values())


@pytest.mark.parametrize("path", PATHS)
def test_dict_get_in_forward_mode_and_second_order(path):
    x = np.array([0.7, -1.2, 1.1])
    v = np.array([0.5, 1.0, -1.5])
    expected = numeric_grad(chained_products, (x,), 0)
    _, tangent = jvp_on(path, chained_products, (x,), v)
    np.testing.assert_allclose(tangent, expected @ v, rtol=1e-6)
    np.testing.assert_allclose(hvp_on(path, chained_products, (x,), v),
                               central_difference(s2s_ad.grad(chained_products), x, v),
                               rtol=1e-5, atol=1e-8)


def _copied_then_written(x):
    y = copy.deepcopy(x)
    y[0] = y[1] * 3.0
    return np.sum(y ** 2) + np.sum(x)


def _params_copied(p):
    q = copy.deepcopy(p)
    q["w"] = q["w"] * 2.0
    return np.sum(q["w"] ** 2) + np.sum(p["w"] * p["b"])


def _list_copied(xs):
    ys = copy.copy(xs)
    ys.append(xs[0] * 2.0)
    return sum(v ** 2 for v in ys)


@pytest.mark.parametrize("path", PATHS)
def test_copy_and_deepcopy_are_the_identity(path):
    # (session 15; copy.deepcopy was followed into the copy module's source and rejected
    # as "a starred argument ...")
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(grad_on(path, _copied_then_written)(x),
                               numeric_grad(_copied_then_written, (x,), 0), rtol=1e-6)
    np.testing.assert_allclose(x, [1.0, 2.0, 3.0])          # the argument is not written
    value, slope = jvp_on(path, _copied_then_written, (x,), np.ones(3))
    assert slope == pytest.approx(np.sum(numeric_grad(_copied_then_written, (x,), 0)))
    np.testing.assert_allclose(hvp_on(path, _copied_then_written, (x,), np.ones(3)),
                               [0.0, 20.0, 2.0], atol=1e-8)
    p = {"w": x.copy(), "b": np.array([0.5, -1.0, 2.0])}
    g = grad_on(path, _params_copied)(p)
    np.testing.assert_allclose(g["w"], 8.0 * x + p["b"])
    np.testing.assert_allclose(g["b"], x)
    assert [float(v) for v in grad_on(path, _list_copied)([1.0, 2.0])] == [10.0, 4.0]
