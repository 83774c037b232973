"""What a value of the adjoint is, relative to a name x: the rules optimize/sign_products.py
proves its rewrites with (SignProof), over single assignments at the function's top level.

    SignProof("r", {"m": np.minimum(np.abs(r), 1.0)}, ...).holds(m / r.size)   True
      (>= 0, zero where r is, NaN where r is)

A parameter in `positive` (Request.positive: a float the dispatcher guards > 0,
sign_facts.py) counts as a number > 0; the names a proof relied on so are in `read`.
"""
import gast
import numpy

from .. import runtime, runtime_pieces
from ..ir import build
from ..ir.naming import callee

MAX_DEPTH = 12


class SignProof:
    """Three properties of an expression g, relative to x, each allowing NaN anywhere:
    N: g >= 0; V: g == 0 where x == 0; L: g <= 0 where x == 0 (V implies L);
    D: g is NaN where x is NaN. `holds(g)`: N, V and D."""

    def __init__(self, x, definitions, written, resolve, positive=frozenset()):
        self.x, self.definitions, self.written, self.resolve = x, definitions, written, resolve
        self.positive = positive        # parameters known > 0 that nothing assigns
        self.read = set()               # those the proof relied on

    def holds(self, node):
        n, v, _, d = self.facts(node, 0)
        return n and v and d

    def facts(self, node, depth):
        """(N, V, L, D) of node; all False where no rule covers it."""
        none = (False, False, False, False)
        if depth > MAX_DEPTH:
            return none
        if isinstance(node, gast.Constant) and type(node.value) in (int, float):
            c = node.value
            return c >= 0, c == 0, c <= 0, False
        if self._count(node):
            return True, False, False, False
        if isinstance(node, gast.Name):
            if node.id == self.x:
                return False, True, True, True
            value = self.definitions.get(node.id)
            return none if value is None else self.facts(value, depth + 1)
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
            n, v, _, d = self.facts(node.operand, depth + 1)
            return False, v, n or v, d
        if isinstance(node, gast.BinOp):
            return self._binop(node, depth)
        if isinstance(node, gast.Call) and not node.keywords:
            return self._call(node, depth)
        return none

    def _binop(self, node, depth):
        a = self.facts(node.left, depth + 1)
        op = type(node.op)
        if op is gast.Div:
            # by a count (`r.size`, `len(r)`) or a constant > 0: signs and zeros kept (a
            # count of 0 gives inf or NaN, which the conditions allow)
            return a if self._count(node.right) else (False,) * 4
        if op is gast.Pow:
            p = node.right.value if isinstance(node.right, gast.Constant) \
                and type(node.right.value) in (int, float) else None
            if p is None or p <= 0:
                return (False,) * 4
            even = float(p).is_integer() and int(p) % 2 == 0
            return a[0] or even, a[1], a[1], a[3]
        b = self.facts(node.right, depth + 1)
        d = a[3] or b[3]
        if op is gast.Mult:
            v = a[1] or b[1]
            return a[0] and b[0], v, v or (a[2] and b[0]) or (b[2] and a[0]), d
        if op is gast.Add:
            return a[0] and b[0], a[1] and b[1], a[2] and b[2], d
        if op is gast.Sub:
            nonpositive = isinstance(node.right, gast.Constant) and b[2]
            return a[0] and nonpositive, a[1] and b[1], a[2] and b[0], d
        return (False,) * 4

    def _call(self, node, depth):
        function = callee(node.func, self.resolve)
        args = [self.facts(a, depth + 1) for a in node.args]
        if function in (numpy.absolute, numpy.fabs, abs) and len(args) == 1:
            v = args[0][1] or (isinstance(node.args[0], gast.Name) and node.args[0].id == self.x)
            return True, v, v, args[0][3]
        if function is runtime_pieces.kink_share and len(args) == 4:
            # g times a mask of 0, 1/2 or 1 (np.where at ties): signs, zeros and NaN kept
            return args[0]
        if function is numpy.square and len(args) == 1:
            return True, args[0][1], args[0][1], args[0][3]
        if function in (numpy.minimum, numpy.maximum) and len(args) == 2:
            (na, va, la, da), (nb, vb, lb, db) = args
            if function is numpy.minimum:      # both propagate NaN
                return na and nb, (va and (nb or vb)) or (vb and na), la or lb, da or db
            return na or nb, (va and lb) or (vb and la), la and lb, da or db
        return (False,) * 4

    def is_abs_of_x(self, node, depth):
        """`np.abs(x)` (np.absolute, np.fabs, the builtin abs), or a name assigned it once."""
        if isinstance(node, gast.Name) and node.id in self.definitions and depth < MAX_DEPTH:
            return self.is_abs_of_x(self.definitions[node.id], depth + 1)
        return isinstance(node, gast.Call) and not node.keywords and len(node.args) == 1 \
            and callee(node.func, self.resolve) in (numpy.absolute, numpy.fabs, abs) \
            and isinstance(node.args[0], gast.Name) and node.args[0].id == self.x

    def _count(self, node, depth=0):
        """A number >= 0 whatever the arrays hold: a constant > 0, an array's `.size`,
        `len(...)`, `reduced_count(...)`, a product of them, or a name assigned one once."""
        if isinstance(node, gast.Name) and node.id in self.definitions and depth < MAX_DEPTH:
            return self._count(self.definitions[node.id], depth + 1)
        if isinstance(node, gast.Constant):
            return type(node.value) in (int, float) and node.value > 0
        if isinstance(node, gast.Name) and node.id in self.positive:
            self.read.add(node.id)
            return True
        if isinstance(node, gast.Attribute):
            return node.attr == "size"
        if isinstance(node, gast.Call) and callee(node.func, self.resolve) in (
                len, runtime.reduced_count):
            return True
        if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult):
            return self._count(node.left, depth + 1) and self._count(node.right, depth + 1)
        return False

    def positive_bound(self, node):
        """A number literal > 0 or a parameter known > 0 (cloned), else None."""
        if isinstance(node, gast.Name) and node.id in self.positive:
            self.read.add(node.id)
            return build.name(node.id)
        value = node.value if isinstance(node, gast.Constant) else None
        return build.const(value) if type(value) in (int, float) and value > 0 else None
