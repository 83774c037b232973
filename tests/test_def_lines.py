"""frontend/parse.def_lines reads a def's source lines off its code object: the lines
inspect.getsourcelines gives, or None (inspect then reads them), never other lines."""
import importlib.util
import inspect
import sys

import pytest

from s2s_ad.frontend.parse import def_lines

_BODIES = [
    "    _t = x\n    'a note'\n",              # a statement with no instruction of its own
    "    _t = x\n    pass\n",
    "    _t = x\n    # a comment\n\n",          # inspect counts a deeper comment in
    "    _t = x\n# a comment at column 0\n",
    "    _t = (x +\n          1.0\n)\n",          # a bracket closing at column 0
    "    _t = x * \\\n        2.0\n    '''two\nlines'''\n",
    "    return [v\n            for v in x]\n",
    "    if x:\n        return 1.0\n    else:\n        return 2.0\n",
]


def _load(tmp_path, text, name):
    source = tmp_path / f"{name}.py"
    source.write_text(text)
    spec = importlib.util.spec_from_file_location(name, source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("body", _BODIES)
@pytest.mark.parametrize("where", ["top", "decorated", "nested", "method"])
def test_a_def_read_off_its_code_has_the_lines_inspect_gives(body, where, tmp_path):
    inner = "".join("    " + line if line.strip() else line
                    for line in body.splitlines(True))
    text = {
        "top": "import math\n\ndef f(y, x):\n" + body + "\n\nz = 1\n",
        "decorated": "@staticmethod\n@staticmethod\ndef f(y, x):\n" + body + "z = 1\n",
        "nested": "def outer():\n    def f(y, x):\n" + inner + "    return f\n\nf = outer()\n",
        "method": "class C:\n    @staticmethod\n    def f(y, x):\n" + inner
                  + "\n    w = 2\nf = C.f\n",
    }[where]
    module = _load(tmp_path, text, f"late_{where}")
    function = module.f.__func__ if isinstance(module.f, staticmethod) else module.f
    while isinstance(function, staticmethod):
        function = function.__func__
    found = def_lines(function)
    assert found is None or found == inspect.getsourcelines(function)


def test_the_benchmark_workloads_are_read_off_their_code_as_inspect_reads_them():
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent.parent / "benchmarks"))
    try:
        import user_workloads
    finally:
        sys.path.pop(0)
    functions = [w.f for w in user_workloads.WORKLOADS]
    for function in functions:
        assert def_lines(function) == inspect.getsourcelines(function), function.__name__


def test_a_function_without_a_file_is_left_to_inspect():
    namespace = {}
    exec("def f(x):\n    return x\n", namespace)
    assert def_lines(namespace["f"]) is None
