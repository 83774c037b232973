"""Which parameters of one of your functions does it write into, in the caller's memory?

A helper that changes an array (or a list, dict or object) it was passed changes the
caller's value too. The caller's derivative must see that write, so such a helper is
inlined where it is called (transforms/calls.py) instead of getting a derivative of its own
(which would neither tell the caller nor find its argument as it was).

    def scale_(q):                    ->  parameters_written(scale_) == {"q"}
        q *= 2.0                           (in place when q is an array)
    def fill(out, v):                 ->  {"out"}
        row = out[0]; row[:] = v           (through a view of the parameter)
    def safe(q):                      ->  set()
        q = q.copy(); q[0] = 1.0           (the name holds a copy when it writes)
    def g(q):                         ->  {"q"}: calls scale_(q)

Read from the source only, along the order of the statements: a name may view a
parameter when it is bound to the parameter, an index, attribute or view (`.T`,
`reshape`, `np.asarray`, ...) of one, a container holding one, a loop's item over one, or
the result of a builtin or one of your functions given one; a plain binding to anything
else (a copy, arithmetic, most numpy calls) ends that for the statements after it, outside
loops and branches, where bindings only add. Writes: index and attribute stores and `del`,
augmented assignment (`q += v` writes into an array; for a number it is a new binding, which
the caller's derivative then handles as a binding), a mutating method (`append`, `fill`,
`sort`, ...), `out=`, numpy's writing functions and `ufunc.at`, and a call of one of your
functions that writes into the parameter it is given (followed three calls deep; deeper,
a call given a parameter counts as a write). A function whose source cannot be read
writes nothing of its arguments as far as this analysis is concerned, so callers only
look here for defs they can read (s2s_ad differentiates nothing else).
"""
import builtins
import collections
import inspect
import weakref

import gast
import numpy as np

from ..frontend.parse import parse
from ..frontend.star_params import source_function
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from ..runtime_objects import subclasses_of

# numpy functions whose result may share memory with their first argument
_VIEWS = frozenset(id(f) for f in (
    np.asarray, np.asanyarray, np.reshape, np.ravel, np.transpose, np.squeeze,
    np.expand_dims, np.atleast_1d, np.atleast_2d, np.atleast_3d, np.broadcast_to,
    np.diagonal, np.moveaxis, np.swapaxes, np.rollaxis, np.real, np.imag,
    np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit, np.broadcast_arrays,
    np.flip, np.fliplr, np.flipud, np.rot90))
_BUILTINS = frozenset(id(f) for f in vars(builtins).values())
_CONTAINERS = frozenset(id(f) for f in (list, tuple, dict, set, frozenset, sorted, reversed,
                                        zip, enumerate, iter, map, filter))
# numpy functions that write into their first argument
_WRITERS = frozenset(id(f) for f in (np.copyto, np.put, np.place, np.putmask,
                                     np.fill_diagonal, np.put_along_axis))
# methods that change the value they are called on (arrays, lists, dicts, sets)
_MUTATING = frozenset((
    "append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault",
    "popitem", "add", "discard", "sort", "reverse", "fill", "resize", "put", "itemset",
    "setfield", "partition", "byteswap", "setflags", "__setitem__", "__delitem__",
    "__iadd__", "__isub__", "__imul__", "__itruediv__"))
# array methods whose result may share memory with the array
_VIEW_METHODS = frozenset(("reshape", "ravel", "view", "transpose", "squeeze", "swapaxes",
                           "diagonal", "__array__", "get", "values", "items", "keys"))
_DEPTH = 3
# each function's parsed source, read again for every call of it a derivative makes (only
# read here, never changed)
_TREES = weakref.WeakKeyDictionary()
_WRITES = weakref.WeakKeyDictionary()    # function -> {owner: parameter_writes' answer}
_COMPOUND = (gast.For, gast.AsyncFor, gast.While, gast.If, gast.With, gast.AsyncWith, gast.Try)


def parameters_written(function, _depth=0, _active=None, owner=None):
    """The set of parameter names of `function` it may write into (see the module doc).
    With `owner`, the class of the object its first parameter holds (`self`), the methods
    it calls on that object (`self.forward(*args)`) are followed as that class's."""
    reader = _read(function, _depth, _active, owner)
    return frozenset(reader.written) if reader is not None else frozenset()


