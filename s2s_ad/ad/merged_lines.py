"""The runs of a block of number code for ad/shared_partials.py: one source statement's
levels statements each (statement_runs), and consecutive lines joined where a value read
by the next line alone carries no tangents of its own (merged_runs: cross-statement
preaccumulation).

A forward-mode gradient gives every value that depends on an input its tangents, one per
direction. Where a line's result is read by the next line only (`z` below, dead after
it), its partials can go into the next line's by the chain rule instead, taken backwards
over both lines (shared_partials._through_inner): z keeps its value and no tangent, and
a partial read by two leaves' terms is bound once. Heteroscedastic Gaussian NLL, four
directions:

    dz_dlog_sd = -(t5_0 * t6_0)                     z = t5_0 * t6_0
    dz_dm0 = -t6_0                                  dnll_dz = z
    dz_dm1 = -(t6_0 * x)                     ->     dnll_dt4_0 = -(dnll_dz * t6_0)
    dz_ds0 = dz_dlog_sd                             dnll_dlog_sd = 1.0 + ...
    dz_ds1 = dz_dlog_sd * dlog_sd_ds1               dnll_dm0 = dnll_dm0 + dnll_dt4_0
    z = t5_0 * t6_0                                 dnll_dm1 = dnll_dm1 + dnll_dt4_0 * x
    dnll_dz = z                                     ...
    dnll_dm0 = dnll_dm0 + dnll_dz * dz_dm0

Joined only where both forms are costed and the joined one is cheaper than the two
lines' own cheaper forms; only plain assignments of one block (no branch between them),
the first line's result carrying a derivative and read nowhere else (not by its own
line, so never a value carried from the previous iteration).
"""
import gast

from .shared_partials import cheaper_cost, load_counts, partials_plan, shares


def statement_runs(stmts):
    """Split a block's statements into runs: consecutive plain assignments to names from
    one source line (one source statement's levels statements), and the rest alone."""
    runs, run = [], []
    for stmt in stmts:
        plain = isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
            and getattr(stmt, "lineno", None) is not None
        if plain and run and run[-1].lineno == stmt.lineno:
            run.append(stmt)
            continue
        if run:
            runs.append(run)
        run = [stmt] if plain else []
        if not plain:
            runs.append([stmt])
    if run:
        runs.append(run)
    return runs


def merged_runs(runs, directions, loads, memo=None):
    """`runs` with consecutive runs of plain assignments joined where the first's result
    (`z` of `z = (y - m) * exp(-s)`) is read by the next alone and carrying its tangents
    costs more than going through it: its partials enter the next statement's by the
    chain rule, `z` keeps its value and no tangent (cross-statement preaccumulation).
    The cost of a run is its cheaper form, operations and tangent assignments counted.
    `memo`: the block's plans (shared_partials.partials_plan), kept for shared_statement."""
    out = []
    for run in runs:
        prev = out[-1] if out else None
        if prev is not None and _joinable(prev, run, loads, directions):
            joined = prev + run
            plan = partials_plan(joined, directions, loads, memo, lambda: sum(
                partials_plan(r, directions, loads, memo).own_cost for r in (prev, run)))
            apart = [cheaper_cost(r, directions, loads, memo) for r in (prev, run)] \
                if plan is not None and (plan.shared or plan.bound) else [None]
            apart = apart if None not in apart and shares(plan) else [None]
            if None not in apart and plan.shared_cost + plan.shared_stores < sum(apart):
                out[-1] = joined        # (shared_statement writes it shared)
                continue
        out.append(run)
    return out


def _joinable(first, second, loads, directions):
    """Runs of plain assignments, the first's result carrying a derivative and read only
    in the second (not its result, which the second then reads back)."""
    if not all(_plain(s) for s in first + second):
        return False
    value = first[-1].targets[0].id
    if not any(d.i.activity.is_active(value) for d in directions):
        return False            # (the items a loop unpacks: nothing to carry)
    here = load_counts(gast.Module(body=list(second), type_ignores=[]))
    return here[value] == loads[value] and second[-1].targets[0].id != value \
        and value not in {s.targets[0].id for s in second}


def _plain(stmt):
    return isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
        and getattr(stmt, "lineno", None) is not None
