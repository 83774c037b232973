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
functions that writes into the parameter it is given (followed ten calls deep; deeper,
a call given a parameter counts as a write). A function whose source cannot be read
writes nothing of its arguments as far as this analysis is concerned, so callers only
look here for defs they can read (s2s_ad differentiates nothing else).
"""
import collections
import weakref

import gast
import numpy

from ..frontend.parse import parse
from ..frontend.star_params import source_function
from ..ir.build import dotted_path
from .argument_calls import (_DEPTH, CallReading, container_held, either_held, held_key,
                             item_held)
from ..ir.walk import walk_tree

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


def parameter_writes(function, owner=None, held=None):
    """{parameter name: where `function`'s source first writes into it (a SourceLocation
    of the statement)}, for `owner` as in parameters_written; `held`: what the object
    `self` holds in its attributes ({name: a function, a class, or an object}), so a call
    of one (`self.act(x)`, act an object whose method writes into x) is followed. Kept per
    function and what it depends on: a derivative asks on every call of a function chosen
    when the code runs."""
    kept = _WRITES.setdefault(function, {}) if _keyable(function) else {}
    key = (owner, held_key(held))
    if key not in kept:
        reader = _read(function, 0, None, owner, held)
        kept[key] = {} if reader is None else {p: reader.where[p] for p in sorted(reader.written)}
    return kept[key]


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


def writes_outside(function):
    """Does `function` (or one of your functions it calls) write into a parameter's
    memory, or into an array it reads from its module or closure (`def bump(): X[:] =
    X + 1`)? Its caller must see the write where the call runs, so such a helper is
    inlined (transforms/helper_inline.py). One reading of its source for both."""
    reader = _read(function, 0, None)
    return reader is not None and bool(reader.written or reader.module_arrays)


def parameters_returned(function, owner=None):
    """The positions of the parameters whose memory the value `function` returns may
    share (`return M[0]`, `return a`, `return p["W"]`), for the caller's alias analysis;
    `owner` as in parameters_written (without it, `self.forward(...)` may run the forward
    of any class deriving from the one defining `function`)."""
    reader = _read(function, 0, None, owner)
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


def _read(function, _depth, _active, owner=None, held=None, memo=None):
    active = set() if _active is None else _active
    code = getattr(function, "__code__", None)
    if code is None or (function, owner) in active:      # (a def read for one class)
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
    reader = _Reader(scope, {p: {p: 0} for p in params}, _depth, active | {(function, owner)})
    reader.parameters = [p.id for p in a.posonlyargs + a.args]
    reader.parsed = parsed
    reader.memo = {} if memo is None else memo
    home = _defining_class(function)
    if (owner is not None or home is not None) and reader.parameters:
        reader.owner, reader.home, reader.receiver = owner, home, reader.parameters[0]
        reader.held = held or {}
    reader.block(tree.body, top=True)
    return reader


class _Reader(CallReading):
    """Walks statements keeping, for each name, the parameters its value may hold and how
    deep: {parameter: 0} when the value is (a view of, an item of) the parameter's own
    memory, {parameter: 1} for a list, tuple or dict made here holding it (`states = [x]`:
    appending to it changes no argument), and so on."""

    def __init__(self, scope, views, depth, active):
        self.scope, self.views, self.depth, self.active = scope, views, depth, active
        self.written = set()
        self.where = {}                # parameter -> the statement first writing into it
        self.returned = set()          # parameters the returned value may hold
        self.module_arrays = set()     # module-level (or closure) arrays it writes into
        self.owner = self.receiver = None   # the class of the object `self` holds
        self.home = None               # the class defining the method read
        self.held = {}                 # what that object holds (parameter_writes' held)
        self.held_items = {}           # loop name -> the items of self's list it takes
        self.first_write = {}          # name -> the statement first writing into it
        self.statement_at = None

    def read_callee(self, callee, depth, owner, held=None):
        """The reader of a def a call reaches (None where it cannot be read); read once
        per reading of the outermost def for the same class, held objects' classes, depth
        and callers (the blocks of a list of 16 alike are read once, not 16 times)."""
        key = (callee, owner, held_key(held, limit=_DEPTH), depth, frozenset(self.active))
        if key not in self.memo:
            self.memo[key] = _read(callee, depth, self.active, owner, held, self.memo)
        return self.memo[key]

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
        elif isinstance(stmt, (gast.For, gast.AsyncFor)) and self.held_loop(stmt, top):
            pass
        elif isinstance(stmt, (gast.For, gast.AsyncFor)):
            for _ in range(2):              # what one iteration binds, the next one reads
                self.bind(stmt.target, item_held(self.viewed(stmt.iter)), False)
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

    def held_loop(self, stmt, top):
        """`for layer in self.layers: x = layer(x)` (`enumerate(self.layers)`,
        `self.blocks.values()`) over the items self is known to hold, in their order: the
        body read once per item, the loop's name holding that item, whose call runs its
        class's __call__ (argument_calls._held_items_callees). A list of a Linear then an
        in-place ReLU writes into a fresh x, one starting with the ReLU into the given x.
        False (nothing read) for any other loop."""
        target, iterable = stmt.target, stmt.iter
        numbered = isinstance(iterable, gast.Call) and dotted_path(iterable.func) == "enumerate" \
            and len(iterable.args) == 1 and isinstance(target, gast.Tuple) \
            and len(target.elts) == 2
        if numbered:
            iterable, target = iterable.args[0], target.elts[1]
        if isinstance(iterable, gast.Call) and isinstance(iterable.func, gast.Attribute) \
                and iterable.func.attr == "values" and not iterable.args:
            iterable = iterable.func.value
        items = self.held_container(iterable)
        if not items or not isinstance(target, gast.Name) or stmt.orelse or any(
                isinstance(n, (gast.Break, gast.Continue)) for n in walk_tree(stmt)):
            return False
        for item in items:          # (each pass runs when the loop does: bindings replace)
            self.bind(stmt.target, item_held(self.viewed(stmt.iter)), True)
            self.held_items[target.id] = (item,)
            self.block(stmt.body, top)
        return True

    def bind(self, target, sources, replace):
        if isinstance(target, gast.Name):
            held = {} if replace else self.views.get(target.id, {})
            self.views[target.id] = either_held(held, sources)
        elif isinstance(target, (gast.Tuple, gast.List)):
            for item in target.elts:
                self.bind(item.value if isinstance(item, gast.Starred) else item,
                          item_held(sources), False)
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
            if expr.id not in self.views \
                    and isinstance(self.scope.get(expr.id), numpy.ndarray):
                self.module_arrays.add(expr.id)     # `X[:] = X + 1` of a module's X

    def viewed(self, expr):
        """{parameter: depth} of what the value of `expr` may hold (see the class doc)."""
        if isinstance(expr, gast.Name):
            return dict(self.views.get(expr.id, {}))
        if isinstance(expr, (gast.Subscript, gast.Attribute)):
            return item_held(self.viewed(expr.value))
        if isinstance(expr, gast.Starred):
            return self.viewed(expr.value)
        if isinstance(expr, (gast.Tuple, gast.List, gast.Set)):
            return container_held(either_held(*[self.viewed(e) for e in expr.elts]))
        if isinstance(expr, gast.Dict):
            return container_held(either_held(*[self.viewed(e) for e in expr.values]))
        if isinstance(expr, gast.IfExp):
            return either_held(self.viewed(expr.body), self.viewed(expr.orelse))
        if isinstance(expr, gast.BoolOp):
            return either_held(*[self.viewed(e) for e in expr.values])
        if isinstance(expr, gast.NamedExpr):
            return self.viewed(expr.value)
        if isinstance(expr, (gast.ListComp, gast.GeneratorExp, gast.SetComp, gast.DictComp)):
            items = [item_held(self.viewed(g.iter)) for g in expr.generators]
            parts = [expr.key, expr.value] if isinstance(expr, gast.DictComp) else [expr.elt]
            return container_held(either_held(*items, *[self.viewed(e) for e in parts]))
        if isinstance(expr, gast.Call):
            return self._call_result(expr)
        return {}
