"""The s2s-ad command on real projects: modules of packages (relative and absolute imports),
files named like standard modules, wrt per function and by position, --check of a file
edited by hand, and the regenerating command in the header."""
import os
import shlex
import shutil
import subprocess
import sys
import textwrap

import pytest

from test_cli import copy_project, run

PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cli_package")

pytestmark = pytest.mark.slow


@pytest.fixture
def shop(tmp_path):
    """tmp_path/src/shop: a package whose models/mlp.py imports relatively."""
    shutil.copytree(os.path.join(PACKAGE, "src"), tmp_path / "src")
    return tmp_path


def _call_written(directory, path_entries, script):
    """Run `script` with `path_entries` (relative to `directory`) first on sys.path."""
    entries = [str(directory / p) for p in path_entries]
    code = f"import sys; sys.path[:0] = {entries!r}\n" + textwrap.dedent(script)
    out = subprocess.run([sys.executable, "-c", code], cwd=directory, capture_output=True,
                         text=True)
    assert out.stdout.strip().endswith("ok"), out.stderr
    return out


GRADIENT_OF_LOSS = '''
    import numpy as np
    from shop.models import mlp
    rng = np.random.default_rng(1)
    x, w, b = rng.standard_normal(3), rng.standard_normal(3), 0.7
    got = grad(x, w, b)
    eps = 1e-6
    for k in range(3):
        e = np.zeros(3); e[k] = eps
        fd = (mlp.loss(x, w + e, b) - mlp.loss(x, w - e, b)) / (2 * eps)
        assert abs(got[0][k] - fd) < 1e-6, (k, got, fd)
    fd_b = (mlp.loss(x, w, b + eps) - mlp.loss(x, w, b - eps)) / (2 * eps)
    assert abs(got[1] - fd_b) < 1e-6, (got, fd_b)
    print("ok")
'''


@pytest.mark.parametrize("module", [False, True], ids=["script", "python-m"])
def test_a_module_of_a_package_with_relative_imports(shop, module):
    """Run from above the project, as a user of src/ layout would: the package root is
    found by walking up __init__.py files, and the written module imports the package."""
    out = run(shop, "grad", "src/shop/models/mlp.py:loss[w,b]",
              "-o", "src/shop/models/grad_mlp.py", module=module)
    assert out.returncode == 0, out.stderr
    text = (shop / "src/shop/models/grad_mlp.py").read_text()
    assert "from shop.layers import " in text and "import shop.models.settings" in text
    _call_written(shop, ["src"], "from shop.models.grad_mlp import grad_loss as grad\n"
                  + textwrap.dedent(GRADIENT_OF_LOSS))


def test_a_package_module_from_inside_the_package(shop):
    """The working directory does not matter: from inside models/ the same module."""
    out = run(shop / "src/shop/models", "grad", "mlp.py:loss[1,b]", "--print")
    assert out.returncode == 0, out.stderr
    assert "def grad_loss(x, w, b):" in out.stdout and "from shop.layers import" in out.stdout


@pytest.mark.parametrize("name", ["math", "operator"])
def test_files_named_like_standard_modules(tmp_path, name):
    """(Run from the directory above: Python itself puts the working directory of
    `python -c` first on sys.path, where math.py would shadow numpy's own `import math`.)"""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / f"{name}.py").write_text(textwrap.dedent('''
        import numpy as np


        def f(x):
            return np.sin(x) * x
    '''))
    out = run(tmp_path, "grad", f"proj/{name}.py:f", "-o", "proj/g.py")
    assert out.returncode == 0, out.stderr
    _call_written(tmp_path, [], '''
        import importlib.util
        import numpy as np
        spec = importlib.util.spec_from_file_location("g", "proj/g.py")
        g = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(g)
        x = 0.3
        assert abs(g.grad_f(x) - (np.cos(x) * x + np.sin(x))) < 1e-12
        print("ok")
    ''')


