"""Seeded random programs for the differential fuzzer.

`generate(seed)` returns a `Program`: the source of a module defining `f(a, x, M)` (a
Python float, a vector of 3 and a 3x3 matrix) and maybe helpers, the arguments to call it
at, the mode to check it in (grad, jvp, vjp, hvp, or gradgrad: `grad(grad(f))` in `a`) and
which arguments to differentiate. The same seed always
gives the same program.

Programs use only what README.md says s2s_ad differentiates: arithmetic with
broadcasting, elementwise functions, reductions with `axis`, indexing and slicing, index
writes into fresh `np.zeros` arrays, `for` loops (ranges, rows, `enumerate`, `zip`, lists)
with accumulators, branches on data, `while` loops, `break`, early returns, helpers and
lists built by `append` or comprehensions. An array is written in place only when this
function made it and no other name holds it, and a loop never rebinds what it iterates,
so no program relies on numpy's sharing (which README.md says is unsupported).
"""
import random
from dataclasses import dataclass, field

import numpy as np

from .expressions import ExpressionWriter, Var

PARAMS = (("a", "s"), ("x", "v"), ("M", "m"))
SHAPES = {"s": (), "v": (3,), "m": (3, 3)}
MODES = ("grad", "jvp", "vjp", "hvp", "gradgrad")
MODE_WEIGHTS = (0.5, 0.13, 0.13, 0.14, 0.1)  # about the proportions issue 14's run used
SCALAR_OUTPUT_MODES = ("grad", "hvp", "gradgrad")
ZEROS = {"v": "np.zeros(3)", "m": "np.zeros((3, 3))", "s": "0.0"}


@dataclass
class Program:
    """One generated program and how to check it."""
    seed: int
    mode: str
    source: str
    args: tuple
    wrt: object                      # a position, or a tuple of positions (grad only)
    features: set = field(default_factory=set)
    any_shape: bool = False          # outputs of any shape are fine (the wide generator's)


