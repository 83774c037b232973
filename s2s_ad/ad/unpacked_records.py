"""Records a number loop unpacks, their kinds tested where the loop unpacks them.

A derivative built for `pairs: list[tuple[float, float], ...]` must not run on a list
holding anything else, and a list can change between calls: its dispatcher's guard tested
every record on every call, in four passes over the list (the records' types, their
lengths, each position's items), about half the hand-written gradient's time for 500
pairs. When the derivative reads the list only as `for x, y in pairs:` (and `len(pairs)`),
the facts it depends on are the kinds of the values each iteration unpacks, and the loop
is the one place they are read: tested there, the guard needs only `type(pairs) is list`.

    for x, y in pairs:                     for x, y in pairs:
        eta = a + b * x            ->          if type(x) is not float and type(x) is not int
        ...                                            and type(x) is not bool or ...:
                                                   raise RecordsDiffer
                                               eta = a + b * x
                                               ...

A record that differs raises `guard_checks.RecordsDiffer` before anything reads it, and
the dispatcher (dispatch.guard_source) takes the call on to its next guard. That repeats
no effect only because the derivative has none up to that point: the stage applies only
where every statement of the body is assignments to local names of arithmetic, math
functions and a few pure builtins, branches and loops (no subscripts, attributes, other
calls, try blocks, nested functions); otherwise the body is returned as it is and the
guard tests every record as before. Each position's test is the guard's: a float
position of a list f does not differentiate lets ints and bools in (signature's
loosely_guarded), any other position its exact type. A record of another length raises
f's own ValueError where it is unpacked, as f does (the general derivative, which indexes
the records, would not). Where an item is carried by `+ - * /` with floats before
anything else reads it, one test of the value carrying several items stands for theirs
(record_tests.py: `if type(z) is not float:` after `z = w0 + w1 * u + w2 * v`). Only
lists f does not differentiate (a differentiated list's gradient mirrors its records'
containers), only number records (a flat list of floats is
summed in C by its guard, cheaper than a test per item), only when the request asks
(`Request.checks_records`: the dispatcher's builds, not a CLI file, whose guard has no
handler). The stage writes new statements; it never changes the body it is given.
"""
import builtins
import copy
import math

import gast

from ..guard_checks import RecordsDiffer
from ..ir import build
from ..ir.walk import walk_tree
from ..signature import Items, Num, SequenceOf, loosely_guarded
from .record_tests import floats_bound, placed_loop

_FLOAT = Num(float, "float64", ())
_PURE_BUILTINS = (abs, min, max, float, int, bool, len, range, round, pow, divmod)
_MARKERS = frozenset({"__s2s_comment__", "__s2s_blank__"})
_STATEMENTS = (gast.Assign, gast.AugAssign, gast.If, gast.For, gast.While, gast.Expr,
               gast.Pass, gast.Break, gast.Continue, gast.Return)
_EXPRESSIONS = (gast.Name, gast.Constant, gast.BinOp, gast.UnaryOp, gast.BoolOp,
                gast.Compare, gast.IfExp, gast.Tuple, gast.Call, gast.keyword,
                gast.operator, gast.unaryop, gast.boolop, gast.cmpop, gast.expr_context)


