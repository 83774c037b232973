"""`**kwargs` parameters and `f(**opts)` calls (issue 15 point 3), the way `*args` is
supported: a def of yours taking **kwargs is differentiated for the keywords a call
gives (one derivative per set of keywords), and `**opts` spreads a dict whose keys f's
source shows. grad, jvp and hvp on both derivative paths against differences; a dict
whose keys are not known is a located error; the CLI writes a standalone file for a
function calling such a helper."""
import importlib.util

import numpy as np
import pytest

import s2s_ad
from derivative_paths import PATHS, check_against_differences, grad_on
from gradcheck import numeric_grad
from test_cli import run


def scaled(x, **opts):
    return np.sum(np.tanh(x * opts["scale"])) + opts.get("shift", 0.0)


def forwards(x, *rest, **kw):
    return scaled(x, **kw) * 2.0 + sum(np.sum(r * x) for r in rest)


def keywords_to_helper(x):
    return scaled(x, scale=2.0, shift=x[0, 0] ** 2)


def spreads_a_display(x):
    opts = {"axis": 0, "keepdims": True}
    return np.sum(np.sum(x * x, **opts) * x) + scaled(x, **{"scale": 0.5})


def spreads_dict_call(x):
    kw = dict(scale=1.5)
    return forwards(x, x * x, **kw)


X = np.array([[0.3, 1.2], [-0.5, 2.0]])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [keywords_to_helper, spreads_a_display, spreads_dict_call])
def test_keywords_given_by_the_call(f, path):
    check_against_differences(path, f, X)


def weighted(x, **opts):
    return np.sum(np.sin(x) * opts["w"]) * opts.get("scale", 1.0)


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_a_function_taking_kwargs(path):
    # one derivative per set of keywords; the keywords are not differentiated
    for kwargs, factor in [({"w": 3.0}, 3.0), ({"w": 2.0, "scale": 0.5}, 1.0)]:
        g = s2s_ad.grad(weighted)(X, **kwargs)
        np.testing.assert_allclose(g, factor * np.cos(X), rtol=1e-12)
    value, tangent = s2s_ad.jvp(weighted)(X, np.ones_like(X), w=3.0)
    assert value == pytest.approx(weighted(X, w=3.0))
    assert tangent == pytest.approx(3.0 * np.sum(np.cos(X)))
    np.testing.assert_allclose(s2s_ad.hvp(weighted)(X, np.ones_like(X), w=3.0),
                               -3.0 * np.sin(X), rtol=1e-10)


def hides_a_global(x, **opts):
    # `np` is a key here and the global f reads: the keyword is renamed, not f's np
    return np.sum(np.sin(x)) * opts["np"]


@pytest.mark.parametrize("path", PATHS)
def test_a_key_named_like_a_global(path):
    g = grad_on(path, lambda x: hides_a_global(x, np=2.0))
    np.testing.assert_allclose(g(X), 2.0 * np.cos(X), rtol=1e-12)


def written_into(x):
    opts = {"scale": 2.0}
    opts["shift"] = 1.0
    return scaled(x, **opts)


def unknown_keys(x, opts):
    return scaled(x, **opts)


@pytest.mark.parametrize("f, args", [(written_into, (X,)), (unknown_keys, (X, {"scale": 1.0}))])
def test_keys_not_in_the_source_are_located(f, args):
    with pytest.raises(s2s_ad.UnsupportedSyntaxError) as info:
        s2s_ad.grad(f)(*args)
    assert "spreads a dict whose keys" in str(info.value) \
        and "test_keyword_spreading.py" in str(info.value)


SOURCE = '''
import numpy as np


def penalty(w, **opts):
    return opts["lam"] * np.sum(w ** 2)


def loss(w):
    return np.sum(np.tanh(w)) + penalty(w, lam=0.1)
'''


@pytest.mark.slow
def test_cli_writes_a_standalone_gradient(tmp_path, monkeypatch):
    (tmp_path / "kw_model.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))     # the file calls penalty from kw_model
    out = run(tmp_path, "grad", "kw_model.py:loss", "-o", "g.py")
    assert out.returncode == 0, out.stderr
    spec = importlib.util.spec_from_file_location("g_kw", tmp_path / "g.py")
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    namespace = {}
    exec(compile(SOURCE, "kw_model", "exec"), namespace)
    np.testing.assert_allclose(written.grad_loss(X), numeric_grad(namespace["loss"], (X,), 0),
                               rtol=1e-6)


def energy(x, k=2.0, **opts):
    return np.sum(k * x ** 2 - opts.get("damp", 0.0) * np.abs(x) ** 3)


def defaults_left_to_the_helper(x):
    # energy(x) and energy(x, damp=...) leave k to its default: the adapter taking the
    # keywords kept k's default in its signature only, and the derivative called it with
    # k missing (a TypeError inside generated code)
    return energy(x) + energy(x, damp=0.2) + energy(x, k=3.0, damp=0.1)


def defaults_and_items(x, *rest, w=1.5):
    return w * np.sum(x ** 3) + sum(np.sum(r * x) for r in rest)


def defaults_with_no_items(x):
    return defaults_and_items(x) + defaults_and_items(x, x ** 2)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("f", [defaults_left_to_the_helper, defaults_with_no_items])
def test_defaults_of_a_helper_taking_star_parameters(f, path):
    check_against_differences(path, f, np.array([0.3, -0.5, 0.8]))
