"""Runtime helpers for objects read by attribute: dataclasses, namedtuples, plain objects.

An object is differentiated as the structure of its attributes, as a dict is as the
structure of its entries. While the backward sweep runs, an object's adjoint is a dict
from attribute name to that attribute's adjoint (a namedtuple's is its list of field
adjoints, shared with `p[0]` reads); the gradient handed back has the object's own type:

    attribute_of(p, "w")            p.w (the primitive of an attribute read)
    set_attribute(p, "n", v)        p.n = v, a state update run for its effect
    check_not_array(p.n, message)   before `p.n += v`: a number's, not an array's
    scatter_attribute(a, p, "w", g)  a with g added for attribute w      {"w": g}
    object_gradient(a, p)            P(w=g, b=0.0) for a dataclass P(w, b)
    make_object(P, (w, b))           P(w, b): a dataclass, a namedtuple or a plain class
                                     storing its parameters (stored_parameters), made in f
    replaced(p, ("b",), (v,))        p._replace(b=v) / dataclasses.replace(p, b=v) (no
                                     derivative: where p's class is not known)
    field_adjoints(a, P, values)     the adjoints of those values, from P's adjoint a
    fields_adjoint(a, P, items)      those values' adjoints as P's adjoint (like a)

Attributes the function never reads get zeros of their shape when they hold floats,
ints or float arrays (or containers of them, or objects again), and None when they
hold anything else (strings, booleans, functions, random generators): what has no
derivative. The gradient object is made without calling the class's __init__.
"""
import copy
import dataclasses
import inspect

import numpy as np

try:  # inside the package the error is an s2s_ad.ADError; standalone it is a ValueError
    from .errors import APIUsageError
    from .runtime_checks import _caller_origin
except ImportError:  # pragma: no cover - only in standalone generated files
    class APIUsageError(ValueError):
        pass

    def _caller_origin(depth=2):
        return "the function"

def is_object(x, _known={}):
    """Is x an object read by attribute (a dataclass, a namedtuple or an instance of a
    plain class), rather than a number, an array or a builtin container? (Decided once
    per type: `_known` remembers it.)"""
    t = type(x)
    found = _known.get(t)
    if found is None:
        # (the types are spelled here: a standalone module copies functions, not constants)
        if issubclass(t, (np.ndarray, np.generic, float, int, complex, str, bytes, dict,
                          list, type(None), type, range, slice)) \
                or callable(x) and not dataclasses.is_dataclass(t) \
                and type(getattr(t, "__call__", None)) is not type(is_object):
            # a function, a builtin, a partial; an instance of a class with a
            # `def __call__` (a model called as model(x)) is an object like any other
            found = False
        elif issubclass(t, tuple):
            found = hasattr(t, "_fields")
        else:
            found = dataclasses.is_dataclass(t) or hasattr(x, "__dict__") or \
                bool(_slot_names(t))
        _known[t] = found
    return found


def _slot_names(t, _known={}):
    """The slots instances of type t have (besides __dict__ and __weakref__)."""
    names = _known.get(t)
    if names is None:
        names = []
        for klass in t.__mro__:
            slots = klass.__dict__.get("__slots__", ())
            names += [n for n in ([slots] if isinstance(slots, str) else slots)
                      if n not in ("__dict__", "__weakref__")]
        _known[t] = names
    return names


def attributes(x):
    """x's own attributes in order, as (name, value) pairs: a dataclass's fields, a
    namedtuple's fields, else its instance dict and slots."""
    t = type(x)
    if issubclass(t, tuple):
        return list(zip(t._fields, x))
    fields = getattr(t, "__dataclass_fields__", None)
    if fields is not None:
        return [(name, getattr(x, name)) for name, f in fields.items()
                if f._field_type is dataclasses._FIELD]
    pairs = list(getattr(x, "__dict__", {}).items())
    pairs += [(name, getattr(x, name)) for name in _slot_names(t) if hasattr(x, name)]
    return pairs


def attribute_of(x, name):
    """x.name: the primitive of an attribute read of an object."""
    return getattr(x, name)


def set_attribute(x, name, value):
    """x.name = value, run once in the forward sweep (a running mean, a call counter): the
    written value is never read again by the differentiated code (analyses/state_updates.py
    checks that), so it is a side effect, nondifferentiable, as Python runs it."""
    setattr(x, name, value)


def check_not_array(value, message):
    """`obj.n += v` where obj.n holds a number (a counter), not an array: Python adds
    into an array in place, changing it for every name holding it. Raise `message`
    (the located error, rendered) for an array."""
    if isinstance(value, np.ndarray):
        raise APIUsageError(message)


