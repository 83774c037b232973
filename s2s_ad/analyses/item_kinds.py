"""The kinds of items read out of values (mixed into analyses.kinds' analysis), and the
join of two kinds:

    ys: tuple[float, ...]      ys[i]        ->  float (any item)
    x: float64[n, n]           x[0]         ->  float64[n];   x[1:, :]  ->  float64[n, n]
    x: float64[n]              x[mask]      ->  unknown (a boolean mask: data-dependent)
    join(float64[n], float64[1])            ->  float64[?]
    join(Dense(W: float64[n,n]), Tanh())    ->  OneOf(Dense(...), Tanh())  (any, outside)
    listed(float32[n, 3])                   ->  list[list[float, ...], ...]   (x.tolist())
"""
from dataclasses import dataclass

import gast
import numpy as np

from ..signature import (PYTHON_NUMBER_DTYPES, UNKNOWN, Attributes, Items, Mapping, Num, Opaque,
                         SequenceOf)
from .slice_shapes import sliced_array
from .stand_ins import WORLDS, literal, result_kind, stand_ins, unknown_int


@dataclass(frozen=True)
class OneOf(Opaque):
    """An object of one of several classes (an item of a list mixing layer classes),
    each member the join of that class's items. Inside the kinds analysis only: the
    facts it returns say UNKNOWN (`public`), and only as_instance, which names the class,
    reads a member back (object_kinds.py)."""
    members: tuple = ()

    def member(self, cls):
        """The kind of the members of class `cls`, else None."""
        return next((m for m in self.members if m.type is cls), None)


def public(kind):
    """`kind` with every OneOf in it UNKNOWN: what the analysis's facts say."""
    if isinstance(kind, OneOf):
        return UNKNOWN
    if isinstance(kind, Items):
        return Items(kind.container, tuple(public(k) for k in kind.items))
    if isinstance(kind, SequenceOf):
        return SequenceOf(kind.container, public(kind.item))
    if isinstance(kind, Mapping):
        return Mapping(tuple((k, public(v)) for k, v in kind.entries))
    if isinstance(kind, Attributes):
        return Attributes(kind.type, tuple((k, public(v)) for k, v in kind.entries))
    return kind


def listed(kind):
    """The kind of `x.tolist()` (runtime_shape.array_tolist) for an x of `kind`: one list
    per axis around Python numbers of its dtype's kind (a float32's items are floats);
    UNKNOWN when x's rank or dtype is not known."""
    if not isinstance(kind, Num) or kind.axes is None or kind.dtype is None:
        return UNKNOWN
    number = {"f": float, "i": int, "u": int, "b": bool}.get(np.dtype(kind.dtype).kind)
    if number is None:
        return UNKNOWN
    result = Num(number, PYTHON_NUMBER_DTYPES[number], ())
    for _ in kind.axes:
        result = SequenceOf(list, result)
    return result


def join(a, b):
    """The least kind both a and b have."""
    if a == b:
        return a
    if isinstance(a, (Attributes, OneOf)) and isinstance(b, (Attributes, OneOf)):
        return _join_objects(a, b)
    if isinstance(a, Num) and isinstance(b, Num):
        axes = a.axes if a.axes == b.axes else None
        return Num(a.type if a.type == b.type else None,
                   a.dtype if a.dtype == b.dtype else None, axes)
    if isinstance(a, Items) and isinstance(b, Items) and a.container == b.container \
            and len(a.items) == len(b.items):
        return Items(a.container, tuple(join(x, y) for x, y in zip(a.items, b.items)))
    if isinstance(a, SequenceOf) and isinstance(b, SequenceOf) and a.container == b.container:
        return SequenceOf(a.container, join(a.item, b.item))
    if isinstance(a, Opaque) and isinstance(b, Opaque) or type(a) is not type(b):
        return UNKNOWN
    return UNKNOWN


