"""Programs written the way users write them (after autograd's, JAX's and Tangent's tests
and examples) that crashed, were refused or gave an unclear error in session 22, each
checked against central differences on both derivative paths where it now works.

- `sorted(d)`, `max(d)`, `min(d)` of any dict go over its keys (a local dict's values were
  sorted and used as keys: KeyError in the derivative; python_calls._keys_if_mapping).
- `Adder(k).apply(x)`: a method of an object made in the expression (was refused as an
  array method; calls.py).
- np.isclose / signbit / isposinf / isneginf carry no derivative (jvp, hvp refused them),
  np.fix is piecewise constant (templates/nondifferentiable.py).
- grad of f with an array output that does not depend on x: NonScalarOutputError (was
  zeros; ad/backward_walk.py).
- scipy.linalg.solve_triangular (templates/scipy_linalg.py), nested defs with *args /
  **kwargs (transforms/inline.py), a tangent unlike its argument (calling_order.py), an
  hvp file reading scipy.linalg under a second name (backend/standalone.py).
- Errors located at the user's call, not inside s2s_ad: third order through np.prod,
  s2s_ad.jacobian / hessian called in f and differentiated again (helper_derivatives.py)."""
import re
from dataclasses import dataclass

import numpy as np
import pytest

import s2s_ad

from derivative_paths import PATHS, check_against_differences
from gradcheck import numeric_grad

X = np.array([0.3, -0.8, 1.1])


def weighted_by_sorted_keys(x):
    scores = {"b": x[0] * x[1], "a": x[2] ** 2, "c": np.sin(x[0])}
    weights = {"a": 1.0, "b": 2.0, "c": 3.0}
    return sum(scores[k] * weights[k] for k in sorted(scores))


def largest_and_smallest_key(x):
    scores = {"b": x[0] * x[1], "a": x[2] ** 2, "c": np.sin(x[0])}
    return scores[max(scores)] * scores[min(scores)]


def ranked_integer_keys(x):
    by_step = {2: x[0] ** 2, 0: x[1] * x[2], 1: np.exp(x[2])}
    total = 0.0
    for rank, step in enumerate(sorted(by_step, reverse=True)):
        total = total + (rank + 1.0) * by_step[step]
    return total


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [weighted_by_sorted_keys, largest_and_smallest_key,
                               ranked_integer_keys])
def test_sorted_max_min_of_a_local_dict_go_over_its_keys(path, f):
    # was KeyError: 0 / KeyError: <a value> inside the derivative (runtime_flow.sorted_order)
    check_against_differences(path, f, X)


class Adder:
    def __init__(self, k):
        self.k = k

    def apply(self, x):
        return x + self.k * x ** 2


@dataclass
class Affine:
    a: float
    b: np.ndarray

    def at(self, x):
        return self.a * x + self.b

    def energy(self, x):
        return np.sum(self.at(x) ** 2)


def method_of_a_new_object(x):
    return np.sum(Adder(3.0).apply(x))


def method_of_an_object_built_from_x(x):
    return np.sum(Adder(x[0] * 2.0).apply(x) ** 2)


def methods_of_dataclasses_made_in_place(x):
    return Affine(x[1], x ** 2).energy(x) + Affine(2.0, x).at(x[2])[0]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [method_of_a_new_object, method_of_an_object_built_from_x,
                               methods_of_dataclasses_made_in_place])
def test_method_called_on_an_object_made_in_the_expression(path, f):
    # was "the array method `.apply()` is not supported" (a located refusal)
    check_against_differences(path, f, X)


def zero_near_the_origin(x):
    return np.sum(np.where(np.isclose(x, 0.0, atol=1e-3), 0.0, x ** 3))


def mirrored_by_sign_bit(x):
    return np.sum(np.where(np.signbit(x), -x, 2.0 * x) ** 3)


def infinities_masked(x):
    y = x ** 3
    return np.sum(np.where(np.isposinf(y) | np.isneginf(y), 0.0, y * x))


def quantised_weights(x):
    return np.sum(np.fix(4.0 * x) * x ** 2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [zero_near_the_origin, mirrored_by_sign_bit, infinities_masked,
                               quantised_weights])
