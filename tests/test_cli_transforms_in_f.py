"""s2s-ad on a function that calls a derivative s2s_ad makes (`s2s_ad.grad(energy)(x)`,
jvp, a nested def or lambda given to grad): the written module defines that derivative as
its general one (it imported `grad_energy` from the user's module, which has none: an
ImportError when the file was imported). A nested def calling itself and s2s_ad.hessian
called in f are clear errors. A
property read by a method is bound by its getter."""
import importlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import s2s_ad

pytestmark = pytest.mark.slow

MODEL = '''
import numpy as np
import s2s_ad

W = np.arange(6.0).reshape(2, 3) / 5


def energy(y):
    return np.sum(np.sin(y) * y ** 2)


def grad_in_f(x: "float64[3]"):
    return np.sum(s2s_ad.grad(energy)(x) ** 2)


def jvp_in_f(x: "float64[3]"):
    value, tangent = s2s_ad.jvp(energy)(x, np.ones(3))
    return tangent * value


def lambda_in_f(x: "float64[3]"):
    c = np.cos(x)
    return np.sum(s2s_ad.grad(lambda y: np.sum(np.tanh(W @ (y * c))))(x) ** 2)


class Scaled:
    def __init__(self, w):
        self.w = w

    @property
    def norm2(self):
        return np.sum(self.w ** 2)

    def __call__(self, t):
        return self.w * t / (1.0 + self.norm2)


def property_in_f(x: "float64[3]"):
    """a property read in a method: the module takes its getter (it took `__func__`,
    which a property has not: an AttributeError when the file was imported)"""
    s = Scaled(x)
    return np.sum(s(np.linspace(0.0, 1.0, 3)) ** 2)


def hessian_in_f(x: "float64[3]"):
    return np.trace(s2s_ad.hessian(energy)(x))


def recursion_in_f(x: "float64[3]"):
    def rec(y, n):
        if n == 0:
            return y
        return rec(np.sin(y), n - 1)
    return np.sum(rec(x, 2))
'''


def _write(tmp_path, name):
    (tmp_path / "transforms_model.py").write_text(textwrap.dedent(MODEL))
    return subprocess.run(
        [sys.executable, "-c", "import sys; from s2s_ad.cli import main; sys.exit(main())",
         "grad", f"transforms_model.py:{name}", "-o", f"grad_{name}.py"],
        cwd=tmp_path, capture_output=True, text=True)


@pytest.mark.parametrize("name", ["grad_in_f", "jvp_in_f", "lambda_in_f", "property_in_f"])
def test_written_module_defines_the_derivative_called_in_f(tmp_path, monkeypatch, name):
    out = _write(tmp_path, name)
    assert out.returncode == 0, out.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in ("transforms_model", f"grad_{name}"):
        sys.modules.pop(module, None)
    model = importlib.import_module("transforms_model")
    written = importlib.import_module(f"grad_{name}")
    x = np.array([0.1, -0.2, 0.3])
    np.testing.assert_allclose(getattr(written, f"grad_{name}")(x),
                               s2s_ad.grad(getattr(model, name))(x), rtol=1e-12)


def test_nested_recursion_is_a_clear_error(tmp_path):
    out = _write(tmp_path, "recursion_in_f")
    assert out.returncode != 0
    assert "`rec`, a function nested in recursion_in_f that calls itself" in out.stderr \
        and "module-level" in out.stderr


def test_hessian_in_f_is_a_clear_error(tmp_path):
    """(it said the name `energy_1` would denote two different things)"""
    out = _write(tmp_path, "hessian_in_f")
    assert out.returncode != 0
    assert "calls s2s_ad.hessian(`energy`)" in out.stderr and "in process" in out.stderr
