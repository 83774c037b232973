"""Expressions of the fuzzer's random programs, each of a known kind.

Every value is tracked by its kind: "s" (a number), "v" (shape (3,)) or "m" (shape (3, 3)),
so every expression is well-shaped. Elementwise functions are applied only where their
input is in their domain (`np.log(1.0 + e * e)`, `e / (2.0 + np.cos(e))`). The only
non-smooth points are branch tests, ties of `np.max` / `np.where`, and zero spreads or norms
(`np.std`, `np.linalg.norm`) that random values do not hit; the oracle detects a kink (its
step sizes disagree) and skips it.
"""
import re
from dataclasses import dataclass

# a bare name, or a name indexed, sliced or transposed: shares the named array's memory
SHAPE_TEXT = {"v": "3", "m": "(3, 3)"}
_VIEW = re.compile(r"^[A-Za-z_]\w*(\[[^\]]*\]|\.T)*$")


@dataclass
class Var:
    kind: str
    owned: bool                      # made here, held by no other name: may be written in place


class ExpressionWriter:
    """Builds one function body line by line, tracking which names hold what."""

    def __init__(self, rng, helpers, features):
        self.rng = rng
        self.helpers = helpers           # name -> (parameter kinds, result kind)
        self.features = features
        self.lines = []
        self.indent = 1
        self.scopes = [{}]
        self.counter = 0
        self.indices = []                # loop indices in scope, each in range(3)

    # names ----------------------------------------------------------------------------
    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def visible(self):
        out = {}
        for scope in self.scopes:
            out.update(scope)
        return out

    def of_kind(self, kind, owned=False):
        return [n for n, v in self.visible().items()
                if v.kind == kind and (v.owned or not owned)]

    def bind(self, name, kind, owned):
        for scope in reversed(self.scopes):
            if name in scope:
                scope[name] = Var(kind, owned)
                return
        self.scopes[-1][name] = Var(kind, owned)

    def assigned(self, name, kind, value):
        """Bind `name` to `value`; a value that may share memory (a name, a view, either arm of
        a conditional, a helper's result) leaves neither it nor the names it reads writable."""
        fresh = not (_VIEW.match(value) or " if " in value or value.startswith("helper")
                     or value.startswith(("np.flip(", "np.transpose(")))
        if not fresh:
            self.share(value)
        self.bind(name, kind, owned=fresh)

    def share(self, value):
        for word in re.findall(r"[A-Za-z_]\w*", value):
            var = self.visible().get(word)
            if var is not None and var.owned:
                self.bind(word, var.kind, owned=False)

    def emit(self, text):
        self.lines.append("    " * self.indent + text)

    def block(self):
        self.indent += 1
        self.scopes.append({})

    def end_block(self):
        self.indent -= 1
        self.scopes.pop()

    # expressions ------------------------------------------------------------------------
    def const(self):
        return self.rng.choice(["0.5", "1.5", "2.0", "0.3", "0.9", "3.0", "1.0"])

    def index(self):
        if self.indices and self.rng.random() < 0.6:
            return self.rng.choice(self.indices)
        return str(self.rng.randrange(3))

    def leaf(self, kind):
        names = self.of_kind(kind)
        r = self.rng.random()
        if kind == "s":
            if r < 0.2:
                return self.const()
            if r < 0.35 and self.of_kind("v"):
                return f"{self.rng.choice(self.of_kind('v'))}[{self.index()}]"
            if r < 0.45 and self.of_kind("m"):
                return f"{self.rng.choice(self.of_kind('m'))}[{self.index()}, {self.index()}]"
            return self.rng.choice(names) if names else self.const()
        if kind == "v" and r < 0.3 and self.of_kind("m"):
            m = self.rng.choice(self.of_kind("m"))
            return self.rng.choice([f"{m}[{self.index()}]", f"{m}[:, {self.index()}]"])
        if kind == "v" and r < 0.4 and names:
            return f"{self.rng.choice(names)}[::-1]"
        if kind == "m" and r < 0.3 and names:
            return f"{self.rng.choice(names)}.T"
        if names:
            return self.rng.choice(names)
        if kind == "m" and self.of_kind("v"):
            return f"np.outer({self.leaf('v')}, {self.leaf('v')})"
        return f"({self.leaf('s')} * np.ones({SHAPE_TEXT[kind]}))"

    def expr(self, kind, depth=0):
        """An expression of `kind`; at depth 0 never a bare name or view (always fresh)."""
        rng = self.rng
        if depth >= 3 or (depth > 0 and rng.random() < 0.35):
            return self.leaf(kind)
        choice = rng.random()
        sub = lambda k=kind: self.expr(k, depth + 1)
        if choice < 0.35:
            op = rng.choice(["+", "-", "*", "*", "+"])
            left, right = kind, kind
            if kind != "s" and rng.random() < 0.4:      # broadcast a smaller operand
                smaller = rng.choice(["s", "v"] if kind == "m" else ["s"])
                left, right = rng.choice([(kind, smaller), (smaller, kind)])
            return f"({sub(left)} {op} {sub(right)})"
        if choice < 0.55:
            inner = sub()
            return rng.choice([
                f"np.sin({inner})", f"np.cos({inner})", f"np.tanh({inner})",
                f"np.exp(np.tanh({inner}))", f"np.log(1.0 + {inner} * {inner})",
                f"np.sqrt(1.0 + {inner} * {inner})", f"({inner} ** 2)",
                f"({inner} / (2.0 + np.cos({sub()})))"])
        if choice < 0.75:
            return self.reduction_or_product(kind, sub)
        if choice < 0.82 and kind == "s":
            self.features.add("math")
            return f"math.sin({sub('s')})"
        if choice < 0.88:
            self.features.add("ifexp")
            return f"({sub()} if {self.test(depth + 1)} else {sub()})"
        callable_helpers = [h for h, (_, out) in self.helpers.items() if out == kind]
        if callable_helpers and choice < 0.95:
            self.features.add("helper")
            name = rng.choice(callable_helpers)
            params, _ = self.helpers[name]
            return f"{name}({', '.join(sub(k) for k in params)})"
        return f"({sub()} * {self.const()})"

    def reduction_or_product(self, kind, sub):
        rng = self.rng
        if kind == "s":
            return rng.choice([
                f"np.sum({sub('v')})", f"np.mean({sub('m')})", f"np.dot({sub('v')}, {sub('v')})",
                f"np.sum({sub('m')} * {sub('m')})", f"np.prod({sub('v')})",
                f"np.trace({sub('m')})", f"({sub('v')} @ {sub('v')})",
                f"np.std({sub('v')})", f"np.var({sub('m')})", f"np.linalg.norm({sub('v')})",
                f"np.max({sub('v')})", f"np.logaddexp(0.0, {sub('s')})"])
        if kind == "v":
            return rng.choice([
                f"np.sum({sub('m')}, axis={rng.randrange(2)})",
                f"np.mean({sub('m')}, axis={rng.randrange(2)})",
                f"({sub('m')} @ {sub('v')})", f"np.dot({sub('v')}, {sub('m')})",
                f"np.cumsum({sub('v')})", f"np.flip({sub('v')})", f"np.roll({sub('v')}, 1)",
                f"np.full(3, {sub('s')})", f"np.linspace({sub('s')}, 1.0, 3)",
                f"np.full_like({sub('v')}, {sub('s')})", f"np.std({sub('m')}, axis={rng.randrange(2)})",
                f"np.var({sub('m')}, axis={rng.randrange(2)})",
                f"np.where({sub('v')} > 0.0, {sub('v')}, {sub('v')})"])
        return rng.choice([
            f"({sub('m')} @ {sub('m')})", f"np.outer({sub('v')}, {sub('v')})",
            f"({sub('v')}[:, None] * {sub('v')}[None, :])", f"np.transpose({sub('m')})",
            f"np.tril({sub('m')})", f"np.sum({sub('m')}, axis=1, keepdims=True) * {sub('m')}",
            f"np.full((3, 3), {sub('s')})", f"np.stack([{sub('v')}, {sub('v')}, {sub('v')}])",
            f"np.linalg.solve(np.eye(3) * 4.0 + {sub('m')} * 0.1, {sub('m')})"])

    def test(self, depth=1):
        kind = self.rng.choice("svm")
        value = self.expr(kind, depth)
        if kind != "s":
            value = f"np.sum({value})"
        return f"{value} {self.rng.choice(['>', '<'])} {self.rng.choice(['0.0', '0.5', '-0.5'])}"
