"""Part of stage 3, fence: which assignment expressions (`n := e`) normalize lowers.

normalize binds the name as a statement of its own where the expression is evaluated
(transforms/expressions.py), and the name is bound like one assigned in a branch or a
loop (never renamed), so that a binding made in a comprehension, a `while` test, or one
operand of `and`/`or` is the one later code reads, as in Python:

    if (n := x.shape[0]) > 2:        ->   n = x.shape[0]; t = n > 2; if t: ...
    [y for v in xs if (y := f(v)) > 0]    (y is bound in f's scope, as Python does)

Rejected with a located error: a read of the same name evaluated before the `:=` in the
same statement (`n + (n := 3)`: the read must see the old value, and a name bound in
place has only one), and `:=` in a lambda (it binds in the lambda's own scope).
"""
import gast

from ..errors import UnsupportedSyntaxError
from ..ir.walk import walk_tree


def check_assignment_expressions(tree, smap, nodes):
    """Raise a located UnsupportedSyntaxError for the forms the module docstring names.
    `nodes`: the tree's, walked (fence's walk, shared by its checks)."""
    if not any(isinstance(node, gast.NamedExpr) for node in nodes):
        return                # without a `:=` none of them can be there
    for node in nodes:
        if isinstance(node, gast.Lambda):
            for inner in walk_tree(node.body):
                if isinstance(inner, gast.NamedExpr):
                    raise UnsupportedSyntaxError(
                        "an assignment expression (`:=`) in a lambda", smap.locate(inner),
                        "write a def, or assign before the lambda")
    for root in _expression_roots(tree.body):
        seen = set()              # names read so far, in Python's order of evaluation
        for node in _in_evaluation_order(root):
            if isinstance(node, gast.NamedExpr):
                if node.target.id in seen:
                    raise UnsupportedSyntaxError(
                        f"`{node.target.id}` is read before the `:=` that rebinds it in the "
                        f"same statement", smap.locate(node),
                        f"assign `{node.target.id}` on a line of its own before this one")
            elif isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
                seen.add(node.id)
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
                seen.add(node.target.id)      # `n += e` reads n before e


def _expression_roots(stmts):
    """The expressions each statement evaluates as one unit: a compound statement's
    test or iterable, a simple statement whole (nested defs are checked as they are
    inlined: their bodies are statements here too)."""
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.While)):
            yield stmt.test
        elif isinstance(stmt, gast.For):
            yield stmt.iter
        elif isinstance(stmt, gast.With):
            yield from (item.context_expr for item in stmt.items)
        elif isinstance(stmt, gast.FunctionDef):
            pass
        elif not hasattr(stmt, "body"):
            yield stmt
        for field in ("body", "orelse", "finalbody"):
            yield from _expression_roots(getattr(stmt, field, None) or [])
        for handler in getattr(stmt, "handlers", None) or []:
            yield from _expression_roots(handler.body)


def _in_evaluation_order(node):
    """`node` and the nodes under it in the order Python evaluates them: as the fields
    are listed, except that a comprehension runs its loops and conditions before its
    element, an assignment its value before its targets, and `e := v` its value before
    binding (the NamedExpr is yielded first: reads in its own value come before the
    binding and are not reads before it)."""
    if isinstance(node, (gast.ListComp, gast.SetComp, gast.GeneratorExp)):
        children = list(node.generators) + [node.elt]
    elif isinstance(node, gast.DictComp):
        children = list(node.generators) + [node.key, node.value]
    elif isinstance(node, gast.comprehension):
        children = [node.iter, node.target] + list(node.ifs)
    elif isinstance(node, (gast.Assign, gast.AugAssign, gast.AnnAssign)):
        targets = node.targets if isinstance(node, gast.Assign) else [node.target]
        children = [node.value] + list(targets)
    elif isinstance(node, gast.NamedExpr):
        children = [node.value]
    elif isinstance(node, (gast.Lambda, gast.FunctionDef)):
        yield node                # its body runs when it is called, not here
        return
    else:
        children = [child for child in gast.iter_child_nodes(node)]
    yield node
    for child in children:
        if child is not None:
            yield from _in_evaluation_order(child)
