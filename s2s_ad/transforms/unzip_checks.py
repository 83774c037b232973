"""The check of an unzipping, `xs, ys = zip(*rows)`, settled from the facts where they
know the rows (analyses/kinds.py): dropped, made a test of the rows' number only, or a
located error when Python is certain to raise.

Normalizing writes `check_unzipped(rows, 2)` after `rows = ...` (transforms/assignments.py):
zip gives as many columns as the shortest row has values (none for no rows), and Python
raises ValueError unless that is one per target. The check reads every row's length;
where the facts know them it is not needed, or needs only the number of rows:

    rows = [(x, y), (u, v)]                 (2 pairs)       dropped
    rows: tuple[tuple[float, float], ...]   (pairs)         check_unzipped(rows, 2, 2)
    rows: tuple[tuple[float] * 3, ...], []  (triples, none) UnsupportedSyntaxError
    rows: an array, a list built in a loop                  check_unzipped(rows, 2)

The same stage drops `check_not_array(p.n, message)` (written before `p.n += v`, which
on an array would add in place) where the facts say p.n is a number (`self.calls += 1`
of an object whose signature gives `calls` as an int): the check could never raise.

`settle_unzip_checks(levels, kinds)` returns a levels form (the same one when no check
changes; else a new one: the input is not modified).
"""
import copy
import dataclasses

import gast
import numpy as np

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..signature import Items, Num, SequenceOf, named_tuple_length
from .. import runtime_checks, runtime_objects


def settle_unzip_checks(levels, kinds):
    """`levels` with each unzipping check the facts decide dropped or reduced to the
    number of rows; an UnsupportedSyntaxError where they prove the unpacking raises."""
    names = {name for name, callee in levels.callees.items()
             if callee in (runtime_checks.check_unzipped, runtime_objects.check_not_array)}
    if not names:
        return levels
    changed = []

    def settled(body):
        out = []
        for stmt in body:
            if isinstance(stmt, (gast.If, gast.For, gast.While)):
                new = copy.copy(stmt)
                new.body, new.orelse = settled(stmt.body), settled(stmt.orelse)
                stmt = new
            elif _is_check(stmt, names):
                new = _number_settled(stmt, kinds) if levels.callees[
                    stmt.value.func.id] is runtime_objects.check_not_array \
                    else _settled(stmt, kinds, levels)
                changed.append(new is not stmt)
                if new is None:
                    continue
                stmt = new
            out.append(stmt)
        return out
    body = settled(levels.tree.body)
    if not any(changed):
        return levels
    tree = copy.copy(levels.tree)
    tree.body = body
    return dataclasses.replace(levels, tree=tree)


def _is_check(stmt, names):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and isinstance(stmt.value.func, gast.Name) and stmt.value.func.id in names \
        and len(stmt.value.args) == 2


def _number_settled(stmt, kinds):
    """None when the facts say the value checked is a number (no array to add into in
    place), else the check itself."""
    kind = kinds.of(stmt.value.args[0])
    if isinstance(kind, Num) and kind.type is not None and kind.axes == () \
            and not issubclass(kind.type, np.ndarray):
        return None
    return stmt


def _settled(stmt, kinds, levels):
    """The check statement the facts leave: None, `stmt` itself, or the check told the
    rows' common length."""
    rows, expected = stmt.value.args[0], stmt.value.args[1].value
    count, width = _count_and_width(kinds.of(rows))
    if count == 0:
        width = 0                       # no rows: zip gives no tuple
    if width is None:
        return stmt
    if count is not None:
        if width == expected:           # the shortest row's length, known
            return None
        raise _error(levels, stmt, expected, width)
    if width != expected:
        # every row holds `width` values: zip gives that many tuples, or none for no rows
        raise _error(levels, stmt, expected, None)
    check = build.call(build.clone(stmt.value.func),
                       [build.clone(rows), build.const(expected), build.const(width)])
    for node in gast.walk(check):
        build.with_location(node, stmt)
    return build.with_location(build.expr_stmt(check), stmt)


def _count_and_width(kind):
    """(the number of rows or None, the shortest row's length or None) of a value of
    `kind` (for a sequence of any length, every row's)."""
    if isinstance(kind, Items):
        widths = [_length(item) for item in kind.items]
        return len(kind.items), (None if None in widths or not widths else min(widths))
    if isinstance(kind, SequenceOf):
        return None, _length(kind.item)
    return None, None


def _length(kind):
    if isinstance(kind, Items):
        return len(kind.items)
    return named_tuple_length(kind)


def _error(levels, stmt, expected, columns):
    """Python's ValueError for this unpacking, raised when the derivative is built."""
    if columns is None:
        said = (f"its rows hold a number of values other than {expected}, so zip gives "
                f"either no tuple (no rows) or that many")
    elif columns < expected:
        said = f"zip gives {columns} tuple{'s' * (columns != 1)}: not enough values to " \
               f"unpack (expected {expected}, got {columns})"
    else:
        said = f"zip gives {columns} tuples: too many values to unpack (expected {expected})"
    hint = "test that there are rows before unpacking them (`if rows:`)" if columns == 0 \
        else "unpack into as many names as each row holds values (one per column)"
    return UnsupportedSyntaxError(
        f"unpacking `zip(*...)` into {expected} names raises ValueError in Python: {said}",
        levels.parsed.source_map.locate(stmt), hint)
