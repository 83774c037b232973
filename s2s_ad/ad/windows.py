"""Windows of an array that provably share no element, for the adjoint of reads by slices
(ad/indexed_contributions.py): into an adjoint just made by np.zeros_like, a window no
earlier contribution touched is still zeros, so its contribution is assigned, not added.

    z = x_t @ W + b                        z_bar = np.zeros_like(z)
    i = sigmoid(z[:, :H])          ->      z_bar[:, t3_1:] = g_bar * (1.0 - g * g)
    f = sigmoid(z[:, H:2 * H])             z_bar[:, H:t3_1] = ...     (2*H <= 2*H: apart)
    g = np.tanh(z[:, 2 * H:])              z_bar[:, :H] = ...         (H <= H: apart)

Two basic indexes are apart when, at one axis reached by slices alone on both sides (no
integer, newaxis or Ellipsis before it, so it is the same axis of z), both are slices of
step 1 whose bounds are None or affine values (analyses/lengths.py) proved nonnegative
(a length of an axis, a nonnegative multiple or sum of lengths) and one ends where or
before the other starts: numpy clips nonnegative bounds to the axis's length, which keeps
their order, so [a, b) and [c, d) with b <= c share no element for any length.
"""
import re

import gast

from ..analyses.affine import Affine

# symbols that are nonnegative integers: an axis's length, a floor division of one by a
# positive literal (analyses/affine.py names them so)
_LENGTH = re.compile(r"^\(?[A-Za-z_][\w.]*\.shape\[\d+\]( // \d+\))?$")


def integer_values(kinds):
    """atom -> its integer value as an Affine over lengths, else None (no facts, a name
    of no decided value, a negative literal)."""
    lengths = (kinds.lengths or {}) if kinds is not None else {}

    def value(atom):
        if isinstance(atom, gast.Constant) and type(atom.value) is int:
            return Affine.constant(atom.value)
        if isinstance(atom, gast.Name):
            found = lengths.get(atom.id)
            return found if isinstance(found, Affine) else None
        return None
    return value


def disjoint_windows(a, b, int_value):
    """Do basic indexes a and b (gast index nodes) provably pick no common element?"""
    parts_a = a.elts if isinstance(a, gast.Tuple) else [a]
    parts_b = b.elts if isinstance(b, gast.Tuple) else [b]
    for part_a, part_b in zip(parts_a, parts_b):
        if not (isinstance(part_a, gast.Slice) and isinstance(part_b, gast.Slice)):
            return False              # an integer or newaxis: later axes need not align
        bounds_a, bounds_b = _interval(part_a, int_value), _interval(part_b, int_value)
        if bounds_a is not None and bounds_b is not None \
                and (_before(bounds_a, bounds_b) or _before(bounds_b, bounds_a)):
            return True
    return False


def _interval(part, int_value):
    """(start, stop) of a slice of step 1: nonnegative Affines, start None for 0 and stop
    None for the axis's end; None when a bound is not such a value."""
    if part.step is not None and not (isinstance(part.step, gast.Constant)
                                      and part.step.value in (None, 1)):
        return None
    out = []
    for bound in (part.lower, part.upper):
        if bound is None or isinstance(bound, gast.Constant) and bound.value is None:
            out.append(None)
            continue
        value = int_value(bound)
        if value is None or not _nonnegative(value):
            return None
        out.append(value)
    return tuple(out)


def _before(first, second):
    """Does window `first` end where or before `second` starts (stop <= start)?"""
    stop, start = first[1], second[0]
    if stop is None:
        return False
    if start is None:
        return _nonnegative(-stop)            # stop <= 0: first is empty
    return _nonnegative(start - stop)


def _nonnegative(value):
    """Provably >= 0 for every call: a nonnegative constant plus nonnegative multiples of
    lengths."""
    return value.const >= 0 and all(c > 0 and _LENGTH.match(name) for name, c in value.terms)
