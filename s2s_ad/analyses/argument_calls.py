"""How the reader of analyses/argument_writes.py reads calls: what a call may return of
what it is given (a view, an item, one of your functions' parameter it returns), and
which of its arguments it writes into (a mutating method, `out=`, numpy's writing
functions, one of your functions writing into its parameter, followed ten calls deep,
so five modules nested as `Module.__call__` -> `forward`; deeper, every argument counts
as written; `self.forward(*args)` through the methods of self's class).

    y = np.reshape(q, (2, 3))      ->  y may be q's memory (a view)
    q.fill(0.0)                    ->  q is written
    scale_(q)                      ->  q is written when scale_ writes into its parameter
    h = self.forward(x)            ->  h may be x when a class's forward returns its x

The mixin's class gives `viewed`, `mutates`, `views`, `depth`, `active`, `scope`,
`owner`, `home`, `receiver` and `read_callee(callee, depth, owner)` (argument_writes._read).
"""
import builtins
import inspect

import gast
import numpy as np

from ..ir.build import dotted_path
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
_DEPTH = 10
# a list or dict an object holds whose items are followed as layers (`for l in
# self.layers`); a longer one (a table of numbers) is read as before, its calls unfollowed
_HELD_ITEMS = 64


class CallReading:
    """Calls, for argument_writes._Reader."""

    def _call_result(self, call):
        given = either_held(*[self.viewed(a) for a in call.args],
                       *[self.viewed(k.value) for k in call.keywords])
        func = call.func
        methods = self._methods_on_self(func)
        if methods is not None:
            # self.forward(*args): what the methods of self's class return
            return self._returned_by_methods(
                [(f, self.owner if takes else None, self.held) for f, takes in methods], call)
        held = self._held_callee(func)
        if held is not None:
            # self.fc(x), fc an object self holds: what its __call__ returns
            return self._returned_by_methods([held], call)
        items = self._held_items_callees(func)
        if items:
            # layer(x) of `for layer in self.layers`: what that item's __call__ returns
            return self._returned_by_methods(items, call)
        if isinstance(func, gast.Attribute) and self._is_value(func.value):
            receiver = self.viewed(func.value)
            if func.attr == "copy":        # an array's copy, or a dict's or list's (shallow)
                return container_held(item_held(receiver))
            # view methods; a container's reads (`d.get(k)`, `d.values()`) and anything
            # not an array method may return what the value holds
            if func.attr in _VIEW_METHODS or not hasattr(np.ndarray, func.attr):
                return either_held(receiver, given)
            return {}
        if not given:
            return {}
        callee = self._lookup(func)
        if callee is None:
            return given
        if id(callee) in _VIEWS:
            return given
        if id(callee) in _CONTAINERS:      # list(q), zip(p, q): new containers of the items
            return container_held(item_held(given))
        if id(callee) in _BUILTINS:        # max(items), next(it): one of the items
            return item_held(given)
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
        held = self._held_callee(func)
        if held is not None:
            # self.act(x), act an object (or a function) self holds: its __call__
            callee, owner, inner = held
            self._calls_writer(callee, ([func] if owner is not None else []) + list(call.args),
                               call.keywords, (owner, inner))
            return
        method = self._held_object_method(func)
        if method is not None:
            # self.norm.forward(h): the method of the class of an object self holds, with
            # that object first (a state update there, `self.mean = ...`, writes into self)
            callee, owner, inner = method
            self._calls_writer(callee, [func.value] + list(call.args), call.keywords,
                               (owner, inner))
            return
        for callee, owner, inner in self._held_items_callees(func):
            # `for layer in self.layers: x = layer(x)`, self.layers[k](x): each item's
            # __call__ (a layer writing in place writes into the x the method was given)
            self._calls_writer(callee, ([func] if owner is not None else []) + list(call.args),
                               call.keywords, (owner, inner))
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

    def _held_callee(self, func):
        """(def, its object's class or None, what that object holds) for `self.act` that
        calls a function or callable object self holds (self's `held`: an object's own
        attributes when the code runs, the classes the signature gives while generating);
        else None."""
        if self.receiver is None or not isinstance(func, gast.Attribute) \
                or not isinstance(func.value, gast.Name) or func.value.id != self.receiver \
                or self.views.get(self.receiver) != {self.receiver: 0}:
            return None
        return held_callee(self.held.get(func.attr))

    def _held_object_method(self, func):
        """(def, class, what the object holds) for `self.norm.forward` where self holds an
        object (`norm`) whose class defines `forward` with def; else None."""
        target = getattr(func, "value", None)
        if not (isinstance(func, gast.Attribute) and isinstance(target, gast.Attribute)
                and isinstance(target.value, gast.Name) and target.value.id == self.receiver
                and self.views.get(self.receiver) == {self.receiver: 0}):
            return None
        value = self.held.get(target.attr)
        if value is None or inspect.isfunction(value):
            return None
        cls, inner = (value.cls, value.held) if isinstance(value, Known) else \
            (value, None) if isinstance(value, type) else \
            (type(value), getattr(value, "__dict__", None))
        raw = inspect.getattr_static(cls, func.attr, None)
        return (raw, cls, inner) if inspect.isfunction(raw) else None

    def _held_items_callees(self, func):
        """[(def, class or None, what it holds)] a call of `func` may run when it names an
        item of a list, tuple or dict self holds: `self.layers[k]`, or a name a loop over
        `self.layers` (`enumerate(...)`, `.values()`) binds (argument_writes' held_items)."""
        if isinstance(func, gast.Name):
            items = self.held_items.get(func.id, ())
        else:
            items = self.held_container(func.value) if isinstance(func, gast.Subscript) else ()
        return [found for found in map(held_callee, items) if found is not None]

    def held_container(self, expr):
        """The items of the list, tuple or dict `self.attr` (`expr`) holds, while self
        still holds the object; () otherwise or when not known."""
        if self.receiver is None or not isinstance(expr, gast.Attribute) \
                or not isinstance(expr.value, gast.Name) or expr.value.id != self.receiver \
                or self.views.get(self.receiver) != {self.receiver: 0}:
            return ()
        return held_items(self.held.get(expr.attr))

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
        """What `self.m(...)` may return, for the defs it may run, `methods`: (def, the
        class of the object it takes first or None, what that object holds): the values
        given to the parameters each may return (`return x @ self.W` returns none)."""
        out = {}
        for callee, owner, held in methods:
            # (a method of self's class takes self; a callable object self holds, itself)
            first = [] if owner is None else [call.func.value] if owner is self.owner \
                and held is self.held else [call.func]
            args = first + list(call.args)
            given = [self.viewed(a) for a in args] + [self.viewed(k.value) for k in call.keywords]
            reader = self.read_callee(callee, self.depth + 1, owner, held) \
                if self.depth < _DEPTH else None
            if reader is None:
                out = either_held(out, *given)
                continue
            by_position = _parameters_by_position(callee, len(args))
            starred = next((i for i, a in enumerate(args) if isinstance(a, gast.Starred)),
                           len(args))
            for i, arg in enumerate(args):
                # from a starred argument on, a value may fill any parameter from there
                # (`self.forward(*args)`): returned if one of those is
                names = [by_position.get(i)] if i < starred else _filled_from(callee, starred)
                if None in names or reader.returned.intersection(names):
                    out = either_held(out, given[i])
            for k, kw in enumerate(call.keywords):
                if kw.arg is None or kw.arg in reader.returned:
                    out = either_held(out, given[len(args) + k])
        return out

    def _calls_writer(self, callee, args, keywords, of_object=None):
        """The writes of a call of `callee` given the argument nodes `args`, `keywords`
        (`of_object`: (class, what it holds) of the object args[0] is, when known)."""
        if not inspect.isfunction(callee):
            return
        if self.depth >= _DEPTH:
            for arg in args + [k.value for k in keywords]:
                self.mutates(arg)
            return
        on_self = args and isinstance(args[0], gast.Name) and args[0].id == self.receiver
        owner, held = of_object or ((self.owner, self.held) if on_self else (None, None))
        reader = self.read_callee(callee, self.depth + 1, owner, held)   # (None: recursion)
        if reader is not None:
            self.module_arrays |= reader.module_arrays      # (one of its module's arrays)
        written = reader.written if reader is not None else ()
        if not written:
            return
        by_position = _parameters_by_position(callee, len(args))
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
            or expr.id not in self.scope and not hasattr(builtins, expr.id) \
            or isinstance(self.scope.get(expr.id), np.ndarray)     # a module's array

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


