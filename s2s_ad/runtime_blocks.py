"""Markers of the blocks normalize keeps in place (transforms/contexts.py): a `with` of a
value-preserving manager, a validating `try` and its `finally`. The derivative's def is
written with the blocks themselves (backend/contexts.py), so these run only in the levels
form s2s_ad.normalize shows, where they do nothing.

    context_enter(np.errstate, divide="ignore")   ...   context_exit(np.errstate, divide="ignore")
    context_enter(warnings.catch_warnings, record=True); w = context_bound()   ...
    guard_enter(1, LinAlgError, ValueError, "not SPD")   ...   guard_exit()
    finally_enter()   ...   finally_exit()
"""


def context_enter(factory, *args, **keywords):
    """`with factory(*args, **keywords):` begins."""


def context_exit(factory, *args, **keywords):
    """That `with` block ends."""


def context_bound():
    """The value `with factory(...) as name:` binds (here None: the derivative's `with`
    binds the real one)."""


def guard_enter(*handler):
    """`try: ... except caught: raise raised(*args)` begins (handler: how many classes are
    caught, those classes, raised, args)."""


def guard_exit():
    """That `try` block's body ends."""


def finally_enter():
    """The `finally` block of the `try` just ended begins."""


def finally_exit():
    """That `finally` block ends."""


def body_completes(*caught):
    """`try: body / except caught: fallback` begins: the levels form runs `if completed:
    body / else: fallback`; the derivative's def runs the body in a `try` catching `caught`
    and sets the test to whether it completed (backend/fallbacks.py)."""
    return True