class ItemKinds:
    """Reads self._atom(atom) -> (kind, per-world stand-ins) of the analysis it is mixed
    into."""

    def _getitem(self, base, index):
        kind, worlds = self._getitem_in_worlds(base, index)
        if kind is UNKNOWN:
            return sliced_array(self._atom(base)[0], index), None
        return kind, worlds

    def _getitem_in_worlds(self, base, index):
        kind, worlds = self._atom(base)
        if isinstance(kind, Opaque) and kind.type is range and self._is_int(index):
            return Num(int, "int64", ()), unknown_int()   # r[k] of a range r: an int
        if isinstance(kind, (SequenceOf, Items)) and not isinstance(index, gast.Slice) \
                and not isinstance(literal(index), int):
            # an item at an index known only at run time: any of them
            if not self._is_int(index):
                return UNKNOWN, None
            items = [kind.item] if isinstance(kind, SequenceOf) else list(kind.items)
            if not items:
                return UNKNOWN, None
            item = items[0]
            for other in items[1:]:
                item = join(item, other)
            return item, stand_ins(item)
        if isinstance(kind, SequenceOf) and isinstance(index, gast.Slice):
            return kind, None       # xs[1:] of a list: a list of such items, of some length
        position = literal(index)
        if isinstance(kind, SequenceOf) and type(position) is int:
            return kind.item, stand_ins(kind.item)     # ys[0] (past the end raises in f too)
        if isinstance(kind, Items) and worlds is None and type(position) is int \
                and -len(kind.items) <= position < len(kind.items):
            # (a tuple of stand-ins, as x.shape, is read below: its lengths stay known)
            return kind.items[position], stand_ins(kind.items[position])
        key = index.value if isinstance(index, gast.Constant) else None
        if isinstance(kind, Mapping) and type(key) is str and key in dict(kind.entries):
            entry = dict(kind.entries)[key]              # params["W1"], blocks["enc"]
            return entry, stand_ins(entry)
        if isinstance(kind, SequenceOf) or worlds is None:
            return UNKNOWN, None
        parts = index.elts if isinstance(index, gast.Tuple) else [index]
        if isinstance(kind, Num) and kind.type is np.ndarray and kind.axes is not None \
                and kind.dtype is not None and len(parts) <= len(kind.axes) \
                and all(isinstance(literal(p), int) or self._is_int(p) for p in parts):
            # integers pick one element along each of the first axes, whatever the
            # lengths (an index past the end raises in f and in its derivative alike)
            axes = kind.axes[len(parts):]
            item = Num(np.ndarray if axes else np.dtype(kind.dtype).type, kind.dtype, axes)
            return item, stand_ins(item)
        values = []
        for part in parts:
            if isinstance(part, gast.Slice):
                bounds = [self._atom(b) if b is not None else (None, (None,) * len(WORLDS))
                          for b in (part.lower, part.upper, part.step)]
                if any(w is None for _, w in bounds):
                    return UNKNOWN, None
                step = bounds[2][1]
                if any(s not in (None, 1, -1) for s in step):
                    return UNKNOWN, None       # strided: length depends on the length
                values.append(tuple(slice(*(b[1][k] for b in bounds))
                                    for k in range(len(WORLDS))))
                continue
            part_kind, part_worlds = self._atom(part)
            if part_worlds is None or (isinstance(part_kind, Num) and part_kind.dtype == "bool"
                                       and part_kind.axes):
                return UNKNOWN, None            # a boolean mask: data-dependent length
            values.append(part_worlds)
        results = []
        for k in range(len(WORLDS)):
            key = tuple(v[k] for v in values)
            try:
                results.append(worlds[k][key if isinstance(index, gast.Tuple) else key[0]])
            except Exception:
                return UNKNOWN, None
        return result_kind(results)

    def _is_int(self, atom):
        kind, _ = self._atom(atom)
        return isinstance(kind, Num) and kind.axes == () and kind.dtype == "int64"


def _join_objects(a, b):
    """Two objects: of one class, their attributes joined one by one (when they have the
    same names); of several, the OneOf of a member per class."""
    members = {}
    for kind in (a.members if isinstance(a, OneOf) else (a,)) + \
            (b.members if isinstance(b, OneOf) else (b,)):
        known = members.get(kind.type)
        if known is None:
            members[kind.type] = kind
        elif [k for k, _ in known.entries] == [k for k, _ in kind.entries]:
            members[kind.type] = Attributes(kind.type, tuple(
                (name, join(x, y)) for (name, x), (_, y) in zip(known.entries, kind.entries)))
        else:
            members[kind.type] = Attributes(kind.type, ())
    if len(members) == 1:
        return next(iter(members.values()))
    return OneOf(None, tuple(members.values()))
