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

from ..ir.translate import to_ast
from ..ir.walk import walk_tree

_MARKER = re.compile(r"^(\s*)__s2s_(comment|blank)__\((.*)\)$")


def to_source(tree):
    """Source text of a gast tree (a statement, function or module)."""
    node = to_ast(tree)     # a new tree: what follows changes it, never `tree`
    texts = _prepare(node)
    # no ast.fix_missing_locations: astor reads no positions (only its line-comment
    # option would), and filling them in was a quarter of the time emitting took
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


def _prepare(node):
    """In one walk of the ast tree: each comment marker's text replaced by its index in the
    list returned (astor may wrap long strings; an index stays on its line), and `pass` in
    every block the optimiser emptied (a loop whose body has nothing to differentiate, or
    whose forward values nothing reads; an `else:` the same): Python needs a statement
    there."""
    texts = []
    for block in walk_tree(node):
        if isinstance(block, ast.Call) and isinstance(block.func, ast.Name) \
                and block.func.id == "__s2s_comment__" and block.args \
                and isinstance(block.args[0], ast.Constant) \
                and isinstance(block.args[0].value, str):
            texts.append(block.args[0].value)
            block.args[0] = ast.Constant(value=len(texts) - 1, kind=None)
            continue
        if isinstance(block, (ast.For, ast.While, ast.If, ast.FunctionDef, ast.With)) \
                and all(_marker(stmt) for stmt in block.body):
            block.body.append(ast.Pass())     # comments alone are no statement either
        if isinstance(block, (ast.For, ast.While, ast.If)) and block.orelse \
                and all(_marker(stmt) for stmt in block.orelse):
            block.orelse.append(ast.Pass())   # an `else:` holding only its provenance comment
    return texts


def _marker(stmt):
    """A comment or blank-line marker statement (it becomes no Python statement)."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
        and isinstance(stmt.value.func, ast.Name) \
        and stmt.value.func.id in ("__s2s_comment__", "__s2s_blank__")


def expression_source(node):
    return to_source(gast.Expr(value=node)).strip()
