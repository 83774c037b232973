"""Constant folding and algebraic identities inside generated expressions.

    t1_0_bar * 2 * x ** (2 - 1)   ->   t1_0_bar * 2 * x
    y_bar * 1.0                   ->   y_bar
    -(-(p_bar * p) / t4_0 * t3_0) ->   p_bar * p / t4_0 * t3_0
    x2 ** 2                       ->   x2 * x2
    a ** 3                        ->   a * a * a
    3 - 1                         ->   2

Only identities that hold for numpy arrays and Python numbers alike (no `x * 0 -> 0`:
that would change an array's shape).
"""
import copy
import math
import operator

import gast

from ..ir.walk import CopyingTransformer, walk_tree, with_blocks
from ..ir import build
from ..ir.build import number_literal

_FOLDABLE = {gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul,
             gast.Pow: operator.pow}


def _power_of_two(value):
    """A positive literal 2**k (scaling a float by it is exact)."""
    return type(value) in (int, float) and value > 0 and math.frexp(value)[0] == 0.5


def _python_number(node):
    """Arithmetic of numeric literals and sizes (`-1.0 / x.size`): a Python number
    whatever the names hold."""
    if number_literal(node) is not None:
        return True
    if isinstance(node, gast.Attribute):
        return node.attr in ("size", "ndim") and isinstance(node.value, gast.Name)
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        return _python_number(node.operand)
    return isinstance(node, gast.BinOp) \
        and isinstance(node.op, (gast.Add, gast.Sub, gast.Mult, gast.Div)) \
        and _python_number(node.left) and _python_number(node.right)


def _integer_power(base, exponent):
    """base ** 3 -> base * base * base; base ** 4 -> base * base * (base * base)."""
    def square():
        return build.binop(build.clone(base), "Mult", build.clone(base))
    return build.binop(square(), "Mult", build.clone(base) if exponent == 3 else square())