def test_predicates_and_truncation_carry_no_derivative(path, f):
    # np.isclose / np.signbit / np.isposinf / np.isneginf had no forward-mode rule (jvp and
    # hvp refused them; grad did not need one), np.fix no rule at all
    check_against_differences(path, f, X)


def product_energy(x):
    return np.prod(x)


def squared_gradient_of_a_product(x):
    return np.sum(s2s_ad.grad(product_energy)(x) ** 2)


def test_third_order_through_prod():
    # session 22 refused the hvp (no derivative of the tangent helper of np.prod's
    # adjoint); session 23 gave it templates (runtime_products.py)
    x = np.array([0.3, -0.5, 0.7])
    np.testing.assert_allclose(s2s_ad.grad(squared_gradient_of_a_product)(x),
                               numeric_grad(squared_gradient_of_a_product, (x,), 0),
                               rtol=1e-6, atol=1e-8)
    v = np.array([1.0, -0.5, 0.25])
    g = s2s_ad.grad(squared_gradient_of_a_product)
    np.testing.assert_allclose(s2s_ad.hvp(squared_gradient_of_a_product)(x, v),
                               (g(x + 1e-5 * v) - g(x - 1e-5 * v)) / 2e-5,
                               rtol=1e-5, atol=1e-8)


def constant_table(x):
    return np.array([1, 2]) * 0.5 + 1


def constant_number(x):
    scale = np.sum(np.ones(3))
    return scale * 2.0


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_an_array_output_that_does_not_depend_on_x_is_refused(path):
    # grad returned zeros (silently) when the array output did not depend on x
    from derivative_paths import grad_on
    # (specialised: when built, at the return; general: when run, with its shape)
    with pytest.raises(s2s_ad.NonScalarOutputError, match=r"shape \(2,\)|array of 1 dim"):
        grad_on(path, constant_table)(X)
    # a scalar output that does not depend on x has the zero gradient, as in JAX
    np.testing.assert_array_equal(grad_on(path, constant_number)(X), np.zeros(3))


@dataclass
class Dense:
    W: np.ndarray
    b: np.ndarray

    def __call__(self, x):
        return self.W @ x + self.b


def dense_loss(model):
    return np.sum(np.tanh(model(np.array([0.5, -1.0, 2.0]))) ** 2)


def weights_loss(params):
    return np.sum(params["w"] ** 2) * np.sum(params["layers"][1] ** 3)


def test_a_tangent_unlike_its_argument_is_an_api_error_naming_it():
    # a float tangent for a model failed inside the generated code (`0.5 @ x`), a dict's
    # tangent without its key with KeyError
    model = Dense(np.full((2, 3), 0.1), np.zeros(2))
    jvp = s2s_ad.jvp(dense_loss)
    for bad, said in [(0.5, "is a float, but `model` is a Dense"),
                      (np.ones(3), "is an array of shape (3,), but `model` is a Dense")]:
        with pytest.raises(s2s_ad.APIUsageError, match=re.escape("the tangent for `model` " + said)):
            jvp(model, bad)
    value, tangent = jvp(model, Dense(np.ones((2, 3)), np.ones(2)))
    assert np.isclose(value, dense_loss(model))
    assert np.isclose(jvp(model, {"W": np.ones((2, 3)), "b": np.ones(2)})[1], tangent)
    params = {"w": np.ones(2), "layers": [np.ones(3), np.full(2, 0.5)]}
    jvp = s2s_ad.jvp(weights_loss)
    for bad, said in [({"w": np.ones(2)}, "`params` has no key 'layers'"),
                      ({"w": np.ones(2), "layers": [np.ones(3)]},
                       r"`params\['layers'\]` is a list of 1 items, but"),
                      ({"w": np.ones(2), "layers": [np.ones(3), np.ones(3)]},
                       r"`params\['layers'\]\[1\]` has shape \(3,\), but")]:
        with pytest.raises(s2s_ad.APIUsageError, match=said):
            jvp(params, bad)
    good = {"w": np.ones(2), "layers": [np.zeros(3), np.ones(2)]}
    np.testing.assert_allclose(jvp(params, good)[1], 4.0 * 0.25 + 2.0 * 3 * 0.25 * 2,
                               rtol=1e-12)


