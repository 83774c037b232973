"""Affine integer expressions over length symbols, and what can be proved of their sign
(used by analyses/lengths.py for the symbolic lengths of axes).

A symbol is a string naming an integer the specialisation does not fix: the length of an
axis of a parameter (`x.shape[0]`), an integer parameter (`n`), a floor division by a
positive literal (`(U.shape[0] // 4)`, an atom of its own), or the value of a loop index
in the current iteration (`k@12`). No concrete size is ever part of an expression, so a
fact written with them holds for every call the specialisation serves.

    n = Affine.symbol("x.shape[0]") - Affine.symbol("w.shape[0]") + Affine.const(1)
    str(n)                                 ->  'x.shape[0] - w.shape[0] + 1'
    Bounds({"x.shape[0]": 2}).nonnegative(Affine.symbol("x.shape[0]") - Affine.const(2))
                                           ->  True
"""
from dataclasses import dataclass
from itertools import combinations_with_replacement


@dataclass(frozen=True)
class Affine:
    """const + sum(coefficient * symbol); terms sorted by symbol, no zero coefficient."""
    terms: tuple = ()
    const: int = 0

    @staticmethod
    def symbol(name):
        return Affine(((name, 1),), 0)

    @staticmethod
    def constant(value):
        return Affine((), int(value))

    def __add__(self, other):
        coefficients = dict(self.terms)
        for name, c in other.terms:
            coefficients[name] = coefficients.get(name, 0) + c
        return Affine(tuple(sorted((n, c) for n, c in coefficients.items() if c)),
                      self.const + other.const)

    def __neg__(self):
        return self.scaled(-1)

    def __sub__(self, other):
        return self + (-other)

    def scaled(self, factor):
        if not factor:
            return Affine()
        return Affine(tuple((n, c * factor) for n, c in self.terms), self.const * factor)

    @property
    def is_constant(self):
        return not self.terms

    def symbols(self):
        return {n for n, _ in self.terms}

    def __str__(self):
        parts = [(name if c == 1 else f"-{name}" if c == -1 else f"{c}*{name}")
                 for name, c in self.terms]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts).replace("+ -", "- ")


class Bounds:
    """What is known of the symbols: a lower bound of each (a constant, absent when none
    is known) and facts `E >= 0` (affine, e.g. `x.shape[0] - 4*q >= 0` for q = x.shape[0]
    // 4, or `K - 1 - k@12 >= 0` for k in range(K)). Proofs are sound and incomplete: E is
    shown nonnegative when E minus at most two known facts has only symbols of known lower
    bounds with nonnegative coefficients and its least value is nonnegative."""

    def __init__(self, lower=None, facts=()):
        self.lower = dict(lower or {})
        self.facts = list(facts)

    def copy(self):
        return Bounds(self.lower, self.facts)

    def nonnegative(self, expr):
        if self._direct(expr):
            return True
        for count in (1, 2):
            for chosen in combinations_with_replacement(self.facts, count):
                rest = expr
                for fact in chosen:
                    rest = rest - fact
                if self._direct(rest):
                    return True
        return False

    def _direct(self, expr):
        least = expr.const
        for name, c in expr.terms:
            if c < 0 or name not in self.lower:
                return False
            least += c * self.lower[name]
        return least >= 0

    def at_least(self, expr, value):
        return self.nonnegative(expr - Affine.constant(value))
