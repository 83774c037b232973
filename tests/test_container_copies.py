"""`d.copy()` of a dict (and `xs.copy()` of a list) argument, as JAX and autograd users
write it: the derivative specialised on the arguments' kinds copies the container
(transforms/container_copies.py); session 21 refused it with a located error ("write
dict(d)"), which the general derivative, not knowing the kind, still gives."""
import numpy as np
import pytest

import s2s_ad
from derivative_paths import central_difference, grad_on, hvp_on, jvp_on

W = np.array([[0.5, -0.3], [0.2, 0.8], [-0.6, 0.1]])


def updated_params(params, x):
    p = params.copy()
    p["W"] = p["W"] * 0.9 + 0.1 * np.tanh(p["W"])
    p["b"] = p["b"] + 0.5 * params["b"] ** 2
    return np.sum(np.tanh(p["W"] @ x + p["b"]) ** 2) + 0.1 * np.sum(params["W"] ** 2)


def _flat(params):
    return np.concatenate([params["W"].ravel(), params["b"]])


def _params(v):
    return {"W": v[:6].reshape(3, 2), "b": v[6:]}


def test_copy_of_a_dict_argument_specialised():
    x = np.array([0.7, -1.2])
    params = {"W": W.copy(), "b": np.array([0.1, -0.2, 0.3])}
    before = {k: v.copy() for k, v in params.items()}
    loss = lambda v: updated_params(_params(v), x)       # noqa: E731
    v0 = _flat(params)
    expected = np.array([central_difference(loss, v0, e) for e in np.eye(v0.size)])
    assert np.abs(expected).max() > 0.1
    g = s2s_ad.grad(updated_params)(params, x)
    assert set(g) == {"W", "b"} and g["W"].shape == (3, 2)
    np.testing.assert_allclose(_flat(g), expected, rtol=1e-6, atol=1e-8)
    for k in params:                     # the copy's writes never reach the argument
        np.testing.assert_array_equal(params[k], before[k])
    direction = _params(np.linspace(-1.0, 1.0, 9))
    value, tangent = jvp_on("specialised", updated_params, (params, x), direction)
    np.testing.assert_allclose(value, updated_params(params, x), rtol=1e-12)
    np.testing.assert_allclose(tangent, expected @ _flat(direction), rtol=1e-6, atol=1e-8)
    first = lambda v: _flat(s2s_ad.grad(updated_params)(_params(v), x))    # noqa: E731
    second = central_difference(first, v0, _flat(direction))
    np.testing.assert_allclose(_flat(hvp_on("specialised", updated_params, (params, x),
                                            direction)), second, rtol=1e-5, atol=1e-7)


def test_the_general_derivative_still_refuses_it_with_a_located_error():
    params = {"W": W.copy(), "b": np.array([0.1, -0.2, 0.3])}
    with pytest.raises(s2s_ad.errors.UnsupportedSyntaxError) as info:
        grad_on("general", updated_params)(params, np.array([0.7, -1.2]))
    assert "p = params.copy()" in str(info.value) and "dict(d)" in str(info.value)


def test_the_generated_code_copies_the_dict():
    params = {"W": W.copy(), "b": np.array([0.1, -0.2, 0.3])}
    source = s2s_ad.derivative_source(s2s_ad.grad(updated_params), params, np.ones(2))
    assert "copied(params, False)" in source and "np.copy(params)" not in source
