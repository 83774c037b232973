"""Activity analysis: which values carry a derivative (varied from `wrt`, useful to the output).

    def f(x, w):                   wrt = ('x',)
        t1_0 = x * w           ->  varied {x, t1_0, y}, useful {x, w, t1_0, y}
        n = x.shape            ->  n is not varied (a shape is not differentiable)
        y = np.sum(t1_0)           active = varied & useful = {x, t1_0, y}
        return y

Returns a frozen table; statements are never annotated.
"""
import operator
from dataclasses import dataclass

import gast

from .effects import writes_no_argument

from .tape_restores import tape_restores
from ..ir.primitives import attribute_read, operation_of, names_in, COMPARE
from ..ir.walk import all_statements, names_stored, walk_tree

_ALWAYS_INACTIVE = frozenset(COMPARE.values()) | {attribute_read}


@dataclass(frozen=True)
class Activity:
    varied: frozenset
    useful: frozenset

    def is_active(self, variable):
        return variable in self.varied and variable in self.useful


def carries_derivative(op, registry):
    """False for operations whose result never carries a derivative."""
    import operator
    if op.primitive in _ALWAYS_INACTIVE or op.primitive in (
            operator.floordiv, operator.not_, operator.invert, operator.and_, operator.or_,
            operator.xor, operator.lshift, operator.rshift):
        return False
    if op.primitive is not None and registry.is_nondifferentiable(op.primitive):
        return False
    return not _casts_to_integers(op)


def _casts_to_integers(op):
    """np.asarray(x, dtype=int), np.array(x, np.int32), x.astype(bool), np.full(n, x,
    int), np.linspace(0, x, 5, dtype=int): a result that holds integers (piecewise
    constant). Only a dtype written out in the source is decided here; for one held in a
    variable the templates ask at runtime (runtime_creation.through_cast)."""
    import numpy as np
    position = next((k for f, k in ((np.asarray, 1), (np.array, 1), (np.full, 2),
                                    (np.full_like, 2), (np.linspace, 5))
                     if op.primitive is f), None)
    if position is None:
        return False
    node = op.keywords.get("dtype", op.args[position] if len(op.args) > position else None)
    dtype = literal_dtype(node)
    return dtype is not None and dtype.kind in "biu"


def literal_dtype(node):
    """The numpy dtype a dtype argument spells out (`int`, `"float32"`, `np.int64`), or
    None when it is not written in the source (a variable, a call)."""
    import numpy as np
    if isinstance(node, gast.Constant) and isinstance(node.value, str):
        spec = node.value
    elif isinstance(node, gast.Name) and node.id in ("int", "bool", "float"):
        spec = node.id
    elif isinstance(node, gast.Attribute) and isinstance(node.value, gast.Name):
        spec = getattr(np, node.attr, None)
        if spec is None:
            return None
    else:
        return None
    try:
        return np.dtype(spec)
    except TypeError:
        return None


def analyse_activity(levels, wrt, outputs, registry, constants=frozenset()):
    """`constants`: variables whose derivative provably never reaches the output (a max
    shifted out, analyses/shift_invariance.py): held constant, they carry none."""
    return activities(levels, [wrt], outputs, registry, constants)[0]


def activities(levels, wrts, outputs, registry, constants=frozenset()):
    """analyse_activity for each of `wrts` (a forward-mode gradient's directions) from one
    reading of the statements: each statement's reads and needs are worked out when first
    asked for and kept, not again on every round of the fixed points below (operation_of
    and the registry's look-ups cost more than a round), and the useful set, which does
    not depend on wrt, is computed once."""
    statements = _assignments(levels.tree.body, tape_restores(levels))
    carried, needs = {}, {}

    def reads_of(k):            # None: the statement's value never carries a derivative
        if k not in carried:
            value = statements[k][1]
            if isinstance(value, _Flow):
                carried[k] = value.reads
            else:
                op = operation_of(value, levels.callees)
                carried[k] = [n for a in op.args for n in names_in(a)] + \
                    [n for v in op.keywords.values() for n in names_in(v)] \
                    if carries_derivative(op, registry) else None
        return carried[k]

    def needs_of(k):
        if k not in needs:
            value = statements[k][1]
            needs[k] = value.needs if isinstance(value, _Flow) else \
                [n.id for n in walk_tree(value) if isinstance(n, gast.Name)]
        return needs[k]
    useful = set(outputs)
    changed = True
    while changed:
        changed = False
        for k in range(len(statements) - 1, -1, -1):
            if statements[k][0] not in useful:
                continue
            for name in needs_of(k):
                if name not in useful:
                    useful.add(name)
                    changed = True
    useful = frozenset(useful)
    found = []
    for wrt in wrts:
        varied = set(wrt)
        changed = True
        while changed:
            changed = False
            for k, (target, _) in enumerate(statements):
                if target in varied or target in constants:
                    continue
                reads = reads_of(k)
                if reads is not None and any(r in varied for r in reads):
                    varied.add(target)
                    changed = True
        found.append(Activity(frozenset(varied), useful))
    return found