def attribute_tangent(t, name):
    """The tangent of x.name from x's tangent t (an object like x, the attribute dict of
    one, or the scalar zero); `name` a position for a namedtuple's field (a template's
    tangent of one may be a plain tuple or list)."""
    if isinstance(t, dict):
        return t.get(name, 0.0)
    if isinstance(name, int):
        return t[name] if isinstance(t, (tuple, list)) else 0.0
    if isinstance(t, tuple) and hasattr(type(t), "_fields"):
        return t[type(t)._fields.index(name)]
    if is_object(t) and check_attribute(t, name):
        return getattr(t, name)
    return 0.0              # the scalar zero, or a constant of t's class


def attribute_adjoints(a):
    """An object adjoint as the dict the backward sweep accumulates into (a gradient
    object a helper returned becomes the dict of its attributes)."""
    if is_object(a) and not isinstance(a, tuple):
        return dict(attributes(a))
    return a


def check_attribute(x, name, depth=3):
    """True when x.name is an attribute stored on x; False for a plain value its class
    holds (a constant every instance shares: no gradient of its own, as for a global).
    Raise for a property or a method: s2s_ad would differentiate it as a stored value,
    not through the code computing it."""
    if name in getattr(x, "__dict__", ()) or isinstance(x, tuple) \
            or any(n == name for n, _ in attributes(x)):
        return True
    held = next((k.__dict__[name] for k in type(x).__mro__ if name in k.__dict__), None)
    if held is not None and not callable(held) and not hasattr(held, "__get__"):
        return False
    raise APIUsageError(
        f"`.{name}` of a {type(x).__name__}, read in {_caller_origin(depth)}, is computed "
        f"(a property or a method), not stored on the object; s2s_ad differentiates "
        f"attributes stored on it",
        hint="compute it in the differentiated function (or a helper it calls) from the "
             "stored attributes")


def object_gradient(a, x, match_adjoint=None):
    """The gradient for object x from its adjoint `a` (a dict by attribute name, the
    scalar zero, or already an object like x): an object of x's type. `match_adjoint`
    (runtime_flow's) makes each attribute's adjoint its gradient; only 0.0 needs none."""
    a = attribute_adjoints(a)
    if isinstance(x, tuple) and isinstance(a, (list, tuple)):
        return type(x)(*[match_adjoint(g, v) for g, v in zip(a, x)])
    given = a if isinstance(a, dict) else {}
    return rebuilt(x, [_gradient_of(given, name, value, match_adjoint)
                       for name, value in attributes(x)])


def rebuilt(x, values):
    """An object of x's type whose attributes (in the order of `attributes(x)`) hold
    `values`, made without calling its __init__."""
    if isinstance(x, tuple):
        return type(x)(*values)
    out = object.__new__(type(x))
    for (name, _), value in zip(attributes(x), values):
        object.__setattr__(out, name, value)
    return out


def _gradient_of(given, name, value, match_adjoint):
    if name not in given:
        return zero_gradient(value)
    gradient = match_adjoint(given[name], value)
    if type(value) in (float, int) and isinstance(gradient, (np.floating, np.ndarray)) \
            and np.ndim(gradient) == 0:
        return float(gradient)          # a Python number's gradient is a Python float
    return gradient


def zero_gradient(value):
    """The gradient of an attribute nothing reads: zeros of its kind, None where there is
    no derivative (see the module docstring)."""
    if isinstance(value, (bool, np.bool_)) or isinstance(value, np.ndarray) and \
            value.dtype.kind not in "iuf":
        return None
    if isinstance(value, (float, int, np.floating, np.integer)):
        return 0.0
    if isinstance(value, np.ndarray):
        return np.zeros(value.shape, dtype=value.dtype if value.dtype.kind == "f" else float)
    if isinstance(value, dict):
        return {key: zero_gradient(item) for key, item in value.items()}
    if isinstance(value, list) or type(value) is tuple:
        return type(value)(zero_gradient(item) for item in value)
    if is_object(value):
        return object_gradient(0.0, value)
    return None


def defines_call(cls):
    """Does calling an instance of `cls` run a `def __call__` of its (a model called as
    model(x)), which s2s_ad can read and differentiate?"""
    return isinstance(cls, type) and inspect.isfunction(getattr(cls, "__call__", None))


def subclasses_of(owner):
    """Every class deriving from `owner`, however indirectly."""
    found, pending = [], list(owner.__subclasses__())
    while pending:
        sub = pending.pop()
        found.append(sub)
        pending.extend(sub.__subclasses__())
    return found


def has_class(value, cls):
    """Is `value` an instance of exactly `cls`? Picks the branch of an item of a list of
    objects mixing classes (`for layer in self.layers: x = layer(x)`)."""
    return type(value) is cls


def copied(value, deep):
    """copy.deepcopy(value) (deep) or copy.copy(value): `copy.deepcopy(params)` in f, as
    a primitive differentiated as the identity (the copy's adjoint is the value's)."""
    return copy.deepcopy(value) if deep else copy.copy(value)


def as_instance(value, cls):
    """`value` itself, known from here on as an instance of exactly `cls` (the branch
    has_class chose): the derivative of `cls.__call__(layer, x)` is built for that class,
    so the methods it calls on `self` are that class's. Differentiated as the identity."""
    return value


