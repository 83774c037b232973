"""`s2s-ad grad` of a function taking `**kwargs`: written for the keywords --signature
names beyond its parameters (keyword-only parameters of the derivative, which is called as
f is); without them, for jvp, or with a key clashing with a name f reads: a located error
saying what to write."""
import importlib.util

import numpy as np
import pytest

from test_cli import run

pytestmark = pytest.mark.slow

SOURCE = '''
import numpy as np


def scaled(x, **opts):
    return np.sum(np.tanh(x) * opts["scale"]) + opts.get("shift", 0.0)


def clashing(x, **opts):
    return np.sum(np.tanh(x) * opts["np"])
'''


def _written(tmp_path, name):
    spec = importlib.util.spec_from_file_location(name, tmp_path / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_keywords_named_in_the_signature(tmp_path):
    (tmp_path / "kw_model.py").write_text(SOURCE)
    out = run(tmp_path, "grad", "kw_model.py:scaled",
              "--signature", "x: float64[N], scale: float", "-o", "g_kw.py")
    assert out.returncode == 0, out.stderr
    x = np.array([0.1, 0.5, -1.0])
    written = _written(tmp_path, "g_kw")
    np.testing.assert_allclose(written.grad_scaled(x, scale=2.0),
                               2.0 * (1.0 - np.tanh(x) ** 2), rtol=1e-12)
    # the general derivative behind the guard serves other kinds (a float32 x)
    np.testing.assert_allclose(written.grad_scaled(x.astype(np.float32), scale=2.0),
                               2.0 * (1.0 - np.tanh(x) ** 2), rtol=1e-6)
    check = run(tmp_path, "grad", "kw_model.py:scaled", "--signature",
                "x: float64[N], scale: float", "-o", "g_kw.py", "--check")
    assert check.returncode == 0, check.stderr


@pytest.mark.parametrize("args, words", [
    (("grad", "kw_model.py:scaled"), "naming them with their kinds"),
    (("jvp", "kw_model.py:scaled"), "a written module cannot build one"),
    (("grad", "kw_model.py:scaled", "--signature", "x: float64[N], scale: float",
      "--signature", "x: float64[N]"), "name different keywords"),
    (("grad", "kw_model.py:clashing", "--signature", "x: float64[N], np: float"),
     "give the key another name"),
])
def test_what_cannot_be_written_says_what_to_do(tmp_path, args, words):
    (tmp_path / "kw_model.py").write_text(SOURCE)
    out = run(tmp_path, *args, "-o", "g_kw.py")
    assert out.returncode != 0 and words in out.stderr and "kw_model.py" in out.stderr, \
        out.stderr
    assert "Traceback" not in out.stderr