class _Flow:
    """A value flowing into a variable without a primitive: `y[i] = v`, `items.append(v)`;
    `needs`: what computing it reads, when more than where its value comes from."""

    def __init__(self, reads, needs=None):
        self.reads = reads
        self.needs = reads if needs is None else needs


def _assignments(body, restores=None):
    """[(target, value or _Flow)]. In a derivative differentiated again, `v = tape.pop()`
    gives back a value v held (tape_restores.py): it carries a derivative only where v
    does, not wherever the tape does."""
    out = []
    for stmt in body:
        restored = restores.restored(stmt) if restores is not None else None
        if restored is not None:
            out.append((restored, _Flow([restored], [restored, restores.tape])))
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
            base = stmt.targets[0].value.id
            out.append((base, _Flow([n.id for n in walk_tree(stmt.value)
                                     if isinstance(n, gast.Name)])))
        elif isinstance(stmt, gast.Assign):
            out.append((stmt.targets[0].id, stmt.value))
        elif isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
                and isinstance(stmt.value.func, gast.Attribute) \
                and stmt.value.func.attr == "append" \
                and isinstance(stmt.value.func.value, gast.Name):
            out.append((stmt.value.func.value.id,
                        _Flow([n.id for a in stmt.value.args for n in walk_tree(a)
                               if isinstance(n, gast.Name)])))
        for field in ("body", "orelse"):
            out.extend(_assignments(getattr(stmt, field, []) or [], restores))
    return out


def only_nondifferentiable_paths(levels, wrt, outputs, registry):
    """When no `wrt` argument reaches the output through derivatives, but some reach it
    through operations without one (np.round, comparisons, int(...)), the whole gradient
    would be a silent zero: [(argument, operation node)]. Empty otherwise (an argument
    used only as a mask next to others that are differentiable has a true zero). Reaching
    the output through an if/while test or a loop's range counts too (`while x > 1:
    n += 1` or `for i in range(n)` differentiated in x or n). stop_gradient is an explicit
    cut, not such a path."""
    from ..runtime_flow import stop_gradient
    statements = _assignments(levels.tree.body)
    found = []
    # each statement's reads worked out once (operation_of and the registry look-ups cost
    # more than the walk), and every argument started from at once: a name reached from
    # any argument is reached from their union
    derivative_reads = _derivative_reads(registry)
    if set(outputs) & _reach(_edges(statements, derivative_reads, levels), wrt, levels):
        return []
    all_edges = _edges(statements, _all_reads(stop_gradient), levels)
    for name in wrt:
        through_all = _reach(all_edges, [name], levels, control=True)
        if not set(outputs) & through_all:
            continue
        for target, value in statements:
            if isinstance(value, _Flow) or target not in through_all:
                continue
            op = operation_of(value, levels.callees)
            reads = {n for a in op.args for n in names_in(a)}
            if (reads - derivative_reads(op)) & through_all:
                found.append((name, value))
                break
    return found


def _derivative_reads(registry):
    """The names whose derivative flows into an operation's result (not an index: x[i]
    is piecewise constant in i)."""
    def reads(op):
        if not carries_derivative(op, registry):
            return set()
        args = op.args[:1] if op.primitive is operator.getitem else op.args
        constant = _constant_parameters(op, registry)
        return {n for k, a in enumerate(args) if k not in constant for n in names_in(a)} | \
            {n for key, v in op.keywords.items() if key not in constant for n in names_in(v)}
    return reads


