"""Abstract signatures: what each argument of a call is, the facts a derivative is built for.

A kind says everything the derivative's code depends on and nothing else:

    3.0                          Num(float, 'float64', ())          a Python float
    np.float32(2.0)              Num(np.float32, 'float32', ())     a numpy scalar
    np.ones((64, 1, 10))         Num(np.ndarray, 'float64', (None, 1, None))
    (1.0, 2.0, 0.5)              SequenceOf(tuple, Num(float, 'float64', ()))
    [W1, b1]                     Items(list, (Num(...), Num(...)))
    {"w": w}                     Mapping((("w", Num(...)),))
    a dataclass, namedtuple or   Attributes(Model, (("W", Num(...)), ("name", Opaque(str))))
      object (runtime_objects)
    "relu", a function           Opaque(str), Opaque(function)

An object's kind holds the kinds of all its attributes (up to 16; objects inside objects
to a depth of 3), so a derivative built for it keeps the facts about what f reads, and an
attribute rebound to a value of another kind makes a new one. An array's axes are 1 (length one) or None (any other length): broadcasting depends on
nothing else, so one derivative serves every batch size. A tuple or list whose items are
all numbers of one kind is a sequence of that kind, whatever its length. Arrays with an
empty axis, non-native byte order or non-numeric dtypes, and anything not listed above,
are Opaque: their derivative is the general one. `kind_of` is cheap (a few attribute
reads per array); `guard(kind, "x")` writes the test a dispatcher runs to recognise it.
"""
import operator
import sys
import types
from dataclasses import dataclass

import numpy as np

from .runtime_objects import attributes, is_object

NUMERIC_KINDS = frozenset("biuf")     # numpy dtype kinds s2s_ad specialises on
PYTHON_NUMBER_DTYPES = {float: "float64", int: "int64", bool: "bool"}   # (signature_text too)
_MAX_ITEMS = 16                       # longer heterogeneous containers stay opaque
_MAX_PAIR = 4                         # tuples of at most this many numbers make sequences
_MAX_DEPTH = 3                        # objects inside objects deeper than this: opaque


@dataclass(frozen=True)
class Num:
    """A number or an array: its Python type, numpy dtype name and axes (() for numbers).
    Any field may be None in the facts analysis: not known there."""
    type: type
    dtype: str
    axes: tuple

    @property
    def is_python(self):
        return self.type in PYTHON_NUMBER_DTYPES

    def value_tests(self, expr):
        return []               # (a fact about the value: sign_facts.PositiveNum)


@dataclass(frozen=True)
class Items:
    """A tuple or list of fixed length, item by item."""
    container: type
    items: tuple


@dataclass(frozen=True)
class SequenceOf:
    """A tuple or list of any length whose items all have one kind."""
    container: type
    item: object


@dataclass(frozen=True)
class Mapping:
    """A dict with string keys, entry by entry (in insertion order)."""
    entries: tuple


@dataclass(frozen=True)
class Attributes:
    """An object read by attribute (a dataclass, a namedtuple, an instance of a class):
    its type and its attributes' kinds, in order."""
    type: type
    entries: tuple


@dataclass(frozen=True)
class Opaque:
    """Anything else, known only by its type (None: not even that)."""
    type: type


@dataclass(frozen=True)
class Callee:
    """A function passed as an argument, known by its identity: the derivative calls and
    differentiates that very function (a new function, a new derivative)."""
    function: object


UNKNOWN = Opaque(None)
_FLOAT = Num(float, "float64", ())
# type(np.sum): numpy's Python-level functions are callable dispatcher objects in numpy 2,
# no FunctionType (np.sum held in a variable would go unclassified: the general derivative)
_FUNCTION_TYPES = (types.FunctionType, types.BuiltinFunctionType, np.ufunc, type(np.sum))


def named_tuple_length(kind):
    """The number of fields of a value the facts know only as an instance of a named tuple
    class (numpy's SlogdetResult, EighResult: every instance has exactly that many
    items), else None."""
    cls = kind.type if isinstance(kind, Opaque) else None
    fields = getattr(cls, "_fields", None)
    if isinstance(cls, type) and issubclass(cls, tuple) and isinstance(fields, tuple) \
            and fields and all(isinstance(f, str) for f in fields) \
            and cls.__getitem__ is tuple.__getitem__ and cls.__len__ is tuple.__len__:
        return len(fields)      # (a class that reads its items some other way: not known)
    return None


