"""Exact rational functions over named atoms, for optimize/closed_forms.py.

A polynomial is a dict {monomial: Fraction}; a monomial is a sorted tuple of
(atom, power) pairs, () for the constant term. A rational function is a pair
(numerator, denominator) kept in lowest terms as far as the cancellations below find:
common monomials, constants, and any polynomial registered as a known factor (the
denominators the forward definitions bring in, e.g. 1 + e for p = 1 / (1 + e)).

    1 - 1 / (1 + e)             ->   e / (1 + e)
    (1 - y - y*e) / (1 + e)     ->   quotient -y, remainder 1 by (1 + e)

No general multivariate gcd: a rational left with a common factor it did not register
is still exact, only longer; closed_forms then keeps the original code.
"""
import math
from fractions import Fraction



def const(value):
    value = Fraction(value)
    return {(): value} if value else {}


def atom(name):
    return {((name, 1),): Fraction(1)}


def add(a, b):
    out = dict(a)
    for mono, coef in b.items():
        total = out.get(mono, 0) + coef
        if total:
            out[mono] = total
        else:
            out.pop(mono, None)
    return out


def scale(a, factor):
    factor = Fraction(factor)
    return {m: c * factor for m, c in a.items()} if factor else {}


def mono_mul(m, n):
    powers = dict(m)
    for name, k in n:
        powers[name] = powers.get(name, 0) + k
    return tuple(sorted(powers.items()))


def mul(a, b):
    out = {}
    for m, c in a.items():
        for n, d in b.items():
            mono = mono_mul(m, n)
            total = out.get(mono, 0) + c * d
            if total:
                out[mono] = total
            else:
                out.pop(mono, None)
    return out


def _order(mono):
    """Graded-lexicographic key: leading terms are the highest degree, then by names."""
    return (sum(k for _, k in mono), tuple((name, k) for name, k in mono))


def leading(a):
    mono = max(a, key=_order)
    return mono, a[mono]


def mono_div(m, n):
    """m / n as a monomial, or None if n does not divide m."""
    powers = dict(m)
    for name, k in n:
        if powers.get(name, 0) < k:
            return None
        powers[name] -= k
    return tuple(sorted((name, k) for name, k in powers.items() if k))


def divide(a, f):
    """(quotient, remainder) of a by f: a = q f + r, no term of r divisible by f's
    leading monomial."""
    lead, lead_coef = leading(f)
    q, r, rest = {}, {}, dict(a)
    while rest:
        mono, coef = leading(rest)
        factor = mono_div(mono, lead)
        if factor is None:
            r = add(r, {mono: coef})
            rest = add(rest, {mono: -coef})
            continue
        term = {factor: coef / lead_coef}
        q = add(q, term)
        rest = add(rest, scale(mul(term, f), -1))
    return q, r


def exact_quotient(a, f):
    q, r = divide(a, f)
    return None if r else q


def atoms_of(a):
    return {name for mono in a for name, _ in mono}


def _monomial_gcd(a):
    monos = iter(a)
    common = dict(next(monos))
    for mono in monos:
        powers = dict(mono)
        common = {n: min(k, powers.get(n, 0)) for n, k in common.items() if powers.get(n)}
    return tuple(sorted(common.items()))


def primitive(a):
    """a = c * m * rest, rest primitive (integer coefficients without a common divisor,
    the leading one positive) and without a common monomial: returns (c, m, rest).
    Integer coefficients keep the written form exact (`9 * x - 4`, not `x - 0.444...`)."""
    mono = _monomial_gcd(a)
    rest = {mono_div(m, mono): c for m, c in a.items()}
    numerators = math.gcd(*(c.numerator for c in rest.values()))
    denominators = math.lcm(*(c.denominator for c in rest.values()))
    coef = Fraction(numerators, denominators)
    if leading(rest)[1] < 0:
        coef = -coef
    return coef, mono, scale(rest, 1 / coef)


MAX_TERMS, MAX_DEGREE = 40, 12


def degrees(a):
    """(total degree, {atom: degree}) of a nonzero polynomial. Both add up in a product
    (the leading parts of nonzero factors multiply to a nonzero part), so two products
    whose sums differ cannot be equal, nor one a constant multiple of the other."""
    each, total = {}, 0
    for mono in a:
        total = max(total, sum(k for _, k in mono))
        for name, k in mono:
            if k > each.get(name, 0):
                each[name] = k
    return total, each


def plus(*found):
    """The degrees (`degrees`) of the product of polynomials of degrees `found`."""
    each = {}
    for _, part in found:
        for name, k in part.items():
            each[name] = each.get(name, 0) + k
    return sum(t for t, _ in found), each


def ratio(x, y):
    """c with x == c * y for a constant c, else None."""
    (a, b), (c, d) = x, y
    if not (a and b and c and d):
        return None
    # x == k * y is a * d == k * c * b: equal degrees in every atom, checked before
    # multiplying out (closed_form_names tries every pair of forward values; most differ)
    if plus(degrees(a), degrees(d)) != plus(degrees(c), degrees(b)):
        return None
    left, right = mul(a, d), mul(c, b)
    if not left or not right:
        return None
    lead, coef = leading(left)
    if lead not in right:
        return None
    ratio = coef / right[lead]
    return ratio if left == scale(right, ratio) else None


class TooComplex(Exception):
    """A value past MAX_TERMS terms or MAX_DEGREE: long chains of products would grow
    without bound (and a closed form that long would not be shorter anyway)."""


class Field:
    """Rational-function arithmetic that cancels the known factors it has seen."""

    def __init__(self):
        self.factors = []          # primitive, content-free polynomials with 2+ terms

    def note_factor(self, poly):
        """Remember a primitive polynomial of two or more terms as a possible factor."""
        if len(poly) > 1 and poly not in self.factors:
            self.factors.append(poly)

    def make(self, num, den):
        if not den:
            raise ZeroDivisionError("division by an expression that is identically zero")
        if len(num) + len(den) > MAX_TERMS or max(
                sum(k for _, k in mono) for mono in list(num) + list(den)) > MAX_DEGREE:
            raise TooComplex()
        if not num:
            return {}, const(1)
        coef, mono, rest = primitive(den)
        self.note_factor(rest)
        num_coef, num_mono, num_rest = primitive(num)
        common = _monomial_gcd({mono: 1, num_mono: 1})
        mono, num_mono = mono_div(mono, common), mono_div(num_mono, common)
        num = scale({mono_mul(m, num_mono): c for m, c in num_rest.items()}, num_coef / coef)
        den = {mono: Fraction(1)}
        for factor in self.factors:
            while True:
                reduced = exact_quotient(rest, factor)
                if reduced is None:
                    break
                smaller = exact_quotient(num, factor)
                if smaller is None:
                    den = mul(den, factor)
                else:
                    num = smaller
                rest = reduced
        return num, mul(den, rest)

    def add(self, x, y):
        (a, b), (c, d) = x, y
        if b == d:
            return self.make(add(a, c), b)
        return self.make(add(mul(a, d), mul(c, b)), mul(b, d))

    def neg(self, x):
        return scale(x[0], -1), x[1]

    def sub(self, x, y):
        return self.add(x, self.neg(y))

    def mul(self, x, y):
        return self.make(mul(x[0], y[0]), mul(x[1], y[1]))

    def div(self, x, y):
        return self.make(mul(x[0], y[1]), mul(x[1], y[0]))

    def power(self, x, n):
        result = (const(1), const(1))
        for _ in range(abs(n)):
            result = self.mul(result, x)
        return result if n >= 0 else self.div((const(1), const(1)), result)
