"""Long and deep programs: no analysis, pass or printer recurses on the number of
statements, and expressions and blocks nest as deep as Python takes them (up to
ir/depth.MAX_DEPTH levels; deeper is a located error, never a RecursionError)."""
import importlib.util
import subprocess
import sys

import numpy as np
import pytest

import s2s_ad
from s2s_ad.errors import UnsupportedSyntaxError

pytestmark = pytest.mark.slow


def straight_line(n):
    lines = ["def f(x, y):", "    a0 = x * y"]
    lines += [f"    a{k} = a{k - 1} * 0.5 + np.sin(a{k - 1}) * y" for k in range(1, n)]
    return "\n".join(lines + [f"    return a{n - 1}"])


def deep_expression(depth):
    """A sum nested `depth` deep without parentheses (Python's parser takes at most 200
    nested parentheses, but any number of left-nested operators)."""
    terms = ["x * 0.5", "y * x", "np.sin(x)"]
    text = "x * y"
    for k in range(depth):
        text += (" + " if k % 2 else " - ") + terms[k % 3]
    return f"def f(x, y):\n    return {text}"


def nested_blocks(depth, loops):
    lines, indent = ["def f(x, y):", "    s = x * 0.0"], "    "
    for k in range(depth):
        lines.append(indent + (f"for i{k} in range(1):" if k < loops
                               else f"if x > {-k - 100}.0:"))
        indent += "    "
        lines.append(f"{indent}s = s + x * y")
    return "\n".join(lines + ["    return s"])


def load(tmp_path, text, name):
    path = tmp_path / f"{name}.py"
    path.write_text("import numpy as np\n\n\n" + text + "\n")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f, path


def numeric_gradient(f, x, y, eps=1e-6):
    return ((f(x + eps, y) - f(x - eps, y)) / (2 * eps),
            (f(x, y + eps) - f(x, y - eps)) / (2 * eps))


def check(f, modes=("grad", "jvp", "hvp"), x=0.3, y=0.7):
    expected = numeric_gradient(f, x, y)
    if "grad" in modes:
        got = s2s_ad.grad(f, wrt=(0, 1))(x, y)
        assert np.allclose(got, expected, rtol=1e-5, atol=1e-7), (got, expected)
    if "jvp" in modes:
        _, tangent = s2s_ad.jvp(f, wrt=(0, 1))(x, y, (1.0, 0.5))
        assert np.isclose(tangent, expected[0] + 0.5 * expected[1], rtol=1e-5, atol=1e-7)
    if "hvp" in modes:
        g = s2s_ad.grad(f, wrt=(0, 1))
        got = s2s_ad.hvp(f, wrt=(0, 1))(x, y, (1.0, 0.5))
        eps = 1e-5
        plus, minus = g(x + eps, y + 0.5 * eps), g(x - eps, y - 0.5 * eps)
        expected = [(p - m) / (2 * eps) for p, m in zip(plus, minus)]
        assert np.allclose(got, expected, rtol=1e-4, atol=1e-6), (got, expected)


def test_two_thousand_dependent_statements(tmp_path, both_paths):
    f, _ = load(tmp_path, straight_line(2000), "long_f")
    check(f, ("grad", "jvp"))


def test_hessian_vector_product_of_a_long_function(tmp_path):
    f, _ = load(tmp_path, straight_line(300), "long_h")
    check(f, ("hvp",))


def test_three_hundred_deep_expression(tmp_path, both_paths):
    f, _ = load(tmp_path, deep_expression(300), "deep_f")
    check(f)


def test_fifty_deep_loops_and_branches(tmp_path, both_paths):
    """19 nested loops (Python takes 20 nested blocks) inside... and 31 ifs below them."""
    f, _ = load(tmp_path, nested_blocks(50, 19), "nested_f")
    check(f)


def test_deeper_than_supported_is_a_located_error(tmp_path):
    f, path = load(tmp_path, deep_expression(1000), "too_deep")
    with pytest.raises(UnsupportedSyntaxError) as info:
        s2s_ad.grad(f)
    text = str(info.value)
    assert "nests" in text and f'{path}", line 5' in text and "^" in text


def test_command_line_on_a_long_function(tmp_path):
    load(tmp_path, straight_line(2000), "long_cli")
    out = subprocess.run([sys.executable, "-m", "s2s_ad", "grad", "long_cli.py:f[x,y]",
                          "-o", "grad_long.py"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "def grad_f(x, y):" in (tmp_path / "grad_long.py").read_text()