def constructible(cls):
    """Can `cls(*values)` be differentiated as storing each value in a field, in order?
    A namedtuple class, a dataclass with the __init__ dataclasses wrote and no
    __post_init__ (which could store something else), or a plain class whose __init__
    only stores its parameters (stored_parameters)."""
    if isinstance(cls, type) and issubclass(cls, tuple):
        return hasattr(cls, "_fields")
    if isinstance(cls, type) and not dataclasses.is_dataclass(cls):
        return stored_parameters(cls) is not None
    return isinstance(cls, type) and dataclasses.is_dataclass(cls) \
        and not hasattr(cls, "__post_init__") \
        and getattr(cls.__dict__.get("__dataclass_params__"), "init", False)


def field_names(cls):
    """The fields cls(*values) fills, in order."""
    if issubclass(cls, tuple):
        return list(cls._fields)
    if not dataclasses.is_dataclass(cls):
        return list(stored_parameters(cls))
    return [f.name for f in dataclasses.fields(cls) if f.init]


def stored_parameters(cls, _known={}):
    """For a plain class whose own __init__ does nothing but store each of its parameters
    (no defaults, no *args) in an attribute of its own, the attribute of each parameter
    in order, else None:

        class Point:
            def __init__(self, x, y):     ->  ["x", "y"]
                self.x = x                    (also `self.x, self.y = x, y`)
                self.y = y

    Read from the source of __init__ once per class. A class that sets attributes its own
    way (__setattr__, __slots__, a property of that name) is not one."""
    if cls in _known:
        return _known[cls]
    import ast
    import inspect
    import textwrap
    found, init = None, cls.__dict__.get("__init__")
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(init))) \
            if inspect.isfunction(init) and cls.__setattr__ is object.__setattr__ \
            and "__slots__" not in cls.__dict__ else None
    except (OSError, TypeError, SyntaxError):
        tree = None
    a = tree.body[0].args if tree is not None and isinstance(
        tree.body[0], ast.FunctionDef) else None
    if a is not None and len(a.args) > 1 and not (a.posonlyargs or a.vararg or a.kwonlyargs
                                                  or a.kwarg or a.defaults):
        me, params = a.args[0].arg, [p.arg for p in a.args[1:]]
        stored = {}
        for stmt in tree.body[0].body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue                          # the docstring
            pairs = _stores(stmt, me)
            if pairs is None:
                stored = None
                break
            for attr, param in pairs:
                stored.setdefault(param, []).append(attr)
        if stored is not None and sorted(stored) == sorted(params) \
                and all(len(attrs) == 1 for attrs in stored.values()):
            names = [stored[p][0] for p in params]
            if len(set(names)) == len(names) and not any(
                    inspect.isdatadescriptor(inspect.getattr_static(cls, n, None))
                    for n in names):
                found = names
    _known[cls] = found
    return found


def _stores(stmt, me):
    """[(attribute, parameter)] of `self.a = p` or `self.a, self.b = p, q`; None for any
    other statement."""
    import ast
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
        return None
    target, value = stmt.targets[0], stmt.value
    targets = target.elts if isinstance(target, ast.Tuple) else [target]
    values = value.elts if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
        else [value]
    if len(targets) != len(values):
        return None
    pairs = []
    for t, v in zip(targets, values):
        if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                and t.value.id == me and isinstance(v, ast.Name) and v.id != me):
            return None
        pairs.append((t.attr, v.id))
    return pairs


def make_object(cls, values):
    """cls(*values): the primitive of an object made in f (`constructible` classes)."""
    return cls(*values)


def replaced(x, names, values):
    """x._replace(**changes) of a namedtuple, dataclasses.replace(x, **changes) else: what
    a derivative not knowing x's class runs (it has no derivative; transforms/
    object_replace.py)."""
    changes = dict(zip(names, values))
    return x._replace(**changes) if isinstance(x, tuple) else dataclasses.replace(x, **changes)


def fields_adjoint(a, cls, items):
    """`items`, one per field of cls filled in order, in the structure of the object
    adjoint `a`: a list where a is a namedtuple's list of field adjoints, else a dict by
    attribute name (what scatter_add and match_adjoint read an object's adjoint as). The
    adjoint of field_adjoints(a, cls, values) in `a` (an object of cls there would be
    read as zero by match_adjoint against the dict `a`: grad of grad lost the part
    through the attributes of an object made in f)."""
    if isinstance(a, (list, tuple)):
        return list(items)
    return dict(zip(field_names(cls), items))


def field_adjoints(a, cls, values):
    """The adjoint of each value passed to cls(*values), from the object's adjoint `a`
    (a dict by attribute name, a namedtuple's list, an object, or the scalar zero)."""
    a = attribute_adjoints(a)
    if isinstance(a, (list, tuple)):
        return list(a[:len(values)])
    given = a if isinstance(a, dict) else {}
    return [given.get(name, 0.0) for name in field_names(cls)[:len(values)]]