class StatementWriter(ExpressionWriter):
    """Adds random statements (and blocks of them) to a function body."""

    def __init__(self, rng, helpers, features, out_kind, max_depth=2):
        super().__init__(rng, helpers, features)
        self.out_kind = out_kind
        self.max_depth = max_depth
        self.depth = 0
        self.iterated = []               # names a surrounding loop iterates: never rebound
        self.in_for = 0

    def statements(self, count):
        for _ in range(count):
            self.statement()

    def statement(self):
        rng = self.rng
        simple = [self.assign_new, self.assign_new, self.reassign, self.augmented,
                  self.fill_by_index, self.list_then_reduce, self.comprehension,
                  self.patch_constant]
        compound = [self.range_loop, self.row_loop, self.branch, self.while_loop,
                    self.list_loop, self.empty_loop]
        if self.in_for:
            simple.append(self.maybe_break)
        if self.depth > 0 or rng.random() < 0.3:
            simple.append(self.early_return)
        if self.depth < self.max_depth and rng.random() < 0.45:
            rng.choice(compound)()
        else:
            rng.choice(simple)()

    def body(self, count=None):
        """A nested block of 1-3 statements (the caller has emitted its header)."""
        self.block()
        self.depth += 1
        self.statements(count or self.rng.randint(1, 3))
        self.depth -= 1
        self.end_block()

    # simple statements ------------------------------------------------------------------
    def assign_new(self):
        kind = self.rng.choice("ssvvm")
        name = self.fresh(kind)
        value = self.expr(kind)
        self.emit(f"{name} = {value}")
        self.assigned(name, kind, value)

    def reassign(self):
        names = [n for n in self.visible() if n not in self.iterated]
        if not names:
            return self.assign_new()
        name = self.rng.choice(names)
        kind = self.visible()[name].kind
        value = self.expr(kind)
        self.emit(f"{name} = {value}")
        self.assigned(name, kind, value)
        self.features.add("overwrite")

    def augmented(self):
        names = [n for n in self.of_kind("s") + self.of_kind("v", owned=True)
                 + self.of_kind("m", owned=True) if n not in self.iterated]
        if not names:
            return self.assign_new()
        name = self.rng.choice(names)
        kind = self.visible()[name].kind
        value_kind = self.rng.choice([kind, "s"])
        self.emit(f"{name} {self.rng.choice(['+=', '-=', '*='])} {self.expr(value_kind, 1)}")
        self.features.add("augmented")

    def fill_by_index(self):
        kind = self.rng.choice("vm")
        name = self.fresh("y")
        self.emit(f"{name} = {ZEROS[kind]}")
        index = self.fresh("i")
        self.emit(f"for {index} in range({self.rng.randint(1, 3)}):")
        self.block()
        self.indices.append(index)
        item = "s" if kind == "v" else "v"
        target = f"{name}[{index}]"
        if kind == "m" and self.rng.random() < 0.3:
            target = f"{name}[:, {index}]"
        self.emit(f"{target} = {self.expr(item)}")
        self.indices.pop()
        self.end_block()
        self.bind(name, kind, owned=True)
        self.features.add("index_write")

    def patch_constant(self):
        """`y[i] = 0.5` into an array this function made (read before the write or not)."""
        names = [n for n in self.of_kind("v", owned=True) + self.of_kind("m", owned=True)
                 if n not in self.iterated]
        if not names:
            return self.fill_by_index()
        name = self.rng.choice(names)
        index = self.index()
        if self.visible()[name].kind == "m" and self.rng.random() < 0.5:
            index = f"{index}, {self.index()}"
        self.emit(f"{name}[{index}] = {self.const()}")
        self.features.add("constant_write")

    def list_then_reduce(self):
        kind = self.rng.choice("sv")
        items = ", ".join(self.expr(kind, 1) for _ in range(self.rng.randint(1, 3)))
        name = self.fresh("s" if kind == "s" else "v")
        reducer = self.rng.choice(["np.sum({})", "sum({})"] if kind == "s"
                                  else ["np.sum({}, axis=0)", "np.mean({}, axis=0)"])
        self.emit(f"{name} = {reducer.format('[' + items + ']')}")
        self.bind(name, kind, owned=True)
        self.features.add("list")

    def comprehension(self):
        sources = [(n, "s") for n in self.of_kind("v")] + [(n, "v") for n in self.of_kind("m")]
        if not sources:
            return self.assign_new()
        source, item_kind = self.rng.choice(sources)
        var = self.fresh("e")
        self.scopes.append({var: self._var(item_kind)})
        value = self.expr("s", 1)          # builtin sum of vectors would be a vector
        self.scopes.pop()
        name = self.fresh("s")
        wrap = self.rng.choice(["np.sum([{}])", "sum([{}])", "np.sum(np.array([{}]))"])
        self.emit(f"{name} = {wrap.format(f'{value} for {var} in {source}')}")
        self.bind(name, "s", owned=True)
        self.features.add("comprehension")

    def early_return(self):
        self.emit(f"if {self.test()}:")
        self.block()
        self.emit(f"return {self.output()}")
        self.end_block()
        self.features.add("early_return")

    def maybe_break(self):
        self.emit(f"if {self.test()}:")
        self.block()
        self.emit("break")
        self.end_block()
        self.features.add("break")

    # compound statements ----------------------------------------------------------------
    def accumulator(self):
        kind = self.rng.choice("ssv")
        name = self.fresh("acc")
        self.emit(f"{name} = {ZEROS[kind]}")
        self.bind(name, kind, owned=True)
        return name, kind

    def accumulate(self, name, kind):
        self.emit(f"{name} = {name} + {self.expr(self.rng.choice([kind, 's']), 1)}")

    def range_loop(self):
        acc = self.accumulator()
        index = self.fresh("i")
        self.emit(f"for {index} in range({self.rng.randint(1, 3)}):")
        self.indices.append(index)
        self.in_for += 1
        self.block()
        self.depth += 1
        self.statements(self.rng.randint(0, 2))
        self.accumulate(*acc)
        self.depth -= 1
        self.end_block()
        self.in_for -= 1
        self.indices.pop()
        self.features.add("for_range")

    def row_loop(self):
        acc = self.accumulator()
        # never the accumulator: a loop rebinding what it iterates is a known open issue
        sources = [(n, "s") for n in self.of_kind("v") if n != acc[0]] + [
            (n, "v") for n in self.of_kind("m")]
        if not sources:
            return self.range_loop()
        source, item = self.rng.choice(sources)
        var, index = self.fresh("r"), self.fresh("i")
        header = self.rng.choice([f"{var} in {source}", f"{index}, {var} in enumerate({source})",
                                  f"{var}, {index} in zip({source}, {source})"])
        self.emit(f"for {header}:")
        self.in_for += 1
        self.iterated.append(source)
        self.block()
        self.scopes[-1][var] = self._var(item)
        if "zip" in header:
            self.scopes[-1][index] = self._var(item)
        self.depth += 1
        self.statements(self.rng.randint(0, 2))
        self.accumulate(*acc)
        self.depth -= 1
        self.end_block()
        self.iterated.remove(source)
        self.in_for -= 1
        self.features.add("for_rows")

    def list_loop(self):
        kind = self.rng.choice("sv")
        name = self.fresh("lst")
        self.emit(f"{name} = []")
        var = self.fresh("r")
        items = [self.expr(kind) for _ in range(self.rng.randint(1, 3))]
        for item in items:
            self.share(item)
        self.emit(f"for {var} in [{', '.join(items)}]:")
        self.block()
        self.scopes[-1][var] = self._var(kind)
        self.depth += 1
        self.statements(self.rng.randint(0, 1))
        item = self.expr(kind, 1)
        self.share(item)
        self.emit(f"{name}.append({item})")
        self.depth -= 1
        self.end_block()
        total = self.fresh(kind)
        self.emit(f"{total} = {'np.sum' if kind == 's' else 'np.sum'}({name}"
                  f"{', axis=0' if kind == 'v' else ''})")
        self.bind(total, kind, owned=True)
        self.features.add("list_loop")

    def branch(self):
        self.emit(f"if {self.test()}:")
        self.body()
        if self.rng.random() < 0.3:
            self.emit(f"elif {self.test()}:")
            self.body()
        if self.rng.random() < 0.7:
            self.emit("else:")
            self.body()
        self.features.add("branch")

    def while_loop(self):
        counter = self.fresh("k")
        self.emit(f"{counter} = 0")
        self.emit(f"while {counter} < {self.rng.randint(1, 3)}:")
        self.block()
        self.depth += 1
        self.statements(self.rng.randint(0, 2))
        self.depth -= 1
        self.emit(f"{counter} += 1")
        self.end_block()
        self.features.add("while")

    def empty_loop(self):
        self.emit(f"for _ in range({self.rng.randint(1, 3)}):")
        self.block()
        self.emit("pass")
        self.end_block()
        self.features.add("empty_loop")

    # helpers ------------------------------------------------------------------------------
    @staticmethod
    def _var(kind):
        return Var(kind, owned=False)

    def output(self):
        return self.expr(self.out_kind)


