"""Normalizing control flow, comprehensions and in-place writes into levels form.

Used by `normalize` (mixed into its normalizer). Control flow keeps its shape; tests and
iterables become names, loops run over range objects:

    for row in X:                t2_0 = len(X)
        s = s + np.sum(row)  ->  t3_0 = range(t2_0)
                                 for index in t3_0:
                                     row = X[index]
                                     t1_0 = np.sum(row)
                                     s = s + t1_0

Expressions that carry control flow (`a if c else b`, `and`/`or`, comprehensions) are
control_expressions.py's; `y[i] += v` becomes a read, an add and a write `y[i] = t`.
"""
import builtins
import dataclasses

import gast

from ..ir.walk import walk_tree
from ..errors import UnsupportedSyntaxError
from ..ir.build import dotted_path
from ..ir import build
from .. import runtime_checks, runtime_flow
from .unrenamed import assigned_in_compound  # noqa: F401  (normalize, inline)
from .iterator_items import check_endless, check_read_once, made_as_dict, subscripts_by


def _makes_an_iterator(function):
    """Does calling `function` give a one-pass iterator (no len, no indexing): the
    functions of itertools, filter, iter, map?"""
    return function in (builtins.filter, builtins.iter, builtins.map) \
        or getattr(function, "__module__", None) == "itertools"


def target_names(target):
    return [n.id for n in walk_tree(target) if isinstance(n, gast.Name)]


