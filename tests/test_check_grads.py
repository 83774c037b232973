"""s2s_ad.check_grads against deliberately broken templates."""
import numpy as np
import pytest

import s2s_ad
from s2s_ad import adjoint, d


def tanh_loss(w, X):
    return np.sum(np.tanh(X @ w))


def vector_valued(x, w):
    return np.sin(x * w)


def wrong_square(x):
    return x * x


@adjoint(wrong_square)
def wrong_square_adjoint(y, x):
    """deliberately wrong: the true derivative is 2x"""
    d[x] += d[y] * 3.0 * x


def uses_wrong(x, w):
    return np.sum(wrong_square(x) * w)


def test_passes_on_correct_gradients():
    rng = np.random.default_rng(0)
    assert s2s_ad.check_grads(tanh_loss, rng.standard_normal(3), rng.standard_normal((4, 3))) \
        is None
    s2s_ad.check_grads(vector_valued, rng.standard_normal(3), rng.standard_normal(3),
                       wrt=(0, 1))


def test_reports_the_largest_discrepancy_and_its_argument():
    x = np.array([0.5, -2.0, 1.0])
    with pytest.raises(s2s_ad.GradientCheckError) as info:
        s2s_ad.check_grads(uses_wrong, x, np.ones(3), wrt=(1, 0))
    message = str(info.value)
    assert "argument 'x'" in message and "index (1,)" in message
    assert isinstance(info.value, AssertionError)



def slope_of_cube(x):
    return 3.0 * x * x


def cube(x):
    return x * x * x


@adjoint(cube)
def cube_adjoint(y, x):
    """right: d cube = 3 x^2 dx, through a primitive of its own"""
    d[x] += d[y] * slope_of_cube(x)


@adjoint(slope_of_cube)
def slope_of_cube_adjoint(y, x):
    d[x] += d[y] * 6.0 * x


@s2s_ad.tangent(slope_of_cube)
def slope_of_cube_tangent(y, x):
    """deliberately wrong: the true tangent is 6 x dx"""
    d[y] = d[x] * 5.0 * x


@s2s_ad.tangent(cube)
def cube_tangent(y, x):
    d[y] = d[x] * slope_of_cube(x)


def uses_cube(x, w):
    return np.sum(cube(x) * w)


def test_second_order_checks_hessian_vector_products(both_paths):
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal(3), rng.standard_normal(3)
    s2s_ad.check_grads(uses_cube, x, w, order=1)          # first derivatives are right
    s2s_ad.check_grads(tanh_loss, rng.standard_normal(3), rng.standard_normal((4, 3)),
                       order=2)
    with pytest.raises(s2s_ad.GradientCheckError, match="second derivatives.*'x'"):
        s2s_ad.check_grads(uses_cube, x, w, order=2)
    with pytest.raises(s2s_ad.APIUsageError, match="order=3"):
        s2s_ad.check_grads(tanh_loss, x, np.ones((2, 3)), order=3)


def dict_model(params, x):
    return np.sum(np.tanh(x @ params["W"] + params["b"]) ** 2) + params["c"] ** 2


def list_model(ws, x):
    return np.sum(wrong_square(ws[1][0]) * x) + np.sum(ws[0] * x)


def dict_valued(x):
    return {"a": x * 2.0, "b": (np.sin(x), np.sum(x ** 2))}


def test_structured_arguments_and_outputs(both_paths):
    """A dict, list or tuple argument is checked element by element of what it holds (it
    used to be a TypeError from float(dict)); a dict output by the inner-product test."""
    rng = np.random.default_rng(4)
    params = {"W": rng.standard_normal((3, 2)), "b": rng.standard_normal(2), "c": 0.5}
    s2s_ad.check_grads(dict_model, params, rng.standard_normal((4, 3)), order=2)
    s2s_ad.check_grads(dict_valued, rng.standard_normal(3))
    ws = [rng.standard_normal(3), (rng.standard_normal(3),)]
    with pytest.raises(s2s_ad.GradientCheckError, match=r"argument 'ws'\[1\]\[0\] at index"):
        s2s_ad.check_grads(list_model, ws, rng.standard_normal(3))


