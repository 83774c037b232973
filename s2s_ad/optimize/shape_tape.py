"""Drop shape tape entries nobody reads any more.

A loop's value that the backward sweep reads only for its shape is taped as its shape
and restored as a placeholder (ad/tape.py). Later passes can remove the last such read
(a folded seed, a scalar `unbroadcast`); the push and the restore then do nothing but
cost a call each per iteration, and are removed together, so the tape stays balanced:

    for t in ts:                                  for t in ts:
        _tape.append(shape_of(t8_0))                  t8_0 = t7_0 ** 2
        t8_0 = t7_0 ** 2                  ->          ...
    ...                                           for t in ts[::-1]:
    for t in ts[::-1]:                                t7_0_bar = g * 2 * t7_0
        t7_0_bar = g * 2 * t7_0
        t8_0 = placeholder(_tape.pop())
"""
import gast

from ..ir import build
from ..ir.naming import calls
from ..ir.walk import all_statements, walk_tree, without_statements
from .. import runtime


def drop_unread_shape_tape(body, resolve, only=None):
    """Remove (in place) the shape pushes and placeholder restores of names the backward
    sweep no longer reads (restricted to `only` when given). `resolve(name)` gives what
    a free name of the generated code denotes. True when something was removed."""
    split = next((k for k, stmt in enumerate(body) if build.is_blank_line(stmt)), None)
    if split is None:
        return False
    read = _names_read(body[split:], resolve)
    removed = False

    def unread(stmt):
        nonlocal removed
        name = _shape_push(stmt, resolve) or _placeholder_restore(stmt, resolve)
        hit = name is not None and name not in read and (only is None or name in only)
        removed |= hit
        return hit

    body[:] = without_statements(body, unread)
    return removed


def _names_read(body, resolve):
    """Names read, except as the argument of a shape push or by a restore."""
    read = set()
    for stmt in all_statements(body):
        if _shape_push(stmt, resolve) or _placeholder_restore(stmt, resolve):
            continue
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            heads = [stmt.iter] if isinstance(stmt, gast.For) else [stmt.test]
            nodes = [n for h in heads for n in walk_tree(h)]
        else:
            nodes = walk_tree(stmt)
        read |= {n.id for n in nodes if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
    return read


def _shape_push(stmt, resolve):
    """v for `_tape.append(shape_of(v))`, else None."""
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
            and isinstance(stmt.value.func, gast.Attribute) and stmt.value.func.attr == "append" \
            and len(stmt.value.args) == 1 \
            and calls(stmt.value.args[0], runtime.shape_of, resolve) \
            and isinstance(stmt.value.args[0].args[0], gast.Name):
        return stmt.value.args[0].args[0].id
    return None


def _placeholder_restore(stmt, resolve):
    """v for `v = placeholder(_tape.pop())`, else None."""
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name) \
            and calls(stmt.value, runtime.placeholder, resolve):
        return stmt.targets[0].id
    return None
