"""Shape-tracking expressions for the wide fuzzer (`python -m tests.fuzz --wide`).

Every value the writer can name carries its shape and whether it is a Python float, a
numpy scalar or an array, so each operation is drawn only among those numpy defines for
its operands: broadcasting pairs ((3, 1) with (1, 4), (4,) with (3, 4), 0-d arrays and
scalars), reductions with `axis=` (ints, negative, tuples) and `keepdims`, slices with
steps, negative bounds and empty results, integer and boolean indexing, `@` and einsum of
matching shapes, cumulative and sorting functions along an axis, and the shape functions
(concatenate, stack, reshape, transpose, swapaxes, expand_dims, squeeze), and what user
code writes (`idiom`: layer norm, logaddexp, a stable softplus, np.linalg.norm along an
axis, np.take_along_axis, einsum with `...`, a batch of transposed products).

    >>> w = ShapedExpressions(random.Random(0), set(), "np.float64")
    >>> w.scopes[0]["X"] = Val((3, 4))
    >>> w.expr()            # e.g. ('np.sum(np.tanh(X), axis=-1, keepdims=True)', Val((3, 1)))

Elementwise functions stay inside their smooth domain (`np.log(1.0 + e * e)`, a divisor
`2.0 + np.cos(e)`); the kinks left (max/min/clip/abs/sort ties, branch tests) are points
random values do not hit, and the oracle skips a kink it lands near.
"""
import math
import re
from dataclasses import dataclass

import numpy as np

CONSTS = ("0.5", "1.5", "0.3", "0.9", "2.0", "1.0", "0.7")
UNARY = ("np.sin({})", "np.cos({})", "np.tanh({})", "np.exp(np.tanh({}))",
         "np.log(1.0 + {0} * {0})", "np.sqrt(1.0 + {0} * {0})", "({} ** 2)",
         "np.arctan({})", "(1.0 / (1.5 + np.sin({})))")
MATH = ("math.sin({})", "math.cos({})", "math.tanh({})", "math.exp(math.tanh({}))",
        "math.log(1.0 + {0} * {0})", "math.sqrt(1.0 + {0} * {0})", "math.atan({})")
SLICES = ("1:", "::2", "::-1", "-2:", "1:-1", "2:1", "::-2", ":-1", "-1:0:-1")


@dataclass
class Val:
    shape: tuple
    scalar: str = ""           # "py": a Python float, "np": a numpy scalar, "": an array
    owned: bool = False        # made in this function, held by no other name: writable


def broadcast(a, b):
    """The broadcast shape of a and b, or None when numpy refuses them."""
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


def slice_length(text, n):
    parts = [int(p) if p else None for p in text.split(":")]
    return len(range(n)[slice(*parts)])


def _axis_text(axis):
    return str(axis) if not isinstance(axis, tuple) else f"({', '.join(map(str, axis))})"


