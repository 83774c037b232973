"""Shrinks a failing program and writes it as a standalone reproducer.

`minimise(program)` tries, greedily and in a fixed order, smaller variants of the
program's source: a statement dropped (an emptied block gets `pass`), an `if`/loop
replaced by its body, an expression replaced by one of its operands. A variant is kept
when it fails the same way (same status and cause); the search restarts from it and
stops when no variant is kept or the budget of checks is spent.

`write_reproducer(program, outcome, directory)` writes a `.py` file that needs only
numpy and s2s_ad: the program, its arguments, and a `__main__` block that prints
s2s_ad's derivative beside central differences.
"""
import ast
import copy
import dataclasses
import itertools
import os
import tempfile

import numpy as np

from .runner import check, load, check_loaded

_COMPOUND = (ast.If, ast.For, ast.While)
_names = itertools.count()


def _children(expr):
    if isinstance(expr, ast.BinOp):
        return [expr.left, expr.right]
    if isinstance(expr, ast.IfExp):
        return [expr.body, expr.orelse]
    if isinstance(expr, ast.Call):
        return [a for a in expr.args if not isinstance(a, ast.Starred)]
    if isinstance(expr, ast.UnaryOp):
        return [expr.operand]
    return []


def _edits(tree):
    """Each edit as (node number in ast.walk order, field, index, kind, choice)."""
    statements, expressions = [], []
    for n, node in enumerate(ast.walk(tree)):
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                for i, stmt in enumerate(value):
                    # (imports stay: the reproducer runs standalone)
                    if not (isinstance(stmt, ast.Pass) and len(value) == 1
                            or isinstance(stmt, (ast.Import, ast.ImportFrom))):
                        statements.append((n, field, i, "drop", None))
                    if isinstance(stmt, _COMPOUND):
                        statements.append((n, field, i, "inline", "body"))
                        if stmt.orelse:
                            statements.append((n, field, i, "inline", "orelse"))
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.expr):
                        expressions += [(n, field, i, "replace", c)
                                        for c in range(len(_children(item)))]
            elif isinstance(value, ast.expr):
                expressions += [(n, field, None, "replace", c)
                                for c in range(len(_children(value)))]
    return statements + expressions


def _apply(tree, edit):
    n, field, index, kind, choice = edit
    tree = copy.deepcopy(tree)
    node = next(itertools.islice(ast.walk(tree), n, None))
    value = getattr(node, field)
    if kind == "drop":
        del value[index]
        if not value:
            value.append(ast.Pass())
    elif kind == "inline":
        value[index:index + 1] = getattr(value[index], choice) or [ast.Pass()]
    elif index is None:
        setattr(node, field, _children(value)[choice])
    else:
        value[index] = _children(value[index])[choice]
    return ast.fix_missing_locations(tree)


def minimise(program, budget=400):
    """(smallest program found failing as `program` does, its outcome)."""
    with tempfile.TemporaryDirectory(prefix="s2s_ad_minimise_") as directory:
        def outcome_of(candidate):
            try:
                f = load(candidate, directory, f"fuzz_minimise_{next(_names)}")
            except Exception:
                return None
            return check_loaded(f, candidate)

        target = check(program, directory)
        tree, spent = ast.parse(program.source), 0
        progress = True
        while progress and spent < budget:
            progress = False
            for edit in _edits(tree):
                if spent >= budget:
                    break
                candidate_tree = _apply(tree, edit)
                candidate = dataclasses.replace(program, source=ast.unparse(candidate_tree) + "\n")
                spent += 1
                outcome = outcome_of(candidate)
                if outcome and (outcome.status, outcome.cause) == (target.status, target.cause):
                    tree, program, target, progress = candidate_tree, candidate, outcome, True
                    break
    return program, target


def _literal(value):
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, tuple):
        return "(" + "".join(f"{_literal(v)}, " for v in value) + ")"
    if isinstance(value, np.ndarray):
        dtype = ", dtype=np.float32" if value.dtype == np.float32 else ""
        return f"np.array({np.array2string(value, separator=', ', precision=17)}{dtype})"
    if isinstance(value, np.floating):
        return f"np.{type(value).__name__}({float(value)!r})"
    return repr(value)


_MAIN = '''

ARGS = ({args},)
WRT = {wrt!r}
MODE = {mode!r}


def central_difference(f, args, k, direction, weight, step=1e-6):
    """d/de <weight, f(args with args[k] + e * direction)>."""
    def at(e):
        moved = list(args)
        moved[k] = args[k] + e * direction
        return float(np.sum(weight * np.asarray(f(*moved))))
    return (at(step) - at(-step)) / (2 * step)


if __name__ == "__main__":
    import s2s_ad
    rng = np.random.default_rng(0)
    k = WRT if isinstance(WRT, int) else WRT[0]
    direction = rng.standard_normal(np.shape(ARGS[k]))
    direction = direction if np.ndim(direction) else float(direction)
    weight = rng.standard_normal(np.shape(f(*ARGS)))
    if MODE == "grad":
        got = s2s_ad.grad(f, wrt=k)(*ARGS)
        print("s2s_ad:", float(np.sum(got * direction)))
    elif MODE == "vjp":
        got = s2s_ad.vjp(f, wrt=k)(*ARGS, weight if np.ndim(weight) else float(weight))
        print("s2s_ad:", float(np.sum(got * direction)))
    elif MODE == "gradgrad":
        got = s2s_ad.grad(s2s_ad.grad(f, wrt=0), wrt=0)(*ARGS)
        step, moved = 1e-4, [list(ARGS), list(ARGS)]
        moved[0][0], moved[1][0] = ARGS[0] + step, ARGS[0] - step
        first = s2s_ad.grad(f, wrt=0)
        print("s2s_ad:", got)
        print("differences of the gradient:", (first(*moved[0]) - first(*moved[1])) / (2 * step))
        raise SystemExit
    elif MODE == "jvp":
        got = s2s_ad.jvp(f, wrt=k)(*ARGS, direction)[1]
        print("s2s_ad:", float(np.sum(weight * got)))
    else:
        got = s2s_ad.hvp(f, wrt=k)(*ARGS, direction)
        grad = s2s_ad.grad(f, wrt=k)
        moved = [list(ARGS), list(ARGS)]
        moved[0][k], moved[1][k] = ARGS[k] + 1e-5 * direction, ARGS[k] - 1e-5 * direction
        print("s2s_ad:", got)
        print("differences of the gradient:", (grad(*moved[0]) - grad(*moved[1])) / 2e-5)
        raise SystemExit
    print("central differences:", central_difference(f, ARGS, k, direction, weight))
'''


def write_reproducer(program, outcome, directory, name=None):
    """Writes the reproducer; returns its path."""
    name = name or f"seed_{program.seed}_{program.mode}.py"
    header = (f'"""Found by `python -m tests.fuzz` (seed {program.seed}, mode {program.mode}):\n'
              f"{outcome.status}: {outcome.cause}\n\"\"\"\n")
    path = os.path.join(directory, name)
    with open(path, "w") as out:
        out.write(header + program.source + _MAIN.format(
            args=", ".join(_literal(a) for a in program.args), wrt=program.wrt,
            mode=program.mode))
    return path
