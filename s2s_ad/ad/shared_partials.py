"""A forward-mode gradient's partials of one source statement, computed once for all directions.

ad/forward_gradient.py carries one tangent per differentiated input. Each direction's
tangent of a statement comes from the @tangent templates of its levels statements, so a
partial derivative that is an expression (`y - exp(eta)`, `2 r / (1 + r^2)`) is written
again in every direction that reads it. The source statement's partial derivatives with
respect to the values it reads (its leaves) are the same in every direction: this module
forms them once, by the chain rule over the statement's own temporaries (the templates
expanded with one leaf's tangent 1.0 and the others' zero), binds each one that is an
expression read by two directions or more, and writes each direction's tangent as the
sum of those partials times the leaves' tangents (statement-level preaccumulation, as
ADIFOR does for Fortran). Poisson's log-likelihood over pairs, directions a and b:

    deta_db = x                                deta_db = x
    eta = a + b * x                            eta = a + b * x
    t5_1 = math.exp(eta)                ->     dll_deta = y - math.exp(eta)
    dll_da = dll_da + y - t5_1                 dll_da = dll_da + dll_deta
    dll_db = dll_db + y * deta_db              dll_db = dll_db + dll_deta * deta_db
        - deta_db * t5_1

(the final code, after the clean-up passes). Where the templates' own tangents,
direction by direction, cost no more (`s = sin(a b + s)`: `(dt1_1_da + ds_da) * cos_t2_0`
against two partials times two tangents), they stay: both are costed.

Only for number code (forward_gradient's domain: every value a number, so a partial is a
number and products commute), only where a partial is an expression two directions read,
and only where every template of the statement expands to one expression and every
temporary is read in the statement alone; anything else keeps the per-direction tangents.
The numbers are those of the chain rule grouped differently (one rounding apart).
A run may also be several lines that ad/merged_lines.py joined: their partials are then
taken backwards over the run (_through_inner), each inner value's bound once where two
terms read it, and the joined lines' own values carry no tangents.
"""
import collections

import gast

from ..ir import build
from ..ir.primitives import identity, is_conversion, operation_of, popped_list
from ..ir.walk import dump_key, walk_tree
from .forward import ForwardGenerator
from .tangents import is_zero, zero_of


def load_counts(tree):
    """How often each name is read in the levels tree (a temporary read once is the
    statement's own)."""
    return collections.Counter(n.id for n in walk_tree(tree)
                               if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load))


class _Partial(ForwardGenerator):
    """The templates expanded with the given tangents (`seeds`: name -> expression) and
    every other operand's zero: with one name's 1.0, the partial derivative of a levels
    statement's result with respect to that name."""

    def __init__(self, inputs, context, derive_jvp, seeds):
        super().__init__(inputs, context, derive_jvp)
        self.seeds = seeds

    def tangent_of(self, atom):
        if isinstance(atom, gast.Name) and atom.id in self.seeds:
            return build.clone(self.seeds[atom.id])
        return zero_of(atom)

    def zero_tangent(self, atom):
        return zero_of(atom)

    def expanded(self, stmt, op):
        """The template's tangent expression (None: zero), or False where the template
        writes statements of its own."""
        made = self.template(stmt, op, stmt.targets[0].id, "_partial")
        if len(made) != 1:
            return False
        value = made[0].value
        return None if is_zero(value) else value


def shared_statement(run, directions, loads, namer, memo=None):
    """The run's statements with each direction's tangent of its last target written
    through partials bound once, or None where that does not apply or saves nothing.
    `memo`: partials_plan's, for the runs of one block."""
    plan = partials_plan(run, directions, loads, memo)
    if not shares(plan):
        return None             # the templates' tangents, direction by direction, are cheaper
    final, leaves, readers = run[-1].targets[0].id, plan.leaves, plan.readers
    out, names = list(run[:-1]), {}
    for stand_in, expr in plan.bound:       # the run's inner partials, last first
        names[stand_in] = namer.tangent(final, stand_in[3:])
        out.append(build.assign(names[stand_in], _renamed(expr, names)))
    leaves = {leaf: _renamed(expr, names) for leaf, expr in leaves.items()}
    for leaf in plan.shared:
        # named as the derivative it is (`dll_deta`): a tangent to the passes that
        # write tangents as short linear forms (optimize/tangent_forms.py)
        name = namer.tangent(final, leaf)
        out.append(build.assign(name, leaves[leaf]))
        leaves[leaf] = build.name(name)
    for d in directions:
        if d.i.activity.is_active(final):
            terms = [_mul(build.clone(leaves[leaf]), d.tangent_of(build.name(leaf)))
                     for leaf in leaves if d in readers[leaf]]
            out.append(build.assign(d.tangent_name(final), _sum(terms)))
    return out + [run[-1]]