class ShapedExpressions:
    """Writes expressions over the names in scope, each returned with its `Val`."""

    def __init__(self, rng, features, dtype):
        self.rng = rng
        self.features = features
        self.dtype = dtype               # "np.float64" or "np.float32": made arrays' dtype
        self.scopes = [{}]
        self.helpers = {}                # name -> (parameter shapes, result shapes)
        self.max_depth = 3
        self.indices = []                # (loop index, its range's length) in scope

    def visible(self):
        out = {}
        for scope in self.scopes:
            out.update(scope)
        return out

    def flag(self, name):
        self.features.add(name)

    # leaves ---------------------------------------------------------------------------
    def ones(self, shape):
        return f"np.ones({shape!r}, dtype={self.dtype})"

    def leaf(self, shape=None):
        """A name in scope (of `shape` when given), else a constant of that shape."""
        names = [(n, v) for n, v in self.visible().items()
                 if shape is None or v.shape == shape]
        if names and self.rng.random() < 0.85:
            name, val = self.rng.choice(names)
            return name, Val(val.shape, val.scalar)
        if shape is None or shape == ():
            const = self.rng.choice(CONSTS)
            if self.rng.random() < 0.3:
                self.flag("numpy_scalar_constant")
                return f"{self.dtype}({const})", Val((), "np")
            return const, Val((), "py")
        return f"({self.rng.choice(CONSTS)} * {self.ones(shape)})", Val(shape)

    def partner(self, shape, depth):
        """An operand that broadcasts with `shape` (a name, a constant or an expression)."""
        for _ in range(3):
            text, val = (self.leaf() if self.rng.random() < 0.6 else self.expr(depth + 1))
            if broadcast(shape, val.shape) is not None:
                return text, val
        return self.leaf(())

    def of_shape(self, shape, depth=1):
        """An expression of exactly `shape`."""
        text, val = self.expr(depth)
        if val.shape == shape:
            return text
        if broadcast(val.shape, shape) == shape:
            other, _ = self.leaf(shape)
            return f"({text} * {other})"
        if shape == ():
            return f"np.sum({text})"
        other, _ = self.leaf(shape)
        return f"(np.sum({text}) + {other})"

    # expressions ------------------------------------------------------------------------
    def expr(self, depth=0):
        rng = self.rng
        if depth >= self.max_depth or (depth > 0 and rng.random() < 0.3):
            return self.leaf()
        text, val = self.expr(depth + 1)
        makers = [self.unary, self.unary, self.binary, self.binary, self.binary,
                  self.kinked, self.where]
        if val.shape:
            makers += [self.reduce, self.reduce, self.along_axis, self.reshape,
                       self.sliced, self.indexed, self.joined, self.product, self.idiom]
        else:
            makers += [self.math_call]
        helpers = [h for h, (params, _) in self.helpers.items()]
        if helpers and rng.random() < 0.15:
            return self.helper_call(rng.choice(helpers), depth)
        return rng.choice(makers)(text, val, depth)

    def unary(self, text, val, depth):
        return self.rng.choice(UNARY).format(text), Val(val.shape, val.scalar and "np")

    def binary(self, text, val, depth):
        other, oval = self.partner(val.shape, depth)
        shape = broadcast(val.shape, oval.shape)
        if shape != val.shape or shape != oval.shape:
            self.flag("broadcast")
        if val.scalar and oval.scalar and val.scalar != oval.scalar:
            self.flag("mixed_scalars")
        scalar = "py" if val.scalar == oval.scalar == "py" else (
            "np" if val.scalar and oval.scalar else "")
        left, right = (text, other) if self.rng.random() < 0.5 else (other, text)
        op = self.rng.choice(["+", "-", "*", "*", "/"])
        if op == "/":
            return f"({left} / (2.0 + np.cos({right})))", Val(shape, scalar and "np")
        return f"({left} {op} {right})", Val(shape, scalar)

    def kinked(self, text, val, depth):
        """max/minimum/clip/abs, against a shifted operand so ties are unlikely."""
        self.flag("max_min_clip_abs")
        rng = self.rng
        other, oval = self.partner(val.shape, depth)
        shape = broadcast(val.shape, oval.shape)
        choice = rng.randrange(4)
        if choice == 0:
            return f"np.maximum({text}, {other} + 0.13)", Val(shape)
        if choice == 1:
            return f"np.minimum({text}, {other} - 0.11)", Val(shape)
        if choice == 2:
            return f"np.clip({text}, -0.61, 0.67)", Val(val.shape)
        return f"np.abs({text} + 0.07)", Val(val.shape)

    def where(self, text, val, depth):
        self.flag("where")
        cond, cval = self.partner(val.shape, depth)
        other, oval = self.partner(val.shape, depth)
        shape = broadcast(broadcast(val.shape, cval.shape) or (), oval.shape)
        if shape is None or broadcast(val.shape, cval.shape) is None:
            return f"np.where({text} > 0.2, {text}, 0.5)", Val(val.shape)
        return f"np.where({cond} > 0.1, {text}, {other})", Val(shape)

    def math_call(self, text, val, depth):
        self.flag("math")
        return self.rng.choice(MATH).format(text), Val((), "py")

    def axis(self, ndim, allow_tuple=True):
        axis = self.rng.randrange(-ndim, ndim)
        if allow_tuple and ndim >= 2 and self.rng.random() < 0.3:
            first, second = sorted(self.rng.sample(range(ndim), 2))
            self.flag("axis_tuple")
            return (first, second - ndim if self.rng.random() < 0.5 else second)
        if axis < 0:
            self.flag("negative_axis")
        return axis

    def reduce(self, text, val, depth):
        rng, ndim = self.rng, len(val.shape)
        fn = rng.choice(["sum", "sum", "mean", "max", "min", "prod", "std", "var"])
        if 0 in val.shape:
            fn = "sum"                  # the others have no value (or nan) for no elements
        if rng.random() < 0.25:
            return f"np.{fn}({text})", Val((), "np")
        axis = self.axis(ndim)
        axes = {a % ndim for a in (axis if isinstance(axis, tuple) else (axis,))}
        keep = rng.random() < 0.35
        if keep:
            self.flag("keepdims")
            shape = tuple(1 if k in axes else n for k, n in enumerate(val.shape))
        else:
            shape = tuple(n for k, n in enumerate(val.shape) if k not in axes)
        self.flag("reduce_axis")
        keep_text = ", keepdims=True" if keep else ""
        return (f"np.{fn}({text}, axis={_axis_text(axis)}{keep_text})",
                Val(shape, "np" if not shape else ""))

    def along_axis(self, text, val, depth):
        rng, ndim = self.rng, len(val.shape)
        axis = self.axis(ndim, allow_tuple=False)
        fn = rng.choice(["cumsum", "cumprod", "diff", "sort", "flip"])
        self.flag(fn if fn != "flip" else "reverse")
        shape = list(val.shape)
        if fn == "diff":
            if shape[axis] == 0:
                return f"np.cumsum({text}, axis={axis})", Val(val.shape)
            shape[axis] -= 1
        if fn == "cumprod":
            text = f"np.tanh({text})"             # keeps products of many terms in range
        return f"np.{fn}({text}, axis={axis})", Val(tuple(shape))

    def reshape(self, text, val, depth):
        rng, shape = self.rng, val.shape
        choice = rng.randrange(6)
        self.flag("shape_ops")
        if choice == 0:
            size = math.prod(shape)
            target = rng.choice([(size,), (1, size), (size, 1), (-1,)])
            out = tuple(size if n == -1 else n for n in target)
            return f"np.reshape({text}, {target!r})" if rng.random() < 0.5 else \
                f"{text}.reshape({', '.join(map(str, target))})", Val(out)
        if choice == 1:
            return f"np.transpose({text})", Val(shape[::-1])
        if choice == 2 and len(shape) >= 2:
            i, j = rng.sample(range(len(shape)), 2)
            out = list(shape)
            out[i], out[j] = out[j], out[i]
            return f"np.swapaxes({text}, {i}, {j - len(shape)})", Val(tuple(out))
        if choice == 3 and 1 in shape:
            k = shape.index(1)
            out = shape[:k] + shape[k + 1:]
            return f"np.squeeze({text}, axis={k})", Val(out, "np" if not out else "")
        axis = rng.randrange(-len(shape) - 1, len(shape) + 1)
        out = list(shape)
        out.insert(axis % (len(shape) + 1), 1)
        return f"np.expand_dims({text}, {axis})", Val(tuple(out))

    def sliced(self, text, val, depth):
        rng, shape = self.rng, val.shape
        self.flag("slice")
        k = rng.randrange(len(shape))
        piece = rng.choice(SLICES)
        n = slice_length(piece, shape[k])
        if n == 0:
            self.flag("empty_slice")
        out = shape[:k] + (n,) + shape[k + 1:]
        index = ", ".join([":"] * k + [piece])
        if k == len(shape) - 1 and k > 0 and rng.random() < 0.5:
            index = "..., " + piece
        return f"{text}[{index}]", Val(out)

    def indexed(self, text, val, depth):
        rng, shape = self.rng, val.shape
        n = shape[0]
        if n == 0:
            return self.sliced(text, val, depth)
        usable = [i for i, bound in self.indices if bound <= n]
        if usable and rng.random() < 0.5:
            self.flag("loop_index_read")
            return f"{text}[{rng.choice(usable)}]", Val(shape[1:], "np" if len(shape) == 1 else "")
        choice = rng.randrange(4)
        if choice == 0:
            i = rng.randrange(-n, n)
            self.flag("int_index")
            return f"{text}[{i}]", Val(shape[1:], "np" if len(shape) == 1 else "")
        if choice == 1:
            picks = [rng.randrange(n) for _ in range(rng.randint(1, 4))]
            self.flag("int_array_index")
            return f"{text}[np.array({picks!r})]", Val((len(picks),) + shape[1:])
        if choice == 2:
            mask = [rng.random() < 0.6 for _ in range(n)]
            self.flag("bool_mask_read")
            return f"{text}[np.array({mask!r})]", Val((sum(mask),) + shape[1:])
        self.flag("data_mask_read")            # a mask from data: its length is not known
        return f"np.sum({text}[{text} > 0.1])", Val((), "np")

    def joined(self, text, val, depth):
        rng, shape = self.rng, val.shape
        self.flag("concatenate_stack")
        names = [n for n, v in self.visible().items() if v.shape == shape]
        other = rng.choice(names) if names and rng.random() < 0.6 else f"np.sin({text})"
        if rng.random() < 0.5:
            axis = rng.randrange(-len(shape) - 1, len(shape) + 1)
            out = list(shape)
            out.insert(axis % (len(shape) + 1), 2)
            return f"np.stack([{text}, {other}], axis={axis})", Val(tuple(out))
        axis = rng.randrange(len(shape))
        out = list(shape)
        out[axis] *= 2
        return f"np.concatenate([{text}, {other}], axis={axis})", Val(tuple(out))

    def product(self, text, val, depth):
        """`@` or einsum with an operand whose shape matches."""
        rng, shape = self.rng, val.shape
        self.flag("matmul_einsum")
        if len(shape) > 2:
            return f"np.einsum('...j->...', {text})", Val(shape[:-1])
        k = shape[-1]
        partners = [(n, v) for n, v in self.visible().items()
                    if v.shape and len(v.shape) <= 2 and v.shape[0] == k]
        if partners and rng.random() < 0.7:
            name, pval = rng.choice(partners)
        else:
            name, pval = (f"np.cos({text}).T" if len(shape) == 2 else f"np.cos({text})",
                          Val(shape[::-1]))
        out = shape[:-1] + pval.shape[1:]
        if rng.random() < 0.5:
            return f"({text} @ {name})", Val(out, "np" if not out else "")
        left = "ij" if len(shape) == 2 else "j"
        right = "jk" if len(pval.shape) == 2 else "j"
        result = left.replace("j", "") + right.replace("j", "")
        return f"np.einsum('{left},{right}->{result}', {text}, {name})", \
            Val(out, "np" if not out else "")

    def idiom(self, text, val, depth):
        """What user code writes over an array: a layer norm, a stable softplus or
        logaddexp loss, a norm along an axis, values sorted by take_along_axis, an einsum
        with `...` over the last axis, a batch of transposed products."""
        rng, shape = self.rng, val.shape
        if 0 in shape:
            return f"np.sum({text})", Val((), "np")
        axis = self.axis(len(shape), allow_tuple=False)
        choice = rng.randrange(6)
        if choice == 0:
            self.flag("layer_norm")
            centred = f"({text} - np.mean({text}, axis={axis}, keepdims=True))"
            if rng.random() < 0.5:
                scale = f"np.sqrt(np.var({text}, axis={axis}, keepdims=True) + 0.1)"
            else:
                scale = f"np.sqrt(np.mean({centred} ** 2, axis={axis}, keepdims=True) + 0.1)"
            return f"({centred} / {scale})", Val(shape)
        if choice == 1:
            other, oval = self.partner(shape, depth)
            out = broadcast(shape, oval.shape)
            if rng.random() < 0.5:
                self.flag("logaddexp")
                return f"np.logaddexp({text}, {other})", Val(out)
            self.flag("stable_softplus")
            return (f"(np.maximum({text}, 0.0) + np.log1p(np.exp(-np.abs({text}))))",
                    Val(shape))
        if choice == 2:
            self.flag("norm_axis")
            kept = tuple(n for k, n in enumerate(shape) if k != axis % len(shape))
            return (f"np.linalg.norm(1.0 + {text} * {text}, axis={axis})",
                    Val(kept, "np" if not kept else ""))
        if choice == 3:
            self.flag("take_along_axis")
            return (f"np.take_along_axis({text}, np.argsort({text}, axis={axis}), "
                    f"axis={axis})", Val(shape))
        if choice == 4:
            self.flag("einsum_ellipsis")
            return f"np.einsum('...i,...i->...', {text}, np.cos({text}))", \
                Val(shape[:-1], "np" if len(shape) == 1 else "")
        if len(shape) < 2:
            return self.product(text, val, depth)
        self.flag("transposed_batch_matmul")        # (..., n, m)^T @ (..., n, m)
        out = shape[:-2] + (shape[-1], shape[-1])
        return f"(np.swapaxes({text}, -1, -2) @ np.sin({text}))", Val(out)

    def helper_call(self, name, depth):
        params, results = self.helpers[name]
        args = ", ".join(self.of_shape(s, depth + 1) for s in params)
        self.flag("helper")
        k = self.rng.randrange(len(results))
        return f"{name}({args})[{k}]", Val(results[k])


def names_in(text):
    return set(re.findall(r"[A-Za-z_]\w*", text))
