"""Stage 8, emit: a gast tree -> Python source text, via astor.

astor's output does not change with the Python version, so generated files diff cleanly.
Marker statements built by `ir.build.comment` / `ir.build.blank_line` become comment
lines and blank lines:

    __s2s_comment__('grad of: y = np.tanh(x)')   ->   # grad of: y = np.tanh(x)
    __s2s_blank__()                              ->   (empty line)
"""
import ast
import re

import astor
import gast

from ..ir.walk import walk_tree

_MARKER = re.compile(r"^(\s*)__s2s_(comment|blank)__\((.*)\)$")


def to_source(tree):
    """Source text of a gast tree (a statement, function or module)."""
    texts = []
    for node in walk_tree(tree):   # comments travel as indices: astor may wrap long strings
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id == "__s2s_comment__" and isinstance(node.args[0].value, str):
            texts.append(node.args[0].value)
            node.args[0] = gast.Constant(value=len(texts) - 1, kind=None)
    try:
        return _render(tree, texts)
    finally:
        for node in walk_tree(tree):
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                    and node.func.id == "__s2s_comment__":
                node.args[0] = gast.Constant(value=texts[node.args[0].value], kind=None)


def _render(tree, texts):
    node = gast.gast_to_ast(tree)     # a new tree: filling its blocks leaves `tree` alone
    _fill_empty_blocks(node)
    ast.fix_missing_locations(node)
    # no re-wrapping: astor's line splitter breaks calls at odd places (`True\n    )`)
    text = astor.to_source(node, indent_with="    ", pretty_source="".join)
    lines = []
    for line in text.splitlines():
        match = _MARKER.match(line)
        if not match:
            lines.append(line)
        elif match.group(2) == "blank":
            lines.append("")
        else:
            comment = texts[int(match.group(3))]
            lines.append(f"{match.group(1)}# {comment}")
    return "\n".join(lines) + "\n"


def _fill_empty_blocks(node):
    """`pass` in every block the optimiser emptied (a loop whose body has nothing to
    differentiate, or whose forward values nothing reads; an `else:` the same): Python needs a
    statement there."""
    for block in ast.walk(node):
        if isinstance(block, (ast.For, ast.While, ast.If, ast.FunctionDef, ast.With)) \
                and all(_marker(stmt) for stmt in block.body):
            block.body.append(ast.Pass())     # comments alone are no statement either
        if isinstance(block, (ast.For, ast.While, ast.If)) and block.orelse \
                and all(_marker(stmt) for stmt in block.orelse):
            block.orelse.append(ast.Pass())   # an `else:` holding only its provenance comment


def _marker(stmt):
    """A comment or blank-line marker statement (it becomes no Python statement)."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
        and isinstance(stmt.value.func, ast.Name) \
        and stmt.value.func.id in ("__s2s_comment__", "__s2s_blank__")


def expression_source(node):
    return to_source(gast.Expr(value=node)).strip()
