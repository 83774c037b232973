"""Put single-use temporaries back into the expression that uses them.

Levels form names every intermediate value. In the forward sweep of a gradient, a
temporary that the next statement reads once and nothing else reads (the backward sweep
kept no use of it) only keeps its array alive until the function returns: at large sizes
that is memory the allocator must map afresh on every call. Written back into its use,
numpy frees it at once, and the line reads like the user's. The backward sweep gets the
same treatment for adjoints of temporaries (`t4_0_bar`), after which the folder can
cancel the negations a chain of `-` rules leaves (`-(-a / b * c)` -> `a / b * c`):

    t1_0 = X @ W1                           t1_0 = X @ W1
    t2_0 = t1_0 + b1              ->        h = np.tanh(t1_0 + b1)
    h = np.tanh(t2_0)
    t1_1_bar = -unbroadcast(g, t1_1)        u_bar[:-1] -= unbroadcast(g, t1_1)
    u_bar[:-1] += t1_1_bar

In any block (loop bodies too), into the next statement that reads it (an assignment or
a return) past only effect-free assignments that rebind nothing it reads, only values
whose calls have no effects (numpy and math), and never into a branch of `a if c else b`
or `and`/`or`: no effect changes order and no value it reads changes.
"""
import re

import gast

from ..ir import build
from ..ir.walk import all_statements, every_call, name_counts, walk_tree

_TEMPORARY = re.compile(r"t\d+_\d+(_bar)?$")
# a forward-mode gradient's tangent of a temporary (ad/forward_gradient.py): `dt1_0_dx`,
# a number, so a copy `dp_dx = dt1_0_dx` may take its value too
_TANGENT = re.compile(r"dt\d+_\d+_d\w+$")
_CONDITIONAL = (gast.IfExp, gast.BoolOp, gast.Lambda, gast.ListComp, gast.GeneratorExp,
                gast.SetComp, gast.DictComp)


def inline_temporaries(body, pure_call, is_number=None, is_adjoint=lambda name: False):
    """body with single-use temporaries inlined (every block). pure_call(call)
    tells a call without effects (numpy, math): only values whose calls all are move.
    is_number(name): the temporary holds a number (a copy `y = t` of it may take its
    value: nothing can alias a number). At the top level (straight-line code), a value
    also moves past `x_bar[i] += v` into an adjoint (`is_adjoint`) it does not read: an
    adjoint written in place is an array the backward sweep allocated, which nothing reads
    before it is complete (in a loop, an adjoint carried between iterations is read while
    others still add into it). Returns (new body, changed): the pass edits a copy it
    makes at its entry (it moves values between statements of every block), `body` and
    its statements stay as they were."""
    body = build.clone(body)
    loads, stores = name_counts(body)
    changed = False
    seen = _Seen(pure_call)
    for block in [body] + [getattr(s, f) for s in all_statements(body)
                           for f in ("body", "orelse")
                           if isinstance(s, (gast.If, gast.For, gast.While))]:
        k = 0
        while k + 1 < len(block):
            stmt = block[k]
            name = _single_use_temporary(stmt, stores, loads)
            past_adjoints = is_adjoint if block is body else (lambda name: False)
            user = _user(block, k, name, pure_call, past_adjoints, seen) if name is not None \
                and every_call(stmt.value, pure_call) else None
            copies = is_number is not None and is_number(name)
            if user is not None and _inline_into(user, name, stmt.value, copies):
                seen.forget(user, stmt)           # (stmt: its id may be taken again)
                del block[k]
                changed = True
                k = max(k - 1, 0)          # the previous temporary may now feed this one
                continue
            k += 1
    return body, changed


