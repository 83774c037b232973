"""A loop over a list or tuple of objects of several classes is unrolled, one copy of the
body per item with its class known (transforms/item_unrolling.py): no test of each item's
class when the code runs, and the first layer's vjp is built for what flows into it (the
data x needs no adjoint). Loops that may change the list, leave early or leak their
variable stay loops. Every gradient is checked against central differences, in the
model (grad) and in the input (the Hessian-vector product through the same calls)."""
import gast
import numpy as np
import pytest

import s2s_ad
from paths import fresh
from test_module_classes import Linear, Module, Sequential, Tanh, X, Y, loss
from s2s_ad.transforms.item_unrolling import MAX_ITEMS, unroll_item_loops
from s2s_ad.analyses.call_kinds import known_functions
from s2s_ad.frontend.parse import parse
from s2s_ad.signature import signature_of

RS = np.random.RandomState(19)


class Chain(Module):
    """Layers in a tuple, with a skip connection around them."""

    def __init__(self, *layers):
        self.layers = tuple(layers)

    def forward(self, x):
        x0 = x
        for layer in self.layers:
            x = layer(x)
        return x + 0.1 * np.sum(x0)


class Leaky(Module):
    """A loop whose variable is read after it: the last layer, kept a loop."""

    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x * np.sum(layer.W) if hasattr(layer, "W") else x


def run_layers(layers, x):
    for layer in layers:
        x = layer(x)
    return np.sum(x ** 2)


def _model_leaves(model):
    """The model's float arrays, in a fixed order (for central differences)."""
    out = []
    for layer in model.layers:
        for name in ("W", "b"):
            if hasattr(layer, name):
                out.append((layer, name))
    return out


def _assert_model_gradient(g, f, model, *args, atol=1e-6):
    for (layer, name), (glayer, _) in zip(_model_leaves(model), _model_leaves(g)):
        value = getattr(layer, name)
        want = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            keep = value[index]
            value[index] = keep + 1e-6
            up = f(model, *args)
            value[index] = keep - 1e-6
            down = f(model, *args)
            value[index] = keep
            want[index] = (up - down) / 2e-6
        np.testing.assert_allclose(getattr(glayer, name), want, atol=atol)


def _source_with_helpers(df, *args):
    from s2s_ad.derivative_registry import dispatcher_of
    import inspect
    dispatcher = dispatcher_of(inspect.unwrap(df))
    function = dispatcher.specialisation(dispatcher.signature_for(args, {}))
    seen, sources = set(), []

    def visit(fn):
        cells = dict(zip(fn.__code__.co_freevars, [c.cell_contents for c in fn.__closure__ or ()]))
        for value in cells.values():
            code = getattr(value, "__code__", None)
            if code is not None and value.__name__.startswith(("fwd_", "bwd_", "vjp_")) \
                    and value not in seen:
                seen.add(value)
                sources.append(inspect.getsource(value))
                visit(value)
    visit(function)
    return "\n".join(sources)


def test_a_sequential_of_several_classes_is_unrolled():
    model = Sequential(Linear(3, 4), Tanh(), Linear(4, 2))
    f = fresh(loss)
    df = s2s_ad.grad(f)
    _assert_model_gradient(df(model, X, Y), loss, model, X, Y)
    helpers = _source_with_helpers(df, model, X, Y)
    # each item's class known: no run-time test of it, no tape of which branch ran
    assert "has_class" not in helpers and "as_instance" not in helpers, helpers
    # the first Linear's vjp is w.r.t. the layer only: x is data
    assert "_self(" in helpers


@pytest.mark.parametrize("make", [
    lambda: Chain(Linear(3, 4), Tanh(), Linear(4, 4), Tanh()),
    lambda: Sequential(Tanh(), Linear(3, 2)),
])
def test_unrolled_gradients_stay_right(make):
    model = make()
    g = s2s_ad.grad(fresh(loss))(model, X, Y[:, :2] if isinstance(model, Sequential) else
                                 np.hstack([Y, Y]))
    y = Y[:, :2] if isinstance(model, Sequential) else np.hstack([Y, Y])
    _assert_model_gradient(g, loss, model, X, y)


def test_the_hessian_in_the_input_through_the_unrolled_calls():
    model = Sequential(Linear(3, 4), Tanh(), Linear(4, 2))
    f = fresh(loss)
    v = RS.randn(*X.shape)
    got = s2s_ad.hvp(f, wrt=1)(model, X, Y, v)
    g = s2s_ad.grad(loss, wrt=1)
    want = (g(model, X + 1e-5 * v, Y) - g(model, X - 1e-5 * v, Y)) / 2e-5
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-8)


def test_a_list_argument_of_layers():
    layers = [Linear(3, 4), Tanh(), Linear(4, 2)]
    f = fresh(run_layers)
    g = s2s_ad.grad(f, wrt=1)(layers, X)
    eps, want = 1e-6, np.zeros_like(X)
    for index in np.ndindex(X.shape):
        d = np.zeros_like(X)
        d[index] = eps
        want[index] = (run_layers(layers, X + d) - run_layers(layers, X - d)) / (2 * eps)
    np.testing.assert_allclose(g, want, atol=1e-6)


