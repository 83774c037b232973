"""Which helper functions (and module-level numbers) a derivative was built from, and
whether they are still there.

A derivative differentiates f's helpers as they were when it was built. A user who then
redefines a helper (a notebook cell run again: `def act(z): return z ** 3`) changes f,
whose derivative must be built again, not read from a cache: the generated forward sweep
would call the new helper and the backward sweep apply the old helper's derivative, a
wrong gradient without an error. The bindings are read off the compiled code, so taking
them costs no parse:

    def act(z): return z * z
    def loss(x): return np.sum(act(x))
    helper_bindings(loss)   ->  ((loss.__globals__, "act", act),)
    still_bound(...)        ->  False once `act` names another function

Only functions of the user's (not numpy's, scipy's or s2s_ad's) are followed, through the
names each one's code reads, its nested functions and lambdas included.

A module-level number is a fact (its value) until its name is rebound while a derivative
depended on it (`T = T * 0.99` between calls, an annealed temperature): from then on
(note_rebound) it is a number of its type read when the code runs, and the binding holds
while the name holds a number of that type, so the next `T` builds nothing again:

    still_bound(((g, "T", 1.0),))              False once g["T"] = 0.99
    note_rebound(...); helper_bindings(f)  ->  ((g, "T", NumberOfType(float)),)

A module-level array (data `X, y` a loss reads) is a fact by its kind (dtype, rank, which
axes have length 1, as an argument's), in the specialisations a dispatcher builds while
it guards the name (arrays_guarded): its binding holds while the name holds an array of
that kind, so a new batch of the same kind (`X = batches[i]`) builds nothing again:

    helper_bindings(loss)  ->  ((g, "X", ArrayOfKind(Num(ndarray, 'float64', (None, None)))),)

A name that goes back to a kind it held before (full batches and a last one of one row,
alternately) is read when the code runs from then on (AnyArray: no fact, any real array
holds), as a rebound number is.
"""
import contextlib
import contextvars
import inspect
import types

import numpy as np

_LIBRARIES = ("numpy", "scipy", "s2s_ad", "math", "builtins", "functools")


def helper_bindings(func):
    """((globals dict, name, function or number), ...) for every user function and every
    int or float f reads by a global name, directly or through the helpers it reads (in a
    deterministic order). A number is a fact of the specialisation (analyses/stand_ins)."""
    found = []
    for namespace, name, value in _global_reads(func):
        if _user_function(value):
            found.append((namespace, name, value))
        elif type(value) in (int, float):               # a number the facts read
            found.append((namespace, name, NumberOfType(varying_number_type(namespace, name,
                                                                            value))
                          if is_varying(namespace, name) else value))
        elif type(value) is np.ndarray and value.dtype.kind in "biuf":
            found.append((namespace, name, AnyArray(value) if is_varying(namespace, name)
                          else ArrayOfKind(value)))
    return tuple(found)


def object_bindings(func):
    """((globals dict, name, object, its kind), ...) for every object of a class of yours
    f (or a helper it reads) reads by a global name (`model = Sequential(...)`): its kind
    (what its attributes hold, the classes of the layers it holds) is a fact of the
    derivative (analyses/stand_ins.global_value), so a derivative is used only while the
    name holds the object and the object still has that kind (a layer rebound, an array
    of another rank: built again)."""
    from .analyses.stand_ins import global_object_kind
    found = []
    for namespace, name, value in _global_reads(func):
        kind = global_object_kind(value)
        if kind is not None:
            found.append((namespace, name, value, kind))
    return tuple(found)


def _global_reads(func):
    found, seen, todo = [], set(), [func]
    while todo:
        current = todo.pop()
        code = getattr(current, "__code__", None)
        namespace = getattr(current, "__globals__", None)
        if code is None or namespace is None or id(current) in seen:
            continue
        seen.add(id(current))
        for name in sorted(_names(code)):
            value = namespace.get(name)
            found.append((namespace, name, value))
            if _user_function(value):
                todo.append(value)
    return found


class ArrayOfKind:
    """What a module-level array's binding holds to: an array of `kind`; `value` is the
    array last seen there (the guard's quick test is its identity; a new array of the
    same kind takes its place when still_bound sees it)."""
    __slots__ = ("kind", "value")

    def __init__(self, value):
        from .signature import kind_of
        self.kind, self.value = kind_of(value), value

    def holds(self, current):
        if current is self.value:
            return True
        if type(current) is np.ndarray and current.dtype.kind in "biuf":
            from .signature import kind_of
            if kind_of(current) == self.kind:
                self.value = current
                return True
        return False


class AnyArray(ArrayOfKind):
    """A module-level array whose kind keeps changing (note_rebound): read when the code
    runs, no fact (arrays_guarded leaves it out); its binding holds while the name holds
    a real array of any kind."""
    __slots__ = ()

    def holds(self, current):
        if current is self.value:
            return True
        if type(current) is np.ndarray and current.dtype.kind in "biuf":
            self.value = current
            return True
        return False


# the (id of the namespace, name) of the module-level arrays the dispatcher building a
# specialisation guards: only those are facts (a derivative built elsewhere, the general
# one or a written module, reads them when it runs)
_GUARDED = contextvars.ContextVar("s2s_ad_guarded_arrays", default=frozenset())


@contextlib.contextmanager
def arrays_guarded(bindings):
    """While building a specialisation whose dispatcher tests `bindings`."""
    token = _GUARDED.set(frozenset((id(namespace), name) for namespace, name, value in bindings
                                   if type(value) is ArrayOfKind))
    try:
        yield
    finally:
        _GUARDED.reset(token)