class _Seen:
    """What _user asks of a statement, found once per statement (a temporary whose use is
    far below it is looked for in every statement in between: walking each again for
    each temporary was quadratic in a block's length). A statement a value was inlined
    into is forgotten; the pass changes no other (it deletes the temporary's own)."""

    def __init__(self, pure_call):
        self.pure_call, self._names, self._pure = pure_call, {}, {}

    def names(self, stmt):
        """The names in stmt (any context, nested blocks included)."""
        found = self._names.get(id(stmt))
        if found is None:
            found = self._names[id(stmt)] = {n.id for n in walk_tree(stmt)
                                             if isinstance(n, gast.Name)}
        return found

    def pure_value(self, stmt):
        found = self._pure.get(id(stmt))
        if found is None:
            found = self._pure[id(stmt)] = every_call(stmt.value, self.pure_call)
        return found

    def forget(self, *stmts):
        for stmt in stmts:
            self._names.pop(id(stmt), None)
            self._pure.pop(id(stmt), None)


def _user(block, k, name, pure_call, is_adjoint, seen):
    """The statement after block[k] that reads `name`, if every statement in between is
    a plain assignment of an effect-free value that rebinds nothing block[k] reads, or
    an addition into an adjoint block[k] does not read."""
    read = {n.id for n in walk_tree(block[k].value) if isinstance(n, gast.Name)}
    for j in range(k + 1, len(block)):
        stmt = block[j]
        if build.is_comment(stmt):
            continue
        if name in seen.names(stmt):
            return stmt
        if isinstance(stmt, gast.AugAssign):
            base = stmt.target.value if isinstance(stmt.target, gast.Subscript) \
                else stmt.target
            if isinstance(base, gast.Name) and is_adjoint(base.id) and base.id not in read \
                    and every_call(stmt.value, pure_call) and every_call(stmt.target, pure_call):
                continue
            return None
        if build.assigned_name(stmt) in (None, *read) or not seen.pure_value(stmt):
            return None
    return None


def _single_use_temporary(stmt, stores, loads):
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name) \
            and (_TEMPORARY.match(stmt.targets[0].id) or _TANGENT.match(stmt.targets[0].id)):
        name = stmt.targets[0].id
        if stores.get(name) == 1 and loads.get(name) == 1:
            return name
    return None


def _inline_into(stmt, name, value, copies=False):
    """Replace the one load of `name` in `stmt` by `value`; False if not allowed there."""
    if isinstance(stmt, gast.AugAssign) and isinstance(stmt.op, gast.Add) \
            and isinstance(stmt.value, gast.Name) and stmt.value.id == name:
        # `x_bar[1:] += t1_0_bar` with `t1_0_bar = -g`: `x_bar[1:] += -g`, which the
        # folder makes `x_bar[1:] -= g` (no array for -g)
        stmt.value = value
        return True
    if isinstance(stmt, gast.If):
        # `t6_0 = t5_0 <= delta; if t6_0:` -> `if t5_0 <= delta:`: the test runs before
        # either branch, where the assignment stood (a load in a branch stays put)
        if not any(isinstance(n, gast.Name) and n.id == name for n in walk_tree(stmt.test)):
            return False
        if isinstance(stmt.test, gast.Name):
            stmt.test = value
            return True
        return _replace_load(stmt.test, name, value)
    if not isinstance(stmt, (gast.Assign, gast.Return)) or stmt.value is None:
        return False
    return _replace_load(stmt, name, value, copies)


def _replace_load(stmt, name, value, copies=False):
    """Replace the one load of `name` in the expression `stmt.value` (or in the expression
    `stmt` itself, an If's test) by `value`, never inside a conditional part."""
    expression = stmt if isinstance(stmt, gast.expr) else stmt.value
    parents = {}
    for node in walk_tree(expression):
        for child in gast.iter_child_nodes(node):
            parents[id(child)] = node
    target = None
    for node in walk_tree(expression):
        if isinstance(node, gast.Name) and node.id == name and isinstance(node.ctx, gast.Load):
            target = node
    if target is None:
        return False
    node = target
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, _CONDITIONAL):
            return False
    if expression is target:
        if not (copies or _TANGENT.match(name)):
            return False           # `y = t` would alias nothing: leave the copy alone
        stmt.value = value
        return True
    for holder in walk_tree(expression):
        for field, child in gast.iter_fields(holder):
            if child is target:
                setattr(holder, field, value)
                return True
            if isinstance(child, list) and any(c is target for c in child):
                child[[id(c) for c in child].index(id(target))] = value
                return True
    return False
