"""Rational functions back to Python expressions, and the exact check of a rewrite.

`Renderer.render(value)` writes a rational function over atoms as a short expression,
using the forward values already computed: a denominator factor f for which a forward
name v holds c / f is divided out (num = q f + r, so num / f = q + r v / c), one that a
name holds itself is divided by that name, and the scalar part (constants, element
counts) is applied last.

    (1 - y - y*e) / (K * (1 + e)),  p = 1 / (1 + e)    ->   (p - y) / K

`rewrite_agrees(...)` evaluates the original statements and the rewritten expressions in exact
rational arithmetic at random points: a rewrite is used only if they agree, so a fault
in the algebra costs speed, never a wrong gradient.
"""
import random
from fractions import Fraction

import gast

from ..ir.walk import walk_tree
from .. import runtime
from ..ir import build
from ..ir.naming import callee
from . import rational
from .closed_form_names import through_forward_names


class Renderer:
    """names: forward name -> its rational value; atoms: atom -> expression to write;
    scalar_atoms: atoms that are numbers whatever the arrays' shape."""

    def __init__(self, field, names, atoms, scalar_atoms):
        self.field, self.names, self.atoms, self.scalar = field, names, atoms, scalar_atoms
        self.inverses, self.holders = {}, {}
        self._scalars = None
        for name, (num, den) in names.items():
            if len(num) == 1 and () in num and len(den) > 1:
                self.inverses.setdefault(_key(den), (name, num[()]))   # v = c / f
            elif den == rational.const(1) and len(num) > 1:
                coef, mono, rest = rational.primitive(num)
                if not mono:
                    self.holders.setdefault(_key(rest), (name, coef))  # v = c * f

    def render(self, value, earlier=()):
        """The cheapest expression found for `value`, and its cost (array operations).
        `earlier`: [(name, value)] computed before; a multiple c != 1 of one is c * name."""
        num, den = value
        if not num:
            return build.const(0.0), 0.0
        for name, known in reversed(earlier):
            c = rational.ratio(value, known)
            if c is not None and c != 1:
                expr = gast.UnaryOp(op=gast.USub(), operand=build.name(name)) if c == -1 \
                    else gast.BinOp(left=_number(c), op=gast.Mult(), right=build.name(name))
                return expr, 1.0
        options = [(self.cost(expr), 0, expr) for expr in through_forward_names(
            value, self.names, self.scalar, self._atom)]
        for sign in (1, -1):
            for divide_out in (True, False):
                for nested, expr in enumerate(self._write(num, den, sign, divide_out) or ()):
                    if expr is not None:
                        options.append((self.cost(expr), nested, expr))
        cheapest = min(o[:2] for o in options)
        # equal costs: the first in the order of the text (deterministic)
        ties = [o for o in options if o[:2] == cheapest]
        best = ties[0] if len(ties) == 1 else min(ties, key=lambda o: _text(o[2]))
        return best[2], best[0]

    def _write(self, num, den, sign, divide_out):
        """num / den with the polynomial part's sign chosen (the scalar part absorbs it),
        dividing registered factors out through forward names or not: two expressions,
        the polynomials written as sums of monomials, and nested (Horner's scheme). None
        when `divide_out` finds nothing to divide out: it would write what render gets
        without it (written twice, that was a third of render's time)."""
        scalar_den = tuple((n, k) for n, k in rational.primitive(den)[1] if n in self.scalar)
        array_den = {rational.mono_div(m, scalar_den): c for m, c in den.items()}
        factors, array_den = self._known_factors(array_den)
        if divide_out and not any(self.inverses.get(_key(f)) is not None for f in factors):
            return None
        content, num_mono, rest = rational.primitive(num)
        scalar_num = tuple((n, k) for n, k in num_mono if n in self.scalar)
        array_mono = rational.mono_div(num_mono, scalar_num)
        num = rational.scale({rational.mono_mul(m, array_mono): c for m, c in rest.items()},
                             sign)
        if divide_out:
            for factor in list(factors):
                held = self.inverses.get(_key(factor))
                if held is not None:
                    q, r = rational.divide(num, factor)
                    name, c = held
                    num = rational.add(q, rational.mul(r, rational.scale(rational.atom(name),
                                                                         1 / c)))
                    factors.remove(factor)
        if not num:
            return [build.const(0.0)]
        written = [self._quotient(self._poly, num, factors, array_den, content * sign,
                                  scalar_num, scalar_den)]
        # nested only where no expanded difference hides in it: a Horner form of
        # y^2 - 2 y m + m^2 is cheaper than the chain rule's (y - m)^2 but loses every
        # digit when y and m are close
        if not (_expanded_difference(num) or _expanded_difference(array_den)):
            written.append(self._quotient(self._nested, num, factors, array_den,
                                          content * sign, scalar_num, scalar_den))
        return written

    def _quotient(self, poly, num, factors, array_den, c, scalar_num, scalar_den):
        expr = poly(num)
        for factor in factors:
            held = self.holders.get(_key(factor))
            if held is not None:            # a name holding coef * factor: / name, * coef
                expr = gast.BinOp(left=expr, op=gast.Div(), right=build.name(held[0]))
                c = c * held[1]
                continue
            expr = gast.BinOp(left=expr, op=gast.Div(), right=self._poly(factor))
        if array_den != rational.const(1):
            expr = gast.BinOp(left=expr, op=gast.Div(), right=poly(array_den))
        scalar = self._scalar_part(c, scalar_num, scalar_den)
        if scalar is None:
            return expr
        if isinstance(scalar, tuple):                      # 1 / (scalar): divide by it
            return gast.BinOp(left=expr, op=gast.Div(), right=scalar[0])
        return gast.BinOp(left=expr, op=gast.Mult(), right=scalar)

    def _known_factors(self, den):
        """den = (registered factors, with repeats) * rest."""
        found = []
        for factor in self.field.factors:
            while True:
                smaller = rational.exact_quotient(den, factor)
                if smaller is None:
                    break
                found.append(factor)
                den = smaller
        return found, den

    def _scalar_part(self, c, num_mono, den_mono):
        """c * num_mono / den_mono as an expression: None for 1, (e,) for 1 / e."""
        top = self._monomial(num_mono) if num_mono else None
        bottom = self._monomial(den_mono) if den_mono else None
        if top is None:
            top = None if c == 1 else _number(c)
        elif c != 1:
            top = gast.BinOp(left=_number(c), op=gast.Mult(), right=top)
        if bottom is None:
            return top
        if top is None:
            return (bottom,)
        return gast.BinOp(left=top, op=gast.Div(), right=bottom)

    def _poly(self, poly):
        terms = sorted(poly.items(), key=lambda t: (t[1] < 0, _mono_text(t[0])))
        signed = []
        for mono, coef in terms:
            magnitude = abs(coef)
            term = self._monomial(mono) if mono else None
            if term is None:
                term = _number(magnitude)
            elif magnitude != 1:
                term = gast.BinOp(left=_number(magnitude), op=gast.Mult(), right=term)
            signed.append((coef > 0, term))
        return build.signed_sum(signed)

    def _nested(self, poly):
        """poly by Horner's scheme: the atom in most terms (at least two) taken out,
        poly = atom * q + r, and q and r written the same way. Fewer multiplications,
        and the atom is multiplied in last, which lets the in-place schedule
        (optimize/buffers.py) work in one array:

            2 t x + x^2 - t^2 x^2   ->   x * (x + t * (2 - t * x))
        """
        counts = {}
        for mono in poly:
            for name, _ in mono:
                counts[name] = counts.get(name, 0) + 1
        if len(poly) == 1 or max(counts.values(), default=0) < 2:
            return self._poly(poly)
        name = min(counts, key=lambda n: (-counts[n], n))
        one = ((name, 1),)
        inner = {rational.mono_div(m, one): c for m, c in poly.items() if dict(m).get(name)}
        rest = {m: c for m, c in poly.items() if not dict(m).get(name)}
        negative = all(c < 0 for c in inner.values())
        inner = rational.scale(inner, -1) if negative else inner
        product = self._atom(name) if inner == rational.const(1) else \
            gast.BinOp(left=self._atom(name), op=gast.Mult(), right=self._nested(inner))
        if not rest:
            return gast.UnaryOp(op=gast.USub(), operand=product) if negative else product
        return gast.BinOp(left=self._nested(rest), op=gast.Sub() if negative else gast.Add(),
                          right=product)

    def _monomial(self, mono):
        expr = None
        for name, k in mono:
            base = self._atom(name)
            factor = base
            if k <= 4:              # numpy has no fast path for ** 3: multiply
                for _ in range(k - 1):
                    factor = gast.BinOp(left=factor, op=gast.Mult(), right=self._atom(name))
            else:
                factor = gast.BinOp(left=base, op=gast.Pow(), right=build.const(k))
            expr = factor if expr is None else gast.BinOp(left=expr, op=gast.Mult(), right=factor)
        return expr

    def _atom(self, name):
        return build.clone(self.atoms[name]) if name in self.atoms else build.name(name)

    def cost(self, expr):
        """Array operations in expr (operations on numbers only count a tenth)."""
        if self._scalars is None:   # the atoms are all written by the first cost()
            written = [self.atoms[a] for a in self.scalar if self.atoms.get(a) is not None]
            self._scalars = ({type(e) for e in written}, {_text(e) for e in written})
        scalars, known = self._scalars, {}
        total = 0.0
        for node in walk_tree(expr):
            if isinstance(node, (gast.BinOp, gast.UnaryOp)):
                operands = [node.left, node.right] if isinstance(node, gast.BinOp) \
                    else [node.operand]
                total += 0.1 if all(_is_number(o, scalars, known) for o in operands) else 1.0
        return total