def shares(plan):
    """Does the plan bind a partial once, for less than the templates' tangents cost?"""
    return plan is not None and bool(plan.shared or plan.bound) \
        and plan.shared_cost < plan.own_cost


def cheaper_cost(run, directions, loads, memo=None):
    """The cheaper of the run's two forms, operations and tangent assignments counted
    (None: a template of the run is not one expression, so it cannot be costed here)."""
    plan = partials_plan(run, directions, loads, memo)
    if plan is None:
        return None
    return min(plan.shared_cost + plan.shared_stores,
               plan.own_cost + _stores(run, directions))


def _stores(run, directions):
    """Tangent assignments the templates write for the run, direction by direction."""
    return sum(1 for d in directions for s in run if d.i.activity.is_active(s.targets[0].id))


class _Plan:
    """A run's partials (`leaves`: leaf -> partial; `readers`: leaf -> the directions
    reading it; `shared`, `bound`: what the shared form binds) and the costs of both
    forms; the templates' own form is costed when first asked (expanding every template
    in every direction is most of the work, and needed only to compare)."""

    def __init__(self, own, **kw):
        self.__dict__.update(kw)
        self._own, self._own_cost = own, None

    @property
    def own_cost(self):
        if self._own_cost is None:
            self._own_cost = self._own()
        return self._own_cost


def partials_plan(run, directions, loads, memo=None, own_cost=None):
    """The run's plan (_plan), kept in `memo` by its statements for the block's runs;
    `own_cost()` gives its templates' form's cost where the caller knows it (lines
    joined: the sum of theirs, each template's tangents being the same)."""
    key = tuple(id(s) for s in run)
    if memo is None or key not in memo:
        plan = _plan(run, directions, loads, own_cost)
        if memo is None:
            return plan
        memo[key] = plan
    return memo[key]


def _plan(run, directions, loads, own_cost=None):
    """The run's partials of its result with respect to its leaves, which directions
    read each, those to bind once, and the cost of both forms; None where the shared
    form does not apply."""
    if len(directions) < 2:
        return None
    final = run[-1].targets[0].id
    inner = {s.targets[0].id for s in run[:-1]}
    here = load_counts(gast.Module(body=list(run), type_ignores=[]))
    if final in inner or any(loads[t] != here[t] or not here[t] for t in inner) \
            or len({s.lineno for s in run}) == 1 and any(here[t] != 1 for t in inner):
        return None             # a temporary read elsewhere needs its own tangents
    partials, locals_ = {}, []
    for stmt in run:
        target = stmt.targets[0].id
        local = _local_partials(stmt, directions, partials)
        if local is None:
            return None
        locals_.append((target, local))
        acc = {}
        for name, expr in local.items():
            chains = partials[name].items() if name in partials else ((name, None),)
            for leaf, inner_expr in chains:
                term = build.clone(expr) if inner_expr is None else \
                    _mul(build.clone(expr), build.clone(inner_expr))
                acc[leaf] = term if leaf not in acc else build.binop(acc[leaf], "Add", term)
        partials[target] = acc
    bound, through = [], partials[final]
    if len({s.lineno for s in run}) > 1:
        bound, through = _through_inner(locals_, final)
    leaves = {leaf: _unit_factors_out(e, directions[0]) for leaf, e in through.items()}
    if any(isinstance(n, gast.Name) and n.id == final
           for e in leaves.values() for n in walk_tree(e)):
        return None             # a partial reading the result: the templates' order
    readers = {leaf: [d for d in _carriers(leaf, directions) if d.i.activity.is_active(final)]
               for leaf in leaves}
    shared = [leaf for leaf, ds in readers.items()
              if len(ds) >= 2 and not _atomic(leaves[leaf])]
    stand_ins = {leaf: build.name(f"_{final}_{leaf}") for leaf in shared}
    shared_exprs = [expr for _, expr in bound] + [leaves[leaf] for leaf in shared]
    for d in directions:
        if not d.i.activity.is_active(final):
            continue
        terms = [_mul(build.clone(stand_ins.get(leaf, leaves[leaf])), _tangent_stand_in(d, leaf))
                 for leaf in leaves if d in readers[leaf]]
        if not terms:
            return None
        shared_exprs.append(_sum(terms))
    return _Plan(own_cost or (lambda: _cost(_per_direction(run, partials, directions))),
                 leaves=leaves,
                 readers=readers, shared=shared, bound=bound,
                 shared_cost=_cost(shared_exprs), shared_stores=len(shared_exprs))


