"""The names normalization never renames: bound inside a loop or branch, written by index
or by a call that fills an array, appended to. Each keeps one name throughout f (a
later read sees every write), where a name bound once at the top level becomes a new
name at each binding.

    for i in range(3):                  assigned_in_compound(tree) == {"i", "s", "buf"}
        s = s + i
    buf[0] = 1.0
    np.copyto(buf, v)
"""
import gast

from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from .fallbacks import is_fallback


def assigned_in_compound(tree):
    """Names (re)bound inside if/for/while, index-written or appended to: never renamed."""
    names = set()

    def visit(stmts, nested):
        for stmt in stmts:
            if isinstance(stmt, (gast.If, gast.For, gast.While)):
                if isinstance(stmt, gast.For):
                    names.update(n.id for n in walk_tree(stmt.target) if isinstance(n, gast.Name))
                visit(stmt.body, True)
                visit(stmt.orelse, True)
                continue
            if isinstance(stmt, gast.Try) and is_fallback(stmt):
                # an `if` on whether the body completed (transforms/fallbacks.py)
                visit(stmt.body + stmt.handlers[0].body + stmt.orelse, True)
                continue
            if isinstance(stmt, (gast.With, gast.Try)):
                # its body runs where it stands (transforms/contexts.py): nested as the
                # block is
                visit(stmt.body + getattr(stmt, "orelse", []) + getattr(stmt, "finalbody", []),
                      nested)
                continue
            for node in walk_tree(stmt):
                if isinstance(node, gast.Subscript) and isinstance(node.ctx, gast.Store):
                    base = node.value
                    while isinstance(base, gast.Subscript):     # A[i][j] = v
                        base = base.value
                    if isinstance(base, gast.Name):
                        names.add(base.id)
                elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                        and node.func.attr in ("append", "fill") \
                        and isinstance(node.func.value, gast.Name):
                    names.add(node.func.value.id)
                elif isinstance(node, gast.Call):       # F(..., out=y), np.copyto(y, v)
                    names.update(_filled_name(node))
                elif nested and isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                    names.add(node.id)
    visit(tree.body, False)
    return names


def _filled_name(call):
    """The name a call that writes into an array may fill by its form alone (`out=y`,
    `np.copyto(y, v)`, `np.fill_diagonal(y, v)`): a module's array written so is f's
    variable from there on, like one written by index (transforms/mutation.py)."""
    out = [k.value for k in call.keywords if k.arg == "out"]
    if not out and (dotted_path(call.func) or "").split(".")[-1] in ("copyto", "fill_diagonal") \
            and call.args:
        out = [call.args[0]]
    if out and isinstance(out[0], gast.Tuple) and len(out[0].elts) == 1:
        out = out[0].elts
    return [o.id for o in out if isinstance(o, gast.Name)]