def kind_of(value, depth=0, within=()):
    """The kind of one argument value. `depth` counts the objects looked into above it
    (a list restarts it: a Sequential's layers are each looked into); `within` holds
    their ids, so an object reaching itself (through a dict or list it holds) is opaque
    there instead of recursing without end."""
    t = type(value)
    if t in PYTHON_NUMBER_DTYPES:
        return Num(t, PYTHON_NUMBER_DTYPES[t], ())
    if t is np.ndarray:
        dtype = value.dtype
        if dtype.kind not in NUMERIC_KINDS or not dtype.isnative or 0 in value.shape:
            return Opaque(t)
        return Num(t, dtype.name, tuple(1 if n == 1 else None for n in value.shape))
    if isinstance(value, np.generic) and type(value) is np.dtype(t).type \
            and np.dtype(t).kind in NUMERIC_KINDS:
        return Num(t, np.dtype(t).name, ())
    if t in (tuple, list):
        items = tuple(_item_kind(v, within) for v in value)
        if items and all(k == items[0] for k in items) and _plain_item(items[0]):
            return SequenceOf(t, items[0])
        if len(items) > _MAX_ITEMS:
            return Opaque(t)
        return Items(t, items)
    if isinstance(value, _FUNCTION_TYPES):
        return Callee(value)
    if t is dict and len(value) <= _MAX_ITEMS and all(type(k) is str for k in value):
        return Mapping(tuple((k, kind_of(v, 0, within)) for k, v in value.items()))
    if depth < _MAX_DEPTH and is_object(value) and not library_class(t) \
            and id(value) not in within:
        pairs = attributes(value)
        inside = within + (id(value),)
        if len(pairs) <= _MAX_ITEMS and all(k.isidentifier() for k, _ in pairs):
            return Attributes(t, tuple((k, kind_of(v, depth + 1, inside)) for k, v in pairs))
    return Opaque(t)


# the top-level packages whose classes are no user's (besides the standard library's)
_LIBRARY_PACKAGES = ("numpy", "scipy", "s2s_ad", "pandas", "torch", "jax", "sklearn")


def library_class(cls):
    """A class of the standard library's or of a library's (logging.Logger, whose objects
    reach every logger through their manager), not types.SimpleNamespace: what its
    objects hold is no fact of a derivative (their kind is their type only)."""
    if cls is types.SimpleNamespace:
        return False
    package = (getattr(cls, "__module__", None) or "").split(".")[0]
    return package in sys.stdlib_module_names or package in _LIBRARY_PACKAGES


def _item_kind(value, within=()):
    """The kind of an item of a tuple or list: a short tuple is looked into item by item
    (a list of (x, y) pairs is a sequence of pairs, not of tuples of any length)."""
    if type(value) is tuple and len(value) <= _MAX_PAIR:
        return Items(tuple, tuple(kind_of(v, 0, within) for v in value))
    return kind_of(value, 0, within)


def _plain_item(kind):
    """A sequence's item kind that makes it one SequenceOf: a number (not an array), or a
    tuple of a few numbers (the (x, y) pairs of `for x, y in pairs`)."""
    if isinstance(kind, Num):
        return kind.axes == ()
    return isinstance(kind, Items) and kind.container is tuple and kind.items \
        and all(isinstance(k, Num) and k.axes == () for k in kind.items)


def signature_of(args):
    """The abstract signature of a call's positional arguments: a tuple of kinds."""
    return tuple(kind_of(a) for a in args)


def is_general(signature):
    """Does this signature carry no fact at all (every argument opaque)?"""
    return all(isinstance(k, Opaque) for k in signature)


def describe(kind):
    """A short human reading of a kind: float, float32[n,1], tuple[float, ...]."""
    if isinstance(kind, Num):
        if kind.axes is None:
            return f"{kind.dtype or 'number'}[?]"
        if kind.axes == () and kind.type is not np.ndarray:
            return kind.type.__name__ if kind.type else f"{kind.dtype or 'number'}"
        axes = ",".join("1" if a == 1 else "n" for a in kind.axes)
        return f"{kind.dtype or 'number'}[{axes}]"
    if isinstance(kind, SequenceOf):
        return f"{kind.container.__name__}[{describe(kind.item)}, ...]"
    if isinstance(kind, Items):
        return f"{kind.container.__name__}[{', '.join(describe(k) for k in kind.items)}]"
    if isinstance(kind, Mapping):
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in kind.entries) + "}"
    if isinstance(kind, Attributes):
        return f"{kind.type.__name__}(" + ", ".join(
            f"{k}: {describe(v)}" for k, v in kind.entries) + ")"
    if isinstance(kind, Callee):
        return f"function {getattr(kind.function, '__qualname__', kind.function)}"
    return "any" if kind.type is None else kind.type.__name__


