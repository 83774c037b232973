"""The grammar of levels form, and `verify`, which checks a tree against it.

    stmt  := NAME = op | NAME[index] = atom | return atom | expr(call) | assert atom
           | if atom: stmt* else: stmt* | for NAME in atom: stmt* | while atom: stmt*
           | pass | break   (break only as `if flag: break`, last in a loop body)
    op    := atom | atom BINOP atom | UNARYOP atom | atom CMP atom | callee(atom*, kw=atom*)
           | atom[index] | atom.attr | (atom, ...) | [atom, ...]
    atom  := NAME | literal | dotted global (np.pi)
    index := atom | slice(atom?, atom?, atom?) | (index, ...)

    >>> verify(levels_tree)        # raises AssertionError naming the offending line
"""
import gast

from .build import dotted_path



def is_atom(node):
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    if isinstance(node, gast.UnaryOp) and isinstance(node.operand, gast.Constant):
        return True    # negative literal
    if isinstance(node, gast.Tuple):
        return all(is_atom(e) and not isinstance(e, gast.Name) for e in node.elts)
    return dotted_path(node) is not None


def is_index(node):
    if isinstance(node, gast.Slice):
        return all(b is None or is_atom(b) for b in (node.lower, node.upper, node.step))
    if isinstance(node, gast.Tuple):
        return all(is_index(e) for e in node.elts)
    return is_atom(node)


def is_operation(node):
    if is_atom(node):
        return True
    if isinstance(node, gast.BinOp):
        return is_atom(node.left) and is_atom(node.right)
    if isinstance(node, gast.UnaryOp):
        return is_atom(node.operand)
    if isinstance(node, gast.Compare):
        return len(node.ops) == 1 and is_atom(node.left) and is_atom(node.comparators[0])
    if isinstance(node, gast.Call):
        return (dotted_path(node.func) is not None and all(is_atom(a) for a in node.args)
                and all(is_atom(k.value) for k in node.keywords))
    if isinstance(node, gast.Subscript):
        return is_atom(node.value) and is_index(node.slice)
    if isinstance(node, gast.Attribute):
        return is_atom(node.value)
    if isinstance(node, (gast.Tuple, gast.List)):
        return all(is_atom(e) for e in node.elts)
    if isinstance(node, gast.JoinedStr):
        return all(is_atom(v.value) for v in node.values if isinstance(v, gast.FormattedValue))
    return False


def verify(tree):
    """Raise AssertionError unless every statement of `tree` is in levels form."""
    for stmt in tree.body:
        _verify_statement(stmt, in_loop=False)
    return tree


def _verify_statement(stmt, in_loop):
    where = f"line {getattr(stmt, 'lineno', '?')}: {type(stmt).__name__}"
    if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
        target = stmt.targets[0]
        assert isinstance(target.value, gast.Name) and is_index(target.slice), where
        assert is_atom(stmt.value), where
    elif isinstance(stmt, gast.Assign):
        assert len(stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name), where
        assert is_operation(stmt.value), where
    elif isinstance(stmt, gast.Return):
        assert stmt.value is None or is_atom(stmt.value), where
    elif isinstance(stmt, gast.Expr):
        assert isinstance(stmt.value, gast.Call) and is_operation(stmt.value), where
    elif isinstance(stmt, gast.Assert):
        assert is_atom(stmt.test), where
    elif isinstance(stmt, gast.Raise):
        assert is_atom(stmt.exc) or is_operation(stmt.exc), where
    elif isinstance(stmt, gast.If):
        assert is_atom(stmt.test), where
        if stmt.body and isinstance(stmt.body[0], gast.Break):
            assert in_loop and len(stmt.body) == 1 and not stmt.orelse, where
            return
        for child in stmt.body + stmt.orelse:
            _verify_statement(child, in_loop)
    elif isinstance(stmt, (gast.For, gast.While)):
        head = stmt.test if isinstance(stmt, gast.While) else stmt.iter
        assert isinstance(head, gast.Name) and not stmt.orelse, where
        assert isinstance(stmt, gast.While) or isinstance(stmt.target, gast.Name), where
        for k, child in enumerate(stmt.body):
            if isinstance(child, gast.If) and child.body and isinstance(child.body[0], gast.Break):
                assert k == len(stmt.body) - 1, f"{where}: break is not last"
            _verify_statement(child, in_loop=True)
    elif isinstance(stmt, gast.Pass):
        pass
    elif isinstance(stmt, gast.With):       # insert_grad_of: run by the backward sweep
        for child in stmt.body:
            _verify_statement(child, in_loop)
    else:
        raise AssertionError(f"not in levels form: {where}")
