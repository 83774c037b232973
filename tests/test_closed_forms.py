"""Closed-form elementwise adjoints (optimize/closed_forms.py): used where every array has
one shape, the general sweep otherwise; never a different gradient."""
import ast
import inspect

import gast
import numpy as np
import pytest

import s2s_ad
from s2s_ad.api import general_derivative
from s2s_ad.optimize import closed_form_render, rational
from tests.gradcheck import numeric_grad
from tests.programs import elementwise as P

rng = np.random.default_rng(0)
N, D = 6, 3


def vec(*shape, low=None):
    return rng.uniform(low, low + 1.0, shape) if low is not None else rng.standard_normal(shape)


# (program, argument sets: equal shapes first, then broadcasting and numbers)
CASES = [
    (P.logreg, [(vec(D), vec(N, D), (vec(N) > 0) * 1.0),
                (vec(D), vec(N, D), (vec(N, 1) > 0) * 1.0),        # y broadcasts: (N, N)
                (vec(D), vec(N, D), 1.0)]),
    (P.bce_sum, [(vec(N), vec(N, low=0.1)), (vec(2, N), vec(N, low=0.1)), (0.3, 0.7),
                 (vec(N), 0.5)]),
    (P.mse, [(vec(N), vec(N)), (vec(3, N), vec(N)), (vec(N), 0.5)]),
    (P.tanh_loss, [(vec(N), vec(N)), (vec(N), vec(2, N))]),
    (P.sigmoid_sum, [(vec(N),), (0.5,), (vec(2, N),)]),
    (P.softplus, [(vec(N), 0.7), (vec(N), vec(N)), (vec(N), vec(3, 1))]),
    (P.rational_mix, [(vec(N, low=1.0), vec(N, low=3.0)), (vec(2, N, low=1.0), vec(N, low=3.0)),
                      (1.5, 3.5)]),
    (P.huberish, [(vec(N), 1.3), (vec(N), vec(N, low=1.0))]),
    (P.poly, [(vec(N),), (0.7,)]),
    (P.scalar_fn, [(0.3, 0.8), (0.9, 0.2)]),
    (P.cancel, [(vec(N, low=1.0),)]),
    (P.ones_grad, [(vec(N),)]),
    (P.product_sum, [(vec(N), vec(N)), (vec(N), vec(2, N))]),
]


@pytest.mark.parametrize("f, argsets", CASES, ids=[f.__name__ for f, _ in CASES])
def test_gradients_match_differences_in_both_branches(f, argsets):
    wrt = tuple(range(len(inspect.signature(f).parameters)))
    df = s2s_ad.grad(f, wrt=wrt)
    for args in argsets:
        got = df(*args)
        for k in wrt:
            want = numeric_grad(f, list(args), k)
            assert np.shape(got[k]) == np.shape(args[k])
            np.testing.assert_allclose(got[k], want, rtol=1e-5, atol=1e-6,
                                       err_msg=f"{f.__name__} d/d{k} at shapes "
                                               f"{[np.shape(a) for a in args]}")


@pytest.mark.parametrize("f", [P.logreg, P.bce_sum, P.mse])
def test_these_get_a_closed_form_where_facts_prove_one_shape(f):
    source = s2s_ad.derivative_source(s2s_ad.grad(f), *dict(CASES)[f][0])
    assert "closed form" in source and "if " not in source and "else:" not in source


def test_a_sweep_as_short_as_the_closed_form_stays():
    """The sigmoid's `1.0 / u` adjoint reads its result alone (`* s * s`, not `/ u`), so
    the plain sweep of sum(sigmoid(x)**2) is four array operations in place, no more than
    the closed form's: the pass keeps it (it rewrites only what gets cheaper)."""
    source = s2s_ad.derivative_source(s2s_ad.grad(P.sigmoid_sum), *dict(CASES)[P.sigmoid_sum][0])
    assert "closed form" not in source and "if " not in source, source
    assert "x_bar *= s\n" in source, source


def test_softplus_of_arrays_of_one_shape_is_one_straight_sweep():
    """The plain sweep is already what a closed form would write (one exp, one division,
    one product, in place): no test of shapes and no second copy either way."""
    source = s2s_ad.derivative_source(s2s_ad.grad(P.softplus), *dict(CASES)[P.softplus][1])
    assert "if " not in source and "else:" not in source and "unbroadcast" not in source
    code = [line for line in source.splitlines() if not line.strip().startswith("#")]
    assert sum(line.count("np.exp(") for line in code) == 1


def test_logistic_regression_reads_like_the_hand_written_gradient():
    source = s2s_ad.derivative_source(s2s_ad.grad(P.logreg), *CASES[0][1][0])
    # the sigmoid built in X @ w's array (its chain reversed as one primitive reads no
    # exp: ad/composites.py), p - y and its division, then the product
    assert "p_part = np.negative(t1_0, out=t1_0)" in source and "p - y" in source \
        and "_operand @ X" in source and "matmul_adjoint" not in source
    assert "unbroadcast" not in source and "1.0 - y" not in source