def test_a_file_shadowed_by_a_standard_module_is_refused_when_its_names_are_needed(tmp_path):
    """The written module would import `SCALE` from the standard `math`: refused, named."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "math.py").write_text(textwrap.dedent('''
        SCALE = 2.0


        def f(x):
            return SCALE * x * x
    '''))
    out = run(tmp_path, "grad", "proj/math.py:f", "--print")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "SCALE" in out.stderr and "rename" in out.stderr


def test_wrt_per_function_and_by_position(tmp_path):
    copy_project(tmp_path)
    out = run(tmp_path, "grad", "model.py:loss[w]", "model.py:penalty[0,lam]", "--print")
    assert out.returncode == 0, out.stderr
    (tmp_path / "g.py").write_text(out.stdout)
    _call_written(tmp_path, ["."], '''
        import numpy as np
        import g, model
        x, w = np.ones((2, 3)), np.array([0.1, -0.2, 0.3])
        assert g.grad_loss(x, w).shape == (3,)
        dw, dlam = g.grad_penalty(w, 0.5)
        assert np.allclose(dw, 2 * 0.5 * w) and abs(dlam - np.sum(w ** 2)) < 1e-12
        print("ok")
    ''')
    first = run(tmp_path, "grad", "model.py:penalty", "--wrt", "0", "--print")
    assert first.returncode == 0, first.stderr
    assert "return match_adjoint(w_bar, w)" in first.stdout
    both = run(tmp_path, "grad", "model.py:penalty", "--wrt", "1,0", "-o", "h.py")
    assert both.returncode == 0, both.stderr
    _call_written(tmp_path, ["."], '''
        import numpy as np
        import h
        w = np.array([0.1, -0.2, 0.3])
        dlam, dw = h.grad_penalty(w, 0.5)
        assert np.allclose(dw, 2 * 0.5 * w) and abs(dlam - np.sum(w ** 2)) < 1e-12
        print("ok")
    ''')
    wrong = run(tmp_path, "grad", "model.py:penalty[2]", "--print")
    assert wrong.returncode == 2 and "out of range" in wrong.stderr


def test_check_sees_a_file_edited_by_hand(tmp_path):
    copy_project(tmp_path)
    assert run(tmp_path, "grad", "model.py:penalty", "-o", "g.py").returncode == 0
    assert run(tmp_path, "grad", "model.py:penalty", "-o", "g.py", "--check").returncode == 0
    text = (tmp_path / "g.py").read_text()
    (tmp_path / "g.py").write_text(text.replace("lam * (w + w)", "lam * w", 1)
                                   if "lam * (w + w)" in text else text + "\nHACK = 1\n")
    edited = run(tmp_path, "grad", "model.py:penalty", "-o", "g.py", "--check")
    assert edited.returncode == 1 and "edited" in edited.stderr


def test_header_gives_the_whole_command_with_the_output_path(tmp_path):
    copy_project(tmp_path)
    (tmp_path / "out dir").mkdir()
    output = os.path.join("out dir", "g.py")
    out = run(tmp_path, "grad", "model.py:loss[w]", "model.py:penalty", "--wrt", "lam",
              "-o", output)
    assert out.returncode == 0, out.stderr
    written = (tmp_path / output).read_text()
    line = written.split("\n")[1]
    assert line.startswith("# Regenerate with: s2s-ad grad ")
    command = shlex.split(line.split(": ", 1)[1])
    assert command == ["s2s-ad", "grad", "model.py:loss[w]", "model.py:penalty", "--wrt", "lam",
                       "-o", output]
    (tmp_path / output).unlink()
    again = run(tmp_path, *command[1:])                 # the command as the header gives it
    assert again.returncode == 0, again.stderr
    assert (tmp_path / output).read_text() == written
    checked = run(tmp_path, *command[1:], "--check")
    assert checked.returncode == 0, checked.stderr
