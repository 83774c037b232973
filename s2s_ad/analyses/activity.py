"""Activity analysis: which values carry a derivative (varied from `wrt`, useful to the output).

    def f(x, w):                   wrt = ('x',)
        t1_0 = x * w           ->  varied {x, t1_0, y}, useful {x, w, t1_0, y}
        n = x.shape            ->  n is not varied (a shape is not differentiable)
        y = np.sum(t1_0)           active = varied & useful = {x, t1_0, y}
        return y

Returns a frozen table; statements are never annotated.
"""
from dataclasses import dataclass

import gast

from ..ir.primitives import attribute_read, operation_of, names_in, COMPARE

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
    return True


def analyse_activity(levels, wrt, outputs, registry):
    statements = _assignments(levels.tree.body)
    varied = set(wrt)
    changed = True
    while changed:
        changed = False
        for target, value in statements:
            if target in varied:
                continue
            op = operation_of(value, levels.callees)
            if not carries_derivative(op, registry):
                continue
            reads = [n for a in op.args for n in names_in(a)] + \
                    [n for v in op.keywords.values() for n in names_in(v)]
            if any(r in varied for r in reads):
                varied.add(target)
                changed = True
    useful = set(outputs)
    changed = True
    while changed:
        changed = False
        for target, value in reversed(statements):
            if target not in useful:
                continue
            for name in (n.id for n in gast.walk(value) if isinstance(n, gast.Name)):
                if name not in useful:
                    useful.add(name)
                    changed = True
    return Activity(frozenset(varied), frozenset(useful))


def _assignments(body):
    out = []
    for stmt in body:
        if isinstance(stmt, gast.Assign):
            out.append((stmt.targets[0].id, stmt.value))
        for field in ("body", "orelse"):
            out.extend(_assignments(getattr(stmt, field, []) or []))
    return out
