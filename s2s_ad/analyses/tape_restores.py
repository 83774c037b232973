"""Which statements of a generated derivative restore a value from its tape, and which
only give a name a first value to save (facts the kinds analysis reads when a derivative
is differentiated again: hvp, grad of grad).

A reverse derivative saves a value before a loop iteration overwrites it and restores it
in the backward sweep, always into the name it was saved from; names first bound inside
a loop get a `None` before the tape exists, only so that the first save has a value to
push (ad/tape.py, backend/derivative_def.py):

    t3_5 = None                               <- a preamble: never read as a value
    _tape = []
    for index in t3_0:
        _tape.append(t3_5)
        t3_5 = as_instance(layer, Residual)   t3_5: Residual(inner: ...)
    for index in t3_0[::-1]:
        ... vjp_h(g, t3_5, x) ...             t3_5: still Residual(inner: ...)
        t3_5 = _tape.pop()                    <- restores a value t3_5 held: its kind

So a restore has the join of the kinds its name was given, the preamble's None left out;
without these facts every restored object or number is unknown, and what the derivative
calls on it (a method of a layer held in a list) is derived without its class.
"""
from dataclasses import dataclass

import gast

from ..backend.sources import is_generated
from ..ir.walk import walk_tree


@dataclass(frozen=True)
class TapeRestores:
    tape: str               # the tape's name
    preamble: frozenset     # ids of the `name = None` statements made before it
    saved: frozenset        # the names saved on it (`tape.append(name)`)

    def restored(self, stmt):
        """The name `stmt` restores (`name = tape.pop()` of a saved name), else None."""
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and _is_method_call(stmt.value, self.tape, "pop") and not stmt.value.args \
                and stmt.targets[0].id in self.saved:
            return stmt.targets[0].id
        return None

    def skipped(self, stmt):
        """(True, None) for a preamble, (True, name) for a restore of name, else (False, None)."""
        if id(stmt) in self.preamble:
            return True, None
        name = self.restored(stmt)
        return name is not None, name


def tape_restores(levels):
    """The TapeRestores of `levels` when it is the levels form of a derivative s2s_ad
    generated (with a tape), else None: user code's lists are not tapes."""
    if not is_generated(getattr(levels.parsed, "func", None)):
        return None
    body = levels.tree.body
    for position, stmt in enumerate(body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and isinstance(stmt.value, gast.List) and not stmt.value.elts:
            tape = stmt.targets[0].id
            saved = _saved_names(levels.tree, tape)
            if saved is None:
                continue
            preamble = frozenset(id(s) for s in body[:position] if _is_none_binding(s))
            return TapeRestores(tape, preamble, frozenset(saved))
    return None


def _saved_names(tree, tape):
    """The names `tape.append(name)` saves, if the tape is read only by appends and pops."""
    saved, uses = set(), 0
    for node in walk_tree(tree):
        if isinstance(node, gast.Expr) and _is_method_call(node.value, tape, "append") \
                and len(node.value.args) == 1 and isinstance(node.value.args[0], gast.Name):
            saved.add(node.value.args[0].id)
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                and isinstance(node.func.value, gast.Name) and node.func.value.id == tape:
            uses += 1
            if node.func.attr not in ("append", "pop"):
                return None
    reads = sum(1 for node in walk_tree(tree) if isinstance(node, gast.Name)
                and node.id == tape and isinstance(node.ctx, gast.Load))
    return saved if reads == uses else None


def _is_method_call(value, receiver, method):
    return isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
        and value.func.attr == method and isinstance(value.func.value, gast.Name) \
        and value.func.value.id == receiver


def _is_none_binding(stmt):
    return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
        and isinstance(stmt.value, gast.Constant) and stmt.value.value is None