def is_guarded_array(namespace, name):
    """Is the module-level array `name` of `namespace` (a module's globals dict) a fact?"""
    return (id(namespace), name) in _GUARDED.get()


def guarded_arrays_read(levels):
    """[(name, kind)] of the guarded module-level arrays `levels` reads, in name order."""
    if not _GUARDED.get():
        return []
    import gast

    from .ir.walk import walk_tree
    from .signature import Num, kind_of
    resolution = levels.resolution
    live = getattr(resolution.globals, "live", resolution.globals)
    found = {}
    for node in walk_tree(levels.tree):
        if isinstance(node, gast.Name) and node.id not in found \
                and not resolution.is_value(node.id) and resolution.kind(node.id) == "global" \
                and node.id not in resolution.imported and is_guarded_array(live, node.id):
            kind = kind_of(live[node.id])
            if isinstance(kind, Num):
                found[node.id] = kind
    return sorted(found.items())


def still_bound(bindings, objects=()):
    """Does every name still denote the function (or number, or array of its kind) it did
    (and the object, of its kind)?"""
    if objects:
        from .signature import kind_of
        if not all(namespace.get(name) is value and kind_of(value) == kind
                   for namespace, name, value, kind in objects):
            return False
    return all(_holds(namespace.get(name), value) for namespace, name, value in bindings)


class NumberOfType:
    """What a varying module-level number's binding holds to: a number of this type (of
    either type, int or float, for a name that alternates between them)."""
    __slots__ = ("type", "types")

    def __init__(self, number_type):
        self.type = number_type
        self.types = REAL_NUMBERS if number_type is REAL_NUMBERS else (number_type,)


REAL_NUMBERS = (int, float)


# (module name, global name) of the numbers rebound while a derivative read them: for every
# derivative built afterwards they are values of the run, not facts (the process's history
# decides which, as a JIT's deoptimisation does; the code for each history is the same)
_VARYING = set()


def is_varying(namespace, name):
    """Is the module-level number `name` of `namespace` read when the code runs?"""
    return (namespace.get("__name__"), name) in _VARYING


# (module name, global name) of the varying numbers that have held both an int and a
# float (`T = 1` then `T = 0.5`): read as a float when the code runs, the binding holding
# to either type (else each change of type built every derivative of f again)
_MIXED = set()


def varying_number_type(namespace, name, value):
    """The type a varying module-level number is read as: float for one that has held
    an int and a float (int and float arithmetic give the same values), else its own."""
    return REAL_NUMBERS if (namespace.get("__name__"), name) in _MIXED else type(value)


def note_rebound(bindings):
    """The numbers of `bindings` whose names now hold another number become varying (a
    name that now holds a function is not: its derivative is simply built again), mixed
    when it changed between int and float; so do the arrays whose names go back to a kind
    they held before."""
    for namespace, name, value in bindings:
        now = namespace.get(name)
        held = value.type if type(value) is NumberOfType else type(value)
        if held in (int, float, REAL_NUMBERS) and now is not value \
                and type(now) in REAL_NUMBERS:
            key = (namespace.get("__name__"), name)
            _VARYING.add(key)
            if type(now) is not held:
                _MIXED.add(key)
        elif type(value) is ArrayOfKind and type(now) is np.ndarray \
                and now.dtype.kind in "biuf":
            _note_kind_change(namespace.get("__name__"), name, value.kind, now)


# (module name, global name) -> the changes of kind (old, new) its arrays made: a name
# that goes back to a kind it had left (a batch of one row between full batches, train
# and test sets of two dtypes, also through a third kind) is read when the code runs
# from then on; each change of kind rebuilt every derivative of f (~25 ms a call where
# the derivative takes microseconds)
_KIND_CHANGES = {}


def _note_kind_change(module, name, old, array):
    from .signature import kind_of
    new = kind_of(array)
    if new == old:
        return
    changes = _KIND_CHANGES.setdefault((module, name), set())
    if (old, new) in changes:           # the dispatcher and the cache both note it
        return
    if any(new in change for change in changes):
        _VARYING.add((module, name))
    changes.add((old, new))


def _holds(current, bound):
    if type(bound) is NumberOfType:
        return type(current) in bound.types
    if isinstance(bound, ArrayOfKind):
        return bound.holds(current)
    return current is bound


def _names(code):
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _user_function(value):
    return inspect.isfunction(value) \
        and not (getattr(value, "__module__", None) or "").split(".")[0] in _LIBRARIES \
        and not hasattr(value, "__s2s_generated__")


def stale_test(namespace, name, value, named, bind):
    """The guard's test that a helper or module-level number f's derivatives were built
    from has changed (a deleted name too): `helpers.get('act') is not act`; for a varying
    number (freshness.py), `type(helpers.get('T')) is not float`."""
    if type(value) is NumberOfType and value.type is REAL_NUMBERS:
        return f"type({namespace}.get({name!r})) not in {named('real_numbers', REAL_NUMBERS)}"
    if type(value) is NumberOfType:
        return f"type({namespace}.get({name!r})) is not {bind(value.type)}"
    if isinstance(value, ArrayOfKind):  # the array last seen there; else its kind is tested
        return f"{namespace}.get({name!r}) is not {named(name + '_seen', value)}.value"
    return f"{namespace}.get({name!r}) is not {named(name, value)}"