class Known:
    """An object known while generating by its class and what the signature says it
    holds (object_calls._held_by of a list's item: {"fc": Linear, ...})."""

    def __init__(self, cls, held):
        self.cls, self.held = cls, held


def held_callee(value):
    """(def, class or None, what the object holds) a call of `value` runs: a def itself; a
    class (an object of it, nothing more known), a Known object or an object whose class
    has a def __call__: that __call__, for that class. Else None."""
    if inspect.isfunction(value):
        return value, None, None
    if isinstance(value, Known):
        call = getattr(value.cls, "__call__", None)
        return (call, value.cls, value.held) if inspect.isfunction(call) else None
    cls = value if isinstance(value, type) else type(value)
    call = getattr(cls, "__call__", None)
    if value is None or not inspect.isfunction(call):
        return None
    return call, cls, None if isinstance(value, type) else getattr(value, "__dict__", None)


def held_items(value):
    """The items of a list, tuple or dict's values `value` (at most _HELD_ITEMS), else ()."""
    if isinstance(value, dict):
        value = tuple(value.values())
    if isinstance(value, (list, tuple)) and len(value) <= _HELD_ITEMS:
        return tuple(value)
    return ()


def held_key(held, depth=0, limit=2):
    """A hashable summary of what `held` says calls of its entries run (a cache key), to
    `limit` objects deep."""
    if not held or depth > limit:
        return ()
    out = []
    for name in sorted(k for k in held if isinstance(k, str)):
        # a list of layers: what calling each item runs (CallReading.held_container)
        items = held_items(held[name]) or (held[name],)
        for k, found in enumerate(map(held_callee, items)):
            if found is not None:
                out.append((name, k, found[0], found[1], held_key(found[2], depth + 1, limit)))
    return tuple(out)