def records_checked_in_loops(body, request, params, names, user_globals, name_for):
    """(body with the tests, the parameters whose records it tests) for the statements
    `body` of a specialisation for `request`; `params` its parameter names, `names` the
    objects it binds by name, `name_for(suggested, obj)` binds one more. The body
    unchanged and () where the stage does not apply."""
    if not request.checks_records or request.signature is None:
        return body, ()
    records = {p: _items(kind) for p, kind in request.signature
               if p not in request.wrt and (_number_records(kind) or _floats(kind))}
    flat = {p for p, kind in request.signature if p in records and _floats(kind)}
    if not records or not _without_effects(body, set(params), names, user_globals):
        return body, ()
    loops = {}
    for node in _walk_all(body):
        if isinstance(node, gast.For) and isinstance(node.iter, gast.Name) \
                and node.iter.id in records:
            loops[id(node)] = node
    checked = tuple(p for p in records
                    if _read_by_unpacking_only(body, p, len(records[p]), loops, p in flat))
    if not checked:
        return body, ()
    kinds = dict(request.signature)
    tests = {p: _position_tests(kinds[p], name_for) for p in checked}
    differ = name_for("RecordsDiffer", RecordsDiffer)
    local = _stored(body) | set(params)
    placing = _Placing(differ, name_for("type", type),
                       [name_for(t.__name__, t) for t in (float, int, bool)],
                       lambda ident: ident not in local and names.get(
                           ident, user_globals.get(ident)) is math,
                       {p for p, kind in request.signature if kind == _FLOAT}, _stored(body))
    placed = _with_tests(body, tests, placing, *placing.floats_before(body))
    tested = placing.tested_in_iterations & flat
    if tested:      # a test per item costs more than the guard's sum in C: the guard's
        checked = tuple(p for p in checked if p not in tested)
        tests = {p: t for p, t in tests.items() if p in checked}
        placed = _with_tests(body, tests, placing, *placing.floats_before(body)) \
            if checked else body
    return placed, checked


def _number_records(kind):
    """A list of tuples of a few numbers (each position one kind)."""
    return isinstance(kind, SequenceOf) and kind.container is list \
        and isinstance(kind.item, Items) and kind.item.container is tuple \
        and bool(kind.item.items) \
        and all(isinstance(k, Num) and k.axes == () and k.type is not None
                for k in kind.item.items)


def _floats(kind):
    """A list of floats its guard lets ints and bools into (summed by sums_to_float)."""
    return isinstance(kind, SequenceOf) and kind.container is list and kind.item == _FLOAT \
        and loosely_guarded(kind, False)


def _items(kind):
    """The kinds of what `for ... in x:` unpacks from each item of the list kind."""
    return kind.item.items if isinstance(kind.item, Items) else (kind.item,)


def _walk_all(body):
    for stmt in body:
        yield from walk_tree(stmt)


def _stored(body):
    return {n.id for n in _walk_all(body)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}


def _without_effects(body, params, names, user_globals):
    """Is every statement of `body` free of effects (and of reads that could have one)?"""
    local = _stored(body) | params

    def resolve(ident):
        if ident in local:
            return None              # a local callable: not known to be pure
        if ident in names:
            return names[ident]
        return user_globals.get(ident, getattr(builtins, ident, None))

    called = set()                   # the `math.f` of calls (a walk meets a call first)
    for node in _walk_all(body):
        if isinstance(node, gast.Call):
            func = node.func
            if isinstance(func, gast.Name):
                if func.id not in _MARKERS and not any(
                        resolve(func.id) is b for b in _PURE_BUILTINS):
                    return False
            elif isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
                    and resolve(func.value.id) is math:
                called.add(id(func))
            else:
                return False
        elif isinstance(node, gast.Attribute):
            if id(node) not in called:   # any other attribute, read or written
                return False
        elif not isinstance(node, _STATEMENTS + _EXPRESSIONS):
            return False
    return True


def _read_by_unpacking_only(body, param, length, loops, flat=False):
    """Is `param` read only as the iterable of `for n1, ..., nk in param:` (k = the
    records' length, k names; one name for a flat list) and by `len(param)`, and never
    bound?"""
    allowed = set()
    for node in _walk_all(body):
        if id(node) in loops and node.iter.id == param:
            target = node.target
            if flat:
                if not (isinstance(target, gast.Name) and target.id != param):
                    return False
            elif not (isinstance(target, gast.Tuple) and len(target.elts) == length
                    and all(isinstance(e, gast.Name) for e in target.elts)
                    and len({e.id for e in target.elts}) == length
                    and param not in {e.id for e in target.elts}):
                return False
            allowed.add(id(node.iter))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id == "len" and len(node.args) == 1 \
                and isinstance(node.args[0], gast.Name):
            allowed.add(id(node.args[0]))
    return all(id(n) in allowed for n in _walk_all(body)
               if isinstance(n, gast.Name) and n.id == param)