def _through_inner(locals_, final):
    """The partials of `final` with respect to the run's leaves by the chain rule taken
    backwards over the run's statements (a local reverse sweep): an inner value's partial
    read by two operands' terms or more is bound once, under a stand-in name `_d_v`
    (shared_statement names it as the derivative it is), so the leaves' partials read it
    (`z * exp(-s)` once for both m0's and m1's). (bound [(stand-in, expr)], {leaf: expr})."""
    inner = {target for target, _ in locals_}
    adjoint, bound = {final: None}, []
    for target, local in reversed(locals_):
        if target not in adjoint:
            continue
        factor = adjoint.pop(target)
        if factor is not None and len(local) > 1 and not _atomic(factor):
            bound.append((f"_d_{target}", factor))
            factor = build.name(f"_d_{target}")
        for name, expr in local.items():
            term = build.clone(expr) if factor is None else \
                _mul(build.clone(factor), build.clone(expr))
            adjoint[name] = term if name not in adjoint else \
                build.binop(adjoint[name], "Add", term)
    return bound, {leaf: expr for leaf, expr in adjoint.items()
                   if leaf not in inner or leaf == final}


def _renamed(expr, names):
    """expr with the stand-in names replaced (a fresh copy)."""
    expr = build.clone(expr)
    for node in walk_tree(expr):
        if isinstance(node, gast.Name) and node.id in names:
            node.id = names[node.id]
    return expr


def _per_direction(run, partials, directions):
    """The tangent expressions the templates write for the run, direction by direction
    (for their cost): each template expanded with its operands' tangents in that
    direction (a stand-in name each, 1.0 for the direction's own input)."""
    exprs = []
    for d in directions:
        for stmt in run:
            if not d.i.activity.is_active(stmt.targets[0].id):
                continue
            op = operation_of(stmt.value, d.i.levels.callees)
            seeds = {}
            for a in list(op.args) + list(op.keywords.values()):
                for n in walk_tree(a):
                    if isinstance(n, gast.Name) and (
                            any(d in _carriers(leaf, directions) for leaf in partials[n.id])
                            if n.id in partials else d in _carriers(n.id, directions)):
                        seeds[n.id] = _tangent_stand_in(d, n.id)
            if op.primitive is identity:
                exprs.extend(seeds.values())
                continue
            value = _Partial(d.i, d.ctx, d.derive_jvp, seeds).expanded(stmt, op) \
                if seeds else None
            if value:
                exprs.append(value)
    return exprs


def _carriers(name, directions):
    """The directions in which `name` carries a tangent."""
    return [d for d in directions if name == d.wrt or d.i.activity.is_active(name)]


def _tangent_stand_in(d, name):
    """What a direction's tangent of `name` costs to read: 1.0 for its own input."""
    if name == d.wrt and not d.rebound:
        return build.const(1.0)
    return build.name(f"d{name}")


def _sum(terms):
    value = terms[0]
    for term in terms[1:]:
        value = build.binop(value, "Add", term)
    return value