def _parameters_by_position(callee, count):
    """{position: the parameter of `callee` a call's positional argument there fills}."""
    try:
        bound = inspect.signature(callee).bind_partial(*range(count))
    except (TypeError, ValueError):
        return {}
    out = {}
    for name, i in bound.arguments.items():
        # (a `*args` parameter takes the positions past the others: `layer(x)` of
        # `def __call__(self, *args)` gives x to args, which forward returns or not)
        out.update({j: name for j in i} if isinstance(i, tuple) else {i: name})
    return out


def _filled_from(callee, position):
    """The parameters of `callee` a positional argument at `position` or later may fill
    when the call spreads a starred value there: the positional ones from `position` on
    and `*args` ([None] when the signature cannot be read)."""
    try:
        parameters = list(inspect.signature(callee).parameters.values())
    except (TypeError, ValueError):
        return [None]
    positional = [p.name for p in parameters
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return positional[position:] + [p.name for p in parameters if p.kind is p.VAR_POSITIONAL]


def either_held(*held):
    """What any of several values may hold: the shallowest depth of each parameter."""
    out = {}
    for one in held:
        for p, depth in one.items():
            out[p] = min(depth, out.get(p, depth))
    return out


def item_held(held):
    """What an item (index, attribute, loop item) of a value holding `held` may hold: an
    item of a parameter's memory is still the parameter's memory (depth 0)."""
    return {p: max(depth - 1, 0) for p, depth in held.items()}


def container_held(held):
    """What a new container holding values that hold `held` holds: one level deeper."""
    return {p: depth + 1 for p, depth in held.items()}