class Dense:
    def __init__(self, rng, wrong=False):
        self.W = rng.standard_normal((3, 2))
        self.name = "dense"                  # not a number: not perturbed
        self.parts = [Bias(rng)]
        self.wrong = wrong


class Bias:
    def __init__(self, rng):
        self.b = rng.standard_normal(2)
        self.scale = 0.5


def object_model(layer, x):
    z = x @ layer.W + layer.parts[0].b * layer.parts[0].scale
    return np.sum(np.tanh(z)) + np.sum(wrong_square(layer.parts[0].b))


def object_model_right(layer, x):
    return np.sum(np.tanh(x @ layer.W + layer.parts[0].b * layer.parts[0].scale))


def test_object_arguments_by_their_attributes():
    """An object of the user's class is checked by the numbers and arrays its attributes
    hold, nested objects and lists too (it was a TypeError from float(object)); the
    discrepancy is named by its attribute path, and the caller's object is not changed."""
    rng = np.random.default_rng(5)
    layer, x = Dense(rng), rng.standard_normal((4, 3))
    W = layer.W.copy()
    s2s_ad.check_grads(object_model_right, layer, x, order=2)
    with pytest.raises(s2s_ad.GradientCheckError, match=r"argument 'layer'\.parts\[0\]\.b at"):
        s2s_ad.check_grads(object_model, layer, x)
    np.testing.assert_array_equal(layer.W, W)


class Config:
    """Numbers and arrays next to strings, None and functions at every depth."""

    def __init__(self, rng):
        self.w = rng.standard_normal(2)
        self.opts = {"alpha": 0.3, "mode": "fast", "tags": ("a", None, 2.0),
                     "inner": [{"beta": 1.5, "f": np.sin}, b"raw"]}
        self.sub = Bias(rng)
        self.sub.label = "bias"


def config_loss(c):
    return (c.opts["alpha"] * np.sum(c.w ** 2) + c.opts["tags"][2] * c.opts["inner"][0]["beta"]
            + np.sum(c.sub.b * c.sub.scale))


def config_loss_wrong(c):
    return config_loss(c) + wrong_square(c.opts["alpha"])


def dict_loss(d, x):
    return d["alpha"] * np.sum(x ** 2) + d["pair"][1] * 2.0


def test_non_numeric_leaves_are_skipped_at_every_depth(both_paths):
    """A string, None, bytes or a function inside a dict, list, tuple or nested object is
    neither perturbed nor compared (it was a bare ValueError from float("fast")); every
    number is still checked, and a wrong derivative is named by its path."""
    rng = np.random.default_rng(6)
    c = Config(rng)
    s2s_ad.check_grads(config_loss, c)
    with pytest.raises(s2s_ad.GradientCheckError, match=r"argument 'c'\.opts\['alpha'\]:"):
        s2s_ad.check_grads(config_loss_wrong, c)
    d = {"alpha": 0.3, "mode": "fast", "pair": ["p", 0.7], "none": None}
    s2s_ad.check_grads(dict_loss, d, rng.standard_normal(3), order=2)


def test_gradient_of_what_has_no_derivative_is_none(both_paths):
    """In a dict, list or tuple, a string, None or a function gets None as its gradient,
    as an object's attribute does (README); numbers get theirs."""
    d = {"alpha": 0.3, "mode": "fast", "pair": ["p", 0.7], "none": None, "f": np.sin}
    g = s2s_ad.grad(dict_loss)(d, np.array([1.0, 2.0]))
    assert g["mode"] is None and g["none"] is None and g["f"] is None
    assert g["pair"][0] is None and g["pair"][1] == 2.0 and g["alpha"] == 5.0
    c = s2s_ad.grad(config_loss)(Config(np.random.default_rng(1)))
    assert c.opts["mode"] is None and c.opts["tags"][:2] == (None, None)
    assert c.opts["inner"][0]["f"] is None and c.opts["inner"][1] is None
    assert c.sub.label is None and c.opts["tags"][2] == 1.5
