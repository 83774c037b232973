"""Where a loop's record items are tested: on the arithmetic that carries them, once.

unpacked_records.py tests each unpacked item of a record before anything reads it, one
`type(...)` call per item and iteration (a third of the hand-written gradient's time for
four items). A float position the guard lets ints and bools into needs no test of its
own where the item is first combined with a proven Python float by `+ - * /`: the result
is then exactly a float when the item is a float, an int or a bool, and a numpy scalar,
a 0-d array's scalar, an array or a complex number otherwise, which every later `+ - * /`
with a float keeps. One test of such a value stands for every item it carries:

    for u, v, k, n in groups:                for u, v, k, n in groups:
        (four items tested)                      z = w0 + w1 * u + w2 * v
        z = w0 + w1 * u + w2 * v                 if type(z) is not float:
        t6_0 = math.exp(z)            ->             raise RecordsDiffer
        dnll_dz = n / (1.0 + t6_0) * t6_0 - k    t6_0 = math.exp(z)
        dnll_dw0 = dnll_dw0 + dnll_dz            dnll_dz = n / (1.0 + t6_0) * t6_0 - k
                                                 if type(dnll_dz) is not float:
                                                     raise RecordsDiffer
                                                 dnll_dw0 = dnll_dw0 + dnll_dz

A value carrying an untested item is "tainted". A statement may read tainted values only
in those positions (`v = <+ - * / of floats and tainted values>`, a copy `d = x`);
before any other read of one (a math call, a comparison, an accumulator not proven a
float, a branch or loop, the end of the iteration), the tainted values holding the most
untested items are tested until every item read there is covered, and an item no float
value carries is tested itself, as unpacked_records did. Nothing before a test reads an
untested item other than by `+ - * /` with floats, which raise for no kind of number
(the body has no effect: unpacked_records checked it), so raising RecordsDiffer there is
raising it at the loop's start. Proven floats: the float parameters (their guard tests
`type(a) is float`), float literals, math's float functions of untainted values, and `+
- * /` of those, for names the body binds once (a name bound in the loop is proven only
after its binding in the iteration). Exact-kind positions are tested at the start.

A sum the loop only adds into (`dll_da = dll_da + dll_deta`, a float when the loop
starts, read nowhere else in it) keeps a numpy scalar, array or complex number added in
once for good, so the items it alone still carries at the end of an iteration are tested
once, through it, after the loop:

    for x, y in pairs:                       for x, y in pairs:
        eta = a + b * x                          eta = a + b * x
        dll_deta = y - math.exp(eta)   ->        if type(eta) is not float: raise ...
        dll_da = dll_da + dll_deta               dll_deta = y - math.exp(eta)
                                                 dll_da = dll_da + dll_deta
                                             if type(dll_da) is not float: raise ...

A value an iteration leaves that the next one may read before binding it again (or the
loop's `else`, or a `return` inside) is tested in its own iteration.
"""
import copy

import gast

from ..ir import build
from ..ir.walk import walk_tree

# math's functions whose result is a float for every argument they accept
_FLOAT_MATH = frozenset(
    "exp expm1 exp2 log log1p log2 log10 sqrt cbrt sin cos tan asin acos atan atan2 sinh "
    "cosh tanh asinh acosh atanh erf erfc gamma lgamma hypot pow fabs copysign fmod "
    "degrees radians".split())
_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div)
_F, _I = "float", "number"          # a Python float; a float, int or bool
_ENDS = (gast.Break, gast.Continue, gast.Return, gast.If, gast.For, gast.While)


class _Cannot(Exception):
    """An item no test placed here can cover: keep the test at the loop's start."""


def placed_loop(loop, loose, direct_test, floats, is_math, test_value, numbers=(),
                entry=frozenset()):
    """(A copy of `loop` (a `for` unpacking records) whose items at the positions `loose`
    (their target names) are tested where they are carried (see above), the statements
    to run after it), or None when some cannot be. direct_test(names): the start-of-loop
    test of those items; floats: names bound once, proven floats at the loop's entry;
    is_math(name): does it name the math module; test_value(names): the statement
    raising when one of the names is not a float; numbers: items tested at the start to
    be exactly an int, a bool or a float; entry: names proven floats at the loop's entry
    (accumulators among them are tested after the loop, see _accumulators)."""
    stored = _stored_counts(loop.body)
    sums = _accumulators(loop, entry, stored)
    while True:                     # without the accumulators whose update carries not
        try:
            body, state = _scan(loop, loose, direct_test, floats, is_math, test_value,
                                numbers, stored, sums)
        except _Cannot:
            return None
        if not state.failed:
            break
        sums = sums - state.failed
    out = copy.copy(loop)
    out.body = body
    # (a sum that only ever took other sums' values is a float when they all are)
    after = sorted(n for n in sums if any(not i.startswith("<") for i in state.taint.get(n, ())))
    return out, [test_value(after)] if after else []


