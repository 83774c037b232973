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
            elif type(value) in (int, float):               # a number the facts read
                found.append((namespace, name, NumberOfType(type(value))
                              if is_varying(namespace, name) else value))
    return tuple(found)


def still_bound(bindings):
    """Does every name still denote the function (or number) it did?"""
    return all(_holds(namespace.get(name), value) for namespace, name, value in bindings)


class NumberOfType:
    """What a varying module-level number's binding holds to: a number of this type."""
    __slots__ = ("type",)

    def __init__(self, number_type):
        self.type = number_type


# (module name, global name) of the numbers rebound while a derivative read them: for every
# derivative built afterwards they are values of the run, not facts (the process's history
# decides which, as a JIT's deoptimisation does; the code for each history is the same)
_VARYING = set()


def is_varying(namespace, name):
    """Is the module-level number `name` of `namespace` read when the code runs?"""
    return (namespace.get("__name__"), name) in _VARYING


def note_rebound(bindings):
    """The numbers of `bindings` whose names now hold another number of the same type
    become varying (a name that now holds a function or an array is not: its derivative
    is simply built again)."""
    for namespace, name, value in bindings:
        now = namespace.get(name)
        if type(value) in (int, float) and now is not value and type(now) is type(value):
            _VARYING.add((namespace.get("__name__"), name))


def _holds(current, bound):
    return type(current) is bound.type if type(bound) is NumberOfType else current is bound


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