def _expanded_difference(poly):
    """Do terms of one degree have both signs (as (a - b)^2 expanded does)?"""
    signs = {}
    for mono, coef in poly.items():
        signs.setdefault(sum(k for _, k in mono), set()).add(coef > 0)
    return any(len(s) > 1 for s in signs.values())


def _is_number(node, scalars, known):
    """Is node a constant, a scalar atom's expression (scalars: their node types and
    dumps), or arithmetic on those? `known`: id(node) -> the answer for the nodes of one
    expression asked already (cost() asks at every operation of a chain about the chain
    below it: without them, steps quadratic in its length)."""
    found = known.get(id(node))
    if found is None:
        if isinstance(node, gast.Constant):
            found = True
        elif isinstance(node, (gast.BinOp, gast.UnaryOp)):
            found = all(_is_number(c, scalars, known) for c in gast.iter_child_nodes(node)
                        if isinstance(c, gast.expr))
        else:
            kinds, texts = scalars
            found = type(node) in kinds and _text(node) in texts
        known[id(node)] = found
    return found


def _key(poly):
    return tuple(sorted(poly.items()))


def _mono_text(mono):
    return " ".join(f"{n}^{k}" for n, k in mono)


def _number(value):
    value = float(value)
    return build.literal(value)


def _text(expr):
    return gast.dump(expr)