class _Folder(CopyingTransformer):
    """Folds an expression into new nodes (the tree it is given stays as it was)."""

    def __init__(self):
        self.changed = False

    def visit_BinOp(self, node):
        node = self.generic_visit(node)
        left, right = number_literal(node.left), number_literal(node.right)
        op = type(node.op)
        if left is not None and right is not None and op in _FOLDABLE:
            self.changed = True
            return build.literal(_FOLDABLE[op](left, right))
        inner = node.left
        inner_right = number_literal(inner.right) if isinstance(inner, gast.BinOp) \
            and isinstance(inner.op, gast.Mult) else None
        if op is gast.Mult and right is not None and inner_right is not None \
                and (_power_of_two(right) or _power_of_two(inner_right)):
            # (e * 0.5) * 2.0 -> e * 1.0 -> e, (e * 0.5) * 1.1283791670955126 -> e *
            # 0.5641895835477563: scaling by a power of two is exact, so it commutes with
            # the rounding of the other product (a template's 0.5 meeting a power rule's
            # 2.0 or a template constant); two other literals are not folded: their
            # product would round once more than the code as written
            self.changed = True
            return self.visit_BinOp(gast.BinOp(
                left=inner.left, op=gast.Mult(), right=build.literal(inner_right * right)))
        if op is gast.Mult and right is not None and _power_of_two(abs(right)) \
                and isinstance(inner, gast.BinOp) and isinstance(inner.op, gast.Mult) \
                and _python_number(inner.left) and not _python_number(inner.right):
            # (-1.0 / x.size * a) * 2.0 -> (-1.0 / x.size * 2.0) * a: the power of two
            # scales the number, exactly, instead of the array (one pass fewer)
            self.changed = True
            return gast.BinOp(left=self.visit_BinOp(gast.BinOp(
                left=inner.left, op=gast.Mult(), right=node.right)), op=gast.Mult(),
                right=inner.right)
        if right == 2 and op is gast.Pow and isinstance(node.left, gast.Name):
            # x * x: what numpy does for an array's ** 2, and on Python floats half the cost
            # of pow() (and correctly rounded, where pow() may be off by an ulp)
            self.changed = True
            return gast.BinOp(left=node.left, op=gast.Mult(), right=build.clone(node.left))
        if type(right) is int and right in (3, 4) and op is gast.Pow \
                and isinstance(node.left, gast.Name):
            # x * x * x, (x * x) * (x * x): numpy has no fast path for an array's ** 3 or
            # ** 4 (it calls pow() per element, ten times a product's cost); the products
            # round twice, so a value may differ from pow()'s in the last bit or two, as
            # JAX's integer_pow does (f's own value too, where the forward sweep has it)
            self.changed = True
            return _integer_power(node.left, right)
        if right == 1 and op in (gast.Pow, gast.Mult, gast.Div):
            self.changed = True
            return node.left
        if left == 1 and op is gast.Mult:
            self.changed = True
            return node.right
        if left == -1 and op is gast.Mult:
            self.changed = True
            return gast.UnaryOp(op=gast.USub(), operand=node.right)
        if op in (gast.Add, gast.Sub) and not _pops(node):
            rewritten = _signs_and_factors(node)
            if rewritten is not None:
                self.changed = True
                return self.visit_BinOp(rewritten)
        if op is gast.Mult and not _pops(node):
            divided = _reciprocal_product(node)
            if divided is not None:
                self.changed = True
                return divided
        if op in (gast.Mult, gast.Div, gast.MatMult) \
                and (_negated(node.left) or _negated(node.right)):
            # (-a) * b == -(a * b) exactly (rounding is symmetric), and (-a) @ B == -(a @ B)
            # (each product and each partial sum only changes sign): lift the sign out, so
            # two of them cancel, a subtraction takes it, or it negates a product's
            # smaller result (`-r_bar @ X`: the gradient, not the residuals)
            self.changed = True
            if _negated(node.left):
                node = gast.BinOp(left=node.left.operand, op=node.op, right=node.right)
            else:
                node = gast.BinOp(left=node.left, op=node.op, right=node.right.operand)
            return self.visit_UnaryOp(gast.UnaryOp(op=gast.USub(), operand=node))
        return node

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        inner = node.operand
        if isinstance(node.op, gast.USub) and isinstance(inner, gast.UnaryOp) \
                and isinstance(inner.op, gast.USub):
            self.changed = True
            return inner.operand
        return node


def _signs_and_factors(node):
    """A sum or difference with one pass fewer, or None:
        a + -b -> a - b      -a + b -> b - a      a - -b -> a + b
        c * a - c * b -> (a - b) * c   (c any expression both products share, literally)
        a / c + b / c -> (a + b) / c
    The last one keeps a shared scale, such as a mean's 1 / N, a single factor of the one
    array expression instead of a multiplication of each term (it rounds differently
    from the distributed form, as a hand-written gradient does; never an exact identity
    is lost: a literal 0 or a shape stays where it was)."""
    add = isinstance(node.op, gast.Add)
    if _negated(node.right):
        return gast.BinOp(left=node.left, op=gast.Sub() if add else gast.Add(),
                          right=node.right.operand)
    if add and _negated(node.left):
        return gast.BinOp(left=node.right, op=gast.Sub(), right=node.left.operand)
    shared = _shared_factor(node.left, node.right)
    if shared is None:
        return None
    factor, left, right, scale = shared
    return gast.BinOp(left=gast.BinOp(left=left, op=type(node.op)(), right=right),
                      op=scale(), right=factor)


def _shared_factor(left, right):
    """(c, a, b, operator) when `left` is c * a (or a * c) and `right` is c * b (or b * c),
    or `left` is a / c and `right` is b / c."""
    if not (isinstance(left, gast.BinOp) and isinstance(right, gast.BinOp)
            and type(left.op) is type(right.op) and isinstance(left.op, (gast.Mult, gast.Div))):
        return None
    if isinstance(left.op, gast.Div):
        if gast.dump(left.right) == gast.dump(right.right):
            return left.right, left.left, right.left, gast.Div
        return None
    for mine, my_rest in ((left.left, left.right), (left.right, left.left)):
        for theirs, their_rest in ((right.left, right.right), (right.right, right.left)):
            if gast.dump(mine) == gast.dump(theirs):
                return mine, my_rest, their_rest, gast.Mult
    return None