def guard(kind, expr, bind, shape="_s", differentiated=True):
    """Python source testing that the value `expr` has `kind`; `bind(obj)` gives the name
    the generated module binds an object under (types, dtypes; for ("items of", type) a
    guard_checks.ItemTypeCheck, for ("records of", types) a RecordCheck, for ("item", j)
    an operator.itemgetter(j), or None where there is none). None: no test needed.

        Num(float, 'float64', ())                ->  type(x) is float
        Num(ndarray, 'float64', (None, 1))      ->  type(x) is ndarray and x.dtype is f64
                                                     and len(_s := x.shape) == 2
                                                     and _s[0] != 1 and _s[1] == 1
        Num(ndarray, 'float64', (None,))        ->  type(x) is ndarray and x.dtype is f64
                                                     and x.ndim == 1 and x.size != 1
        SequenceOf(list, Num(float, ...))         ->  type(x) is list and sums_to_float(x)
          (x not differentiated: `differentiated` False; see sums_to_float)
        SequenceOf(list, Items(tuple, (float, float)))  ->  type(x) is list and
            countOf(map(type, x), tuple) == len(x) and countOf(map(len, x), 2) == len(x)
            and sums_to_float(map(item_0, x)) and ...      (_records_guard; without the
            checkers, a CLI file: all(type(_v) is tuple and len(_v) == 2 ... for _v in x))
    """
    type_, len_ = bind(type), bind(len)          # builtins under names no parameter has
    if isinstance(kind, Num):
        tests = [f"{type_}({expr}) is {bind(kind.type)}"]
        if kind.type is np.ndarray:
            tests.append(f"{expr}.dtype is {bind(np.dtype(kind.dtype))}")
            if len(kind.axes) <= 1:
                # a number or a vector: its rank and size say all, and reading them builds
                # no shape tuple (a third cheaper)
                tests.append(f"{expr}.ndim == {len(kind.axes)}")
                tests.extend(f"{expr}.size {'==' if a == 1 else '!='} 1" for a in kind.axes)
                return " and ".join(tests)
            # the shape is read once (each read builds a tuple): `_s` holds it
            tests.append(f"{len_}({shape} := {expr}.shape) == {len(kind.axes)}")
            if all(a is None for a in kind.axes):
                tests.append(f"1 not in {shape}")
            else:
                tests.extend(f"{shape}[{k}] {'==' if a == 1 else '!='} 1"
                             for k, a in enumerate(kind.axes))
        return " and ".join(tests + kind.value_tests(expr))
    if isinstance(kind, SequenceOf):
        if kind.container is tuple and isinstance(kind.item, Num) and kind.item.axes == ():
            # a tuple cannot change: the last one whose items passed is remembered
            check = bind(("items of", kind.item.type))       # None: no such checker
            if check is not None:
                return f"{type_}({expr}) is {bind(tuple)} and ({expr} is {check}.last " \
                    f"or {check}({expr}))"
        if kind.container is list and kind.item == Num(float, "float64", ()) \
                and not differentiated and bind(("float items",)) is not None:
            return f"{type_}({expr}) is {bind(list)} and {bind(('float items',))}({expr})"
        if _number_record(kind.item):
            records = _records_guard(kind, expr, bind, differentiated)
            if records is not None:
                return records
        if kind.container is list and isinstance(kind.item, Num) and kind.item.axes == ():
            # a list can change: its items' types are counted on every call, in C and
            # without building anything (a quarter cheaper than a set of the types and a
            # method call); where there is no checker (a CLI file) the generic test below
            if bind(("items of", kind.item.type)) is not None:
                return f"{type_}({expr}) is {bind(list)} and {bind(operator.countOf)}(" \
                    f"{bind(map)}({type_}, {expr}), {bind(kind.item.type)}) == {len_}({expr})"
        item = guard(kind.item, "_v", bind, shape)
        return f"{type_}({expr}) is {bind(kind.container)} and " \
            f"{bind(all)}({item} for _v in {expr})"
    if isinstance(kind, Items):
        tests = [f"{type_}({expr}) is {bind(kind.container)}",
                 f"{len_}({expr}) == {len(kind.items)}"]
        tests += [t for k, item in enumerate(kind.items)
                  for t in [guard(item, f"{expr}[{k}]", bind, shape)] if t]
        return " and ".join(tests)
    if isinstance(kind, Mapping):
        keys = tuple(k for k, _ in kind.entries)
        tests = [f"{type_}({expr}) is {bind(dict)}", f"{bind(tuple)}({expr}) == {keys!r}"]
        tests += [t for k, item in kind.entries
                  for t in [guard(item, f"{expr}[{k!r}]", bind, shape)] if t]
        return " and ".join(tests)
    if isinstance(kind, Attributes):
        tests = [f"{type_}({expr}) is {bind(kind.type)}"]
        tests += [t for k, item in kind.entries
                  for t in [guard(item, f"{expr}.{k}", bind, shape)] if t]
        return " and ".join(tests)
    if isinstance(kind, Callee):
        return f"{expr} is {bind(kind.function)}"
    if kind.type is None:
        return None
    return f"{type_}({expr}) is {bind(kind.type)}"


