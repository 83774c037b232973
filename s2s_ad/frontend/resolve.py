"""Stage 2, resolve: what every name in the function refers to.

    >>> table = resolve(parse(f))   # def f(x): y = np.exp(x); return helper(y)
    >>> table.kind("x"), table.kind("y"), table.kind("np")
    ('parameter', 'local', 'global')
    >>> table.lookup("np.exp") is numpy.exp
    True

Reads `__globals__`, closure cells and builtins through a read-only view; never writes
into the user's globals. An import inside the function (`import numpy as np`, `from math
import exp`) binds its name when the derivative is built, as a global would be:

    >>> resolve(parse(g)).lookup("exp")   # def g(x): from math import exp; return exp(x)
    <built-in function exp>
 Globals are looked up when grad() is called: a helper defined
later in the module is a located error telling the user to define it first.
"""
import builtins
import importlib
from dataclasses import dataclass, field

import gast

from ..errors import UnsupportedSyntaxError
from ..ir.walk import walk_tree
from .star_params import source_function

_MISSING = object()


@dataclass(frozen=True)
class Resolution:
    parameters: tuple
    locals: frozenset
    closure: dict = field(default_factory=dict)
    globals: dict = field(default_factory=dict)
    # a method's first parameter -> (the class defining it, "instance" or "class"), for
    # calls such as self.helper(x) and cls.create(x)
    receivers: dict = field(default_factory=dict)
    # names an import statement inside the function binds -> the object imported
    imported: dict = field(default_factory=dict)

    def kind(self, identifier):
        if identifier in self.parameters:
            return "parameter"
        if identifier in self.locals:
            return "local"
        if identifier in self.closure:
            return "closure"
        if identifier in self.globals or identifier in self.imported:
            return "global"
        if hasattr(builtins, identifier):
            return "builtin"
        return "unbound"

    def is_value(self, identifier):
        """True for names whose value is computed inside the function."""
        return identifier in self.parameters or identifier in self.locals

    def lookup(self, path):
        """The object a dotted path like 'np.linalg.norm' names, or None."""
        head, *rest = path.split(".")
        obj = self._lookup_name(head)
        for attr in rest:
            if obj is _MISSING:
                break
            obj = getattr(obj, attr, _MISSING)
        return None if obj is _MISSING else obj

    def has(self, path):
        head, *rest = path.split(".")
        obj = self._lookup_name(head)
        for attr in rest:
            if obj is _MISSING:
                return False
            obj = getattr(obj, attr, _MISSING)
        return obj is not _MISSING

    def _lookup_name(self, identifier):
        if identifier in self.closure:
            cell = self.closure[identifier]
            try:
                return cell.cell_contents
            except ValueError:
                return _MISSING
        if identifier in self.imported:
            return self.imported[identifier]
        if identifier in self.globals:
            return self.globals[identifier]
        return getattr(builtins, identifier, _MISSING)


def resolve(parsed):
    func = source_function(parsed.func)      # f itself for f with fixed *args items
    tree = parsed.tree
    a = tree.args
    params = tuple(p.id for p in a.posonlyargs + a.args + a.kwonlyargs)
    if a.vararg:
        params += (a.vararg.id,)
    if a.kwarg:
        params += (a.kwarg.id,)
    assigned = set()
    for node in walk_tree(tree):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
            assigned.add(node.id)
        elif isinstance(node, (gast.FunctionDef, gast.ClassDef)) and node is not tree:
            assigned.add(node.name)
    cells = dict(zip(func.__code__.co_freevars, func.__closure__ or ()))
    imported = _imported(tree, parsed.source_map, assigned | set(params))
    return Resolution(params, frozenset(assigned - set(params)), cells,
                      _ReadOnlyGlobals(func.__globals__), _receivers(func, params), imported)


def _imported(tree, smap, assigned):
    """{name: object} of the import statements in the function, imported now (importing
    is what running them would do first; the module is then in sys.modules). A name an
    import binds must be bound by nothing else in the function: it is one fact of the
    derivative, not a value."""
    found = {}
    for node in walk_tree(tree):
        if not isinstance(node, (gast.Import, gast.ImportFrom)):
            continue
        for alias in node.names:
            name, obj = _import_one(node, alias, smap)
            if name in assigned or found.get(name, obj) is not obj:
                raise UnsupportedSyntaxError(
                    f"`{name}` is bound by this import and by another statement of the "
                    f"function", smap.locate(node), "give one of them another name")
            found[name] = obj
    return found


def _import_one(node, alias, smap):
    """(the name `alias` of the import `node` binds, the object it binds it to)."""
    if isinstance(node, gast.ImportFrom) and (node.level or alias.name == "*"):
        raise UnsupportedSyntaxError(
            "a relative import or `import *` inside a differentiated function",
            smap.locate(node), "import at module level")
    try:
        if isinstance(node, gast.Import):
            module = importlib.import_module(alias.name)
            if alias.asname:
                return alias.asname, module
            head = alias.name.split(".")[0]      # `import a.b` binds a
            return head, importlib.import_module(head)
        module = importlib.import_module(node.module)
        obj = getattr(module, alias.name, None)
        if obj is None:      # a submodule not yet imported: `from numpy import linalg`
            obj = importlib.import_module(f"{node.module}.{alias.name}")
        return alias.asname or alias.name, obj
    except ImportError as exc:
        raise UnsupportedSyntaxError(f"this import fails: {exc}", smap.locate(node),
                                     "install the module or import what exists") from None


def _receivers(func, params):
    """{"self": (Model, "instance")} for a method Model.loss(self, ...) (a classmethod's
    first parameter: "class"; a static method or a function outside a class: {}). The
    class is found by its qualified name from the module's globals."""
    parts = getattr(func, "__qualname__", "").split(".")
    if len(parts) < 2 or "<locals>" in parts or not params:
        return {}
    owner = func.__globals__.get(parts[0])
    for part in parts[1:-1]:
        owner = getattr(owner, part, None)
    if not isinstance(owner, type):
        return {}
    raw = owner.__dict__.get(parts[-1])
    if isinstance(raw, classmethod) and raw.__func__ is func:
        return {params[0]: (owner, "class")}
    if raw is func:
        return {params[0]: (owner, "instance")}
    return {}


class _ReadOnlyGlobals(dict):
    """A read-only view of the function's live globals (no copy, no writes)."""

    def __init__(self, live):
        super().__init__()
        self._live = live

    def __contains__(self, key):
        return key in self._live

    def __getitem__(self, key):
        return self._live[key]

    def get(self, key, default=None):
        return self._live.get(key, default)

    def keys(self):
        return self._live.keys()

    @property
    def live(self):
        """The module's globals dict itself."""
        return self._live

    def __setitem__(self, key, value):
        raise TypeError("s2s_ad never writes into user globals")

    @property
    def live(self):
        return self._live
