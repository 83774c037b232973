"""The derivatives of the user's helpers a derivative calls, built through the pipeline.

    helper_derivative(env, "vjp", Linear.forward, ("self", "x"), stmt)
        -> HelperDerivative(vjp_Linear_forward_1, "vjp_Linear_forward_1", None, None)
    helper_derivative(env, "pair", Linear.forward, ("self", "x"), stmt)
        -> HelperDerivative(fwd_Linear_forward_1, "fwd_Linear_forward_1", None,
                            bwd_Linear_forward_1)

Each is specialised on what the arguments are at the calling statement (a new signature,
a new variant) and cached in the DerivativeCache with the request. A recursive helper
whose derivative is still being built is referred to by a ForwardReference, bound once it
exists. A "pair" is the reverse derivative split in two (backend/split_pair.py):
fwd_h(args) -> (value, saved) where f's forward sweep calls h, bwd_h(saved, cotangent)
-> the arguments' cotangents in f's backward sweep; None when it cannot be split (the
helper is still being derived: recursion; the split's conditions do not hold).
"""
import dataclasses
import inspect
from dataclasses import dataclass

from .analyses.activity import analyse_activity, reaches_output_without
from .analyses.shift_invariance import shift_cuts
from .transforms.random_replay import draws_of
from .transforms.split_calls import split_helper_calls, worth_splitting
from .analyses.call_kinds import call_signature, functions_only, result_arity
from .signature import UNKNOWN
from .backend.derivative_def import derived_name
from .derivation import Request
from .errors import ADError, MissingDerivativeError, UnsupportedSyntaxError
from .runtime_objects import replaced
from .derivative_cache import ForwardReference


@dataclass(frozen=True)
class HelperEnv:
    """What deriving a helper called from f reads of f's derivation."""
    request: object       # f's Request
    levels: object        # f's levels form
    kinds: object         # f's facts
    outputs: list         # f's output names
    registry: object
    cache: object         # the DerivativeCache
    derive: object        # pipeline.derive
    front: object         # helper -> its levels form (made once per derivation)


@dataclass(frozen=True)
class HelperDerivative:
    function: object      # vjp_h / jvp_h / fwd_h (or the ForwardReference to it)
    name: str             # its name in generated code
    result_arity: object  # n when the helper returns an n-tuple it builds, else None
    backward: object = None   # bwd_h of a pair


def helper_derivative(env, mode, helper, wrt, stmt):
    """The derivative of `helper` w.r.t. its parameters `wrt` for the call `stmt` of f:
    mode "vjp" (reverse), "jvp" (forward) or "pair" (reverse, split; None if it cannot)."""
    request = env.request
    helper = _twin_of(helper)
    helper_request = Request("jvp" if mode == "jvp" else "vjp", wrt, single=len(wrt) == 1,
                             helper=True, pair=mode == "pair",
                             preserve_result=mode == "pair", whole=request.whole)
    if mode != "jvp":
        # a helper reading an argument only in a test has a zero derivative in it: the
        # answer when the output depends on the arguments through other statements
        zero_allowed = request.zero_allowed or reaches_output_without(
            env.levels, request.wrt, env.outputs, env.registry, stmt.value)
        helper_request = dataclasses.replace(helper_request, zero_allowed=zero_allowed)
    signature = call_signature(helper, stmt, env.levels, env.kinds)
    if request.signature is None:
        # the general derivative still knows a function passed by name (np.tanh)
        signature = functions_only(signature)
    helper = _specialised_gradient(env, helper, signature)
    if signature is not None:
        # what the arguments are at this call site holds at every call from it (the class
        # of the layers a model's __call__ loops over, too)
        helper_request = dataclasses.replace(
            helper_request, signature=signature,
            variant=env.cache.variant(helper, dataclasses.replace(helper_request, pair=False,
                                                                   preserve_result=False),
                                      signature))
    key = (helper, helper_request)
    name = derived_name(helper, dataclasses.replace(helper_request, preserve_result=False))
    cache = env.cache
    if mode == "pair" and (key in cache.in_progress or (helper, dataclasses.replace(
            helper_request, pair=False, preserve_result=False)) in cache.in_progress
            or not _worth_splitting(env, helper)):
        return None               # recursion, or cheap to run again: the vjp, called whole
    if key in cache.in_progress:
        # recursion: the helper's derivative is still being built; refer to it (it is
        # bound once it exists) and read its arity
        return HelperDerivative(cache.in_progress[key], name,
                                result_arity(env.front(helper)))
    cache.in_progress[key] = ForwardReference(name)
    try:
        derived = env.derive(helper, helper_request)
        cache.in_progress[key].bind(derived.function)
    except ADError as exc:
        raise _at_the_call(exc, helper, env, stmt) from None
    finally:
        del cache.in_progress[key]
    if mode == "pair":
        if derived.backward is None:
            return None
        return HelperDerivative(derived.function, derived.function.__name__,
                                derived.result_arity, derived.backward.function)
    return HelperDerivative(derived.function, name, derived.result_arity)


def _twin_of(helper):
    """s2s_ad.hessian(e) / jacobian(e) called in f: the def of generated source doing what
    the wrapper does (transform_twins.py), made once; else (or when e's parameters are not
    plain) `helper` itself."""
    make = getattr(helper, "__s2s_twin__", None)
    if make is None:
        return helper
    made = getattr(helper, "__s2s_twin_made__", None)
    if made is None:
        made = helper.__s2s_twin_made__ = make() or helper
    return made