def _constant_parameters(op, registry):
    """Positions and keyword names of op's arguments its template does not differentiate
    (scipy.special.iv's order): {0, 'v'} for iv(v, x)."""
    if op.primitive is None:
        return frozenset()
    names = registry.constant_parameters(op.primitive)
    if not names:
        return frozenset()
    params = registry.reverse(op.primitive).params
    return frozenset(names) | {k for k, p in enumerate(params) if p in names}


def reaches_output_without(levels, wrt, outputs, registry, cut):
    """Does some `wrt` argument reach the output through derivatives other than through
    the statement whose value is `cut` (a call of a helper)?"""
    statements = [(target, value) for target, value in _assignments(levels.tree.body)
                  if value is not cut]
    return bool(set(outputs) & _reach(_edges(statements, _derivative_reads(registry), levels),
                                      wrt, levels))


def _all_reads(stop_gradient):
    """Every name an operation reads, unless it is stop_gradient (an explicit cut)."""
    def reads(op):
        if op.primitive is stop_gradient:
            return set()
        return {n for a in op.args for n in names_in(a)} | \
            {n for v in op.keywords.values() for n in names_in(v)}
    return reads


def _edges(statements, reads_through, levels):
    """[(target, the names its value reads through `reads_through(op)`)], one per
    statement of `_assignments`, in order."""
    return [(target, value.reads if isinstance(value, _Flow)
             else reads_through(operation_of(value, levels.callees)))
            for target, value in statements]


def _reach(edges, starts, levels, control=False):
    """Variables the names `starts` flow into along `edges` (`_edges`); with `control`,
    also everything assigned under an if/while/for whose test or iterable they reach."""
    reached, changed = set(starts), True
    while changed:
        changed = False
        if control:
            for name in _controlled(levels.tree.body, reached):
                if name not in reached:
                    reached.add(name)
                    changed = True
        for target, reads in edges:
            if target not in reached and any(r in reached for r in reads):
                reached.add(target)
                changed = True
    return reached


def _controlled(body, reached):
    """Names assigned inside compound statements whose test or iterable reads `reached`."""
    for stmt in all_statements(body):
        head = getattr(stmt, "test", None) or getattr(stmt, "iter", None)
        if isinstance(stmt, (gast.If, gast.While, gast.For)) and head is not None \
                and any(n in reached for n in names_in(head)):
            for inner in all_statements(stmt.body + stmt.orelse):
                if isinstance(inner, (gast.Assign, gast.AugAssign, gast.For)):
                    yield from names_stored(inner.targets[0] if isinstance(inner, gast.Assign)
                                            else inner.target)


def writes_into_arguments(levels, varied, registry):
    """Calls that may write derivative-carrying values into an array s2s_ad cannot see
    change: a call whose result is dropped (`np.copyto(y, x)`, `np.add.at(y, i, x)`,
    `y.sort()`) and any call with `out=`, when a value it reads is `varied`. Returns
    [(call node, why)]. print, list.append/pop and calls to primitives with a template (which
    write nothing without out=) are not such calls.

        np.copyto(y, x)              ->  [(call, "its result is not used: ...")]
        z = np.multiply(x, 2, out=y) ->  [(call, "`out=` ...")]
    """
    found = []
    for stmt in all_statements(levels.tree.body):
        call = stmt.value if isinstance(stmt, (gast.Expr, gast.Assign)) else None
        if not isinstance(call, gast.Call) or not any(
                isinstance(n, gast.Name) and n.id in varied for n in walk_tree(call)):
            continue
        op = operation_of(call, levels.callees)
        if any(k.arg == "out" and not (isinstance(k.value, gast.Constant)
                                       and k.value.value is None) for k in call.keywords):
            found.append((call, "`out=` writes the result into an existing array"))
        elif isinstance(stmt, gast.Expr) and op.primitive is not print \
                and not _list_method(call) and not writes_no_argument(op.primitive) and not (
                    op.primitive is not None and (registry.reverse(op.primitive) is not None
                                                  or registry.is_nondifferentiable(op.primitive))):
            found.append((call, "its result is not used, so it can only matter by writing "
                                "into its arguments"))
    return found


def _list_method(call):
    """items.append(v) / items.pop(): list updates the mutation transform follows."""
    return isinstance(call.func, gast.Attribute) and call.func.attr in ("append", "pop") \
        and isinstance(call.func.value, gast.Name)
