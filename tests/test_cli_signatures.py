"""`s2s-ad grad --signature`: files with derivatives specialised on given kinds.

The file holds one derivative per signature, the general one (`grad_f_general`) and the
dispatching `grad_f` taking f's parameters; it stays standalone, deterministic and
checked by --check (a changed signature makes it stale).
"""
import shlex
import subprocess
import sys
import textwrap

import pytest

from test_cli import copy_project, run

pytestmark = pytest.mark.slow

SIGNATURE = "x: float64[N, D], w: float64[D]"


@pytest.fixture
def project(tmp_path):
    directory = copy_project(tmp_path)
    (directory / "annotated.py").write_text(textwrap.dedent('''
        import numpy as np

        def energy(x: "float64[N]", scale: float):
            return np.sum(np.tanh(x * scale) ** 2)
    '''))
    (directory / "objects.py").write_text(textwrap.dedent('''
        import dataclasses
        import numpy as np

        @dataclasses.dataclass
        class Linear:
            W: np.ndarray
            b: np.ndarray

            def predict(self, X):
                return X @ self.W + self.b

        def fit(p, X, y):
            return 0.5 * np.mean((p.predict(X) - y) ** 2)

        def fit_annotated(p: Linear, X, y):
            return 0.5 * np.mean((p.predict(X) - y) ** 2)

        def net(params, X):
            h = np.tanh(X @ params["W"] + params["b"])
            return np.sum(h ** 2)
    '''))
    return directory


def _check_file(project, module, code):
    script = textwrap.dedent(f'''
        import numpy as np
        import {module}
        {textwrap.indent(textwrap.dedent(code), "        ").strip()}
        print("ok")
    ''')
    out = subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True,
                         text=True)
    assert out.stdout.strip().endswith("ok"), out.stderr


def test_a_signature_writes_a_specialised_derivative_and_a_dispatcher(project):
    out = run(project, "grad", "model.py:loss", "--wrt", "w", "-o", "g.py",
              "--signature", SIGNATURE)
    assert out.returncode == 0, out.stderr
    text = (project / "g.py").read_text()
    for name in ("def grad_loss_general(x, w):", "def grad_loss_1(x, w):",
                 "def grad_loss(x, w):"):
        assert name in text
    command = shlex.split(text.split("\n")[1].split(": ", 1)[1])
    assert command[command.index("--signature") + 1] == SIGNATURE
    assert "import s2s_ad" not in text
    _check_file(project, "g", '''
        import model
        rng = np.random.default_rng(0)
        x, w = rng.standard_normal((3, 4)), rng.standard_normal(4)
        eps = 1e-6
        for xs, ws in ((x, w), (x, w.astype(np.float32)), (x[:1], w)):   # fits, falls back, fits not
            got = g.grad_loss(xs, ws)
            for k in range(4):
                e = np.zeros(4)
                e[k] = eps
                fd = (model.loss(xs, np.asarray(ws) + e) - model.loss(xs, np.asarray(ws) - e))
                fd = fd / (2 * eps)
                assert abs(got[k] - fd) < 1e-4 * max(1, abs(fd)), (k, got[k], fd)
    ''')
    pyflakes = pytest.importorskip("pyflakes.api")
    assert pyflakes.check(text, "g.py") == 0


def test_signature_files_are_deterministic_and_checked(project):
    args = ("grad", "model.py:loss", "--wrt", "w", "-o", "g.py", "--signature", SIGNATURE)
    assert run(project, *args).returncode == 0
    first = (project / "g.py").read_bytes()
    assert run(project, *args).returncode == 0
    assert (project / "g.py").read_bytes() == first
    assert run(project, *args, "--check").returncode == 0
    other = ("grad", "model.py:loss", "--wrt", "w", "-o", "g.py", "--signature",
             "x: float32[N, D], w: float32[D]", "--check")
    stale = run(project, *other)
    assert stale.returncode == 1 and "stale" in stale.stderr


def test_string_annotations_are_a_signature(project):
    assert run(project, "grad", "annotated.py:energy", "-o", "e.py").returncode == 0
    text = (project / "e.py").read_text()
    assert "def grad_energy_1(x, scale):" in text and "type(scale) is float" in text
    _check_file(project, "e", '''
        import annotated
        x = np.linspace(-1, 1, 5)
        g = e.grad_energy(x, 0.7)
        eps = 1e-6
        for k in range(5):
            d = np.zeros(5); d[k] = eps
            fd = (annotated.energy(x + d, 0.7) - annotated.energy(x - d, 0.7)) / (2 * eps)
            assert abs(g[k] - fd) < 1e-6
    ''')


def test_signatures_of_objects_and_dicts(project):
    # an object argument, its class named as f's module names it: the general derivative
    # cannot call `p.predict(X)` (a method chosen when the code runs), the specialised one
    # can (session 15)
    out = run(project, "grad", "objects.py:fit", "-o", "o.py", "--signature",
              "p: Linear(W: float64[D, K], b: float64[K]), X: float64[N, D], y: float64[N, K]")
    assert out.returncode == 0, out.stderr
    out = run(project, "grad", "objects.py:net", "-o", "n.py", "--signature",
              "params: {'W': float64[D, H], 'b': float64[H]}, X: float64[N, D]")
    assert out.returncode == 0, out.stderr
    _check_file(project, "o", '''
        import n
        import objects
        rng = np.random.default_rng(1)
        X, y = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
        p = objects.Linear(rng.standard_normal((3, 2)), rng.standard_normal(2))
        g = o.grad_fit(p, X, y)
        assert type(g) is objects.Linear
        r = (X @ p.W + p.b - y) / y.size
        assert np.allclose(g.W, X.T @ r) and np.allclose(g.b, r.sum(axis=0))
        params = {"W": p.W, "b": p.b}
        d = n.grad_net(params, X)
        t = np.tanh(X @ p.W + p.b)
        back = 2 * t * (1 - t ** 2)
        assert np.allclose(d["W"], X.T @ back) and np.allclose(d["b"], back.sum(axis=0))
    ''')
    # the class as an annotation is a signature too (its attributes' kinds unknown)
    out = run(project, "grad", "objects.py:fit_annotated", "-o", "a.py")
    assert out.returncode == 0, out.stderr
    assert "if type(p) is _Linear:" in (project / "a.py").read_text()
    _check_file(project, "a", '''
        import objects
        rng = np.random.default_rng(2)
        X, y = rng.standard_normal((4, 3)), rng.standard_normal((4, 2))
        p = objects.Linear(rng.standard_normal((3, 2)), rng.standard_normal(2))
        g = a.grad_fit_annotated(p, X, y)
        r = (X @ p.W + p.b - y) / y.size
        assert np.allclose(g.W, X.T @ r) and np.allclose(g.b, r.sum(axis=0))
    ''')
    bad = run(project, "grad", "objects.py:fit", "-o", "o.py", "--signature", "p: Linen(W: float64[D, K])")
    assert bad.returncode == 2 and "'Linen'" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("signature, message", [
    ("x: float64[N, D], q: float", "does not take"),
    ("x float64[N]", "name: kind"),
    ("x: matrix[N]", "unknown kind"),
    ("x: float64[N", "unbalanced"),
])
def test_bad_signatures_are_clear_errors(project, signature, message):
    out = run(project, "grad", "model.py:loss", "-o", "g.py", "--signature", signature)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_signatures_are_for_gradients(project):
    out = run(project, "jvp", "model.py:penalty", "-o", "j.py", "--signature", "w: float64[N]")
    assert out.returncode == 2 and "s2s-ad grad" in out.stderr