def _reciprocal_product(node):
    """1 / t * x and x * (1 / t) -> x / t: one operation fewer, and one rounding."""
    for one_over, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(one_over, gast.BinOp) and isinstance(one_over.op, gast.Div) \
                and number_literal(one_over.left) == 1 and number_literal(other) is None:
            return gast.BinOp(left=other, op=gast.Div(), right=one_over.right)
    return None


def _negated(node):
    """-a for a non-literal a (literals fold on their own)."""
    return isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub) \
        and number_literal(node.operand) is None


def fold_expression(node):
    """The folded form of one expression (used before deciding if an adjoint aliases);
    `node` itself is not written into."""
    return _Folder().visit(node)


def fold_operands(node):
    """`node` with its operands folded and itself as it is (`x * (y * 1.0)` -> `x * y`,
    `x * 1.0` stays): a whole value that folds to an alias keeps its arithmetic."""
    return _Folder().generic_visit(node)


def fold_constants(body):
    """Returns (new body, changed); `body` and its statements are not written into (a
    statement that folds is a new one, sharing the nodes that did not change). A statement's whole right-hand side is folded only to
    arithmetic, which makes a new array: `y = x * 1.0` or `y = x.T * 1.0` does, and `y = x`
    or `y = np.transpose(x)` (a view; so may any call be) would alias x, so that a later
    `y[0] = ...` would write into x."""
    folder = _Folder()
    return _fold_block(body, folder), folder.changed


def _fold_block(body, folder):
    out = []
    for stmt in body:
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            out.append(with_blocks(stmt, lambda block: _fold_block(block, folder)))
            continue
        if isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.BinOp):
            before = stmt.value
            left, right = folder.visit(before.left), folder.visit(before.right)
            value = before if left is before.left and right is before.right \
                else gast.BinOp(left=left, op=before.op, right=right)
            folded = _Folder().visit(value)
            if isinstance(folded, (gast.BinOp, gast.UnaryOp, gast.Constant)):
                folder.changed |= folded is not value
                value = folded
            if value is not before:
                stmt = copy.copy(stmt)
                stmt.value = value
            out.append(stmt)
            continue
        stmt = folder.visit(stmt)
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.op, gast.Add) \
                and isinstance(stmt.value, gast.UnaryOp) and isinstance(stmt.value.op, gast.USub):
            # x_bar[1:] += -(g * 2.0) -> x_bar[1:] -= g * 2.0: no array for the negation
            # (a + (-b) is a - b in IEEE arithmetic)
            stmt = gast.AugAssign(target=stmt.target, op=gast.Sub(), value=stmt.value.operand)
            folder.changed = True
        out.append(stmt)
    return _fuse_first_sums(out, folder)


def _pops(node):
    """Reads the tape: its order against other reads must stay as generated."""
    return any(isinstance(n, gast.Attribute) and n.attr == "pop" for n in walk_tree(node))


def _fuse_first_sums(body, folder):
    """`x_bar = -a` then `x_bar += b` -> `x_bar = b - a` (and `x_bar = e; x_bar += b` ->
    `x_bar = e + b`): one operation and one statement fewer, which counts on numbers."""
    out = []
    for stmt in body:
        previous = out[-1] if out else None
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.op, gast.Add) \
                and isinstance(stmt.target, gast.Name) \
                and build.assigned_name(previous) == stmt.target.id \
                and not any(isinstance(n, gast.Name) and n.id == stmt.target.id
                            for n in walk_tree(stmt.value)) \
                and not _pops(previous.value) and not _pops(stmt.value):
            first = previous.value
            out[-1] = previous = copy.copy(previous)      # the input's statement stays
            if isinstance(first, gast.UnaryOp) and isinstance(first.op, gast.USub):
                previous.value = gast.BinOp(left=stmt.value, op=gast.Sub(), right=first.operand)
            else:
                previous.value = gast.BinOp(left=first, op=gast.Add(), right=stmt.value)
            folder.changed = True
            continue
        out.append(stmt)
    return out
