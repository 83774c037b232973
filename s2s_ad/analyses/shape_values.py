"""The symbolic values of the lengths analysis (analyses/lengths.py): an array's lengths
(Shape), a tuple of integers (Ints: x.shape), a range's bounds (Range), each length an
Affine (analyses/affine.py) or None; how numpy broadcasts and multiplies them, and the
join of two values at a branch or loop head.

    broadcast([Shape((n, 1)), Shape((m,))], bounds)   ->  Shape((n, m))  (m proved >= 2)
    join(Shape((n,)), Shape((m,)))                     ->  Shape((None,))
"""
import numpy as np

from ..signature import Num
from .affine import Affine


class Shape(tuple):
    """The lengths of an array's axes (Affine or None each); () for a number."""


class Ints(tuple):
    """A tuple of integers (x.shape): Affine or None each."""


class Range(tuple):
    """range(start, stop) of affine bounds that read no loop index: (start, stop)."""


def _one():
    return Affine.constant(1)


def broadcast(shapes, bounds):
    """numpy's broadcast of operand lengths, where it is decided."""
    rank = max(len(s) for s in shapes)
    out = []
    for k in range(rank):
        axis = [s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0]
        long = [a for a in axis if a is not None and bounds.at_least(a, 2)]
        if long:
            out.append(long[0])           # the others are 1 or as long (else numpy raises)
        elif all(a is not None and a == axis[0] for a in axis):
            out.append(axis[0])
        elif all(a is not None for a in axis) and all(a == _one() or a == axis[0]
                                                       for a in axis if a != _one()):
            others = [a for a in axis if a != _one()]
            out.append(others[0] if others else _one())
        else:
            out.append(None)
    return Shape(out)


def matmul(a, b, bounds):
    if not (isinstance(a, Shape) and isinstance(b, Shape)) or not a or not b:
        return None
    if len(a) == 1 and len(b) == 1:
        return Shape()
    if len(b) == 1:
        return Shape(a[:-1])
    if len(a) == 1:
        return Shape(b[:-2] + b[-1:])
    batch = broadcast([Shape(a[:-2]), Shape(b[:-2])], bounds)
    return Shape(tuple(batch) + (a[-2], b[-1]))


def join(a, b):
    if a == b:
        return a
    if isinstance(a, Shape) and isinstance(b, Shape) and len(a) == len(b):
        return Shape(x if x == y else None for x, y in zip(a, b))
    if isinstance(a, Ints) and isinstance(b, Ints) and len(a) == len(b):
        return Ints(x if x == y else None for x, y in zip(a, b))
    return None


def mentions(value, prefix):
    parts = value if isinstance(value, tuple) else (value,)
    return any(isinstance(p, Affine) and any(prefix in s for s in p.symbols())
               for p in parts)


def without_transient(value):
    """`value` with every length that reads a loop index forgotten (a variable's lasting
    fact holds whatever iteration bound it)."""
    if isinstance(value, Affine):
        return None if any("@" in s for s in value.symbols()) else value
    if isinstance(value, Range):
        return None if mentions(value, "@") else value
    if isinstance(value, (Shape, Ints)):
        return type(value)(None if a is None or any("@" in s for s in a.symbols()) else a
                           for a in value)
    return value


def axes_from_lengths(kind, shape, bounds):
    """A facts kind with axes read off proved lengths, where the stand-ins decided none:
    an array of known dtype whose every axis is 1 or proved >= 2. Else `kind` itself."""
    if not (isinstance(kind, Num) and kind.type is np.ndarray and kind.axes is None
            and kind.dtype is not None and isinstance(shape, Shape)):
        return kind
    axes = []
    for length in shape:
        if length is None:
            return kind
        if length == _one():
            axes.append(1)
        elif bounds.at_least(length, 2):
            axes.append(None)
        else:
            return kind
    return Num(np.ndarray, kind.dtype, tuple(axes))


def substituted(value, equal):
    """`value` with each symbol of `equal` (symbol -> Affine) replaced by what it equals."""
    if not equal:
        return value
    if isinstance(value, Affine):
        out = Affine.constant(value.const)
        for name, c in value.terms:
            out = out + (equal[name] if name in equal else Affine.symbol(name)).scaled(c)
        return out
    if isinstance(value, (Shape, Ints, Range)):
        return type(value)(None if a is None else substituted(a, equal) for a in value)
    return value
