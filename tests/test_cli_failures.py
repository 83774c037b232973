"""The s2s-ad command on broken input: a short message naming the file, exit status 2.

Target files that do not compile or import, outputs that cannot be written, an empty
--wrt, --check against a file s2s-ad did not write. No traceback unless --traceback.
"""
import os
import sys

import pytest

from s2s_ad import cli
from test_cli import copy_project, run

pytestmark = pytest.mark.slow


@pytest.fixture
def project(tmp_path):
    return copy_project(tmp_path)


def assert_error(out, *expected, status=2):
    """`out` failed with `status`, printed each of `expected`, and no traceback."""
    assert out.returncode == status, out.stderr
    assert "Traceback" not in out.stderr, out.stderr
    for text in expected:
        assert text in out.stderr, out.stderr


def temporaries(*directories):
    return [name for directory in directories for name in os.listdir(directory)
            if name.startswith(".s2s-ad-")]


def test_a_syntax_error_prints_like_python(project):
    (project / "broken.py").write_text("def f(x):\n    y = x +* 2\n    return y\n")
    out = run(project, "grad", "broken.py:f", "-o", "out.py")
    assert_error(out, "SyntaxError in broken.py: invalid syntax",
                 'File "broken.py", line 2', "    y = x +* 2\n           ^\n")
    assert not (project / "out.py").exists()
    verbose = run(project, "grad", "broken.py:f", "-o", "out.py", "--traceback")
    assert verbose.returncode == 2 and "Traceback" in verbose.stderr


def test_a_syntax_error_in_an_imported_file_names_both_files(project):
    (project / "helpers.py").write_text("def affine(row, w):\n    return (row @ w\n")
    out = run(project, "grad", "model.py:loss", "--print")
    assert_error(out, "importing model.py failed: SyntaxError in ", "helpers.py",
                 "'(' was never closed", "    return (row @ w\n           ^\n")


@pytest.mark.parametrize("body, reason", [
    ("import nope\n", "ModuleNotFoundError: No module named 'nope'"),
    ("from helpers import nothing\n", "ImportError: cannot import name 'nothing'"),
    ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
])
def test_a_module_that_fails_to_import(project, body, reason):
    (project / "broken.py").write_text(body + "def f(x):\n    return x * x\n")
    out = run(project, "grad", "broken.py:f", "-o", "out.py", module=True)
    assert_error(out, f"s2s-ad: error: importing broken.py failed: {reason}")
    assert not (project / "out.py").exists()
    verbose = run(project, "grad", "broken.py:f", "-o", "out.py", "--traceback")
    assert verbose.returncode == 2
    assert "Traceback" in verbose.stderr and body.strip() in verbose.stderr


def test_a_module_that_failed_to_import_is_not_reused(tmp_path, capsys, monkeypatch):
    """In one process (cli.main called directly), a fixed file is imported afresh."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    target = tmp_path / "s2s_cli_half_run.py"
    target.write_text("def f(x):\n    return x * x\n\nraise RuntimeError('boom')\n")
    assert cli.main(["grad", f"{target}:f", "--print"]) == 2
    assert f"importing {target} failed: RuntimeError: boom" in capsys.readouterr().err
    assert "s2s_cli_half_run" not in sys.modules
    target.write_text("def f(x):\n    return x * x\n")
    assert cli.main(["grad", f"{target}:f", "--print"]) == 0
    assert "def grad_f(x):" in capsys.readouterr().out
    sys.modules.pop("s2s_cli_half_run", None)


@pytest.mark.parametrize("output, extra, reason", [
    (os.path.join("missing", "out.py"), (), "No such file or directory"),
    (".", (), "it is a directory"),
    ("sub", ("--force",), "it is a directory"),
])
def test_an_output_that_cannot_be_written(project, output, extra, reason):
    (project / "sub").mkdir()
    out = run(project, "grad", "model.py:penalty", "-o", output, *extra)
    assert_error(out, f"s2s-ad: error: cannot write {output}: {reason}")
    assert not temporaries(project, project / "sub", project.parent)


def test_check_of_an_output_that_is_a_directory(project):
    (project / "sub").mkdir()
    out = run(project, "grad", "model.py:penalty", "-o", "sub", "--check")
    assert_error(out, "s2s-ad: error: cannot read sub")


@pytest.mark.parametrize("wrt", ["", ",", "w,"])
def test_wrt_needs_parameter_names(project, wrt):
    out = run(project, "grad", "model.py:penalty", "--wrt", wrt, "--print")
    assert_error(out, "--wrt needs parameter names", f"got {wrt!r}")
    assert "def grad_penalty" not in out.stdout


def test_check_of_a_file_s2s_ad_did_not_write(project):
    (project / "mine.py").write_text("precious = True\n")
    out = run(project, "grad", "model.py:penalty", "-o", "mine.py", "--check")
    assert_error(out, "mine.py was not written by s2s-ad", "--force", status=1)
    assert "stale" not in out.stderr
    assert (project / "mine.py").read_text() == "precious = True\n"


def test_check_needs_an_output_file(project):
    out = run(project, "grad", "model.py:penalty", "--print", "--check")
    assert_error(out, "--check compares with a file")


def test_written_file_follows_the_umask(project):
    out = run(project, "grad", "model.py:penalty", "-o", "grad_model.py")
    assert out.returncode == 0, out.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(project / "grad_model.py").st_mode & 0o777 == 0o666 & ~umask