def _scan(loop, loose, direct_test, floats, is_math, test_value, numbers, stored, sums):
    state = _State({n: frozenset({n}) for n in loose}, {n: _I for n in loose},
                   {f for f in floats if f not in stored}, stored, is_math)
    state.numbers |= {n for n in numbers if n not in stored}
    state.sums, state.body, state.targets = sums, loop.body, set(loose)
    for name in sums:               # what earlier iterations added: tested after the loop
        state.taint[name], state.kind[name] = frozenset({"<" + name}), _F
    body = []
    for stmt in loop.body:
        placed = state.statement(stmt)
        if placed:
            body.extend(_tests(placed, direct_test, test_value))
        body.append(stmt)
    placed = state.cover(state.at_the_end())
    if placed:
        body.extend(_tests(placed, direct_test, test_value))
    return body, state


def _accumulators(loop, entry, stored):
    """Floats at the loop's entry that its body binds once, by a statement of its own
    level whose `+ - * /` from the root reads the name (`dll_da = dll_da + dll_deta`,
    `p = p * x + a * c`), and reads elsewhere only so, in such statements: a number or
    array added in once makes them a numpy scalar, an array or a complex number for good,
    so their test after the loop stands for every item they carry. Not for a loop that
    may return from inside or has an else."""
    if not entry or loop.orelse or any(isinstance(n, gast.Return) for n in walk_tree(loop)):
        return frozenset()
    loads, arithmetic = {}, {}
    for node in walk_tree(gast.Module(body=loop.body, type_ignores=[])):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            loads[node.id] = loads.get(node.id, 0) + 1
    found = set()
    for stmt in loop.body:
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name):
            for name in _arithmetic_reads(stmt.value):
                arithmetic[name] = arithmetic.get(name, 0) + 1
            name = stmt.targets[0].id
            if name in entry and stored.get(name) == 1 \
                    and name in _arithmetic_reads(stmt.value):
                found.add(name)
    return frozenset(n for n in found if loads.get(n) == arithmetic.get(n))


def _arithmetic_reads(value):
    """The names `value` reads through `+ - * /` and signs from its root (a list: once
    a read)."""
    if isinstance(value, gast.BinOp) and isinstance(value.op, _ARITHMETIC):
        return _arithmetic_reads(value.left) + _arithmetic_reads(value.right)
    if isinstance(value, gast.UnaryOp) and isinstance(value.op, (gast.USub, gast.UAdd)):
        return _arithmetic_reads(value.operand)
    return [value.id] if isinstance(value, gast.Name) else []


def _bound_first(name, body):
    """Is the first statement of `body` that names `name` an assignment to it reading it
    not (so no iteration reads the value an earlier one left)?"""
    for stmt in body:
        names = [n for n in walk_tree(stmt) if isinstance(n, gast.Name) and n.id == name]
        if names:
            return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id == name \
                and len(names) == 1
    return True


def _tests(placed, direct_test, test_value):
    values, items = placed
    return ([test_value(sorted(values))] if values else []) + \
        ([direct_test(sorted(items))] if items else [])


def _under_calls(value):
    """The names `value` reads other than through `+ - * /` and signs from its root."""
    if isinstance(value, gast.BinOp) and isinstance(value.op, _ARITHMETIC):
        return _under_calls(value.left) | _under_calls(value.right)
    if isinstance(value, gast.UnaryOp) and isinstance(value.op, (gast.USub, gast.UAdd)):
        return _under_calls(value.operand)
    if isinstance(value, (gast.Name, gast.Constant)):
        return set()
    return {n.id for n in walk_tree(value) if isinstance(n, gast.Name)}


def _joined(first, second):
    if not first or not second:
        return first or second
    return first[0] + second[0], first[1] + second[1]


