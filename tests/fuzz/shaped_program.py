"""Wide random programs (`python -m tests.fuzz --wide`): statements over shaped values.

`generate(seed, mode=None)` returns a `Program` like `generator.generate` does, but its
`f` takes two to five arguments of varied kinds: a Python float first (np.float32 in a
float32 program), then arrays of shapes such as (3, 1), (1, 4), (3, 4), (2, 3, 4) and 0-d,
np.float64 numbers, a dict of arrays and a tuple of arrays. About one program in five
is float32 throughout (its gradient must come back float32). The body mixes assignments,
writes into arrays f made (`y[1:] -= ...`, `y[y > 0.1] += ...`, `y[np.array([0, 2])] =
...`), Python-number loops, loops over rows, `while` loops with a counter, branches on a
value's sign, comprehensions and helpers returning a tuple. Every construct it used is
recorded in `Program.features`.

    def f(a, X, p):                          # a: float, X: (3, 4), p: {"w": (4,), "b": ()}
        y1 = np.sum(np.tanh(X) * p["w"], axis=-1, keepdims=True)
        y2 = X.copy()
        y2[1:] -= y1[1:]
        return np.sum(y2 @ p["w"]) + a
"""
import random
import re

import numpy as np

from .generator import MODES, MODE_WEIGHTS, SCALAR_OUTPUT_MODES, Program
from .shaped import ShapedExpressions, Val, names_in, slice_length

STATEMENTS = (2, 6)              # how many statements f's body starts with (blocks add more)
ARRAY_SHAPES = ((3,), (4,), (3, 4), (3, 1), (1, 4), (2, 3, 4), (4, 3), (3, 3), ())
FRESH = re.compile(r"^(\(|np\.(sin|cos|tanh|exp|log|sqrt|arctan|maximum|minimum|clip|abs|"
                   r"where|sum|mean|max|min|prod|std|var|cumsum|cumprod|diff|sort|stack|"
                   r"concatenate|einsum)\()")


def is_fresh(text):
    """True when `text` makes a new array (no view of, nor the same object as, a name)."""
    return bool(FRESH.match(text)) and not text.endswith(("]", ".T"))


