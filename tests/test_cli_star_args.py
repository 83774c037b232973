"""The s2s-ad command on functions taking *args (issue 15): one derivative per number of
items `--items` names, and a function choosing among them by the number of arguments;
without --items a located error saying why (a written module cannot build a derivative
when it is called)."""
import importlib.util

import numpy as np
import pytest

import s2s_ad
from gradcheck import numeric_grad
from test_cli import run

pytestmark = pytest.mark.slow

SOURCE = '''
import numpy as np


def pairwise(*xs):
    return np.sum(xs[0] * xs[1]) + sum(np.sum(np.sin(x)) for x in xs)


def weighted(a, *xs, scale=2.0):
    total = 0.0
    for x in xs:
        total = total + np.sum(a * x ** 2) * scale
    return total
'''


@pytest.fixture
def project(tmp_path):
    (tmp_path / "stars.py").write_text(SOURCE)
    return tmp_path


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _user_module(project):
    return _load(project / "stars.py", f"stars_{id(project)}")


A, B, C = np.array([1.0, 2.0]), np.array([0.5, -1.0]), np.array([3.0, 0.1])


def test_grad_writes_one_derivative_per_number_of_items(project):
    out = run(project, "grad", "stars.py:pairwise", "stars.py:weighted", "--items", "2,1,3",
              "-o", "g.py")
    assert out.returncode == 0, out.stderr
    text = (project / "g.py").read_text()
    assert "import s2s_ad" not in text and "--items 2,1,3" in text
    written, user = _load(project / "g.py", f"g_{id(project)}"), _user_module(project)
    for args in [(A, B), (A, B, C)]:
        expected = numeric_grad(user.pairwise, args, 0)
        np.testing.assert_allclose(written.grad_pairwise(*args), expected, rtol=1e-6)
        np.testing.assert_allclose(written.grad_pairwise(*args),
                                   s2s_ad.grad(user.pairwise)(*args), rtol=1e-12)
    for args in [(A, B), (A, B, C)]:
        got = written.grad_weighted(*args, scale=3.0)
        expected = numeric_grad(lambda a, *xs: user.weighted(a, *xs, scale=3.0), args, 0)
        np.testing.assert_allclose(got, expected, rtol=1e-6)
    with pytest.raises(TypeError, match=r"written for 1 or 2 or 3 items in \*xs, got 4"):
        written.grad_pairwise(A, B, C, A)


def test_check_and_a_changed_source(project):
    args = ("grad", "stars.py:pairwise", "--items", "2", "-o", "g.py")
    assert run(project, *args).returncode == 0
    assert run(project, *args, "--check").returncode == 0
    (project / "stars.py").write_text(SOURCE.replace("np.sin(x)", "np.cos(x)"))
    stale = run(project, *args, "--check")
    assert stale.returncode == 1 and "stale" in stale.stderr


def test_jvp_writes_one_per_number_of_items(project):
    out = run(project, "jvp", "stars.py:pairwise", "--items", "2", "-o", "j.py")
    assert out.returncode == 0, out.stderr
    written, user = _load(project / "j.py", f"j_{id(project)}"), _user_module(project)
    value, tangent = written.jvp_pairwise(A, B, np.ones(2))
    assert value == pytest.approx(user.pairwise(A, B))
    assert tangent == pytest.approx(np.sum(numeric_grad(user.pairwise, (A, B), 0)))


@pytest.mark.parametrize("extra, says", [
    ((), "give the numbers of items to write derivatives for: --items 2"),
    (("--items", "2", "--signature", "xs: float"), "--signature is not written for"),
    (("--items", "two"), "--items needs numbers of items"),
])
def test_what_the_command_needs_to_be_told(project, extra, says):
    out = run(project, "grad", "stars.py:pairwise", *extra, "--print")
    assert out.returncode == 2 and says in out.stderr
    if not extra:       # located: the file, the def's line and a caret
        assert 'stars.py", line 5' in out.stderr and "def pairwise(*xs):" in out.stderr \
            and "^" in out.stderr


def test_hvp_says_why_not(project):
    out = run(project, "hvp", "stars.py:pairwise", "--items", "2", "--print")
    assert out.returncode == 2
    assert "does not write one Hessian-vector product per number of items" in out.stderr
