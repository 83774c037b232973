"""@s2s_ad.adjoint registers a template written exactly like those in templates/."""
import inspect

import numpy as np
import pytest

import s2s_ad
from s2s_ad.ad.registry import default_registry
from programs import user_template


def test_user_template_is_used():
    x = np.linspace(-2, 2, 5)
    df = s2s_ad.grad(user_template.uses_softplus)
    np.testing.assert_allclose(df(x), 2.0 / (1.0 + np.exp(-x)))


def test_user_template_wins_over_differentiating_the_source():
    assert default_registry().reverse(user_template.opaque_softplus).name == \
        "opaque_softplus_adjoint"
    assert "vjp_opaque_softplus" not in s2s_ad.derivative_source(
        s2s_ad.grad(user_template.uses_softplus))


def test_malformed_template_is_reported_at_its_statement_on_every_use():
    registry = default_registry()
    registry.reverse(np.sin)          # everything registered so far is loaded
    from programs import bad_template
    for _ in range(2):                # never a silent fallback after the first report
        with pytest.raises(s2s_ad.TemplateError, match="wrong_adjoint") as info:
            registry.reverse(bad_template.not_registered_anywhere)
        assert "d[p] += expr" in str(info.value)
        assert info.value.filename == bad_template.__file__
        assert info.value.lineno == inspect.getsourcelines(bad_template.wrong_adjoint)[1] + 2
        assert "d[x] = d[y]" in str(info.value)
    assert registry.reverse(np.sin) is not None


def test_template_parameters_must_mirror_a_python_primitive():
    from programs import bad_template
    with pytest.raises(s2s_ad.TemplateError, match=r"takes \(x\) after the result.*\(x, k\)"):
        default_registry().reverse(bad_template.scaled)


def test_adjoint_takes_a_function_and_decorates_a_def():
    with pytest.raises(TypeError, match="np.sin"):
        s2s_ad.adjoint("np.sin")
    with pytest.raises(TypeError, match="def"):
        s2s_ad.adjoint(np.sin)(lambda y, x: None)


def test_user_template_of_a_builtin_primitive_wins_even_before_first_use(tmp_path):
    """Registered before s2s_ad loaded its own templates (a fresh process)."""
    import subprocess
    import sys
    script = tmp_path / "override.py"
    script.write_text(
        "import numpy as np\nimport s2s_ad\nfrom s2s_ad import adjoint, d\n\n"
        "@adjoint(np.sin)\ndef my_sin_adjoint(y, x):\n    d[x] += d[y] * 2.0\n\n"
        "def f(x):\n    return np.sin(x)\n\nprint(s2s_ad.grad(f)(1.0))\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "2.0"


def test_a_tangent_template_linear_in_a_zero_keeps_the_shape_it_would_have():
    # b is not differentiated: np.ravel(d[b]) is a zero, of ravel's shape (4,), not of b's
    # (2, 2), when np.linalg.solve then reads it (solve raised on the (2, 2) zero)
    from gradcheck import numeric_grad
    M = np.array([[3.0, 0.2, 0.1, 0.0], [0.1, 2.5, 0.0, 0.3], [0.0, 0.2, 2.0, 0.1],
                  [0.2, 0.0, 0.1, 3.5]])
    b = np.array([[1.0, -0.5], [0.3, 2.0]])
    V = np.arange(16.0).reshape(4, 4) / 10.0
    _, tangent = s2s_ad.jvp(user_template.uses_solve_flat)(M, b, V)
    want = np.sum(numeric_grad(user_template.uses_solve_flat, [M, b], 0) * V)
    assert tangent == pytest.approx(want, rel=1e-6)