def test_what_is_unrolled_and_what_is_not():
    model = Sequential(Linear(3, 4), Tanh(), Linear(4, 2))
    functions = known_functions(tuple(zip(("self", "x"), signature_of([model, X]))))
    parsed = parse(Sequential.forward)
    unrolled = unroll_item_loops(parsed, functions)
    assert unrolled is not parsed and parsed.tree is not unrolled.tree
    assert not any(isinstance(n, gast.For) for n in gast.walk(unrolled.tree))
    assert any(isinstance(n, gast.For) for n in gast.walk(parsed.tree))   # (not changed)
    # the variable read after the loop: a loop
    leaky = Leaky(Linear(3, 4), Tanh(), Linear(4, 2))
    functions = known_functions(tuple(zip(("self", "x"), signature_of([leaky, X]))))
    kept = unroll_item_loops(parse(Leaky.forward), functions)
    assert any(isinstance(n, gast.For) for n in gast.walk(kept.tree))
    # one class for every item: nothing to unroll
    same = Sequential(Linear(3, 3), Linear(3, 3))
    functions = known_functions(tuple(zip(("self", "x"), signature_of([same, X]))))
    assert unroll_item_loops(parsed, functions) is parsed
    # too many items
    many = Sequential(*[Linear(3, 3) if k % 2 else Tanh() for k in range(MAX_ITEMS + 1)])
    functions = known_functions(tuple(zip(("self", "x"), signature_of([many, X]))))
    assert unroll_item_loops(parsed, functions) is parsed


def test_a_leaky_loop_variable_keeps_the_loop_and_the_gradient():
    model = Leaky(Linear(3, 4), Tanh(), Linear(4, 2))

    def leaky_loss(m, x, y):
        return np.mean((m(x) - y) ** 2)
    g = s2s_ad.grad(leaky_loss)(model, X, Y)
    _assert_model_gradient(g, leaky_loss, model, X, Y)


def test_what_a_model_returns_is_known_through_nested_module_calls():
    """loss -> Module.__call__(Sequential) -> Sequential.forward -> Module.__call__(Linear)
    -> Linear.forward: the facts follow the chain (Module.__call__ met again for other
    kinds is no recursion), so the loss's own gradient needs no unbroadcast of the
    model's output."""
    from s2s_ad import pipeline
    from s2s_ad.analyses.call_kinds import helper_results
    from s2s_ad.derivative_cache import DerivativeCache
    from s2s_ad.frontend.star_params import fixed_arity
    from s2s_ad.signature import Num
    model = Sequential(Linear(3, 4), Tanh(), Linear(4, 2))
    cache = DerivativeCache()
    results = helper_results(lambda f, functions=None: pipeline._front(cache, f, functions))
    kinds = dict(zip(("self", "args_0"), signature_of([model, X])))
    assert results(fixed_arity(Module.__call__, 1), kinds) == \
        Num(np.ndarray, "float64", (None, None))
    f = fresh(loss)
    df = s2s_ad.grad(f)
    source = s2s_ad.derivative_source(df, model, X, Y)
    assert "unbroadcast" not in source and "reduced_count" not in source, source


class Collect(Module):
    """Every layer's output kept in a list (feature pyramids, skip connections)."""

    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        outs = []
        for layer in self.layers:
            x = layer(x)
            outs.append(x)
        return outs


def collected_loss(model, x):
    return sum(np.sum(o * o) for o in model(x))


def test_outputs_collected_in_a_list_are_no_alias_of_it():
    """The list holds the first layer's output, which may view that layer's arrays: the
    next layer's output may view its own layer's, but is no item of the list, so an
    append to the list does not change it (this was a false "`outs` holds the same list
    as `x_2`" error)."""
    model = Collect(Linear(3, 4), Tanh(), Linear(4, 2))
    g = s2s_ad.grad(fresh(collected_loss), wrt=(0, 1))(model, X)
    _assert_model_gradient(g[0], collected_loss, model, X)
    want = np.zeros_like(X)
    for index in np.ndindex(X.shape):
        d = np.zeros_like(X)
        d[index] = 1e-6
        want[index] = (collected_loss(model, X + d) - collected_loss(model, X - d)) / 2e-6
    np.testing.assert_allclose(g[1], want, atol=1e-6)


def _countdown(x, n):
    """Recursive: its kind depends on how deep the facts may follow it."""
    if n <= 0:
        return x
    return _countdown(np.tanh(x), n - 1)


def test_answers_no_limit_cut_short_are_shared_by_the_helpers_of_a_derivation():
    """The kinds a helper returns, worked out once, serve every helper derivative of the
    same derivation (each layer's vjp meets the model's calls again); an answer a depth
    limit or recursion cut short depends on where it was asked, and is not shared."""
    from s2s_ad import pipeline
    from s2s_ad.analyses.call_kinds import helper_results
    from s2s_ad.derivative_cache import DerivativeCache
    from s2s_ad.frontend.star_params import fixed_arity
    from s2s_ad.signature import Num
    cache = DerivativeCache()
    front = lambda f, functions=None: pipeline._front(cache, f, functions)   # noqa: E731
    exact = {}
    layer = Linear(3, 4)
    kinds = dict(zip(("self", "args_0"), signature_of([layer, X])))
    call = fixed_arity(Module.__call__, 1)
    assert helper_results(front, exact=exact)(call, kinds) == \
        Num(np.ndarray, "float64", (None, None))
    assert (call, tuple(kinds.items())) in exact            # Linear.forward's too
    assert any(key[0] is Linear.forward for key in exact)
    # a second derivation's analysis reads it without working it out again
    again = helper_results(lambda f, functions=None: pytest.fail("worked out again"),
                           exact=exact)
    assert again(call, kinds) == Num(np.ndarray, "float64", (None, None))
    # recursion is cut short: its answer stays out
    rec = dict(zip(("x", "n"), signature_of([X, 3])))
    helper_results(front, exact=exact)(_countdown, rec)
    assert (_countdown, tuple(rec.items())) not in exact
