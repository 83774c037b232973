"""A gradient of number code in forward mode: one tangent per input, carried in one pass.

analyses/number_code.py decides when (few float inputs, numbers all along the
differentiated path). Each differentiated input x gets its own direction: every value v
that depends on x carries `dv_dx`, computed by v's @tangent template right beside v (the
forward generator of ad/forward.py, one per direction, each with the activity of its own
input, so a value that does not depend on x has no `_dx` tangent at all). No tape, no
backward loop: control flow keeps its shape. The gradient is the output's tangents.

    def horner(x, a, coeffs):          def grad_horner(x, a, coeffs):
        p = 0.0                            dp_dx = 0.0
        for c in coeffs:                   dp_da = 0.0
            p = p * x + a * c              p = 0.0
        return p                           for c in coeffs:
                                               dp_dx = dp_dx * x + p
                                               dp_da = dp_da * x + c
                                               p = p * x + a * c
                                           return dp_dx, dp_da

A statement's tangents are written before it when they do not read its result (so the
result may overwrite an operand the tangents still read, and the clean-up passes can put
temporaries back into their use); after it otherwise (`dy_dx = dx_dx * y` for y = exp(x)).

The direction's own tangent is the literal 1.0, so some tangents are literals too, known
here: one of a value f binds once, read only after it is bound, is not assigned but read
as that literal (`t1_5 = 1.0 - alpha` has `dt1_5_dalpha = -1.0`, so `t2_0 = t1_5 * c`
gets `dt2_0_dalpha = -1.0 * c`); and `1.0 * e` of a float number e is written `e`:

    t1_0 = x * b                 dt1_0_dx = b            (not `dt1_0_dx = 1.0 * b`)
    t1_5 = 1.0 - alpha           (no dt1_5_dalpha)
"""
import collections
import dataclasses

import gast
import numpy as np

from ..analyses.activity import activities
from .. import runtime_flow
from ..ir import build
from ..ir.build import number_literal
from ..ir.walk import names_stored, walk_tree
from ..optimize.fold import fold_expression
from ..signature import Num
from .context import ExpansionContext
from .forward import ForwardGenerator
from .merged_lines import merged_runs, statement_runs
from .shared_partials import load_counts, shared_statement
from .tangents import is_zero


class _Direction(ForwardGenerator):
    """The forward generator of one input's direction: tangents named `dv_dx`, and a
    zero tangent of a number is the literal 0.0 (the arithmetic keeps the dtype)."""

    def __init__(self, inputs, wrt, derive_jvp, rebound, bound_once):
        super().__init__(inputs, ExpansionContext(inputs), derive_jvp)
        self.wrt = wrt
        self.rebound = rebound      # does f assign to the input? then dx_dx is a variable
        self.bound_once = bound_once    # the names f binds once (parameters: on entry)
        self.literals = {}          # name -> its tangent, a float literal
        self.read = set()           # the names whose tangents were read so far

    def tangent_of(self, atom):
        if isinstance(atom, gast.Name) and atom.id == self.wrt and not self.rebound:
            return build.const(1.0)     # the input's own direction: folded into its uses
        if isinstance(atom, gast.Name):
            if atom.id in self.literals:
                return build.clone(self.literals[atom.id])
            self.read.add(atom.id)
        return super().tangent_of(atom)

    def assignment(self, stmt):
        """The statement and its tangents (ForwardGenerator's), less a tangent that is a
        float literal (kept in self.literals, read as it), with `1.0 * e` of a float
        number e as e."""
        made = super().assignment(stmt)
        target = stmt.targets[0].id
        for tangent in made[1:]:
            if isinstance(tangent, gast.Assign) and isinstance(tangent.value, gast.BinOp):
                tangent.value = self._without_unit_factor(tangent.value)
        last = made[-1]
        if len(made) != 2 or target not in self.bound_once or target in self.read \
                or not isinstance(last, gast.Assign) \
                or getattr(last.targets[0], "id", None) != self.tangent_name(target):
            return made
        literal = fold_expression(build.clone(last.value))
        if not isinstance(number_literal(literal), float):
            return made
        # every read of the tangent follows this one binding (none came before it)
        self.literals[target] = literal
        return made[:1]

    def _without_unit_factor(self, value):
        """`1.0 * e` / `e * 1.0` (operands folded) -> e where e certainly is a float number: a
        float times 1.0 is itself, dtype and all; else `value` as it is."""
        if not isinstance(value.op, gast.Mult):
            return value
        left, right = (fold_expression(build.clone(n)) for n in (value.left, value.right))
        for one, other in ((left, right), (right, left)):
            if number_literal(one) == 1 and isinstance(one.value, float) \
                    and self._float_number(other):
                return other
        return value

    def _float_number(self, node):
        """Does `node` certainly give a float number: a tangent or a float the facts
        know, or a choice among such names, float literals and their products with float
        literals (`1.0 if x > 0.0 else -1.0`)?"""
        if isinstance(node, gast.Name):
            kind = self.i.kinds.of(node.id) if self.i.kinds is not None else None
            return self.i.namer.is_tangent(node.id) or (
                isinstance(kind, Num) and kind.axes == () and kind.type is not None
                and kind.type is not np.ndarray and kind.dtype in ("float64", "float32"))
        if isinstance(node, gast.IfExp):
            return all(self._float_number(n) for n in (node.body, node.orelse))
        if isinstance(number_literal(node), float):
            return True
        return isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult) and any(
            isinstance(number_literal(n), float) for n in (node.left, node.right)) and all(
            self._float_number(n) for n in (node.left, node.right))

    def tangent_name(self, variable):
        if variable not in self._names:
            self._names[variable] = self.i.namer.tangent(variable, self.wrt)
        return self._names[variable]

    def float32_kept(self, gradient):
        """The gradient in an np.float32 input's dtype: the folded direction 1.0 and a
        zero tangent 0.0 are Python floats, which numpy's arithmetic keeps when nothing
        float32 meets them (`a * 2.0` gives the gradient 2.0), where reverse mode's
        match_adjoint gives np.float32(2.0). `match_adjoint(g, a)` does the same here."""
        kind = self.i.kinds.of(self.wrt) if self.i.kinds is not None else None
        if not (isinstance(kind, Num) and kind.dtype == "float32"):
            return gradient
        match = self.i.bindings.name_for("match_adjoint", runtime_flow.match_adjoint)
        return build.call(build.name(match), [gradient, build.name(self.wrt)])

    def zero_tangent(self, atom):
        # number code (analyses/number_code.py): every value carrying a derivative is a
        # number, perhaps not known which (a float on one path, an np.float64 on another);
        # the literal is weak in numpy's arithmetic, so the value's dtype still decides
        kind = self.i.kinds.of(atom) if self.i.kinds is not None else None
        if isinstance(kind, Num) and kind.axes == () and kind.type is not np.ndarray:
            return build.const(0.0)
        return super().zero_tangent(atom)