def _specialised_gradient(env, helper, signature):
    """`s2s_ad.grad(loss)(model, x)` called in f is a call of loss's general gradient;
    where the call's argument kinds are all known, its derivative is that of the
    gradient specialised on them (it knows the classes of a model's layers, which the
    general one refuses to call): else `helper` itself."""
    record = env.cache.derived_of(helper)
    if record is None or signature is None or record.request.signature is not None \
            or record.request.mode not in ("grad", "value_and_grad") \
            or any(kind == UNKNOWN for _, kind in signature):
        return helper
    params = inspect.signature(record.func).parameters
    if [name for name, _ in signature] != list(params):
        return helper
    general = dataclasses.replace(record.request, trace=None)
    specialised = dataclasses.replace(general, signature=signature, variant=env.cache.variant(
        record.func, general, signature))
    return env.derive(record.func, specialised).function


# libraries whose functions' source is their own machinery (validation, dispatch, LAPACK
# wrappers): followed into where s2s_ad has no rule, an error there helps nobody
_LIBRARIES = ("numpy", "scipy", "sklearn", "pandas", "statsmodels")


def _at_the_call(exc, helper, env, stmt):
    """An error from inside a library function's source, as one at the user's call of it
    (`scipy.linalg.expm(A)`: no rule, and scipy's code writes through a view); any other
    error as it is."""
    module = getattr(helper, "__module__", None) or ""
    where = env.levels.parsed.source_map.locate(stmt.value)
    transform = getattr(helper, "__s2s_transform__", None)
    if transform is not None:
        # s2s_ad.jacobian(e) / hessian(e) called in f: a wrapper (named as e) looping
        # over jvps, whose source is s2s_ad's own
        return MissingDerivativeError(
            f"`{getattr(helper, '__qualname__', '?')}` here is s2s_ad.{transform} of it, "
            f"whose result cannot be differentiated again (grad, value_and_grad, vjp, jvp "
            f"and hvp of a function can)", where,
            "build it from s2s_ad.hvp / jvp calls in f (one per basis vector), or "
            "differentiate the function itself one order more")
    if helper is replaced:
        # s._replace(...) of an argument whose class only a signature gives
        return UnsupportedSyntaxError(
            "`._replace(...)` / dataclasses.replace(...) of an argument is differentiated "
            "by the derivative specialised on the argument's class; this one (the general "
            "derivative) does not know it", where,
            "make the new object from its fields: `State(s.pos, vel)`")
    if module.split(".")[0] == "s2s_ad":
        # a helper of s2s_ad's own that a derivative calls (grad of grad of grad through
        # np.prod: its adjoint's tangent helper has no derivative): what failed inside it
        # is s2s_ad's code, which tells the user nothing
        return MissingDerivativeError(
            f"s2s_ad has no derivative of `{getattr(helper, '__name__', '?')}`, a helper "
            f"of the derivative being differentiated again: a derivative of this order "
            f"through the operation that calls it is not supported", where,
            "differentiate one order less through this operation, or write it with "
            "elementwise numpy operations")
    if module.split(".")[0] not in _LIBRARIES:
        return exc
    public = module.split(".")[0] if module.split(".")[0] == "numpy" else \
        ".".join(p for p in module.split(".") if not p.startswith("_"))
    # (a method, np.vectorize(g)'s __call__: named with its class)
    name = f"{public}.{getattr(helper, '__qualname__', None) or getattr(helper, '__name__', '?')}"
    return MissingDerivativeError(
        f"no derivative is known for `{name}`, and its source (the library's own code) "
        f"cannot be differentiated: {exc.message}",
        where,
        "register one with @s2s_ad.adjoint (and @s2s_ad.tangent for forward mode), or "
        "write the computation with differentiable numpy operations")


def _worth_splitting(env, helper):
    try:
        levels = env.front(helper)
    except Exception:       # (read with the call's facts only, `self.forward(*args)`):
        return True         # its derivative reports what is wrong
    return worth_splitting(levels, draws_of(helper, env.front))


def split_calls(env, activity, namer, bind, generated):
    """f's calls of helpers through their split vjps (transforms/split_calls.py), unless f
    is itself a generated derivative (differentiated again: grad of grad, hvp) or asks for
    whole vjps (the twin of one). -> (levels, kinds, activity, env, {fwd_h: (bwd_h, wrt)})
    with f's activity analysed again when a call was split."""
    request, levels, kinds = env.request, env.levels, env.kinds
    if request.whole or generated:
        return levels, kinds, activity, env, {}
    levels, kinds, pairs = split_helper_calls(
        levels, kinds, activity, env.registry, namer, bind,
        lambda helper, wrt, stmt: helper_derivative(env, "pair", helper, wrt, stmt))
    if pairs:
        activity = analyse_activity(levels, request.wrt, env.outputs, env.registry,
                                    shift_cuts(levels, env.outputs, kinds))
        env = dataclasses.replace(env, levels=levels, kinds=kinds)
    return levels, kinds, activity, env, pairs


def whole_twin(derive_for, request, cache):
    """What differentiating f's derivative again reads when it calls split vjps: f's
    derivative with every helper's vjp called whole, without in-place operations,
    (function, source) (DerivativeCache.differentiable). `derive_for(request)` derives f."""
    whole = derive_for(dataclasses.replace(request, whole=True))
    twin = cache.differentiable(whole.function)
    return twin, cache.derived_of(twin).source
