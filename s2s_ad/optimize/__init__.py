"""Stage 7: small clean-up passes over generated derivative code, run to a fixed point.

Each pass takes a statement list and returns `(statements, changed)`.
"""
from .dce import eliminate_dead_code, remove_unread_assignments
from .fold import fold_constants
from .zeros import drop_empty_comments, propagate_zeros

PASSES = (fold_constants, propagate_zeros, eliminate_dead_code, remove_unread_assignments,
          drop_empty_comments)


def with_raising(raising, passes=PASSES):
    """`passes` with dead-code elimination keeping the statements of f that may raise
    (analyses/raising.py), or checks standing in for them."""
    import functools
    replaced = {eliminate_dead_code: functools.partial(eliminate_dead_code, raising=raising),
                remove_unread_assignments: functools.partial(remove_unread_assignments,
                                                             raising=raising)}
    return tuple(replaced.get(p, p) for p in passes)


def optimize(body, passes=PASSES, max_rounds=10):
    """Run the passes to a fixed point (at most `max_rounds` rounds)."""
    for _ in range(max_rounds):
        any_change = False
        for run in passes:
            body, changed = run(body)
            any_change |= changed
        if not any_change:
            break
    return body