def gp_negative_log_marginal(log_scales):
    from scipy.linalg import solve_triangular
    t = np.linspace(0.0, 1.0, 4)
    y = np.array([0.2, -0.1, 0.4, 0.3])
    K = np.exp(log_scales[0]) * np.exp(-0.5 * (t[:, None] - t[None, :]) ** 2
                                       / np.exp(2 * log_scales[1])) + 0.1 * np.eye(4)
    L = np.linalg.cholesky(K)
    alpha = solve_triangular(L.T, solve_triangular(L, y, lower=True), lower=False)
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))


@pytest.mark.parametrize("path", PATHS)
def test_gaussian_process_through_triangular_solves(path):
    # was "no derivative is known for `scipy.linalg.solve_triangular`"
    check_against_differences(path, gp_negative_log_marginal, np.array([0.3, -0.5]))


def nested_sum_of_squares(x):
    def total(*vals):
        return sum(v ** 2 for v in vals)
    return total(x[0], x[1], x[2]) + total(x[0] * x[1])


def nested_weighted_items(x):
    def weighted(w, *vals):
        s = 0.0
        for k, v in enumerate(vals):
            s = s + w * (k + 1) * np.sin(v)
        return s + len(vals)
    return weighted(x[2], x[0], x[1]) * weighted(2.0)


def nested_keywords(x):
    def scaled(a, **options):
        return a * options["b"] + options.get("c", 1.0) * a
    return scaled(x[0], b=x[1]) + scaled(x[2], b=x[0], c=x[1])


def nested_spread(x):
    def total(*vals):
        return sum(v ** 2 for v in vals)
    return total(*x)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [nested_sum_of_squares, nested_weighted_items, nested_keywords])
def test_nested_defs_with_star_parameters(path, f):
    # were refused ("a `*args` parameter is differentiated for a given number of items,
    # which only a call tells"), though the call inside f writes its items out
    check_against_differences(path, f, X)


def test_nested_star_parameters_given_a_spread_value_is_a_located_error():
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(nested_spread)(X)
    message = str(info.value)
    assert "given items spread from a value" in message and "return total(*x)" in message
    assert "^" in message


def bumpy(x):
    return np.sum(np.sin(x) * x ** 2)


def trace_of_the_hessian(x):
    return np.trace(s2s_ad.hessian(bumpy)(x))


def sum_of_the_jacobian(x):
    return np.sum(s2s_ad.jacobian(bumpy)(x))


@pytest.mark.parametrize("f", [trace_of_the_hessian, sum_of_the_jacobian])
def test_differentiating_a_jacobian_or_hessian_taken_in_f(f):
    # refused in session 22 (a located error at the call); session 23 differentiates the
    # transform's twin (s2s_ad/transform_twins.py)
    np.testing.assert_allclose(s2s_ad.grad(f)(X), numeric_grad(f, (X,), 0),
                               rtol=1e-5, atol=1e-7)


CHOLESKY_THEN_TRIANGULAR = '''
import numpy as np
from scipy.linalg import solve_triangular


def loss(a, y):
    L = np.linalg.cholesky(a @ a.T + np.eye(2))
    return np.sum(solve_triangular(L, y, lower=True) ** 2)
'''


def test_cli_hvp_reads_a_template_module_bound_under_a_second_name(tmp_path):
    # the gradient binds scipy.linalg as linalg_1 (numpy's linalg is `linalg`); the hvp
    # file, a derivative of it, failed: "`linalg_1` is not defined in user_model"
    import importlib
    import subprocess
    import sys
    (tmp_path / "user_model.py").write_text(CHOLESKY_THEN_TRIANGULAR)
    done = subprocess.run([sys.executable, "-m", "s2s_ad", "hvp", "user_model.py:loss", "-o",
                           "hvp_user_model.py"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        model = importlib.import_module("user_model")
        written = importlib.import_module("hvp_user_model")
    finally:
        sys.path.remove(str(tmp_path))
    a, y = np.array([[1.0, 0.3], [0.2, 0.8]]), np.array([0.5, -1.0])
    v = np.array([[0.3, 0.1], [-0.2, 0.5]])
    first = s2s_ad.grad(model.loss)
    expected = (first(a + 1e-5 * v, y) - first(a - 1e-5 * v, y)) / 2e-5
    np.testing.assert_allclose(written.hvp_loss(a, y, v), expected, rtol=1e-5, atol=1e-7)
