"""A written module whose function has defaults naming its module's data
(`def loss(w, X=X, y=y)`, the way a script fixes its data set): the module imports those
names. It read them as the parameters' own names and imported nothing: NameError when the
written module was imported."""
import importlib.util
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from gradcheck import numeric_grad

pytestmark = pytest.mark.slow

MODEL = '''
import numpy as np
from scipy.special import expit

X = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
y = np.array([0.0, 1.0, 1.0, 0.0])
SCALE = 2.0


def loss(w, b, X=X, y=y, *, scale=SCALE):
    p = expit(X @ w + b)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)) * scale
'''


def _import_from(path):
    spec = importlib.util.spec_from_file_location(f"s2s_cli_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("extra", [[], ["--signature", "w: float64[D], b: float"]],
                         ids=["general", "signature"])
def test_defaults_naming_module_data_are_imported(tmp_path, extra):
    (tmp_path / "model.py").write_text(textwrap.dedent(MODEL))
    out = subprocess.run([sys.executable, "-m", "s2s_ad", "grad", "model.py:loss",
                          "--wrt", "w,b", "-o", "grad_model.py", *extra],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        model = _import_from(tmp_path / "model.py")
        sys.modules["model"] = model
        written = _import_from(tmp_path / "grad_model.py")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("model", None)
    w, b = np.array([0.3, -0.2, 0.5]), 0.1
    gw, gb = written.grad_loss(w, b)
    np.testing.assert_allclose(gw, numeric_grad(model.loss, (w, b), 0), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(gb, numeric_grad(model.loss, (w, b), 1), rtol=1e-6, atol=1e-9)
    half = written.grad_loss(w, b, scale=1.0)[0]
    np.testing.assert_allclose(half, gw / 2, rtol=1e-12)
