"""A closed form written through the values the forward sweep holds (for
optimize/closed_form_render.py).

The renderer writes a rational function over atoms as sums of monomials; where the
value is one of `a + c * v`, `a + c * v * v` or `c * v * w` (v a forward name, w a
forward name or an atom, a and c numbers), reading v is shorter, and no difference is
multiplied out (fewer operations, fewer digits lost):

    1 - (y - m)^2 e^2,  z = (y - m) * e     ->   1.0 - z * z
    -(y - m) e^2                            ->   -(z * e)
"""
from ..ir import build
from . import rational

_MAX_NAMES = 40          # past this many forward values, nothing is tried


def through_forward_names(value, names, scalar, atom_expr):
    """Expressions for `value` (a rational (num, den)) of the forms above. names: forward
    name -> its rational value; scalar: atoms that are numbers; atom_expr(atom): the
    expression an atom is written as."""
    num, den = value
    if len(names) > _MAX_NAMES:
        return []
    constant = num.get((), 0) if den == rational.const(1) else 0
    rest = (rational.add(num, rational.const(-constant)), den)
    found = []
    ordered = sorted(names)
    # rest == c * v ** power needs equal degrees (rational.ratio): checked from v's own
    # degrees (a power's are that multiple of them) before v * v is multiplied out
    rest_degrees = (rational.degrees(rest[0]), rational.degrees(rest[1])) \
        if rest[0] and rest[1] else None
    for v in ordered:
        vn, vd = names[v]
        v_degrees = (rational.degrees(vn), rational.degrees(vd)) if vn and vd else None
        for power in (1, 2):
            if rest_degrees is None or v_degrees is None or \
                    rest_degrees[0][0] + v_degrees[1][0] * power != \
                    v_degrees[0][0] * power + rest_degrees[1][0] or rational.plus(
                    rest_degrees[0], _times(v_degrees[1], power)) != rational.plus(
                    _times(v_degrees[0], power), rest_degrees[1]):
                continue            # ratio would find none
            c = rational.ratio(rest, (vn, vd) if power == 1 else
                               (rational.mul(vn, vn), rational.mul(vd, vd)))
            if c is not None:
                term = build.name(v) if power == 1 else \
                    build.binop(build.name(v), "Mult", build.name(v))
                found.append(_affine(constant, c, term))
    if constant:
        return found
    atoms = sorted(set().union(*(rational.atoms_of(p) for p in value)) - set(scalar))
    others = [(w, names[w], build.name) for w in ordered] + \
        [(a, (rational.atom(a), rational.const(1)), atom_expr) for a in atoms]
    # value == c * v * w needs num * vd * wd and vn * wn * den of equal degrees in every
    # atom (rational.degrees): a pair whose degrees differ is skipped without multiplying
    # v and w out (40 forward values: 3200 pairs, few of the right degrees)
    num_degrees, den_degrees = rational.degrees(num), rational.degrees(den)
    of = [(rational.degrees(wn), rational.degrees(wd)) if wn and wd else None
          for _, (wn, wd), _ in others]
    for k, v in enumerate(ordered):
        vn, vd = names[v]
        for (w, (wn, wd), written), w_degrees in zip(others, of):
            if of[k] is None or w_degrees is None:
                continue
            # the total degrees first (three additions): most pairs differ there already
            if num_degrees[0] + of[k][1][0] + w_degrees[1][0] != \
                    den_degrees[0] + of[k][0][0] + w_degrees[0][0] or rational.plus(
                    num_degrees, of[k][1], w_degrees[1]) != rational.plus(
                    den_degrees, of[k][0], w_degrees[0]):
                continue
            c = rational.ratio(value, (rational.mul(vn, wn), rational.mul(vd, wd)))
            if c is not None:
                found.append(_affine(0, c, build.binop(build.name(v), "Mult", written(w))))
    return found


def _times(found, k):
    """The degrees (rational.degrees) of the k-th power of a polynomial of degrees `found`."""
    total, each = found
    return total * k, {name: d * k for name, d in each.items()}


def _affine(constant, c, term):
    """constant + c * term as an expression (constant, c: numbers)."""
    if c == -1 and not constant:
        return build.unaryop("USub", term)
    if abs(c) != 1:
        term = build.binop(build.literal(float(abs(c))), "Mult", term)
    if not constant:
        return term if c > 0 else build.unaryop("USub", term)
    return build.binop(build.literal(float(constant)), "Add" if c > 0 else "Sub", term)