def loosely_guarded(kind, differentiated):
    """Does the guard of `kind` let ints and bools (and other reals a float sums to a float
    with) in where the kind says float? For a list f does not differentiate whose items are
    floats, or tuples with floats among their positions: its guard sums those items
    (sums_to_float), and the derivative built for the floats is right for them too."""
    if differentiated or not isinstance(kind, SequenceOf) or kind.container is not list:
        return False
    return kind.item == _FLOAT or (_number_record(kind.item) and _FLOAT in kind.item.items)


def _number_record(kind):
    """A sequence's item that is a tuple of a few numbers: the (x, y) of `for x, y in xs`."""
    return isinstance(kind, Items) and kind.container is tuple and bool(kind.items) \
        and all(isinstance(k, Num) and k.axes == () for k in kind.items)


def _records_guard(kind, expr, bind, differentiated):
    """The test of a tuple or list of tuples of numbers (each of the same length, position
    j of one type), in passes over the items in C rather than a generator's loop in
    Python (about two thirds of its time for 500 pairs, timed alone): a tuple of them
    cannot change, so the last one that passed is remembered (RecordCheck); a list's
    items are counted on every call, their types, their lengths, and each position
    through an itemgetter (a float position of a list f does not differentiate summed:
    sums_to_float). None where the binder has no checker (a CLI file): the generic test.

        list[tuple[float, int], ...], not differentiated  ->  type(ps) is list and
            countOf(map(type, ps), tuple) == len(ps) and countOf(map(len, ps), 2) ==
            len(ps) and sums_to_float(map(item_0, ps)) and
            countOf(map(type, map(item_1, ps)), int) == len(ps)
    """
    if kind.container is tuple:
        check = bind(("records of", tuple(k.type for k in kind.item.items)))
        if check is None:
            return None
        type_ = bind(type)
        return f"{type_}({expr}) is {bind(tuple)} and ({expr} is {check}.last " \
            f"or {check}({expr}))"
    getters = [bind(("item", j)) for j in range(len(kind.item.items))]
    loose = bind(("float items",)) if loosely_guarded(kind, differentiated) else None
    if None in getters or (loosely_guarded(kind, differentiated) and loose is None):
        return None
    type_, len_, count, map_ = bind(type), bind(len), bind(operator.countOf), bind(map)
    every = f"== {len_}({expr})"
    tests = [f"{type_}({expr}) is {bind(list)}",
             f"{count}({map_}({type_}, {expr}), {bind(tuple)}) {every}",
             f"{count}({map_}({len_}, {expr}), {len(getters)}) {every}"]
    for getter, item in zip(getters, kind.item.items):
        if loose is not None and item == _FLOAT:
            tests.append(f"{loose}({map_}({getter}, {expr}))")
        else:
            tests.append(f"{count}({map_}({type_}, {map_}({getter}, {expr})), "
                         f"{bind(item.type)}) {every}")
    return " and ".join(tests)


def unsupported_argument(names, values):
    """The first argument s2s_ad cannot differentiate correctly, as (name, why, what to
    do), or None:
    masked arrays (the templates ignore the mask, so a masked entry would still count)
    and complex numbers (the templates are those of real functions). Items of tuples,
    lists and dicts are looked into."""
    for name, value in zip(names, values):
        why = _unsupported(value)
        if why is not None:
            return (name,) + why
    return None


def is_masked_array(value):
    """A numpy.ma array. Only a process that imported numpy.ma can hold one: `np.ma` itself
    would import it (numpy 2 loads it lazily), a cost no other call pays."""
    ma = sys.modules.get("numpy.ma")
    return ma is not None and isinstance(value, ma.MaskedArray)


def _unsupported(value, depth=0, within=()):
    if is_masked_array(value):
        return ("is a masked array (numpy.ma), whose mask the derivative would ignore",
                "pass x.filled(value) or x.compressed(), or the mask as a second argument")
    if isinstance(value, (complex, np.complexfloating)) or (
            isinstance(value, np.ndarray) and value.dtype.kind == "c"):
        return ("holds complex numbers, and s2s_ad differentiates real-valued functions",
                "pass the real and imaginary parts as two real arrays")
    # (objects looked into as kind_of does: a library's object, such as a logging.Logger
    # reaching every logger, is not; an object reaching itself is looked into once)
    if type(value) in (tuple, list) or isinstance(value, tuple):
        return next((why for why in (_unsupported(v, 0, within) for v in value)
                     if why is not None), None)
    if type(value) is dict:
        return next((why for why in (_unsupported(v, 0, within) for v in value.values())
                     if why is not None), None)
    if is_object(value) and depth < _MAX_DEPTH and not library_class(type(value)) \
            and id(value) not in within:
        inside = within + (id(value),)
        return next((why for why in (_unsupported(v, depth + 1, inside)
                                     for _, v in attributes(value)) if why is not None), None)
    return None