def first_writes(function):
    """{name: the first statement of `function`'s parsed def (parsed_tree) writing into
    it}: for a parameter, the first write into its memory (`row[:] = v` after `row =
    out[0]` for `out`), for another name the first write through that name. For errors
    that point at the write (`q *= 2.0` in the helper) rather than at the call."""
    reader = _read(function, 0, None)
    return dict(reader.first_write) if reader is not None else {}


def parameter_writes(function, owner=None):
    """{parameter name: where `function`'s source first writes into it (a SourceLocation
    of the statement)}, for `owner` as in parameters_written. Kept per function and
    owner: a derivative asks on every call of a function chosen when the code runs."""
    kept = _WRITES.setdefault(function, {}) if _keyable(function) else {}
    if owner not in kept:
        reader = _read(function, 0, None, owner)
        kept[owner] = {} if reader is None else {p: reader.where[p] for p in sorted(reader.written)}
    return kept[owner]


def _defining_class(function):
    """The module-level class whose body defines `function` (`Module` for
    Module.__call__), else None."""
    function = source_function(function)        # (a *args def taken at an arity: the def)
    path = getattr(function, "__qualname__", "").split(".")
    if len(path) != 2 or "<locals>" in path:
        return None
    cls = getattr(function, "__globals__", {}).get(path[0])
    return cls if isinstance(cls, type) and cls.__dict__.get(path[1]) is function else None


def _keyable(function):
    try:
        weakref.ref(function)
        return True
    except TypeError:
        return False


def parameters_returned(function):
    """The positions of the parameters whose memory the value `function` returns may
    share (`return M[0]`, `return a`, `return p["W"]`), for the caller's alias analysis."""
    reader = _read(function, 0, None)
    if reader is None:
        return ()
    return tuple(i for i, p in enumerate(reader.parameters) if p in reader.returned)


def parsed_tree(function):
    """`function`'s parsed def (kept per function object; never changed), or None."""
    parsed = _parsed(function)
    return parsed.tree if parsed is not None else None


def _parsed(function):
    parsed = _TREES.get(function)
    if parsed is None:
        try:
            parsed = _TREES[function] = parse(function)
        except Exception:
            return None
    return parsed


def _read(function, _depth, _active, owner=None):
    active = set() if _active is None else _active
    code = getattr(function, "__code__", None)
    if code is None or function in active:
        return None
    parsed = _parsed(function)
    if parsed is None:
        return None
    tree = parsed.tree
    scope = collections.ChainMap(
        dict(zip(code.co_freevars, [c.cell_contents for c in function.__closure__ or ()])),
        function.__globals__)
    a = tree.args
    params = [p.id for p in a.posonlyargs + a.args + a.kwonlyargs]
    params += [p.id for p in (a.vararg, a.kwarg) if p is not None]
    reader = _Reader(scope, {p: {p: 0} for p in params}, _depth, active | {function})
    reader.parameters = [p.id for p in a.posonlyargs + a.args]
    reader.parsed = parsed
    home = _defining_class(function)
    if (owner is not None or home is not None) and reader.parameters:
        reader.owner, reader.home, reader.receiver = owner, home, reader.parameters[0]
    reader.block(tree.body, top=True)
    return reader


