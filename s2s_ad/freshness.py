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
"""
import inspect
import types

_LIBRARIES = ("numpy", "scipy", "s2s_ad", "math", "builtins", "functools")


def helper_bindings(func):
    """((globals dict, name, function or number), ...) for every user function and every
    int or float f reads by a global name, directly or through the helpers it reads (in a
    deterministic order). A number is a fact of the specialisation (analyses/stand_ins)."""
    return tuple((namespace, name, value) for namespace, name, value in _global_reads(func)
                 if _user_function(value) or type(value) in (int, float))


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


def still_bound(bindings, objects=()):
    """Does every name still denote the function it did (and the object, of its kind)?"""
    if objects:
        from .signature import kind_of
        if not all(namespace.get(name) is value and kind_of(value) == kind
                   for namespace, name, value, kind in objects):
            return False
    return all(namespace.get(name) is value for namespace, name, value in bindings)


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
