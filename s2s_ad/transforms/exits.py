"""Lower break / continue / early return to flags, so control flow stays structured.

After this pass the only jump left is `if <flag>: break` as the last statement of a loop
body (the forward sweep keeps the real break; the backward sweep replays the recorded trip
count). Statements after a possible exit are guarded by the flag.

    for x in xs:                        broke = False
        if x > limit:                   for x in xs:
            break              ->           if x > limit:
        s = s + x                               broke = True
    else:                                   else:
        s = s * 2.0                             s = s + x
                                            if broke:
                                                break
                                        if not broke:
                                            s = s * 2.0

An early `return e` becomes `result = e; returned = True` and the function ends with
`return result`.
"""
import gast

from ..ir.walk import walk_tree
from ..ir import build

_LOOPS = (gast.For, gast.While)


def lower_exits(tree, namer):
    if not _has_early_return(tree.body) and not _has_jumps(tree.body):
        return tree
    lowering = _Lowering(namer)
    body = tree.body
    if _has_early_return(body):
        lowering.returned = namer.fresh("returned")
        lowering.result = namer.fresh("result")
        prefix = [build.assign(lowering.returned, build.const(False)),
                  build.assign(lowering.result, build.const(None))]
        body, _ = lowering.block(body, loop=None)
        body = prefix + body + [build.ret(build.name(lowering.result))]
    else:
        final = body[-1:] if body and isinstance(body[-1], gast.Return) else []
        body, _ = lowering.block(body[:len(body) - len(final)], loop=None)
        body = body + final
    first_real = next((s for s in tree.body if not (isinstance(s, gast.Expr)
                                                   and isinstance(s.value, gast.Constant))),
                      tree.body[0])
    for stmt in body:
        if not hasattr(stmt, "lineno"):
            build.with_location(stmt, first_real)
    tree.body = body
    return tree


def _has_early_return(body):
    returns = [n for s in body for n in walk_tree(s) if isinstance(n, gast.Return)]
    if not returns:
        return False
    return not (len(returns) == 1 and body and body[-1] is returns[0])


def _has_jumps(body):
    return any(isinstance(n, (gast.Break, gast.Continue)) for s in body for n in walk_tree(s))


class _Loop:
    def __init__(self, broke, skipped):
        self.broke = broke          # flag name, or None when the loop has no break
        self.skipped = skipped      # continue flag name, or None


class _Lowering:
    def __init__(self, namer):
        self.namer = namer
        self.returned = None
        self.result = None

    def block(self, stmts, loop):
        """Lowered statements, and the exit kinds ('return', 'break', 'continue') they may take."""
        out, kinds = [], set()
        for k, stmt in enumerate(stmts):
            lowered, exits = self.statement(stmt, loop)
            out.extend(lowered)
            if exits:
                kinds |= exits
                rest, rest_kinds = self.block(stmts[k + 1:], loop)
                kinds |= rest_kinds
                if rest:
                    guard = build.with_location(
                        gast.If(test=self._not_exited(exits, loop), body=rest, orelse=[]),
                        stmts[k + 1])
                    out.append(guard)
                break
        return out, kinds

    def statement(self, stmt, loop):
        loc = lambda new: build.with_location(new, stmt)  # noqa: E731
        if isinstance(stmt, gast.Return):
            value = stmt.value if stmt.value is not None else build.const(None)
            return [loc(build.assign(self.result, value)),
                    loc(build.assign(self.returned, build.const(True)))], {"return"}
        if isinstance(stmt, gast.Break):
            return [loc(build.assign(loop.broke, build.const(True)))], {"break"}
        if isinstance(stmt, gast.Continue):
            return [loc(build.assign(loop.skipped, build.const(True)))], {"continue"}
        if isinstance(stmt, gast.If):
            body, k1 = self.block(stmt.body, loop)
            orelse, k2 = self.block(stmt.orelse, loop)
            return [loc(gast.If(test=stmt.test, body=body or [gast.Pass()], orelse=orelse))], k1 | k2
        if isinstance(stmt, _LOOPS):
            return self.loop(stmt)
        if isinstance(stmt, (gast.With, gast.Try)):
            # a value-preserving `with` or a validating `try` (transforms/contexts.py): an
            # exit inside ends its block as the flag's guards end the rest
            new = stmt.__class__(**{f: getattr(stmt, f) for f in stmt._fields})
            new.body, kinds = self.block(stmt.body, loop)
            new.body = new.body or [gast.Pass()]
            if isinstance(stmt, gast.Try):
                new.orelse, k2 = self.block(stmt.orelse, loop)
                new.finalbody, k3 = self.block(stmt.finalbody, loop)
                kinds = kinds | k2 | k3
            return [loc(new)], kinds
        return [stmt], set()

    def loop(self, stmt):
        loc = lambda new: build.with_location(new, stmt)  # noqa: E731
        direct = _direct_jumps(stmt.body)
        returns = any(isinstance(n, gast.Return) for s in stmt.body for n in walk_tree(s))
        broke = self.namer.fresh("broke") if ("break" in direct or returns) else None
        skipped = self.namer.fresh("skipped") if "continue" in direct else None
        inner = _Loop(broke, skipped)
        body, kinds = self.block(stmt.body, inner)
        if skipped:
            body = [loc(build.assign(skipped, build.const(False)))] + body
        if "return" in kinds:
            body.append(loc(gast.If(test=build.name(self.returned),
                                    body=[loc(build.assign(broke, build.const(True)))],
                                    orelse=[])))
        if broke:
            body.append(loc(gast.If(test=build.name(broke), body=[gast.Break()], orelse=[])))
        new = stmt.__class__(**{f: getattr(stmt, f) for f in stmt._fields})
        new.body = body
        new.orelse = []
        out = []
        if broke:
            out.append(loc(build.assign(broke, build.const(False))))
        out.append(loc(new))
        if stmt.orelse:
            orelse, else_kinds = self.block(stmt.orelse, None)
            kinds |= else_kinds
            if broke:
                out.append(loc(gast.If(test=_not(build.name(broke)), body=orelse, orelse=[])))
            else:
                out.extend(orelse)
        return out, {"return"} & kinds

    def _not_exited(self, exits, loop):
        flags = []
        if "return" in exits:
            flags.append(self.returned)
        if "break" in exits and loop is not None:
            flags.append(loop.broke)
        if "continue" in exits and loop is not None:
            flags.append(loop.skipped)
        tests = [_not(build.name(f)) for f in flags]
        if len(tests) == 1:
            return tests[0]
        return gast.BoolOp(op=gast.And(), values=tests)


def _not(node):
    return gast.UnaryOp(op=gast.Not(), operand=node)


def _direct_jumps(body):
    """'break'/'continue' that belong to this loop (not to a nested one)."""
    found = set()
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, gast.Break):
            found.add("break")
        elif isinstance(node, gast.Continue):
            found.add("continue")
        elif isinstance(node, _LOOPS):
            continue
        elif isinstance(node, gast.If):
            stack.extend(node.body + node.orelse)
        elif isinstance(node, (gast.With, gast.Try)):
            stack.extend(node.body + getattr(node, "orelse", []) + getattr(node, "finalbody", []))
    return found