class ShapedWriter(ShapedExpressions):
    """Adds random statements to a function body, tracking what each name holds."""

    def __init__(self, rng, features, dtype, max_depth=2):
        super().__init__(rng, features, dtype)
        self.lines = []
        self.indent = 1
        self.counter = 0
        self.depth = 0
        self.block_depth = max_depth
        self.iterated = set()            # names a surrounding loop iterates: never rebound
        self.parameters = set()          # f's own parameters

    def fresh_name(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, text):
        self.lines.append("    " * self.indent + text)

    def bind(self, name, val):
        for scope in reversed(self.scopes):
            if name in scope:
                scope[name] = val
                return
        self.scopes[-1][name] = val

    def share(self, text):
        for word in names_in(text):
            val = self.visible().get(word)
            if val is not None and val.owned:
                self.bind(word, Val(val.shape, val.scalar, owned=False))

    def assign(self, name, text, val):
        fresh = is_fresh(text)
        if not fresh:
            self.share(text)
        self.emit(f"{name} = {text}")
        self.bind(name, Val(val.shape, val.scalar, owned=fresh and bool(val.shape)))

    def body(self, make):
        """An indented block: `make()` writes its statements in a new scope."""
        before = {n: v.owned for n, v in self.visible().items()}
        self.indent += 1
        self.depth += 1
        self.scopes.append({})
        make()
        self.scopes.pop()
        self.depth -= 1
        self.indent -= 1
        for name, val in self.visible().items():
            if val.owned and not before.get(name, True):
                # made in this block only: where the block does not run (the other branch)
                # the name still holds what it held, perhaps the caller's array
                self.bind(name, Val(val.shape, val.scalar, owned=False))

    def statements(self, count):
        for _ in range(count):
            self.statement()

    def statement(self):
        rng = self.rng
        simple = [self.assign_new, self.assign_new, self.write_into, self.write_into,
                  self.augmented, self.comprehension, self.number_loop]
        if self.helpers:
            simple.append(self.unpack_helper)
        if self.arrays():
            simple.append(self.reassign)
        compound = [self.row_loop, self.while_loop, self.branch, self.index_loop]
        if self.depth < self.block_depth and rng.random() < 0.35:
            rng.choice(compound)()
        else:
            rng.choice(simple)()

    def arrays(self, owned=False, nonempty=True):
        return [(n, v) for n, v in self.visible().items()
                if v.shape and (v.owned or not owned) and n not in self.iterated
                and "[" not in n and (not nonempty or 0 not in v.shape)]

    # simple statements ------------------------------------------------------------------
    def assign_new(self):
        text, val = self.expr()
        self.assign(self.fresh_name("y"), text, val)

    def reassign(self):
        """A name given a new value of its shape (reading its old one, often)."""
        name, val = self.rng.choice(self.arrays())
        if name in self.parameters and self.rng.random() < 0.5:
            self.flag("parameter_rebound")
        elif name in self.parameters:
            return self.assign_new()
        text = self.of_shape(val.shape)
        if self.rng.random() < 0.5:
            text = f"({name} * 0.5 + {text})"
        self.assign(name, text, Val(val.shape))
        self.flag("overwrite")

    def owned_array(self):
        """An array this function made and only one name holds (made here if need be)."""
        owned = self.arrays(owned=True)
        if owned and self.rng.random() < 0.7:
            return self.rng.choice(owned)
        name = self.fresh_name("w")
        sources = self.arrays()
        if sources and self.rng.random() < 0.6:
            source, val = self.rng.choice(sources)
            self.emit(f"{name} = {source}.copy()")
            self.flag("copy_then_write")
        else:
            val = Val(self.rng.choice([(3,), (4,), (3, 4), (2, 3)]))
            self.emit(f"{name} = np.zeros({val.shape!r}, dtype={self.dtype})")
        val = Val(val.shape, owned=True)
        self.bind(name, val)
        return name, val

    def write_into(self):
        name, val = self.owned_array()
        rng, shape = self.rng, val.shape
        n, rest = shape[0], shape[1:]
        op = rng.choice(["=", "+=", "-=", "*="])
        choice = rng.randrange(6)
        if choice == 0:
            index, region = str(rng.randrange(-n, n)), rest
            self.flag("int_write")
        elif choice == 1:
            piece = rng.choice(["1:", ":-1", "::2", "-2:", "::-1"])
            index, region = piece, (slice_length(piece, n),) + rest
            self.flag("slice_write")
        elif choice == 2:
            index, region = f"{name} > 0.1", ()
            op = rng.choice(["+=", "-=", "="])
            self.flag("data_mask_write")
        elif choice == 3:
            picks = rng.sample(range(n), rng.randint(1, n))
            index, region = f"np.array({picks!r})", (len(picks),) + rest
            self.flag("int_array_write")
        elif choice == 4:
            mask = [rng.random() < 0.6 for _ in range(n)]
            index, region = f"np.array({mask!r})", (sum(mask),) + rest
            self.flag("bool_mask_write")
        else:
            if len(shape) < 2:
                return self.write_into()
            k = rng.randrange(shape[1])
            index, region = f":, {k}", (n,) + shape[2:]
            self.flag("column_write")
        value = self.of_shape(region if rng.random() < 0.7 else ())
        if op == "*=":
            value = f"np.tanh({value})"
        self.emit(f"{name}[{index}] {op} {value}")

    def augmented(self):
        names = [(n, v) for n, v in self.visible().items()
                 if (v.owned or not v.shape) and n not in self.iterated and "[" not in n]
        if not names:
            return self.assign_new()
        name, val = self.rng.choice(names)
        text, other = self.expr(1)
        if len(other.shape) > len(val.shape) or \
                any(o not in (1, s) for o, s in zip(other.shape[::-1], val.shape[::-1])):
            text = self.of_shape(val.shape)
        self.emit(f"{name} {self.rng.choice(['+=', '-=', '*='])} {text}")
        if not val.shape:
            self.bind(name, Val((), "np" if val.scalar != "py" else "py"))
        self.flag("augmented")

    def comprehension(self):
        rng = self.rng
        rows = self.arrays()
        if not rows or rng.random() < 0.25:
            scalars = [n for n, v in self.visible().items() if not v.shape] or ["0.5"]
            k = self.fresh_name("k")
            name = self.fresh_name("c")
            self.emit(f"{name} = np.array([math.sin({rng.choice(scalars)} * {k} + 0.2) "
                      f"for {k} in range(3)])")
            self.bind(name, Val((3,)))
            self.flag("comprehension")
            return
        source, val = rng.choice(rows)
        row = self.fresh_name("r")
        self.scopes.append({row: Val(val.shape[1:], "np" if len(val.shape) == 1 else "")})
        text, item = self.expr(1)
        self.scopes.pop()
        name = self.fresh_name("c")
        if rng.random() < 0.5:
            self.emit(f"{name} = np.stack([{text} for {row} in {source}])")
            self.bind(name, Val((val.shape[0],) + item.shape, owned=True))
        else:
            total = text if not item.shape else f"np.sum({text})"
            self.emit(f"{name} = sum({total} for {row} in {source})")
            self.bind(name, Val((), "np"))
        self.flag("comprehension")

    def number_loop(self):
        rng = self.rng
        scalars = [n for n, v in self.visible().items() if v.scalar == "py"]
        name, index = self.fresh_name("t"), self.fresh_name("i")
        self.emit(f"{name} = 0.0")
        self.emit(f"for {index} in range({rng.randint(1, 4)}):")
        start = rng.choice(scalars) if scalars else "0.5"
        step = rng.choice(["math.sin({s} * {i} + 0.3)", "math.tanh({s} - 0.2 * {i})",
                           "math.exp(-{s} * {s} * 0.1) * {i}"]).format(s=start, i=index)
        self.indent += 1
        self.emit(f"{name} = {name} * 0.9 + {step}")
        self.indent -= 1
        self.bind(name, Val((), "py"))
        self.flag("number_loop")

    def unpack_helper(self):
        name = self.rng.choice(list(self.helpers))
        params, results = self.helpers[name]
        args = ", ".join(self.of_shape(s) for s in params)
        first, second = self.fresh_name("u"), self.fresh_name("u")
        self.emit(f"{first}, {second} = {name}({args})")
        self.bind(first, Val(results[0]))
        self.bind(second, Val(results[1]))
        self.flag("helper_tuple")

    # compound statements ----------------------------------------------------------------
    def row_loop(self):
        rows = self.arrays()
        if not rows:
            return self.while_loop()
        source, val = self.rng.choice(rows)
        row_shape = val.shape[1:]
        acc = self.fresh_name("acc")
        self.emit(f"{acc} = " + ("0.0" if not row_shape
                                 else f"np.zeros({row_shape!r}, dtype={self.dtype})"))
        self.bind(acc, Val(row_shape, "py" if not row_shape else "", owned=bool(row_shape)))
        row, index = self.fresh_name("r"), self.fresh_name("i")
        header = self.rng.choice([f"{row} in {source}", f"{index}, {row} in enumerate({source})"])
        self.emit(f"for {header}:")
        self.iterated.add(source)

        def make():
            self.scopes[-1][row] = Val(row_shape, "np" if not row_shape else "")
            self.statements(self.rng.randint(0, 1))
            self.emit(f"{acc} = {acc} + {self.of_shape(row_shape)}")
        self.body(make)
        self.iterated.discard(source)
        self.bind(acc, Val(row_shape, "np" if not row_shape else "", owned=bool(row_shape)))
        self.flag("row_loop")

    def index_loop(self):
        """`for i in range(n)`: writes `y[i] = ...` into an array f made, reads `x[i]`."""
        name, val = self.owned_array()
        index = self.fresh_name("i")
        self.emit(f"for {index} in range({self.rng.randint(1, val.shape[0])}):")
        self.iterated.add(name)

        def make():
            self.indices.append((index, val.shape[0]))
            self.statements(self.rng.randint(0, 1))
            if self.visible()[name].owned:      # (not when the body gave it a second name)
                value = self.of_shape(val.shape[1:])
                self.emit(f"{name}[{index}] {self.rng.choice(['=', '+=', '-='])} {value}")
            else:
                self.emit("pass")
            self.indices.pop()
        self.body(make)
        self.iterated.discard(name)
        self.flag("index_loop")

    def while_loop(self):
        counter = self.fresh_name("k")
        self.emit(f"{counter} = 0")
        self.emit(f"while {counter} < {self.rng.randint(1, 3)}:")

        def make():
            self.statements(self.rng.randint(1, 2))
            self.emit(f"{counter} += 1")
        self.body(make)
        self.flag("while")

    def branch(self):
        text, val = self.expr(1)
        name = self.fresh_name("z")
        self.emit(f"if {self.of_shape(())} > {self.rng.choice(['0.0', '0.3', '-0.2'])}:")
        self.body(lambda: (self.statements(self.rng.randint(0, 1)),
                           self.emit(f"{name} = {text}")))
        self.emit("else:")
        self.body(lambda: (self.statements(self.rng.randint(0, 1)),
                           self.emit(f"{name} = {self.of_shape(val.shape)}")))
        self.share(text)
        self.bind(name, Val(val.shape, "np" if not val.shape else ""))
        self.flag("branch_on_sign")