@pytest.mark.parametrize("f", [P.logreg, P.bce_sum, P.mse])
def test_the_general_derivative_keeps_the_sweep_without_a_shape_test(f):
    """Shapes of several arrays the general derivative cannot know: no closed form, and
    no run-time test choosing between two copies of the sweep."""
    df = s2s_ad.grad(f)
    source = s2s_ad.derivative_source(general_derivative(df))
    assert "closed form" not in source and "if " not in source


def test_one_array_needs_no_shape_test():
    """Values numpy computed elementwise from one array have its shape by construction:
    the general derivative gets the closed form too."""
    df = s2s_ad.grad(P.sigmoid_sum)
    source = s2s_ad.derivative_source(general_derivative(df))
    assert "closed form" in source and "if " not in source


@pytest.mark.parametrize("f", [P.with_noise, P.in_loop])
def test_not_used_with_effects_or_loops(f):
    assert "closed form" not in s2s_ad.derivative_source(s2s_ad.grad(f))


def test_a_gradient_is_never_the_callers_array():
    x, y = vec(N), vec(N)
    gx, gy = s2s_ad.grad(P.product_sum, wrt=(0, 1))(x, y)
    np.testing.assert_allclose(gy, x)
    assert gy is not x and gx is not y
    gy *= 2.0
    np.testing.assert_allclose(gx, y)


def test_second_derivatives_through_the_shape_test():
    w, X, y = vec(D), vec(N, D), (vec(N) > 0) * 1.0
    g = s2s_ad.grad(P.logreg)
    v = vec(D)
    eps = 1e-6
    want = (g(w + eps * v, X, y) - g(w - eps * v, X, y)) / (2 * eps)
    np.testing.assert_allclose(s2s_ad.hvp(P.logreg)(w, X, y, v), want, atol=1e-6)
    gg = s2s_ad.grad(s2s_ad.grad(P.scalar_fn))
    want = numeric_grad(lambda x: s2s_ad.grad(P.scalar_fn)(x, 0.8), [0.3], 0)
    assert gg(0.3, 0.8) == pytest.approx(want, rel=1e-6)


def test_value_and_grad_keeps_the_value():
    w, X, y = vec(D), vec(N, D), (vec(N) > 0) * 1.0
    value, grad = s2s_ad.value_and_grad(P.logreg)(w, X, y)
    assert value == pytest.approx(P.logreg(w, X, y))
    np.testing.assert_allclose(grad, s2s_ad.grad(P.logreg)(w, X, y))


def test_a_wrong_closed_form_is_caught_and_not_used(monkeypatch):
    """The exact check at random points is the safety net for the algebra."""
    real = closed_form_render.Renderer.render

    def off_by_one(self, value, earlier=()):
        expr, cost = real(self, value, earlier)
        return gast.BinOp(left=expr, op=gast.Add(), right=gast.Constant(1.0, None)), cost

    monkeypatch.setattr(closed_form_render.Renderer, "render", off_by_one)

    def loss(z, y):
        p = 1.0 / (1.0 + np.exp(-z))
        return -np.sum(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))
    df = s2s_ad.grad(loss)
    assert "closed form" not in s2s_ad.derivative_source(df)
    z, y = vec(N), vec(N, low=0.1)
    np.testing.assert_allclose(df(z, y), numeric_grad(loss, [z, y], 0), atol=1e-6)


# ---- the algebra ----------------------------------------------------------------------
def r(poly):
    return poly, rational.const(1)


def test_one_minus_a_sigmoid_cancels_to_a_short_fraction():
    field = rational.Field()
    e = r(rational.atom("e"))
    one = r(rational.const(1))
    p = field.div(one, field.add(one, e))
    assert field.sub(one, p) == (rational.atom("e"), rational.add(rational.const(1),
                                                                  rational.atom("e")))


def test_division_with_remainder():
    y, e = rational.atom("y"), rational.atom("e")
    one = rational.const(1)
    num = rational.add(rational.add(one, rational.scale(y, -1)),
                       rational.scale(rational.mul(y, e), -1))          # 1 - y - y e
    q, rem = rational.divide(num, rational.add(one, e))
    assert q == rational.scale(y, -1) and rem == one


def test_the_exact_check_rejects_a_different_function():
    def run(expr):
        tree = gast.parse(expr).body[0].value
        return lambda env: [closed_form_render.evaluate(tree, env, None)]
    assert closed_form_render.agree(run("(a - b) * (a + b)"), run("a * a - b * b"), {"a", "b"})
    assert not closed_form_render.agree(run("(a - b) * (a + b)"), run("a * a + b * b"),
                                        {"a", "b"})