def _cost(exprs):
    """Operations in the expressions, a call counted once however often it is made with
    the same operands (optimize/shared_calls.py binds a repeated pure call once)."""
    ops, calls = 0, set()
    for expr in exprs:
        for node in walk_tree(expr):
            if isinstance(node, gast.BinOp) or isinstance(node, gast.UnaryOp) \
                    and not isinstance(node.operand, gast.Constant):
                ops += 1
            elif isinstance(node, gast.Call):
                calls.add(dump_key(node))
    return ops + len(calls)


def _local_partials(stmt, directions, partials):
    """{operand name: the partial of stmt's result with respect to it} over the operands
    that carry a derivative in some direction (or through the run's temporaries); None
    where a template needs statements of its own or the statement is not a template's."""
    callees = directions[0].i.levels.callees
    op = operation_of(stmt.value, callees)
    names = []
    for a in list(op.args) + list(op.keywords.values()):
        for n in walk_tree(a):
            # a temporary of the run through its own partials, never as a leaf
            if isinstance(n, gast.Name) and n.id not in names and (
                    partials[n.id] if n.id in partials
                    else any(d.i.activity.is_active(n.id) for d in directions)):
                names.append(n.id)
    if not names:
        return {}
    if op.primitive is identity and len(names) == 1:
        return {names[0]: build.const(1.0)}
    if popped_list(stmt.value) is not None or is_conversion(op) \
            or op.primitive in (None, identity, tuple, list) \
            or directions[0].i.registry.tangent(op.primitive) is None:
        return None         # not one template's expression: the per-direction tangents
    local = {}
    d = next((d for d in directions if d.i.activity.is_active(stmt.targets[0].id)), None)
    if d is None:
        return {}
    for name in names:
        value = _Partial(d.i, d.ctx, d.derive_jvp, {name: build.const(1.0)}).expanded(stmt, op)
        if value is False or value is not None and any(is_zero(n) for n in walk_tree(value)):
            return None
        if value is not None:
            local[name] = value
    return local


def _unit_factors_out(expr, direction):
    """expr with `e * 1.0` written e and `e * -1.0` written -e (either order) where e is
    certainly a float number (a float times +-1.0 is itself or its negation, dtype and
    all; an int would become a float, so it keeps the factor)."""
    class Out(gast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            if not isinstance(node.op, gast.Mult):
                return node
            for one, other in ((node.left, node.right), (node.right, node.left)):
                sign = _unit(one)
                if sign is not None and (direction._float_number(other)
                                         or _math_float(other)):
                    return other if sign > 0 else build.unaryop("USub", other)
            return node
    return Out().visit(expr)


_MATH_NOT_FLOATS = {"ceil", "floor", "trunc", "comb", "factorial", "gcd", "isqrt", "lcm",
                    "perm", "prod", "isnan", "isinf", "isfinite", "isclose", "frexp", "modf"}


def _math_float(node):
    """A call of the math module that returns a float (math.cos(t), math.exp(t))."""
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
        and isinstance(node.func.value, gast.Name) and node.func.value.id == "math" \
        and node.func.attr not in _MATH_NOT_FLOATS


def _unit(node):
    """+1 or -1 for a float literal 1.0 or -1.0 (written -(1.0) too), else None."""
    sign = 1
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        node, sign = node.operand, -1
    if isinstance(node, gast.Constant) and type(node.value) is float and abs(node.value) == 1.0:
        return sign if node.value > 0 else -sign
    return None


def _atomic(expr):
    """A name or a literal, negated or not: nothing to compute once."""
    if isinstance(expr, gast.UnaryOp) and isinstance(expr.op, gast.USub):
        expr = expr.operand
    return isinstance(expr, (gast.Name, gast.Constant))


def _mul(factor, tangent):
    """factor * tangent, a literal 1.0 on either side left out."""
    for one, other in ((factor, tangent), (tangent, factor)):
        if isinstance(one, gast.Constant) and one.value == 1.0 and type(one.value) is float:
            return other
    return build.binop(factor, "Mult", tangent)