def _param(rng, values, dtype):
    """(spec, argument, leaves): leaves maps the texts that read it to their `Val`s."""
    kind = rng.choice(["array"] * 6 + ["number", "dict", "tuple"])
    cast = np.float32 if dtype == "np.float32" else np.float64

    def array(shape):
        return (values.standard_normal(shape) * 0.7).astype(cast)
    if kind == "number":
        return "number", cast(values.uniform(-1.0, 1.0)), {"": Val((), "np")}
    if kind == "dict":
        shapes = {"w": rng.choice(ARRAY_SHAPES[:5]), "b": rng.choice([(), (3,), (1,)])}
        return kind, {k: array(s) for k, s in shapes.items()}, \
            {f'["{k}"]': Val(s) for k, s in shapes.items()}
    if kind == "tuple":
        shapes = [rng.choice(ARRAY_SHAPES[:5]) for _ in range(2)]
        return kind, tuple(array(s) for s in shapes), {f"[{k}]": Val(s) for k, s in enumerate(shapes)}
    shape = rng.choice(ARRAY_SHAPES)
    return kind, array(shape), {"": Val(shape)}


def _helper(rng, name, features, dtype):
    writer = ShapedWriter(rng, features, dtype, max_depth=1)
    params = [rng.choice(ARRAY_SHAPES[:5] + ((),)) for _ in range(rng.randint(1, 2))]
    for k, shape in enumerate(params):
        writer.scopes[0][f"q{k}"] = Val(shape, "np" if not shape else "")
    writer.statements(rng.randint(0, 2))
    results = [writer.expr() for _ in range(2)]
    writer.emit(f"return {results[0][0]}, {results[1][0]}")
    signature = ", ".join(f"q{k}" for k in range(len(params)))
    return [f"def {name}({signature}):"] + writer.lines, (params, [v.shape for _, v in results])


