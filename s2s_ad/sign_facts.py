"""A fact about a Python-float argument's sign: "x > 0", guarded like a kind.

Some derivatives take a simpler form when a float argument is positive: the adjoint of
a smooth-L1 or Huber loss written `np.minimum(np.abs(r), beta)` is `np.clip(r, -beta,
beta)` only where beta >= 0 (for beta < 0 the minimum is beta everywhere, and what
reaches r is the sign of r times the adjoint of |r|). A number's value is no kind (one derivative serves every float), so the
dispatcher adds the fact itself: a float argument f is not differentiated with respect
to (a threshold, a quantile, a temperature: what users pass the same value of call after
call) that is > 0 at the call gets the kind `PositiveNum`, whose guard adds `x > 0.0` to
`type(x) is float`:

    grad(f)(w, X, y, 0.5)    signature  (..., ("beta", PositiveNum(float, 'float64', ())))
                             guard      type(beta) is float and beta > 0.0
    grad(f)(w, X, y, -1.0)   signature  (..., ("beta", Num(float, 'float64', ())))

A non-positive (or NaN) value gets the plain kind, which holds for every float. The
derivative is built from the plain signature plus the names known positive
(`split`: derivation.Request.positive), so every analysis sees the kinds it always saw
and only a rule that asks (optimize/sign_products.py) reads the fact. The facts are taken
on demand: the rules record the ones their rewrites relied on (PassFacts.signs_read ->
Derived.signs_read), and the dispatcher guards only those (`kept`): a positive float no
rule reads (a step size, a weight) adds no test to the guard, and a call with another
sign there takes the same derivative. Looking a call up mirrors the guards (`accepts`).

No rebuild storm: a signature that differs from one built before only in these facts
(the sign of a parameter changed between calls) makes those parameters' signs no fact
from then on for this dispatcher (`signless`), as freshness.note_rebound makes a
rebound module-level number a value read at run time. So each parameter costs at most
one build more than without the facts, however its sign flaps afterwards: the positive
specialisation's guard keeps taking the positive calls, the plain one the others.
"""
from dataclasses import dataclass

from .signature import Num


@dataclass(frozen=True)
class PositiveNum(Num):
    """A Python float that is > 0 (not NaN) at every call its guard lets in."""

    def value_tests(self, expr):
        return [f"{expr} > 0.0"]


def with_signs(signature, values, eligible):
    """`signature` ((parameter, kind), ...) with the kind of each parameter in `eligible`
    whose value is a Python float > 0 made a PositiveNum."""
    return tuple((name, PositiveNum(kind.type, kind.dtype, kind.axes))
                 if name in eligible and type(value) is float and value > 0.0
                 and type(kind) is Num else (name, kind)
                 for (name, kind), value in zip(signature, values))


def split(signature):
    """(the signature with plain kinds, the names of its parameters known > 0)."""
    positive = tuple(name for name, kind in signature if type(kind) is PositiveNum)
    return without_signs(signature, positive), positive


def settled(signature, known, signless):
    """`signature` without the sign facts of the parameters in `signless`, to which this
    adds those a signature in `known` (guarding a derivative built before) has and
    `signature`, the same kinds otherwise, has not: their signs vary between calls, and
    from now on are no fact (`signless` is the dispatcher's own set, updated here)."""
    plain, mine = split(signature)
    for other in known:
        other_plain, theirs = split(other)
        if other_plain == plain:
            signless |= set(theirs) - set(mine)
    return without_signs(signature, signless)


def accepts(known, signature):
    """Does the guard of `known` let a call of `signature` in (the same kinds, and every
    sign fact `known` has)?"""
    plain, theirs = split(known)
    other_plain, mine = split(signature)
    return plain == other_plain and set(theirs) <= set(mine)


def kept(signature, read):
    """`signature` with the sign facts of only the parameters in `read` (those the
    derivative built for it relies on): the rest are not guarded, so a call with
    another sign there takes the same derivative."""
    return without_signs(signature, {name for name in split(signature)[1] if name not in read})


def without_signs(signature, names):
    """`signature` with the kinds of `names` plain (their signs are no fact)."""
    return tuple((name, Num(kind.type, kind.dtype, kind.axes))
                 if name in names and type(kind) is PositiveNum else (name, kind)
                 for name, kind in signature)
