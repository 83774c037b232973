"""Stage 7 (specialised reverse mode): backward arithmetic the forward sweep already did is read.

A template's contribution often recomputes a value the forward sweep holds: the adjoint of
`t5_0 = t4_0 * z` with `t4_0 = 0.5 * z` hands z the contribution `0.5 * z` again, and
np.var's adjoint centres x on the mean the user's layer norm already took
(`mu = np.mean(x, axis=-1, keepdims=True)`). For an array that is an allocation and a
pass over the data. This pass replaces such an operation, anywhere in the backward sweep,
by the forward name holding its value (a temporary or a user's variable, which is only
read):

    t4_0 = 0.5 * z                          t4_0 = 0.5 * z
                                   ->
    z_bar = z * 0.5 + t4_0                  z_bar = t4_0 + t4_0

    mu = np.mean(x, axis=-1, keepdims=True)
                                   ->
    x_bar = (x - np.mean(x, axis=-1, keepdims=True)) * c      x_bar = (x - mu) * c

The value is the same bits: the operation, its operands, its literal keywords and their
order are the same, or operands swapped for `+` and `*` (IEEE addition and multiplication
commute exactly). Only operations on names and number literals are matched, defined at
the top level of the forward sweep, where the holder and every name the operation reads
are assigned once in the whole body (or never: parameters) and never written into (no
`x[i] = ...`, no `x += ...`), so the holder still holds that value when the backward
sweep reads it.
"""
import gast

from ..ir import build
from ..ir.walk import Transformer, walk_tree

_COMMUTATIVE = (gast.Add, gast.Mult)


def reuse_forward_values(body, pure_call):
    """(body, changed). pure_call(call): a call without effects (numpy's and math's
    functions)."""
    split = next((k for k, stmt in enumerate(body) if build.is_blank_line(stmt)), None)
    if split is None:
        return body, False
    once = assigned_at_most_once(body)
    unchanged = once - _stored_names(body)          # parameters
    held = {}
    for stmt in body[:split]:
        # what this statement reads was bound before it (or never), once: values that
        # stay as they are here until the end
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id in once:
            for key in _keys(stmt.value, unchanged, pure_call):
                held.setdefault(key, stmt.targets[0].id)
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id in once:
            unchanged.add(stmt.targets[0].id)
    unchanged = once           # in the backward sweep every forward binding has happened
    if not held:
        return body, False
    changed = False
    backward = []
    for stmt in body[split:]:
        stmt, replaced = _Replace(held, unchanged, pure_call).apply(stmt)
        changed |= replaced
        backward.append(stmt)
    return (body[:split] + backward, True) if changed else (body, False)


class _Replace(Transformer):
    def __init__(self, held, unchanged, pure_call):
        self.held, self.unchanged, self.pure_call = held, unchanged, pure_call
        self.replaced = False

    def apply(self, stmt):
        stmt = build.clone(stmt)            # a stage never writes into its input
        # not a whole assigned value: `z_bar = t4_0` would make z_bar the forward
        # temporary's array, which a later `z_bar += e` would write into
        self.kept = stmt.value if isinstance(stmt, gast.Assign) else None
        return self.visit(stmt), self.replaced

    def generic_visit(self, node):
        node = super().generic_visit(node)
        if isinstance(node, (gast.BinOp, gast.UnaryOp, gast.Call)) and node is not self.kept:
            for key in _keys(node, self.unchanged, self.pure_call):
                name = self.held.get(key)
                if name is not None:
                    self.replaced = True
                    return build.name(name)
        return node


def _keys(value, unchanged, pure_call):
    """The ways to say which operation `value` is (both operand orders for `+` and `*`),
    or nothing when it is not one operation on unchanged names and number literals."""
    if isinstance(value, gast.BinOp):
        left, right = _atom(value.left, unchanged), _atom(value.right, unchanged)
        if left is None or right is None:
            return []
        op = type(value.op).__name__
        keys = [("binop", op, left, right)]
        if isinstance(value.op, _COMMUTATIVE):
            keys.append(("binop", op, right, left))
        return keys
    if isinstance(value, gast.UnaryOp) and isinstance(value.op, gast.USub):
        operand = _atom(value.operand, unchanged)
        return [("neg", operand)] if operand is not None else []
    if isinstance(value, gast.Call) and value.args and pure_call(value):
        func = build.dotted_path(value.func)
        args = [_atom(a, unchanged) for a in value.args]
        keywords = [(k.arg, _literal(k.value)) for k in value.keywords]
        if func is None or any(a is None for a in args) \
                or any(k is None or v is None for k, v in keywords):
            return []
        return [("call", func) + tuple(args) + tuple(sorted(keywords))]
    return []


def _literal(node):
    """A keyword's literal value (`axis=-1`, `keepdims=True`) as a key part, else None."""
    number = build.number_literal(node)
    if number is not None:
        return ("number", type(number).__name__, repr(number))
    if isinstance(node, gast.Constant) and (node.value is None or type(node.value) is bool):
        return ("constant", repr(node.value))
    return None


def _atom(node, unchanged):
    if isinstance(node, gast.Name):
        return ("name", node.id) if node.id in unchanged else None
    if isinstance(node, gast.Constant) and type(node.value) in (int, float):
        return ("number", type(node.value).__name__, repr(node.value))
    return None


def _stored_names(body):
    return {node.id for stmt in body for node in walk_tree(stmt)
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store)}


def assigned_at_most_once(body):
    """Names bound at most once in the body (loop targets and `+=` count as bindings) and
    never written into (`name[i] = v`, `name.attr = v`, `out=name`)."""
    stores, written = {}, set()
    for stmt in body:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name):
                count = 1 if isinstance(node.ctx, gast.Store) else 0
                stores[node.id] = stores.get(node.id, 0) + count
            elif isinstance(node, (gast.Assign, gast.AugAssign)):
                targets = node.targets if isinstance(node, gast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, (gast.Subscript, gast.Attribute)):
                        written.update(n.id for n in walk_tree(target)
                                       if isinstance(n, gast.Name))
            elif isinstance(node, gast.keyword) and node.arg == "out":
                written.update(n.id for n in walk_tree(node.value) if isinstance(n, gast.Name))
    return {name for name, count in stores.items() if count <= 1} - written
