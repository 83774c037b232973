"""The calling order of vjp, jvp and hvp: f's arguments, then the (co)tangent or vector.

    vf = with_defaults(dispatching, generated, f, "vjp", ("x",), True)
    vf(x, cotangent)      # f's defaults filled in, the cotangent made an array of floats

`derivative_parameter(generated)` names the (co)tangent parameter of a generated vjp/jvp.
"""
import functools
import inspect

import numpy as np

from .errors import APIUsageError, function_location
from .runtime_objects import is_object
from .signature import is_masked_array


def derivative_parameter(generated):
    """The (co)tangent parameter of a generated vjp / jvp (a function, or its parameters,
    inspect.Parameter, as with_last_parameter lays them out): its last positional one."""
    params = generated if isinstance(generated, list) \
        else inspect.signature(generated).parameters.values()
    return [p.name for p in params if p.kind is not p.KEYWORD_ONLY][-1]


_LAST = {"vjp": "cotangent", "jvp": "tangent", "hvp": "vector v"}


class LaterGenerated:
    """The general derivative behind a public vjp / hvp, built the first time code that
    s2s_ad differentiates calls it (`resolve_generated`); until then only its name."""

    def __init__(self, make, name):
        self._make = make
        self.__name__ = name

    def function(self):
        return self._make()


def resolve_generated(target):
    """The generated function behind a public derivative (`__s2s_generated__`), built
    now if it was left for later; None for anything else."""
    generated = getattr(target, "__s2s_generated__", None)
    return generated.function() if isinstance(generated, LaterGenerated) else generated


def with_last_parameter(params, base):
    """The parameters (inspect.Parameter) of a derivative handed to users taking a
    (co)tangent after f's positional parameters, named `base` unless f has that name:
    positional defaults left out, keyword-only parameters kept."""
    taken = {p.name for p in params}
    name, k = base, 0
    while name in taken:
        k += 1
        name = f"{base}_{k}"
    positional = [p.replace(kind=p.POSITIONAL_OR_KEYWORD, default=p.empty) for p in params
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keyword = [p for p in params if p.kind is p.KEYWORD_ONLY]
    return positional + [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)] \
        + keyword


def with_defaults(function, generated, f, mode, names, single):
    """vf(*args, cotangent) / jf(*args, tangent) / hv(*args, v), calling `function` (the
    dispatcher or the generated derivative, which take every argument of f, then the
    (co)tangent) with f's defaults filled in. A jvp's tangent is checked against the
    arguments' shapes (`names`: the wrt parameters), so a mismatch is a clear error
    rather than one inside generated code. Code calling it that s2s_ad differentiates
    calls `generated`, the general derivative."""
    signature = inspect.signature(f)
    params = list(signature.parameters.values())
    what = _LAST[mode]

    @functools.wraps(function)
    def derivative(*args, **kwargs):
        if not args:
            raise APIUsageError(f"pass the arguments of {f.__qualname__}, then the {what}")
        *primals, last = args
        try:
            bound = signature.bind(*primals, **kwargs)
        except TypeError as exc:
            raise APIUsageError(f"{generated.__name__} takes the arguments of "
                                f"{f.__qualname__}, then the {what} last: {exc}") from None
        bound.apply_defaults()
        if mode == "hvp" and single and isinstance(last, (list, tuple)) and \
                not isinstance(bound.arguments[names[0]], (list, tuple)):
            last = np.asarray(last, dtype=float)        # a vector written as a list
        elif mode != "hvp" and last is not None and not is_object(last) and \
                not isinstance(last, (float, tuple, list, dict, str)):
            last = _real_array(last)
        if mode in ("jvp", "hvp"):
            _check_tangent(last, bound, names, single, f, what)
        return function(*[bound.arguments[p.name] for p in params
                          if p.kind is not p.KEYWORD_ONLY], last,
                        **{p.name: bound.arguments[p.name] for p in params
                           if p.kind is p.KEYWORD_ONLY})
    derivative.__wrapped__ = function
    derivative.__s2s_generated__ = generated
    return derivative


def _real_array(value):
    """A (co)tangent as an array of floats: integers and booleans become float64, a float
    dtype is kept (a float32 cotangent gives float32 gradients); complex numbers are kept
    (and rejected by the dispatcher, naming them) rather than cast away with a warning."""
    if is_masked_array(value):
        return value
    array = np.asarray(value)
    return array if array.dtype.kind in "fc" else array.astype(float)


def _check_tangent(tangent, bound, names, single, f, what="tangent"):
    """A jvp's tangent or an hvp's vector has the shape of the argument it goes with (an
    hvp's vector of another shape used to broadcast into a result of the wrong shape)."""
    pieces = [tangent] if single else tangent
    if not single and (not isinstance(tangent, (tuple, list)) or len(tangent) != len(names)):
        mode = "jvp" if what == "tangent" else "hvp"
        raise APIUsageError(f"{mode} of {f.__qualname__} w.r.t. {', '.join(names)}: pass a "
                            f"tuple of {len(names)} {what.split()[-1]}s")
    for name, piece in zip(names, pieces):
        problem = _mismatch(bound.arguments[name], piece, name)
        if problem is not None:
            raise APIUsageError(f"the {what} for {problem}", function_location(f))


def _mismatch(value, piece, path):
    """Why `piece` cannot be the tangent of `value` at `path` (`p['w']`): an array's shape
    differs, or a dict's, list's, tuple's or object's tangent is not one like it (an
    object's is an object of its class); None when it can. (A float tangent for a model
    failed inside the generated code, as `0.5 @ x`.) An object's tangent may also be a
    dict of its attributes' tangents, a list's an array."""
    if isinstance(value, (float, int, np.ndarray)):
        if isinstance(piece, (dict, list, tuple)) or is_object(piece):
            return f"`{path}` is {_described(piece)}, but `{path}` has shape " \
                   f"{np.shape(value)}"
        if np.shape(piece) != np.shape(value):
            return f"`{path}` has shape {np.shape(piece)}, but `{path}` has shape " \
                   f"{np.shape(value)}"
        return None
    if is_object(value):
        if not isinstance(piece, (type(value), dict)):
            return f"`{path}` is {_described(piece)}, but `{path}` is a " \
                   f"{type(value).__name__} (its tangent is a {type(value).__name__} " \
                   f"holding the tangents of its attributes)"
        return None
    if isinstance(value, dict):
        if not isinstance(piece, dict):
            return f"`{path}` is {_described(piece)}, but `{path}` is a dict (its " \
                   f"tangent is a dict with the same keys)"
        for key, item in value.items():
            if key not in piece:
                if isinstance(item, (float, np.ndarray, dict, list, tuple)):
                    return f"`{path}` has no key {key!r}, which `{path}` has"
                continue
            problem = _mismatch(item, piece[key], f"{path}[{key!r}]")
            if problem is not None:
                return problem
        return None
    if isinstance(value, (list, tuple)) and not isinstance(piece, np.ndarray):
        if not isinstance(piece, (list, tuple)) or len(piece) != len(value):
            return f"`{path}` is {_described(piece)}, but `{path}` is " \
                   f"{_described(value)} (its tangent is a sequence of its length)"
        for k, (item, item_piece) in enumerate(zip(value, piece)):
            problem = _mismatch(item, item_piece, f"{path}[{k}]")
            if problem is not None:
                return problem
    return None


def _described(value):
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)} items"
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    name = type(value).__name__
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"