def forward_gradient(inputs, wrt, outputs, registry, derive_jvp):
    """(body statements, [the output's tangent along each input]) for grad of the levels
    form in `inputs` (ad.reverse.ReverseInputs) w.r.t. the parameters `wrt`."""
    levels = inputs.levels
    directions = []
    stored = names_stored(levels.tree)
    bindings = collections.Counter(stored + list(levels.resolution.parameters))
    once = {name for name, count in bindings.items() if count == 1}
    for name, activity in zip(wrt, activities(levels, [(name,) for name in wrt], outputs,
                                              registry)):
        directions.append(_Direction(dataclasses.replace(inputs, activity=activity), name,
                                     derive_jvp, name in stored, once))
    seeds = []
    for d in directions:
        if d.rebound:
            seeds.append(build.assign(d.tangent_name(d.wrt), build.const(1.0)))
        for name in levels.resolution.parameters:
            if name != d.wrt and d.i.activity.is_active(name):
                # a loop later gives the name values that depend on the input: its first
                # iteration reads a zero tangent
                seeds.append(build.assign(d.tangent_name(name), d.zero_tangent(
                    build.name(name))))
    body = seeds + _block(levels.tree.body[:-1], directions, levels.parsed.source_map,
                          load_counts(levels.tree))
    out_atom = levels.tree.body[-1].value
    results = []
    for d in directions:
        tangent = d.tangent_of(out_atom)
        results.append(d.float32_kept(d.zero_tangent(out_atom) if is_zero(tangent) else tangent))
    return body, results


def _block(stmts, directions, source_map, loads):
    out, last_line = [], None
    memo = {}                   # the runs' partials, costed once (shared_partials)
    for run in merged_runs(statement_runs(stmts), directions, loads, memo):
        stmt = run[0]
        named = isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
        # one source statement's levels statements: its partials shared by the
        # directions where that saves work (ad/shared_partials.py)
        shared = shared_statement(run, directions, loads, directions[0].i.namer, memo) \
            if named and getattr(stmt, "lineno", None) is not None else None
        if shared is not None:
            for s in shared:        # (several lines' where merged_runs joined them)
                if getattr(s, "lineno", None) not in (None, last_line):
                    out.append(_provenance(s, source_map))
                    last_line = s.lineno
                out.append(s)
            continue
        if named:
            for s in run:
                if getattr(s, "lineno", None) is not None and s.lineno != last_line \
                        and any(d.i.activity.is_active(s.targets[0].id) for d in directions):
                    out.append(_provenance(s, source_map))
                    last_line = s.lineno
                out.extend(_assignment(s, directions))
            continue
        if not isinstance(stmt, gast.Assign):
            last_line = None
        if isinstance(stmt, gast.If):
            out.append(gast.If(test=stmt.test,
                               body=_block(stmt.body, directions, source_map, loads)
                               or [gast.Pass()],
                               orelse=_block(stmt.orelse, directions, source_map, loads)))
        elif isinstance(stmt, gast.For):
            out.append(gast.For(target=stmt.target, iter=stmt.iter,
                                body=_block(stmt.body, directions, source_map, loads),
                                orelse=[], type_comment=None))
        elif isinstance(stmt, gast.While):
            out.append(gast.While(test=stmt.test,
                                  body=_block(stmt.body, directions, source_map, loads),
                                  orelse=[]))
        else:
            out.append(stmt)        # number_code: nothing here carries a derivative
    return out


def _provenance(stmt, source_map):
    """The source line a statement's tangents come from, as the backward sweep's `# grad
    of:` lines."""
    return build.comment(f"with derivatives: {source_map.line_text(stmt)}")


def _assignment(stmt, directions):
    tangents = []
    for d in directions:
        made = d.assignment(stmt)
        assert made[0] is stmt, "number code: a plain assignment and its tangents"
        tangents.extend(made[1:])
    target = stmt.targets[0].id
    reads_result = any(isinstance(n, gast.Name) and n.id == target and
                       isinstance(n.ctx, gast.Load) for t in tangents for n in walk_tree(t))
    return [stmt] + tangents if reads_result else tangents + [stmt]
