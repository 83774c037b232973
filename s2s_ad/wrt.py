"""Which parameters a derivative is taken with respect to: `wrt` as parameter names.

    wrt_names(f, 0) == (("x",), True); wrt_names(f, ("x", 1)) == (("x", "y"), False)
"""
import inspect
from typing import Sequence, Union

import numpy as np

from .errors import APIUsageError, function_location

Wrt = Union[int, str, Sequence[Union[int, str]]]   # a position, a name, or several


def wrt_names(f, wrt):
    """Normalise wrt to a tuple of parameter names; also whether one was asked for."""
    try:
        params = [p for p in inspect.signature(f).parameters.values()
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    except (TypeError, ValueError):
        raise APIUsageError(f"cannot read the parameters of {f!r}") from None
    if any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(f).parameters.values()):
        raise APIUsageError(f"{getattr(f, '__qualname__', f)} takes *args, which s2s_ad does "
                            f"not differentiate yet", function_location(f),
                            "name each parameter (def f(x, y): ...)")
    single = not isinstance(wrt, (tuple, list))
    items = [wrt] if single else list(wrt)
    if not items:
        raise APIUsageError("wrt is empty: name at least one argument to differentiate")
    positional = [p.name for p in params if p.kind != p.KEYWORD_ONLY]
    names = []
    for item in items:
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not -len(positional) <= item < len(positional):
                raise APIUsageError(
                    f"wrt={item} is out of range: {getattr(f, '__qualname__', f)} takes "
                    f"{len(positional)} positional argument(s) ({', '.join(positional)})",
                    function_location(f), "give a position below the number of arguments")
            names.append(positional[item])
        elif isinstance(item, str):
            if item not in [p.name for p in params]:
                raise APIUsageError(f"wrt={item!r}: {getattr(f, '__qualname__', f)} has no "
                                    f"parameter named {item!r}", function_location(f),
                                    f"use one of: {', '.join(p.name for p in params)}")
            names.append(item)
        else:
            raise APIUsageError(f"wrt entries must be positions or names, got {item!r}")
    if len(set(names)) != len(names):
        raise APIUsageError(f"wrt names the same argument twice: {names}")
    return tuple(names), single
