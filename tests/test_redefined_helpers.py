"""A helper redefined after its caller's derivative was built (a notebook cell run again):
the derivative is built again from the new helper, through the same function grad handed
out and through a new grad(f), on both paths and in forward mode. It used to apply the old
helper's derivative to the new helper's values: a wrong gradient without an error."""
import numpy as np

import s2s_ad
from s2s_ad.api import general_derivative
from gradcheck import numeric_grad

X = np.array([0.5, -1.0, 2.0])


def _module():
    """A fresh namespace where the helpers are globals, as in a user's module."""
    namespace = {"np": np}
    filename = _source_file()
    exec(compile(open(filename).read(), filename, "exec"), namespace)
    return namespace


def _source_file():
    """A file holding the module's source (s2s_ad reads f's source)."""
    import linecache
    import tempfile
    text = ("def act(z):\n    return z * z\n\n"
            "def inner(z):\n    return np.sin(z)\n\n"
            "def outer(z):\n    return inner(z) * 2.0\n\n"
            "def loss(x):\n    return np.sum(act(x) * 3.0)\n\n"
            "def chained(x):\n    return np.sum(outer(x) * x)\n")
    handle = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    handle.write(text)
    handle.close()
    linecache.checkcache(handle.name)
    return handle.name


def test_the_same_derivative_follows_a_redefined_helper():
    m = _module()
    df = s2s_ad.grad(m["loss"])
    np.testing.assert_allclose(df(X), 6.0 * X)
    m["act"] = _cube(m)
    np.testing.assert_allclose(df(X), 9.0 * X ** 2)                    # was 6 x
    np.testing.assert_allclose(s2s_ad.grad(m["loss"])(X), 9.0 * X ** 2)
    np.testing.assert_allclose(general_derivative(df)(X), 9.0 * X ** 2)
    value, tangent = s2s_ad.jvp(m["loss"])(X, np.ones(3))
    assert value == np.sum(3.0 * X ** 3) and tangent == np.sum(9.0 * X ** 2)


def test_a_helper_of_a_helper_redefined():
    m = _module()
    df = s2s_ad.grad(m["chained"])
    df(X)
    m["inner"] = _cube(m)
    np.testing.assert_allclose(df(X), numeric_grad(m["chained"], (X,), 0), rtol=1e-6)


def test_no_check_when_f_calls_no_helper_of_yours():
    def plain(x):
        return np.sum(np.sin(x))
    df = s2s_ad.grad(plain)
    df(X)
    import inspect
    assert "refresh" not in inspect.getsource(df)


def _cube(namespace):
    """A new `z ** 3` function whose source s2s_ad can read, with the module's globals."""
    import tempfile
    handle = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    handle.write("def cube(z):\n    return z * z * z\n")
    handle.close()
    code = compile(open(handle.name).read(), handle.name, "exec")
    exec(code, namespace)
    return namespace.pop("cube")


SCALE = 0.7978845608028654


def scaled_tanh_loss(W, X):
    return np.sum(np.tanh(SCALE * (X @ W)) ** 2)


def test_a_module_number_is_a_fact_and_its_rebinding_is_seen():
    """A float a module-level name holds is a fact of the specialisation (the code after
    it stays specialised: no unbroadcast of unknown shapes), and the dispatcher builds the
    derivative again when the name is rebound."""
    global SCALE
    W, X = np.full((3, 2), 0.1), np.linspace(-1.0, 1.0, 12).reshape(4, 3)
    df = s2s_ad.grad(scaled_tanh_loss)
    np.testing.assert_allclose(df(W, X), numeric_grad(scaled_tanh_loss, (W, X), 0), rtol=1e-6)
    assert "unbroadcast" not in s2s_ad.derivative_source(df, W, X)
    old = SCALE
    try:
        SCALE = 0.25
        np.testing.assert_allclose(df(W, X), numeric_grad(scaled_tanh_loss, (W, X), 0),
                                   rtol=1e-6)
    finally:
        SCALE = old