def test_boolean_arrays_take_the_general_sweep():
    """numpy's + on booleans is `or`: a closed form must never see them."""
    w, X = vec(D), vec(N, D)
    labels = vec(N) > 0
    g = s2s_ad.grad(P.logreg)
    np.testing.assert_allclose(g(w, X, labels), g(w, X, labels * 1.0))

    def masked(x, m):
        return np.sum((x + m) * (x + m) + m * x)
    x, m = vec(N), vec(N) > 0
    got = s2s_ad.grad(masked)(x, m)
    np.testing.assert_allclose(got, numeric_grad(masked, [x, m], 0), atol=1e-6)
    assert got.dtype == np.float64


def test_long_product_chains_are_left_to_the_general_sweep():
    """(x + 1)(x + 2)... would double its terms per factor: the algebra gives up early
    (rational.MAX_TERMS) instead of taking minutes."""
    def chain(x, y):
        z = x + y
        for_each = (z + 1.0) * (z + 2.0) * (x + 3.0) * (y + 4.0) * (x - y) * (x + 2.0 * y)
        more = for_each * (z - 1.0) * (x * y + 1.0) * (x - 2.0) * (y - 3.0) * (z + x)
        return np.sum(more * more * (x + y * y))
    df = s2s_ad.grad(chain, wrt=(0, 1))
    x, y = vec(N) * 0.3, vec(N) * 0.3
    got = df(x, y)
    for k in (0, 1):
        np.testing.assert_allclose(got[k], numeric_grad(chain, [x, y], k), rtol=1e-5, atol=1e-5)


def test_ratio_is_a_constant_multiple_and_degrees_add_in_products():
    x, y, one = rational.atom("x"), rational.atom("y"), rational.const(1)
    xy, den = rational.mul(x, y), rational.add(one, x)
    assert rational.ratio((rational.scale(xy, 2), den), (xy, den)) == 2
    assert rational.ratio((xy, y), (x, one)) == 1                     # x y / y is x
    assert rational.ratio((rational.mul(x, x), one), (xy, one)) is None
    assert rational.ratio((xy, den), (xy, one)) is None
    product = rational.mul(rational.add(x, one), rational.add(xy, y))
    assert rational.degrees(product) == rational.plus(
        rational.degrees(rational.add(x, one)), rational.degrees(rational.add(xy, y))) \
        == (3, {"x": 2, "y": 1})


def test_forward_names_multiplies_out_only_pairs_of_the_right_degrees(monkeypatch):
    """value = 3 z y with z = x e among 40 forward values of other atoms: found as
    3.0 * (z * y), and only pairs whose degrees match are multiplied out (every pair was:
    seconds for a Runge-Kutta step's tangents)."""
    from s2s_ad.ir import build
    from s2s_ad.optimize.closed_form_names import through_forward_names
    x, e, y = rational.atom("x"), rational.atom("e"), rational.atom("y")
    names = {f"v{k}": r(rational.mul(rational.atom(f"a{k}"), rational.atom(f"b{k}")))
             for k in range(39)}
    names["z"] = r(rational.mul(x, e))
    value = (rational.scale(rational.mul(rational.mul(x, e), y), 3), rational.const(1))
    calls = []
    real_mul = rational.mul
    monkeypatch.setattr(rational, "mul", lambda a, b: calls.append(1) or real_mul(a, b))
    found = through_forward_names(value, names, set(), build.name)
    texts = {ast.unparse(gast.gast_to_ast(gast.Expression(body=f))) for f in found}
    assert "3.0 * (z * y)" in texts
    assert len(calls) < 200          # 3,400 when every pair was multiplied out


def mean_by_len(w, X, y):
    """A Huber loss averaged the way many users write it: a sum over len(y)."""
    a = np.abs(X @ w - y)
    q = np.minimum(a, 1.35)
    return np.sum(0.5 * q * q + 1.35 * (a - q)) / len(y)


def len_of_a_number(x, s):
    """len of a float raises: the call is not pure, and f's TypeError stays."""
    return np.sum(x * x) / len(s)


def test_len_of_an_array_is_a_number_the_closed_form_reads():
    """`len(y)` of an array of rank >= 1 has no effect (PassFacts.pure_call): the forward
    sweep stays pure single assignments and the closed form applies, as with y.size."""
    args = (vec(D), vec(N, D) * 2.0, vec(N) * 2.0)
    source = s2s_ad.derivative_source(s2s_ad.grad(mean_by_len), *args)
    assert "closed form" in source and "kink_share" not in source and "sign(" not in source
    np.testing.assert_allclose(s2s_ad.grad(mean_by_len)(*args),
                               numeric_grad(mean_by_len, args, 0), rtol=1e-5, atol=1e-7)
    with pytest.raises(TypeError):
        s2s_ad.grad(len_of_a_number)(vec(N), 2.0)
