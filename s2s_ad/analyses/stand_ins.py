"""Stand-in values for the facts analysis (analyses/kinds.py): one per "world".

The worlds differ only in the length of every axis that is not 1 (2, 3 and 5). A value of
a known kind stands in as an array of those lengths (or a number); an integer read off a
shape keeps its per-world length; an integer, float or flag of unknown value stands in
differently in each world, so nothing it decides looks like a fact:

    stand_ins(Num(np.ndarray, 'float64', (None, 1)))  ->  (zeros-ish (2, 1), (3, 1), (5, 1))
    stand_ins(Num(int, 'int64', ()))                   ->  UnknownInt((0, 1, -1))
    result_kind([np.ones((2, 1)), np.ones((3, 1)), np.ones((5, 1))])
                                                       ->  (Num(ndarray, 'float64', (None, 1)), ...)
"""
import operator
import types

import gast
import numpy as np

from ..ir.primitives import attribute_read, identity
from ..runtime_objects import is_object
from ..signature import UNKNOWN, Attributes, Items, Mapping, Num, Opaque, kind_of, library_class

WORLDS = (2, 3, 5)
# integer operations that keep a length >= 2 a length >= 2 (others lose the world values)
_LENGTH_PRESERVING = {operator.add, operator.mul, len, attribute_read, operator.getitem,
                      identity, tuple}


class UnknownInt(tuple):
    """The per-world stand-ins of an integer whose value is not known: 0, 1 and -1, so
    that whatever it decides (a shape, an axis, a slice bound) differs between the worlds
    (no fact) and it never looks like a length."""


def unknown_int(t=int):
    if t is np.ndarray:          # a 0-d integer array (np.asarray of an unknown integer)
        return UnknownInt(np.array(v) for v in (0, 1, -1))
    values = (0, 1, 2) if t is not int and np.dtype(t).kind == "u" else (0, 1, -1)
    return UnknownInt(t(v) for v in values)


# unknown numbers differ between the worlds too: a length computed from one (np.arange(x))
# is then no fact; a flag of unknown value is True in one world and False in another
_UNKNOWN_FLOATS = (0.5, 1.5, 2.5)
_UNKNOWN_BOOLS = (True, False, True)


def literal(atom):
    if isinstance(atom, gast.Constant) and isinstance(atom.value, (int, float, bool)) \
            and not isinstance(atom.value, complex):
        return atom.value
    if isinstance(atom, gast.UnaryOp) and isinstance(atom.op, gast.USub) \
            and isinstance(atom.operand, gast.Constant) \
            and isinstance(atom.operand.value, (int, float)):
        return -atom.operand.value
    if isinstance(atom, gast.Constant) and atom.value is None:
        return None
    return None


def constant(value):
    """A value the function reads but does not compute (a literal, a global)."""
    if value is None or isinstance(value, (str, type, np.dtype)) or callable(value):
        return Opaque(type(value)), tuple(value for _ in WORLDS)
    kind, _ = result_kind([value] * len(WORLDS))
    return kind, tuple(value for _ in WORLDS)


def global_value(value, module_global=False, varying=False, guarded=False):
    """A global or closure value: functions, modules and types are taken as they are. A
    Python number a module-level name holds (`EPS = 1e-8`, `SQRT_2_OVER_PI`) is the
    number it is: the dispatcher tests that the name still holds it (freshness.py) and
    builds the derivative again when it does not; once the name has been rebound
    (`varying`: the type it is read as, freshness.varying_number_type; a name that held
    an int and a float is read as a float), a number of that type, read when the code runs. So is the kind of
    an object of a class of yours a module-level name holds (`model = Sequential(...)`:
    the classes of its layers), which the dispatcher tests at each call
    (freshness.object_bindings). Closure numbers and arrays may change without a test, so
    they are no facts; a module-level array the dispatcher building this derivative tests
    (`guarded`, freshness.py) is one by its kind."""
    if guarded and type(value) is np.ndarray:
        from ..signature import kind_of
        kind = kind_of(value)
        if isinstance(kind, Num):           # (an empty array is no fact: Opaque)
            return kind, stand_ins(kind)
    if module_global and type(value) in (int, float):
        if varying:     # the type it is read as (freshness.varying_number_type)
            number_type = varying if varying in (int, float) else float
            kind = Num(number_type, "float64" if number_type is float else "int64", ())
            return kind, stand_ins(kind)
        return constant(value)
    kind = global_object_kind(value) if module_global else None
    if kind is not None:
        # `model = Sequential(...)` at module level: what it holds (its layers' classes)
        # is a fact, which the dispatcher tests at each call (freshness.object_bindings)
        return kind, None
    if isinstance(value, (bool, int, float, complex, np.ndarray, np.generic, list, tuple,
                          dict)):
        return UNKNOWN, None
    return constant(value)


def global_object_kind(value):
    """The kind of an object of a user class a module-level name holds, else None (an
    object of the standard library's or a library's class, `log = logging.getLogger()`,
    is none: what it holds is no fact of a derivative)."""
    if not is_object(value) or isinstance(value, types.ModuleType):
        return None
    if library_class(type(value)):
        return None
    kind = kind_of(value)
    return kind if isinstance(kind, Attributes) else None