def _position_tests(kind, name_for):
    """For each position of the records: the names of the types its item may have (the
    guard's)."""
    loose = loosely_guarded(kind, False)
    return [[name_for(t.__name__, t) for t in
             ((float, int, bool) if loose and k == _FLOAT else (k.type,))]
            for k in _items(kind)]


class _Placing:
    """What placing the tests needs (record_tests.py): the names the tests call, the
    float parameters, which name is the math module."""

    def __init__(self, differ, type_, numbers, is_math, float_params, stored):
        self.differ, self.type_, self.is_math = differ, type_, is_math
        self.float_, self.numbers = numbers[0], frozenset(numbers)
        self.float_params = frozenset(p for p in float_params if p not in stored)
        self.tested_in_iterations = set()   # the lists some iteration of theirs tests

    def raising(self, test):
        return build.if_stmt(test, [gast.Raise(exc=build.name(self.differ), cause=None)])

    def floats_before(self, stmts):
        return floats_bound(stmts, self.float_params, self.is_math)

    def loop(self, loop, types, floats, entry):
        """[the loop with its items tested where they are carried, or at its start, and
        the tests after it]."""
        targets = loop.target.elts if isinstance(loop.target, gast.Tuple) else [loop.target]
        loose = [t.id for t, ts in zip(targets, types) if len(ts) > 1]
        exact = [(t, ts) for t, ts in zip(targets, types) if len(ts) == 1]
        by_name = {t.id: ts for t, ts in zip(targets, types)}

        def direct(names):
            return self.raising(_differs([build.name(n) for n in names],
                                         [by_name[n] for n in names], self.type_))

        def values(names):
            tests = [build.compare(build.call(build.name(self.type_), [build.name(n)]),
                                   "IsNot", build.name(self.float_)) for n in names]
            return self.raising(tests[0] if len(tests) == 1 else
                                gast.BoolOp(op=gast.Or(), values=tests))
        placed, after = (placed_loop(
            loop, loose, direct, floats, self.is_math, values,
            [t.id for t, ts in exact if ts[0] in self.numbers], entry) if loose else None) \
            or (None, [])
        if placed is None or len(placed.body) > len(loop.body):
            self.tested_in_iterations.add(loop.iter.id)
        if placed is None:
            placed, exact = copy.copy(loop), list(zip(targets, types))
        start = [self.raising(_differs([t for t, _ in exact], [ts for _, ts in exact],
                                       self.type_))] if exact else []
        placed.body = start + placed.body
        return [placed] + after


def _with_tests(body, tests, placing, floats=frozenset(), entry=frozenset(), first=None):
    """A copy of `body` whose loops over a tested parameter test their items (floats,
    entry, first: record_tests.floats_bound of the function's top level)."""
    out = []
    for stmt in body:
        if isinstance(stmt, gast.For) and isinstance(stmt.iter, gast.Name) \
                and stmt.iter.id in tests:
            placed = placing.loop(stmt, tests[stmt.iter.id], floats,
                                  entry if id(stmt) == first else frozenset())
            placed[0].body = _with_tests(placed[0].body, tests, placing)
            placed[0].orelse = _with_tests(placed[0].orelse, tests, placing)
            out.extend(placed)
            continue
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            stmt = copy.copy(stmt)
            stmt.body = _with_tests(stmt.body, tests, placing)
            stmt.orelse = _with_tests(stmt.orelse, tests, placing)
        out.append(stmt)
    return out


def _differs(targets, position_types, type_):
    """`type(x) is not float and type(x) is not int ... or type(y) is not float ...`"""
    alternatives = []
    for target, types in zip(targets, position_types):
        tests = [build.compare(build.call(build.name(type_), [build.name(target.id)]),
                               "IsNot", build.name(t)) for t in types]
        alternatives.append(tests[0] if len(tests) == 1 else
                            gast.BoolOp(op=gast.And(), values=tests))
    return alternatives[0] if len(alternatives) == 1 else \
        gast.BoolOp(op=gast.Or(), values=alternatives)
