"""Template modules are imported when a derivative needs one of their primitives, found
through the committed template index (s2s_ad/ad/template_index.py); the index is current.

The checks of what a process imports run in a fresh Python process each.
"""
import json
import subprocess
import sys
import textwrap

import pytest

from s2s_ad.ad.template_index import TemplateIndex, index_path, module_text, templates_directory
from s2s_ad.templates import MODULES

pytestmark = pytest.mark.slow


def _run(code, tmp_path):
    script = tmp_path / "script.py"        # a file: s2s_ad reads the functions' source
    script.write_text(textwrap.dedent(code))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_committed_index_is_the_one_the_template_modules_give(tmp_path):
    fresh = _run("""
        import json
        from s2s_ad.ad.template_index import generate, module_text
        print(json.dumps(module_text(generate())))
    """, tmp_path)
    with open(index_path(), encoding="utf-8") as fh:
        committed = fh.read()
    assert committed == fresh, \
        "templates/template_index.py is stale: python -m s2s_ad.ad.template_index --write"


def test_a_derivative_imports_only_the_template_modules_it_uses(tmp_path):
    got = _run("""
        import json, sys
        import numpy as np
        import s2s_ad
        from s2s_ad.ad.registry import default_registry

        def f(x):
            return np.sum(np.tanh(x) * x)

        x = np.linspace(-1.0, 1.0, 5)
        g = s2s_ad.grad(f)(x)
        assert np.allclose(g, np.tanh(x) + x * (1 - np.tanh(x) ** 2))
        print(json.dumps([default_registry().loaded_modules(), "numpy.ma" in sys.modules]))
    """, tmp_path)
    got, masked_arrays_imported = got
    assert not masked_arrays_imported     # checking for a masked argument does not load it
    assert "s2s_ad.templates.numpy_math" in got
    for unused in ("numpy_fft", "numpy_linalg", "numpy_decompositions", "numpy_signal",
                   "numpy_polynomials"):
        assert f"s2s_ad.templates.{unused}" not in got
    assert len(got) < 8


@pytest.mark.parametrize("general", [False, True])
def test_a_numpy_function_without_a_template_is_named_after_every_module_is_imported(general, tmp_path):
    got = _run(f"""
        import json, os
        if {general!r}:
            os.environ["S2S_AD_GENERAL"] = "1"
        import numpy as np
        import s2s_ad
        from s2s_ad.ad.registry import default_registry
        from s2s_ad.templates import MODULES

        def f(x):
            return np.sum(np.spacing(x) * 2.0)

        try:
            s2s_ad.grad(f)(np.ones(3))
            message = None
        except s2s_ad.MissingDerivativeError as exc:
            message = str(exc)
        print(json.dumps([message, len(default_registry().loaded_modules()), len(MODULES)]))
    """, tmp_path)
    message, loaded, modules = got
    assert message is not None and "np.spacing" in message and "np.sum(np.spacing(x) * 2.0)" in message
    assert loaded == modules        # numpy's, yet not indexed: every module was looked in


def test_a_template_of_yours_registered_before_the_built_in_module_loads_wins(tmp_path):
    got = _run("""
        import json
        import numpy as np
        import s2s_ad
        from s2s_ad import adjoint, d

        @adjoint(np.arctan)
        def my_arctan_adjoint(y, x):
            d[x] += d[y] * 0.0 + 7.0

        def f(x):
            return np.sum(np.arctan(x))

        print(json.dumps(list(s2s_ad.grad(f)(np.ones(2)))))
    """, tmp_path)
    assert got == [7.0, 7.0]


def test_an_index_answers_for_the_kinds_it_lists_and_leaves_numpy_misses_to_a_full_import():
    import numpy as np
    index = TemplateIndex([("adjoint", "numpy:tanh", "numpy_math"),
                           ("tangent", "numpy:tanh", "numpy_math")])
    assert index.modules_for("adjoint", np.tanh) == ("numpy_math",)
    assert index.modules_for("nondifferentiable", np.tanh) == ()
    assert index.modules_for("adjoint", np.sinh) is None
    assert index.modules_for("adjoint", len) == ()
    assert index.modules_for("adjoint", _run) == ()      # a function of yours
    assert module_text(index).count("numpy:tanh") == 2


def test_an_index_whose_sources_differ_from_the_modules_is_not_used():
    """A template added by a merge that did not regenerate the index: the registry then
    imports every module (slower, never a missing template)."""
    index = TemplateIndex.read()
    assert index.describes(MODULES, templates_directory())
    stale = TemplateIndex([], dict(index.sources, numpy_math=index.sources["numpy_math"] + 1))
    assert not stale.describes(MODULES, templates_directory())
    unrecorded = TemplateIndex([], {m: c for m, c in index.sources.items() if m != "objects"})
    assert not unrecorded.describes(MODULES, templates_directory())


def test_built_in_templates_are_read_off_their_code_as_inspect_reads_them():
    """The registry reads a built-in template's lines (frontend/parse.def_lines) and
    defaults (registry._defaults) off its code object, not through inspect: for every
    one, the same lines, first line and defaults as inspect gives, none left to inspect's
    slower path."""
    import importlib
    import inspect

    from s2s_ad.ad import registry, template_dsl
    from s2s_ad.frontend.parse import def_lines
    for module in MODULES:
        importlib.import_module(f"s2s_ad.templates.{module}")
    functions = [f for kind, _, f in template_dsl.registrations_since(0)
                 if kind != "nondifferentiable" and registry._is_built_in(f)]
    assert len(functions) > 500
    for function in functions:
        lines, first = inspect.getsourcelines(function)
        assert def_lines(function) == (lines, first), function.__name__
        expected = {p.name: p.default for p in inspect.signature(function).parameters.values()
                    if p.default is not inspect.Parameter.empty}
        assert registry._defaults(function) == expected, function.__name__


def test_the_index_answers_constant_parameters_without_importing_a_template_module():
    """grad()'s silent-zero check reads them from here (registry.constant_parameters):
    None where only the template itself can tell."""
    import numpy as np
    index = TemplateIndex([("adjoint", "numpy:tanh", "numpy_math"),
                           ("adjoint", "numpy:sinc", "numpy_sinc"),
                           ("adjoint", "numpy:sinc", "numpy_math")],
                          constants={"numpy:tanh": ("x",)})
    assert index.constant_parameters(np.tanh) == frozenset({"x"})
    assert index.constant_parameters(np.sinc) is None        # two modules register it
    assert index.constant_parameters(np.sinh) is None        # numpy's, not indexed
    assert index.constant_parameters(len) == frozenset()     # no built-in template
    assert "CONSTANT_PARAMETERS = {\n    'numpy:tanh': ('x',),\n}" in module_text(index)
    committed = TemplateIndex.read()
    assert committed.constant_parameters(np.tanh) == frozenset()
    assert committed.constant_parameters(np.logaddexp) == frozenset()