# ---- exact check ---------------------------------------------------------------------------
class Undefined(Exception):
    """A random point where some value divides by zero: try another."""


def evaluate(node, env, calls):
    """node's value in exact arithmetic; names from env, calls through calls(node, ev)."""
    def ev(n):
        if isinstance(n, gast.Constant):
            return Fraction(n.value)
        if isinstance(n, gast.Name):
            return env[n.id]
        if isinstance(n, gast.UnaryOp) and isinstance(n.op, gast.USub):
            return -ev(n.operand)
        if isinstance(n, gast.BinOp):
            a, b = ev(n.left), ev(n.right)
            op = type(n.op)
            if op is gast.Add:
                return a + b
            if op is gast.Sub:
                return a - b
            if op is gast.Mult:
                return a * b
            if op is gast.Div:
                if b == 0:
                    raise Undefined()
                return a / b
            if op is gast.Pow and b.denominator == 1:
                if a == 0 and b < 0:
                    raise Undefined()
                return a ** int(b)
        if isinstance(n, (gast.Call, gast.Attribute)):
            return calls(n, ev)
        raise KeyError(gast.dump(n))
    return ev(node)


def agree(run_original, run_rewrite, atoms, points=3, seed=0):
    """Do both runs give the same values at random rational points for the atoms?
    run_*(env) -> list of values."""
    rng = random.Random(seed)
    checked = tries = 0
    while checked < points:
        tries += 1
        if tries > 20:
            return False
        env = {a: Fraction(rng.randint(2, 60), rng.randint(2, 60)) * rng.choice((1, -1))
               for a in sorted(atoms)}
        try:
            if run_original(dict(env)) != run_rewrite(dict(env)):
                return False
        except Undefined:
            continue
        checked += 1
    return True


def rewrite_agrees(rational_defs, backward, interpreted, outputs, atoms, resolve, count,
                   zeros=(), whole=()):
    """Run the original statements (the forward definitions, then the interpreted
    backward ones) and the rewritten expressions in exact arithmetic at random points.
    outputs: [(statement index, "before" | "after", original expression, rewritten)];
    the helpers a closed form assumes away pass their value on, element counts are the
    atom `count`; the calls whose ids are in `zeros` are kink shares proved zero
    (optimize/kink_zeros.py: the atoms here are independent, so the relation between a
    minimum and its operands that proves it cannot be sampled); those in `whole` kink
    shares proved equal to their g (kink_zeros.whole_share), which pass it on."""
    def calls(node, ev):
        if isinstance(node, gast.Attribute):
            if node.attr == "size":
                return counted[0]
            raise KeyError(node.attr)
        if id(node) in zeros:
            return 0
        if id(node) in whole:
            return ev(node.args[0])
        helper = callee(node.func, resolve)
        if helper in (runtime.unbroadcast, runtime.unreduce):
            return ev(node.args[0])
        if helper is runtime.reduced_count:
            return counted[0]
        raise KeyError(helper)
    counted = [None]

    def forward(env):
        counted[0] = env[count]
        for stmt in rational_defs:
            env[stmt.targets[0].id] = evaluate(stmt.value, env, calls)
        return env

    def original(env):
        env, values = forward(env), []
        for index, stmt in enumerate(backward):
            values += [evaluate(e, env, calls) for k, when, e, _ in outputs
                       if k == index and when == "before"]
            if index in interpreted:
                value = evaluate(stmt.value, env, calls)
                target = stmt.targets[0].id if isinstance(stmt, gast.Assign) else stmt.target.id
                if isinstance(stmt, gast.AugAssign):        # `+=` or `-=`
                    value = env[target] + value if isinstance(stmt.op, gast.Add) \
                        else env[target] - value
                env[target] = value
            values += [evaluate(e, env, calls) for k, when, e, _ in outputs
                       if k == index and when == "after"]
        return values

    def rewritten(env):
        env, values = forward(env), []
        for i in sorted(range(len(outputs)), key=lambda i: (outputs[i][0], outputs[i][1] == "after")):
            _, when, target, expr = outputs[i]
            values.append(evaluate(expr, env, calls))
            if when == "after":
                env[target.id] = values[-1]         # later closed forms may read it
        return values
    return agree(original, rewritten, atoms)