class _Reader:
    """Walks statements keeping, for each name, the parameters its value may hold and how
    deep: {parameter: 0} when the value is (a view of, an item of) the parameter's own
    memory, {parameter: 1} for a list, tuple or dict made here holding it (`states = [x]`:
    appending to it changes no argument), and so on."""

    def __init__(self, scope, views, depth, active):
        self.scope, self.views, self.depth, self.active = scope, views, depth, active
        self.written = set()
        self.where = {}                # parameter -> the statement first writing into it
        self.returned = set()          # parameters the returned value may hold
        self.owner = self.receiver = None   # the class of the object `self` holds
        self.home = None               # the class defining the method read
        self.first_write = {}          # name -> the statement first writing into it
        self.statement_at = None

    def block(self, stmts, top):
        for stmt in stmts:
            self.statement(stmt, top)

    def statement(self, stmt, top):
        self.statement_at = stmt
        compound = isinstance(stmt, _COMPOUND)
        heads = [getattr(stmt, f, None) for f in ("test", "iter")] \
            + [i.context_expr for i in getattr(stmt, "items", None) or []] if compound else [stmt]
        for node in (n for head in heads if head is not None for n in walk_tree(head)):
            if isinstance(node, gast.Call):
                self.call(node)
        if isinstance(stmt, gast.Assign):
            for target in stmt.targets:
                if isinstance(target, (gast.Tuple, gast.List)) \
                        and isinstance(stmt.value, (gast.Tuple, gast.List)) \
                        and len(target.elts) == len(stmt.value.elts) \
                        and not any(isinstance(e, gast.Starred) for e in target.elts):
                    pairs = [(t, self.viewed(v)) for t, v in zip(target.elts, stmt.value.elts)]
                    for t, sources in pairs:
                        self.bind(t, sources, top)
                else:
                    self.bind(target, self.viewed(stmt.value), top)
        elif isinstance(stmt, gast.Return) and stmt.value is not None:
            self.returned |= set(self.viewed(stmt.value))
        elif isinstance(stmt, gast.AugAssign):
            # `q += v` changes the array q holds; `q[i] += v` writes into q
            self.mutates(stmt.target.value if isinstance(stmt.target, (
                gast.Subscript, gast.Attribute)) else stmt.target)
        elif isinstance(stmt, gast.AnnAssign) and stmt.value is not None:
            self.bind(stmt.target, self.viewed(stmt.value), top)
        elif isinstance(stmt, gast.Delete):
            for target in stmt.targets:
                if isinstance(target, (gast.Subscript, gast.Attribute)):
                    self.mutates(target.value)
        elif isinstance(stmt, (gast.For, gast.AsyncFor)):
            for _ in range(2):              # what one iteration binds, the next one reads
                self.bind(stmt.target, _item(self.viewed(stmt.iter)), False)
                self.block(stmt.body, False)
            self.block(stmt.orelse, False)
        elif isinstance(stmt, gast.While):
            for _ in range(2):
                self.block(stmt.body, False)
            self.block(stmt.orelse, False)
        elif isinstance(stmt, (gast.With, gast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, self.viewed(item.context_expr), False)
            self.block(stmt.body, top)
        else:
            for field in ("body", "orelse", "finalbody"):
                self.block(getattr(stmt, field, None) or [], False)
            for handler in getattr(stmt, "handlers", None) or []:
                self.block(handler.body, False)
        for node in walk_tree(stmt) if not compound else ():
            if isinstance(node, gast.NamedExpr) and isinstance(node.target, gast.Name):
                self.bind(node.target, self.viewed(node.value), False)

    def bind(self, target, sources, replace):
        if isinstance(target, gast.Name):
            held = {} if replace else self.views.get(target.id, {})
            self.views[target.id] = _union(held, sources)
        elif isinstance(target, (gast.Tuple, gast.List)):
            for item in target.elts:
                self.bind(item.value if isinstance(item, gast.Starred) else item,
                          _item(sources), False)
        elif isinstance(target, (gast.Subscript, gast.Attribute)):
            self.mutates(target.value)      # `q[0] = v`, `q.attr = v` change what q holds

    def mutates(self, expr, at=None):
        """The object `expr` denotes is changed: a parameter it is (part of) is written
        (by the statement read now, or `at`, where a function it calls writes)."""
        for p, depth in self.viewed(expr).items():
            if depth == 0:
                self.written.add(p)
                if p not in self.where:
                    self.where[p] = at or self.parsed.source_map.locate(
                        self.statement_at or expr)
                self.first_write.setdefault(p, self.statement_at)
        while isinstance(expr, (gast.Subscript, gast.Attribute)):
            expr = expr.value               # `row[0][1] = v` writes through `row`
        if isinstance(expr, gast.Name):
            self.first_write.setdefault(expr.id, self.statement_at)

    def viewed(self, expr):
        """{parameter: depth} of what the value of `expr` may hold (see the class doc)."""
        if isinstance(expr, gast.Name):
            return dict(self.views.get(expr.id, {}))
        if isinstance(expr, (gast.Subscript, gast.Attribute)):
            return _item(self.viewed(expr.value))
        if isinstance(expr, gast.Starred):
            return self.viewed(expr.value)
        if isinstance(expr, (gast.Tuple, gast.List, gast.Set)):
            return _holding(_union(*[self.viewed(e) for e in expr.elts]))
        if isinstance(expr, gast.Dict):
            return _holding(_union(*[self.viewed(e) for e in expr.values]))
        if isinstance(expr, gast.IfExp):
            return _union(self.viewed(expr.body), self.viewed(expr.orelse))
        if isinstance(expr, gast.BoolOp):
            return _union(*[self.viewed(e) for e in expr.values])
        if isinstance(expr, gast.NamedExpr):
            return self.viewed(expr.value)
        if isinstance(expr, (gast.ListComp, gast.GeneratorExp, gast.SetComp, gast.DictComp)):
            items = [_item(self.viewed(g.iter)) for g in expr.generators]
            parts = [expr.key, expr.value] if isinstance(expr, gast.DictComp) else [expr.elt]
            return _holding(_union(*items, *[self.viewed(e) for e in parts]))
        if isinstance(expr, gast.Call):
            return self._call_result(expr)
        return {}

    def _call_result(self, call):
        given = _union(*[self.viewed(a) for a in call.args],
                       *[self.viewed(k.value) for k in call.keywords])
        func = call.func
        methods = self._methods_on_self(func)
        if methods is not None:
            # self.forward(*args): what the methods of self's class return
            return self._returned_by_methods(methods, call)
        if isinstance(func, gast.Attribute) and self._is_value(func.value):
            receiver = self.viewed(func.value)
            if func.attr == "copy":        # an array's copy, or a dict's or list's (shallow)
                return _holding(_item(receiver))
            # view methods; a container's reads (`d.get(k)`, `d.values()`) and anything
            # not an array method may return what the value holds
            if func.attr in _VIEW_METHODS or not hasattr(np.ndarray, func.attr):
                return _union(receiver, given)
            return {}
        if not given:
            return {}
        callee = self._lookup(func)
        if callee is None:
            return given
        if id(callee) in _VIEWS:
            return given
        if id(callee) in _CONTAINERS:      # list(q), zip(p, q): new containers of the items
            return _holding(_item(given))
        if id(callee) in _BUILTINS:        # max(items), next(it): one of the items
            return _item(given)
        module = getattr(callee, "__module__", None) or ""
        if module.startswith(("numpy", "scipy", "math")):
            return {}
        return given                      # one of your functions may return what it is given

    def call(self, call):
        """Record the writes a call makes into what it is given."""
        func = call.func
        for kw in call.keywords:
            if kw.arg == "out":
                self.mutates(kw.value)
        if isinstance(func, gast.Attribute) and func.attr == "shuffle" and call.args:
            self.mutates(call.args[0])          # rng.shuffle(q), np.random.shuffle(q)
        method = self._own_method(func)
        if method is not None:
            # self.forward(*args) of a known class: that class's def, self first
            callee, first = method
            self._calls_writer(callee, first + list(call.args), call.keywords)
            return
        if isinstance(func, gast.Attribute) and self._is_value(func.value):
            if func.attr in _MUTATING:
                self.mutates(func.value)
            return
        callee = self._lookup(func)
        if callee is None:
            return
        if (id(callee) in _WRITERS or isinstance(getattr(func, "value", None), gast.Attribute)
                and isinstance(self._lookup(func.value), np.ufunc) and func.attr == "at") \
                and call.args:
            self.mutates(call.args[0])
            return
        self._calls_writer(callee, list(call.args), call.keywords)

    def _own_method(self, func):
        """(def, [self] or []) for `self.m` of the owner class's def or staticmethod m,
        while `self` still holds the object; else None."""
        found = self._methods_on_self(func) if self.owner is not None else None
        return (found[0][0], [func.value] if found[0][1] else []) if found else None

    def _methods_on_self(self, func):
        """[(def, takes self)] that `self.m(...)` may run while `self` still holds the
        object: the owner's m; without an owner, m of the class defining the method read
        and of each subclass overriding it (a class without m cannot run the call). None
        when one is no def or staticmethod, or there is no such class."""
        if self.receiver is None or not isinstance(func, gast.Attribute) \
                or not isinstance(func.value, gast.Name) or func.value.id != self.receiver \
                or self.views.get(self.receiver) != {self.receiver: 0}:
            return None
        classes = [self.owner] if self.owner is not None else \
            [self.home] + subclasses_of(self.home)
        found = []
        for cls in classes:
            raw = inspect.getattr_static(cls, func.attr, None)
            if raw is None or self.owner is None and cls is not self.home \
                    and func.attr not in cls.__dict__:
                continue                        # (inherited: already counted)
            if inspect.isfunction(raw):
                found.append((raw, True))
            elif isinstance(raw, staticmethod) and inspect.isfunction(raw.__func__):
                found.append((raw.__func__, False))
            else:
                return None
        return found or None

    def _returned_by_methods(self, methods, call):
        """What `self.m(...)` may return, for the defs `methods` it may run: the values
        given to the parameters each may return (`return x @ self.W` returns none)."""
        out = {}
        for callee, takes_self in methods:
            args = ([call.func.value] if takes_self else []) + list(call.args)
            given = [self.viewed(a) for a in args] + [self.viewed(k.value) for k in call.keywords]
            reader = _read(callee, self.depth + 1, self.active,
                           self.owner if takes_self else None) \
                if self.depth < _DEPTH and callee not in self.active else None
            if reader is None:
                out = _union(out, *given)
                continue
            try:
                bound = inspect.signature(callee).bind_partial(*range(len(args)))
                by_position = {i: name for name, i in bound.arguments.items()
                               if isinstance(i, int)}
            except (TypeError, ValueError):
                by_position = {}
            for i, arg in enumerate(args):
                name = by_position.get(i)
                if isinstance(arg, gast.Starred) or name is None or name in reader.returned:
                    out = _union(out, given[i])
            for k, kw in enumerate(call.keywords):
                if kw.arg is None or kw.arg in reader.returned:
                    out = _union(out, given[len(args) + k])
        return out

    def _calls_writer(self, callee, args, keywords):
        """The writes of a call of `callee` given the argument nodes `args`, `keywords`."""
        if not inspect.isfunction(callee) or callee in self.active:
            return
        if self.depth >= _DEPTH:
            for arg in args + [k.value for k in keywords]:
                self.mutates(arg)
            return
        on_self = args and isinstance(args[0], gast.Name) and args[0].id == self.receiver
        reader = _read(callee, self.depth + 1, self.active, self.owner if on_self else None)
        written = reader.written if reader is not None else ()
        if not written:
            return
        try:
            bound = inspect.signature(callee).bind_partial(*range(len(args)))
            by_position = {i: name for name, i in bound.arguments.items()
                           if isinstance(i, int)}
        except (TypeError, ValueError):
            by_position = {}
        first = reader.where[sorted(written)[0]]
        for i, arg in enumerate(args):
            if isinstance(arg, gast.Starred) or by_position.get(i) is None:
                self.mutates(arg, first)
            elif by_position.get(i) in written:
                self.mutates(arg, reader.where[by_position[i]])
        for kw in keywords:
            if kw.arg is None or kw.arg in written:
                self.mutates(kw.value, reader.where.get(kw.arg, first))

    def _is_value(self, expr):
        """Is `expr` (the receiver of a method) a value rather than a module or class?"""
        while isinstance(expr, (gast.Attribute, gast.Subscript)):
            expr = expr.value
        return not isinstance(expr, gast.Name) or expr.id in self.views \
            or expr.id not in self.scope and not hasattr(builtins, expr.id)

    def _lookup(self, func):
        path = dotted_path(func)
        if path is None:
            return None
        head, *rest = path.split(".")
        if head in self.views:
            return None
        obj = self.scope.get(head, getattr(builtins, head, None))
        for attr in rest:
            obj = getattr(obj, attr, None)
        return obj


def _union(*held):
    """What any of several values may hold: the shallowest depth of each parameter."""
    out = {}
    for one in held:
        for p, depth in one.items():
            out[p] = min(depth, out.get(p, depth))
    return out


def _item(held):
    """What an item (index, attribute, loop item) of a value holding `held` may hold: an
    item of a parameter's memory is still the parameter's memory (depth 0)."""
    return {p: max(depth - 1, 0) for p, depth in held.items()}


def _holding(held):
    """What a new container holding values that hold `held` holds: one level deeper."""
    return {p: depth + 1 for p, depth in held.items()}