def stand_ins(kind):
    """One stand-in value per world for a value of `kind` (None when it has none)."""
    if isinstance(kind, Num):
        if kind.axes is None:
            return None
        if kind.type is None or kind.dtype is None:
            # a float on one path, an np.float64 on another: stands in for its shape only
            # (the results' types and dtypes are then not facts; see _evaluate)
            dtype = kind.dtype or "float64"
            if kind.axes or kind.type is np.ndarray:
                return tuple(stand_in_array((n if a is None else 1 for a in kind.axes), dtype)
                             for n in WORLDS)
            return tuple(np.dtype(dtype).type(v) for v in _UNKNOWN_FLOATS)
        if kind.type is np.ndarray:
            return tuple(stand_in_array((n if a is None else 1 for a in kind.axes), kind.dtype)
                         for n in WORLDS)
        if np.dtype(kind.dtype).kind in "iu":
            return unknown_int(kind.type)
        if np.dtype(kind.dtype).kind == "b":
            return tuple(kind.type(v) for v in _UNKNOWN_BOOLS)
        return tuple(kind.type(v) for v in _UNKNOWN_FLOATS)
    if isinstance(kind, Items):
        items = [stand_ins(k) for k in kind.items]
        if any(w is None for w in items):
            return None
        return tuple(kind.container(w[k] for w in items) for k in range(len(WORLDS)))
    if isinstance(kind, Mapping):
        entries = [(key, stand_ins(k)) for key, k in kind.entries]
        if any(w is None for _, w in entries):
            return None
        return tuple({key: w[k] for key, w in entries} for k in range(len(WORLDS)))
    return None


def stand_in_array(shape, dtype):
    """A well-conditioned stand-in (invertible, positive definite when square)."""
    shape = tuple(shape)
    if np.dtype(dtype).kind == "b":
        return np.ones(shape, dtype=bool)
    if np.dtype(dtype).kind in "iu":
        return np.zeros(shape, dtype=dtype)
    value = np.full(shape, 0.25, dtype=dtype)
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        value = value + np.eye(shape[-1], dtype=dtype)
    return value


def result_kind(results):
    """(kind, per-world values) of one operation's results in every world."""
    kinds = [kind_in_world(r) for r in results]
    if any(k != kinds[0] for k in kinds) or kinds[0] is None:
        return UNKNOWN, None
    return kinds[0], tuple(results)


def kind_in_world(value):
    """Like signature.kind_of, with tuples item by item and empty axes as no fact."""
    t = type(value)
    if t in (float, int, bool):
        return Num(t, {float: "float64", int: "int64", bool: "bool"}[t], ())
    if t is np.ndarray:
        if value.dtype.kind not in "biuf" or 0 in value.shape:
            return None
        return Num(t, value.dtype.name, tuple(1 if n == 1 else None for n in value.shape))
    if isinstance(value, np.generic):
        return Num(t, value.dtype.name, ()) if value.dtype.kind in "biuf" else None
    if t in (tuple, list):
        items = tuple(kind_in_world(v) for v in value)
        return None if None in items else Items(t, items)
    if t is dict:
        entries = tuple((k, kind_in_world(v)) for k, v in value.items())
        return None if any(v is None for _, v in entries) else Mapping(entries)
    return Opaque(t)


def written_worlds(worlds, indices, items):
    """(kind, per-world values) of a dict or list after `y[index] = v` in every world, or
    (UNKNOWN, None) when y is neither or the write fails."""
    if worlds is None or indices is None or items is None \
            or not all(type(w) in (dict, list) for w in worlds):
        return UNKNOWN, None
    results = []
    for world, index, item in zip(worlds, indices, items):
        written = type(world)(world)
        try:
            written[index] = item
        except Exception:
            return UNKNOWN, None
        results.append(written)
    return result_kind(results)


def integer_worlds(kind, worlds, primitive, operands):
    """An integer result keeps its per-world values when they are constant (computed from
    constants) or a length (sums and products of lengths, read off shapes); any other
    integer computed from a length or from an unknown integer (`n - 1`, `n // 2`) may be
    1 or 0 for some length, and becomes an unknown integer."""
    if worlds is None or not isinstance(kind, Num) or kind.axes != () \
            or np.dtype(kind.dtype).kind not in "iu":
        return worlds
    unknown = any(isinstance(w, UnknownInt) for w in operands)
    varying = any(not all(same_value(v, w[0]) for v in w) for w in operands
                  if not isinstance(w[0], np.ndarray))
    if not unknown and not varying:
        return worlds
    if not unknown and primitive in _LENGTH_PRESERVING:
        return worlds
    return unknown_int(kind.type)


def same_value(x, y):
    if type(x) is not type(y):
        return False
    if isinstance(x, np.ndarray):
        return x.shape == y.shape and x.dtype == y.dtype and np.array_equal(x, y)
    try:
        return bool(x == y)
    except Exception:
        return False