def _stored_counts(stmts):
    counts = {}
    for stmt in stmts:
        for node in walk_tree(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                counts[node.id] = counts.get(node.id, 0) + 1
    return counts


class _State:
    def __init__(self, taint, kind, floats, stored, is_math, straight=False):
        self.straight = straight      # straight-line code, in order: no value carried back
        self.taint = taint            # name -> the untested items its value carries
        self.kind = kind              # tainted name -> _F or _I (if its items are numbers)
        self.floats = set(floats)     # untainted names proven floats here
        self.numbers = set()          # tested items and their copies: floats, ints, bools
        self.sums, self.body, self.targets = frozenset(), [], set()
        self.failed = set()           # accumulators whose update carries not
        self.items = set(taint)       # the loose items (their names hold them until bound)
        self.stored = stored
        self.is_math = is_math

    def untested(self):
        return set().union(*self.taint.values()) if self.taint else set()

    def statement(self, stmt):
        """The tests needed before `stmt` ((value names, item names), or None); updates
        what is known after it."""
        simple = isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name)
        placed = None
        read = {n.id for n in walk_tree(stmt)
                if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
        if not simple and any(isinstance(n, _ENDS) for n in walk_tree(stmt)):
            # the iteration may end in there: what the end tests, and what it reads
            placed = self.cover(self.at_the_end() | self._taint_of(read))
        else:
            if simple and stmt.targets[0].id in self.sums and not self._carries(stmt):
                self.failed.add(stmt.targets[0].id)
            if read & set(self.taint) and not (simple and self._carries(stmt)):
                # first what a call or a test reads; the arithmetic around may carry the rest
                placed = self.cover(self._taint_of(_under_calls(stmt.value) if simple
                                                   else read))
                if not (simple and self._carries(stmt)):
                    more = self.cover(self._taint_of(read))
                    placed = _joined(placed, more)
        self._bind(stmt, simple)
        return placed

    def at_the_end(self):
        """The untested items to test before an iteration ends: those no accumulator
        carries, and those a value carries that is no accumulator's and that the next
        iteration may read before binding it again."""
        needed = set()
        for name, taint in self.taint.items():
            if name not in self.sums and name not in self.targets \
                    and not _bound_first(name, self.body):
                needed |= taint
        held = set().union(*(self.taint[n] for n in self.sums if n in self.taint)) \
            if self.sums else set()
        return (self.untested() - held) | needed

    def _taint_of(self, names):
        return set().union(*(self.taint[n] for n in names if n in self.taint))

    def _carries(self, stmt):
        """Does the assignment carry its tainted reads to a name tracked from here on?"""
        carried = self._class(stmt.value)
        return carried is not None and self.stored.get(stmt.targets[0].id, 0) == 1

    def _bind(self, stmt, simple):
        targets = {n.id for n in walk_tree(stmt)
                   if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        carried = self._class(stmt.value) if simple else None
        for name in targets:
            self.taint.pop(name, None)
            self.kind.pop(name, None)
            self.floats.discard(name)
            self.numbers.discard(name)
            self.items.discard(name)
        if carried is None or not self.straight and self.stored.get(stmt.targets[0].id) != 1:
            return
        kind, taint = carried
        name = stmt.targets[0].id
        if taint:
            self.taint[name], self.kind[name] = taint, kind
        elif kind == _F:
            self.floats.add(name)

    def _class(self, node):
        """(_F or _I, the untested items it carries) of an expression, or None."""
        if isinstance(node, gast.Constant):
            return (_F, frozenset()) if type(node.value) is float else None
        if isinstance(node, gast.Name):
            if node.id in self.taint:
                return self.kind[node.id], self.taint[node.id]
            return (_F, frozenset()) if node.id in self.floats else \
                (_I, frozenset()) if node.id in self.numbers else None
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return self._class(node.operand)
        if isinstance(node, gast.BinOp) and isinstance(node.op, _ARITHMETIC):
            left, right = self._class(node.left), self._class(node.right)
            if left is None or right is None or _F not in (left[0], right[0]):
                return None          # ints stay ints: only a float makes a float
            return _F, left[1] | right[1]
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                and isinstance(node.func.value, gast.Name) and self.is_math(node.func.value.id) \
                and node.func.attr in _FLOAT_MATH and not node.keywords:
            # a float whatever it is given, once nothing untested is read
            tainted = {n.id for a in node.args for n in walk_tree(a)
                       if isinstance(n, gast.Name) and n.id in self.taint}
            return None if tainted else (_F, frozenset())
        return None

    def cover(self, needed):
        """Tests covering the untested items `needed`: the float values carrying the most
        of them first, then the items themselves. ((value names), (item names))."""
        needed = set(needed)
        values, items = [], []
        while needed:
            best = max((n for n in self.taint if self.kind[n] == _F),
                       key=lambda n: (len(self.taint[n] & needed), n), default=None)
            if best is None or not self.taint[best] & needed:
                break
            values.append(best)
            covered = set(self.taint[best])
            self._covered(covered)
            needed -= covered
        for item in sorted(needed):
            if item not in self.items:
                raise _Cannot        # rebound before its test: nothing holds it any more
            items.append(item)
            self._covered({item})
        return (values, items) if values or items else None

    def _covered(self, items):
        for name in list(self.taint):
            rest = self.taint[name] - items
            if rest:
                self.taint[name] = rest
                continue
            del self.taint[name]
            (self.floats if self.kind.pop(name) == _F else self.numbers).add(name)


def floats_bound(stmts, floats, is_math):
    """(`floats` and the names `stmts` (a function's top level, in order) bind once to a
    proven float before their first loop: `t1_2 = -k` of a float k; the names proven
    floats when that loop starts, `dll_da = 0.0` too; that loop's id)."""
    stored = _stored_counts(stmts)
    state = _State({}, {}, floats, stored, is_math, straight=True)
    for stmt in stmts:
        if isinstance(stmt, (gast.For, gast.While)):
            entry = frozenset(state.floats)
            return frozenset(n for n in entry if n in floats or stored.get(n) == 1), \
                entry, id(stmt)
        state.statement(stmt)
    return frozenset(n for n in state.floats if n in floats or stored.get(n) == 1), \
        frozenset(), None
