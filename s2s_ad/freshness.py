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
            if _user_function(value):
                found.append((namespace, name, value))
                todo.append(value)
            elif type(value) in (int, float):
                found.append((namespace, name, value))      # a number the facts read
    return tuple(found)


def still_bound(bindings):
    """Does every name still denote the function it did?"""
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