def _helper(rng, name, helpers, features):
    kinds = [rng.choice("ssv") for _ in range(rng.randint(1, 2))]
    out = rng.choice("ssv")
    writer = StatementWriter(rng, dict(helpers), features, out, max_depth=1)
    params = [f"p{k}" for k in range(len(kinds))]
    for p, k in zip(params, kinds):
        writer.scopes[0][p] = writer._var(k)
    writer.statements(rng.randint(0, 2))
    writer.emit(f"return {writer.output()}")
    return [f"def {name}({', '.join(params)}):"] + writer.lines, (kinds, out)


def _holder(helpers):
    """A class whose methods call the helpers, and one module-level object of it: f calls
    `HOLDER.helper0(...)` as users call `model.loss(x)` on a model built once (reading an
    attribute of it, and with defaults and **opts it is not given)."""
    lines = ["class Holder:", "    def __init__(self, weight):", "        self.weight = weight"]
    for name, (kinds, _) in helpers.items():
        params = [f"p{k}" for k in range(len(kinds))]
        lines += ["", f"    def {name}(self, {', '.join(params)}, scale=1.0, **opts):",
                  f"        return self.weight * scale * {name}({', '.join(params)})"]
    return lines + ["", "", "HOLDER = Holder(0.8)"]


def generate(seed, mode=None):
    """The program for `seed` (its mode drawn from the seed unless given)."""
    rng = random.Random(seed)
    mode = mode or rng.choices(MODES, MODE_WEIGHTS)[0]
    features = set()
    helpers, helper_lines = {}, []
    for k in range(rng.choice([0, 0, 1, 2])):
        lines, signature = _helper(rng, f"helper{k}", helpers, features)
        helpers[f"helper{k}"] = signature
        helper_lines += lines + ["", ""]
    if helpers and random.Random(seed * 31 + 7).random() < 0.3:
        # (its own draw, so the programs of other seeds stay as they were)
        holder_lines = _holder(helpers)
        helper_lines += holder_lines + ["", ""]
        helpers.update({f"HOLDER.{name}": signature for name, signature in list(helpers.items())})
        features.add("global_object_method")
    out_kind = "s" if mode in SCALAR_OUTPUT_MODES else rng.choice("svm")
    writer = StatementWriter(rng, helpers, features, out_kind)
    for name, kind in PARAMS:
        writer.scopes[0][name] = writer._var(kind)
    writer.statements(rng.randint(1, 5))
    writer.emit(f"return {writer.output()}")
    source = "\n".join(["import math", "", "import numpy as np", "", ""] + helper_lines
                       + ["def f(a, x, M):"] + writer.lines) + "\n"
    values = np.random.default_rng(seed)
    args = (float(values.uniform(0.2, 1.2) * values.choice([-1, 1])),
            values.standard_normal(3) * 0.7, values.standard_normal((3, 3)) * 0.7)
    wrt = rng.randrange(3)
    if mode == "grad" and rng.random() < 0.25:
        wrt = tuple(sorted(rng.sample(range(3), 2)))
    if mode == "gradgrad":
        wrt = 0                 # grad(grad(f)) in the float argument a
    return Program(seed, mode, source, args, wrt, features)
