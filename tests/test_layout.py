"""The layering ARCHITECTURE.md states, checked on the source: ir/ is the bottom layer."""
import ast
import pathlib

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
