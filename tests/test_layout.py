"""The layering ARCHITECTURE.md states, checked on the source: ir/ is the bottom layer."""
import ast
import pathlib

import numpy as np

import s2s_ad

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "s2s_ad"


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or "")
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def test_ir_imports_nothing_from_the_front_end_or_later_stages():
    files = sorted((PACKAGE / "ir").glob("*.py"))
    assert files
    for path in files:
        for module in _imports(path):
            stage = module.lstrip(".").split(".")[0]
            assert not (module.startswith("..") and stage in (
                "frontend", "transforms", "analyses", "ad", "optimize", "backend")), \
                f"{path.name} imports {module}"


def _looped(x, w):
    total = 0.0
    for i in range(3):
        if total < 10.0:
            total = total + np.sum(np.tanh(x * w * 2)) * i
        x = x * 2
    return total


def test_the_reverse_stage_leaves_the_levels_form_as_it_was():
    from s2s_ad.backend.emit import to_source
    from s2s_ad.pipeline import front
    from s2s_ad.derivative_registry import CACHE
    x, w = np.ones(3), np.full(3, 0.5)
    df = s2s_ad.grad(_looped, wrt=(0, 1))
    df(x, w)
    before = to_source(front(_looped)[0].tree)
    recorded = [d for d in CACHE.by_function.values() if d.func is _looped]
    assert recorded
    for derived in recorded:             # the levels form as it was after the derivative
        assert derived.levels_source == before


MAX_LINES = 400          # one stage per module, each readable in one sitting


def test_every_module_is_at_most_400_lines():
    """The house rule, checked: a module that grows past it is split by what its parts are
    (templates/template_index.py is generated, not read)."""
    roots = (PACKAGE, PACKAGE.parent / "templates")
    long = {str(path.relative_to(PACKAGE.parent)): n for root in roots
            for path in sorted(root.rglob("*.py")) if path.name != "template_index.py"
            for n in [len(path.read_text().splitlines())] if n > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