class ControlFlowMixin:
    """Statement and expression forms that produce nested blocks."""

    # ---- statements -------------------------------------------------------------------
    def _if(self, stmt):
        known = self._feature_test(stmt.test)
        if known is not None:       # `if hasattr(np, "trapezoid"):` (control_expressions.py)
            self._flush(stmt, self._block(stmt.body if known else stmt.orelse))
            return
        test, _ = self._atom(stmt.test)
        test = self._stable_test(test, stmt.body + stmt.orelse)
        body = self._block(stmt.body)
        orelse = self._block(stmt.orelse)
        if len(stmt.body) == 1 and isinstance(stmt.body[0], gast.Break):
            body = [gast.Break()]
        self._flush(stmt, [gast.If(test=test, body=body or [gast.Pass()], orelse=orelse)])

    def _while(self, stmt):
        test = self._loop_test(stmt.test)
        self._flush(stmt, [])
        body = self._block(stmt.body)
        recompute = self._block_from(lambda: self._assign_test(stmt.test, test))
        body = _before_break(body, recompute)
        self._flush(stmt, [gast.While(test=build.name(test), body=body, orelse=[])])

    def _loop_test(self, expr):
        name = self.namer.fresh("going")
        self.multi_def.add(name)
        self._assign_test(expr, name)
        return name

    def _assign_test(self, expr, name):
        op, level = self._operation(expr)
        self.levels[name] = level
        self.current[name] = name
        self._flush(expr, [build.assign(name, op)])

    def _for(self, stmt):
        rng, prefix = self._iteration(self._iterated_object(stmt), stmt.target, stmt)
        loop_var = self._loop_var      # before the body: inner loops set their own
        self._flush(stmt, [])
        body = self._block_from(lambda: [self._statement(s) for s in prefix + stmt.body])
        self._flush(stmt, [gast.For(target=build.name(loop_var, store=True), iter=rng,
                                    body=body, orelse=[], type_comment=None)])

    def _iterated_object(self, stmt):
        """The iterable, names the body rebinds (`for row in W: W = ...`) read through
        names bound before the loop: Python evaluates it once, the loop indexes it."""
        nodes = [n for s in stmt.body + [stmt.target] for n in walk_tree(s)]
        # `W -= ...` updates the iterated array in place, which the loop sees: no copy
        in_place = {id(n.target) for n in nodes if isinstance(n, gast.AugAssign)}
        rebound = {n.id for n in nodes if isinstance(n, gast.Name)
                   and isinstance(n.ctx, gast.Store) and id(n) not in in_place}
        read = sorted({n.id for n in walk_tree(stmt.iter)
                       if isinstance(n, gast.Name) and n.id in rebound})
        if not read:
            return stmt.iter
        names = {name: self.namer.fresh(name) for name in read}
        for name in read:
            self._statement(build.with_location(build.assign(names[name], build.name(name)),
                                                stmt))
        iterable = build.clone(stmt.iter)
        for node in walk_tree(iterable):
            if isinstance(node, gast.Name) and node.id in names:
                node.id = names[node.id]
        return iterable

    def _listed_iterator(self, targets, value):
        """`pairs = itertools.combinations(...)` read by a later `for i, j in pairs`: the
        loop indexes what it iterates, so the name holds the iterator's items as a list
        (as the loop would see them); kept as it is where `next(pairs)` reads it."""
        if not (isinstance(value, gast.Call) and len(targets) == 1
                and isinstance(targets[0], gast.Name)
                and _makes_an_iterator(self._called(value))):
            return value
        name = targets[0].id
        if any(isinstance(n, gast.Call) and isinstance(n.func, gast.Name) and n.func.id == "next"
               and any(isinstance(a, gast.Name) and a.id == name for a in n.args)
               for n in walk_tree(self.parsed.tree)):
            return value
        # listed only where the list reads as the iterator would (iterator_items.py)
        check_endless(self._called(value), value, self.smap.locate)
        check_read_once(self.parsed.tree, name, value,
                        lambda v: _makes_an_iterator(self._called(v)), self.smap.locate)
        self._check_builtin("list", value)
        return build.with_location(build.call(build.name("list"), [value]), value)

    def _called(self, call):
        """The function a call names (through the module's bindings), or None."""
        path = dotted_path(call.func) if isinstance(call, gast.Call) else None
        if not path or self.res.is_value(path.split(".")[0]):
            return None
        return self.res.lookup(path)

    def _made_as_dict(self, it):
        """Is `it` a name holding a dict wherever it is read: made as one in f, or an
        argument the specialisation's signature says is one (never rebound)?"""
        values, stores = self._bindings_in_source()
        return isinstance(it, gast.Name) and (
            made_as_dict(values.get(it.id), stores.get(it.id, 0))
            or it.id in self.res.parameters and it.id not in stores
            and self.known_functions.get(f"{it.id}.__mapping__") is dict)

    def _iteration(self, it, target, origin, reads=None):
        """(range atom, statements binding `target` from the loop index) for `for target in it`.
        `reads`: (the expressions a comprehension's loop runs, its variable's own name)."""
        it = self._iter_method(it) or it        # `for v in bag`, a class with def __iter__
        call = it if isinstance(it, gast.Call) else None
        kind = self._called(call)
        if kind is builtins.range and isinstance(target, gast.Name):
            rng, _ = self._atom(it)
            self._loop_var = target.id
            self.multi_def.add(target.id)
            self.current[target.id] = target.id
            return rng, []
        index = self.namer.fresh("index")
        self._loop_var = index
        self.multi_def.add(index)
        self.current[index] = index
        self.levels[index] = 0
        k = build.name(index)
        if kind is builtins.enumerate and isinstance(target, gast.Tuple) and len(target.elts) == 2:
            seq = call.args[0]
            if self._made_as_dict(seq):         # enumerate(d): d's keys
                seq, _ = self._atom(self._runtime_call(runtime_flow.mapping_keys, [seq]))
            start = call.args[1] if len(call.args) > 1 else next(
                (k.value for k in call.keywords if k.arg == "start"), None)
            first = gast.BinOp(left=k, op=gast.Add(), right=start) if start is not None else k
            bind = [_assign(target.elts[0], first, origin)]
            inner = target.elts[1]
            path = dotted_path(seq.func) if isinstance(seq, gast.Call) else None
            zipped = path and not self.res.is_value(path.split(".")[0]) \
                and self.res.lookup(path) is builtins.zip
            if zipped and isinstance(inner, gast.Tuple) and len(inner.elts) == len(seq.args):
                # for i, (x, w) in enumerate(zip(xs, ws)): one index into each sequence
                bind += [_assign(t, build.subscript(s, build.name(index)), origin)
                         for t, s in zip(inner.elts, seq.args)]
                return self._range_over(seq.args, it), bind
            bind.append(_assign(inner, build.subscript(seq, build.name(index)), origin))
            return self._range_over([seq], it), bind
        if kind is builtins.zip and isinstance(target, gast.Tuple) \
                and len(target.elts) == len(call.args):
            bind = [_assign(t, build.subscript(s, build.name(index)), origin)
                    for t, s in zip(target.elts, call.args)]
            return self._range_over(call.args, it), bind
        if kind is builtins.zip and len(call.args) == 1 \
                and isinstance(call.args[0], gast.Starred) and not call.keywords:
            return self._columns(call, target, index, it, origin)
        if kind is builtins.reversed:
            seq = call.args[0]
            rng = self._range_over([seq], it, reverse=True)
            return rng, [_assign(target, build.subscript(seq, build.name(index)), origin)]
        body, key = reads if reads is not None else (getattr(origin, "body", []),
                                                     getattr(target, "id", None))
        keyed = isinstance(it, gast.Name) and isinstance(target, gast.Name) \
            and (subscripts_by(body, it.id, key) or self._made_as_dict(it))
        if keyed or (call is not None and isinstance(call.func, gast.Attribute)
                     and call.func.attr in ("items", "keys", "values") and not call.args):
            # `for k in d: ... d[k] ...` iterates a dict's keys, as `for k in d.keys()`
            mapping = it if keyed else call.func.value
            keys, _ = self._atom(self._runtime_call(runtime_flow.mapping_keys, [mapping]))
            key = build.subscript(keys, build.name(index))
            if keyed or call.func.attr == "keys":
                bind = [_assign(target, key, origin)]
            elif call.func.attr == "values":
                bind = [_assign(target, build.subscript(mapping, key), origin)]
            else:
                if not (isinstance(target, gast.Tuple) and len(target.elts) == 2):
                    raise UnsupportedSyntaxError("iterate .items() as `for key, value in ...`",
                                                 self.smap.locate(origin))
                bind = [_assign(target.elts[0], key, origin),
                        _assign(target.elts[1], build.subscript(mapping, build.clone(key)), origin)]
            return self._range_over([keys], it), bind
        seq = it
        if _makes_an_iterator(kind):
            # itertools.combinations(...), filter(...): an iterator, which the loop's index
            # cannot read; its items as a list, as the loop would see them one by one
            check_endless(kind, call, self.smap.locate)
            self._check_builtin("list", call)
            it = build.with_location(build.call(build.name("list"), [it]), it)
        if not isinstance(it, gast.Name):
            atom, _ = self._atom(it)
            seq = atom
        return self._range_over([seq], it), [_assign(target, build.subscript(seq, build.name(index)),
                                                 origin)]

    def _columns(self, call, target, index, it, origin):
        """`for col in zip(*m)`: the columns of m's rows, as zip makes them (tuples, as
        many as the shortest row has values; an array's: its columns' numbers):
            rows = m; for index in range(zip_length(rows)):
                col = tuple([item[index] for item in rows])"""
        rows = call.args[0].value
        if not isinstance(rows, gast.Name):
            rows, _ = self._atom(rows)
        item = self.namer.fresh("item")
        self.res = dataclasses.replace(self.res, locals=self.res.locals | {item})
        count = build.with_location(self._runtime_call(runtime_checks.zip_length,
                                                       [build.clone(rows)]), it)
        rng = build.with_location(build.call(build.name("range"), [count]), it)
        column = build.call(build.name("tuple"), [build.list_comp(
            build.subscript(build.name(item), build.name(index)), item, build.clone(rows))])
        for node in walk_tree(column):
            build.with_location(node, it)
        self._check_builtin("tuple", call)
        return self._atom(rng)[0], [_assign(target, column, origin)]

    def _range_over(self, seqs, it, reverse=False):
        """range(len(xs)) (or of the shortest of several) for a loop over `it`; the calls
        carry `it`'s position, so an error about them points at the loop's iterable."""
        lengths = [build.with_location(build.call(build.name("len"), [s]), it) for s in seqs]
        n = lengths[0] if len(lengths) == 1 \
            else build.with_location(build.call(build.name("min"), lengths), it)
        rng = build.with_location(build.call(build.name("range"), [n]), it)
        if reverse:
            rng = build.subscript(rng, gast.Slice(lower=None, upper=None, step=build.literal(-1)))
        atom, _ = self._atom(rng)
        return atom

    # ---- helpers ----------------------------------------------------------------------
    def _runtime_call(self, function, args):
        """A call of a runtime helper (bound into the generated code under a fresh name)."""
        name = self.runtime_names.get(function)
        if name is None:
            mine = not self.res.is_value(function.__name__) \
                and self.res.lookup(function.__name__) is function
            qualified = getattr(function, "__qualname__", function.__name__)
            # a method by its class too (`Linear_forward`): one CLI module may bind the
            # `forward` of several classes
            base = qualified.replace(".", "_") if "." in qualified and "<" not in qualified \
                else function.__name__
            name = function.__name__ if mine else self.namer.fresh(base)
            self.runtime_names[function] = name
        # (a name _bound_name gave first, `act(x)` of a module-level callable object
        # inlined, is called as well: Act.__call__ calling itself through self)
        self.callees.setdefault(name, function)
        return build.call(build.name(name), args)

    def _new_multi_temp(self, base=None):
        name = self.namer.fresh(base) if base else self.namer.level_temp(1)
        self.multi_def.add(name)
        self.current[name] = name
        self.levels[name] = 0
        return name

    def _stable_test(self, test, stmts):
        """`test` itself, or a copy when the branches reassign it."""
        if not isinstance(test, gast.Name):
            return test
        assigned = {n.id for st in stmts for n in walk_tree(st)
                    if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        if test.id not in assigned:
            return test
        chosen = self._new_multi_temp("chosen")
        self._pend(self.levels.get(test.id, 0) + 1, build.assign(chosen, test))
        return build.name(chosen)

    def _branch(self, expr, target):
        """Statements computing `expr` into `target` (for a branch of an if)."""
        def compute():
            op, level = self._operation(expr)
            self.levels[target] = level
            self._flush(expr, [build.assign(target, op)])
        return self._block_from(compute)

    def _block(self, stmts):
        return self._block_from(lambda: [self._statement(s) for s in stmts])

    def _block_from(self, produce):
        saved_out, saved_pending = self.out, self._pending
        self.out, self._pending = [], []
        self._block_depth += 1       # no common subexpressions across blocks
        try:
            produce()
            self._flush_pending_only()
        finally:
            self._block_depth -= 1
        block = self.out
        self.out, self._pending = saved_out, saved_pending
        return expand_sequences(block)

    def _drain(self):
        stmts = [s for _, _, s in sorted(self._pending, key=lambda item: item[:2])]
        self._pending = []
        return expand_sequences(stmts)


class Sequence(gast.stmt):
    """Several statements standing where one is expected (flattened on output)."""
    _fields = ("stmts",)

    def __init__(self, stmts):
        super().__init__()
        self.stmts = stmts


def expand_sequences(stmts):
    out = []
    for stmt in stmts:
        if isinstance(stmt, Sequence):
            out.extend(expand_sequences(stmt.stmts))
        else:
            out.append(stmt)
    return out


def _before_break(body, stmts):
    """Insert `stmts` before a trailing `if flag: break`, else at the end."""
    if body and isinstance(body[-1], gast.If) and body[-1].body \
            and isinstance(body[-1].body[0], gast.Break):
        return body[:-1] + stmts + body[-1:]
    return body + stmts


def _assign(target, value, origin):
    node = gast.Assign(targets=[target], value=value, type_comment=None)
    return build.with_location(node, origin)


def renamed(target, mapping):
    if isinstance(target, gast.Name):
        return build.name(mapping.get(target.id, target.id), store=True)
    return gast.Tuple(elts=[renamed(e, mapping) for e in target.elts], ctx=gast.Store())