def _summary(writer, parameters, names, wrt):
    """A number read from the last values f computed and from the differentiated
    arguments, added to the output so that what the body computes reaches it."""
    made = [n for n in writer.scopes[0] if n not in parameters][-3:]
    wrt_names = {names[k] for k in (wrt if isinstance(wrt, tuple) else (wrt,))}
    read = made + [n for n in parameters if n in wrt_names or n[:n.find("[")] in wrt_names]
    terms = [f"np.sum(np.tanh({n}))" for n in read]
    return f"0.3 * ({' + '.join(terms) or '0.0'})"


def generate(seed, mode=None):
    """The wide program for `seed` (its mode drawn from the seed unless given)."""
    rng = random.Random(seed)
    mode = mode or rng.choices(MODES, MODE_WEIGHTS)[0]
    values = np.random.default_rng(seed)
    dtype = "np.float32" if mode != "gradgrad" and rng.random() < 0.2 else "np.float64"
    features = {"float32"} if dtype == "np.float32" else set()
    helpers, helper_lines = {}, []
    for k in range(rng.choice([0, 1, 1, 2])):
        lines, signature = _helper(rng, f"helper{k}", features, dtype)
        helpers[f"helper{k}"] = signature
        helper_lines += lines + ["", ""]
    writer = ShapedWriter(rng, features, dtype)
    writer.helpers = helpers
    first = float(values.uniform(0.2, 1.2) * values.choice([-1, 1]))
    names, args = ["a"], [np.float32(first) if dtype == "np.float32" else first]
    writer.scopes[0]["a"] = Val((), "py" if dtype == "np.float64" else "np")
    for k in range(rng.randint(1, 4)):
        kind, arg, leaves = _param(rng, values, dtype)
        name = {"array": "x", "number": "s", "dict": "p", "tuple": "pair"}[kind] + str(k)
        names.append(name)
        args.append(arg)
        features.add(f"{kind}_parameter")
        for suffix, val in leaves.items():
            writer.scopes[0][name + suffix] = val
    parameters = list(writer.scopes[0])
    writer.parameters = set(parameters)
    writer.statements(rng.randint(*STATEMENTS))
    wrt = 0 if mode == "gradgrad" else rng.randrange(len(args))
    if mode == "grad" and len(args) > 2 and rng.random() < 0.25:
        wrt = tuple(sorted(rng.sample(range(len(args)), 2)))
    out = writer.of_shape((), 0) if mode in SCALAR_OUTPUT_MODES else writer.expr()[0]
    writer.emit(f"return {out} + {_summary(writer, parameters, names, wrt)}")
    source = "\n".join(["import math", "", "import numpy as np", "", ""] + helper_lines
                       + [f"def f({', '.join(names)}):"] + writer.lines) + "\n"
    return Program(seed, mode, source, tuple(args), wrt, features, any_shape=True)
