"""What the pipeline refuses before it differentiates: programs whose derivative s2s_ad
would get wrong without noticing. Each check raises a located error (file, line, the
construct, what to write instead) or returns None; none changes its input.

    def f(x):                          reject_silent_zero(levels, ("x",), ...)
        return np.round(x) * 2.0  ->   NonDifferentiableError: the output depends on `x`
                                       only through this operation ... zero everywhere
"""
import os

import gast

from .analyses.activity import only_nondifferentiable_paths, writes_into_arguments
from .analyses.call_kinds import known_functions
from .analyses.state_updates import reject_state_read_back
from .errors import (APIUsageError, MissingDerivativeError, NonDifferentiableError,
                     SharedMemoryWriteError, UnsupportedSyntaxError, function_location)
from .ir.build import dotted_path
from .ir.primitives import operation_of
from .ir.walk import all_statements, walk_tree
from .runtime_objects import defines_call


def reject_constant_output(func, out_atom):
    """f returns None or a constant that is no number: nothing to differentiate."""
    if isinstance(out_atom, gast.Constant) and out_atom.value is None:
        raise APIUsageError(f"{func.__qualname__} returns None: there is nothing to "
                            f"differentiate", function_location(func),
                            "return the value to differentiate (e.g. `return loss`)")
    if isinstance(out_atom, gast.Constant) and not isinstance(out_atom.value, (int, float)):
        raise APIUsageError(f"{func.__qualname__} returns the constant "
                            f"{out_atom.value!r}, not a number", function_location(func),
                            "return the value to differentiate (e.g. `return loss`)")


def reject_unfollowed(levels, request, activity, registry):
    """Generators, called arguments, writes s2s_ad cannot follow: located errors (a called
    argument may be an object with __call__; the general derivative raises when run)."""
    reject_generator(levels, request)
    if request.signature is not None:
        reject_called_arguments(levels, request.wrt, known_functions(request.signature))
    reject_untracked_writes(levels, activity, registry)
    reject_state_read_back(levels, activity, request)


def reject_called_arguments(levels, wrt, functions=None):
    """Differentiating with respect to an argument f calls (a function, a callable object)
    would follow nothing into the call: a located error, never a zero gradient. Not for
    an object whose class `functions` (known_functions of the signature) gives with a
    `def __call__`: the call is Model.__call__(model, x), through model's attributes.
    (The general derivative, which knows no class, raises the same error when it runs:
    held_methods_of_varied_objects.)"""
    called = {name for name in wrt
              if defines_call((functions or {}).get(f"{name}.__class__"))}
    for node in walk_tree(levels.parsed.tree):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id in wrt and node.func.id not in called:
            raise _called_argument(node.func.id, levels.parsed.source_map.locate(node))


def _called_argument(name, location):
    return NonDifferentiableError(
        f"`{name}` is called here: s2s_ad does not differentiate with respect to a "
        f"function, nor to a callable object where the derivative does not know its class "
        f"(the general one, S2S_AD_GENERAL=1)", location,
        "differentiate with respect to the values it uses: pass them as arguments; for a "
        "model, call its class's method: Model.__call__(model, x)")


def reject_generator(levels, request):
    """The function differentiated is itself a generator: it returns no value to take the
    derivative of (a generator of yours called in it is read as a list of its items,
    transforms/generators.py). Located at its first `yield`."""
    import inspect
    from .frontend.parse import parse
    func = levels.parsed.func
    if request.helper or not inspect.isgeneratorfunction(func):
        return
    first = next(n for n in walk_tree(parse(func).tree)
                 if isinstance(n, (gast.Yield, gast.YieldFrom)))
    raise UnsupportedSyntaxError("generators (`yield`) cannot be differentiated",
                                 levels.parsed.source_map.locate(first), "return a value")


def reject_silent_zero(levels, wrt, outputs, registry):
    """An output that depends on the differentiated arguments only through operations
    without a derivative (np.round, an index, a comparison) would get a zero derivative
    everywhere: a located error, in reverse and forward mode alike."""
    for name, node in only_nondifferentiable_paths(levels, wrt, outputs, registry):
        op = operation_of(node, levels.callees) if isinstance(node, gast.Call) else None
        constant = registry.constant_parameters(op.primitive) \
            if op is not None and op.primitive is not None else ()
        if constant:
            # a template without a derivative in some arguments (gammainc's `a`): there
            # is one, s2s_ad does not know it (not "zero everywhere")
            which = ", ".join(f"`{c}`" for c in sorted(constant))
            raise MissingDerivativeError(
                f"the output depends on `{name}` only through this operation's argument(s) "
                f"{which}, in which s2s_ad has no derivative (it has one in the others; "
                f"the gradient is not zero)",
                levels.parsed.source_map.locate(node),
                "differentiate with respect to another argument, or register a "
                "derivative with @s2s_ad.adjoint")
        raise NonDifferentiableError(
            f"the output depends on `{name}` only through this operation, which has no "
            f"derivative: the gradient would be zero everywhere",
            levels.parsed.source_map.locate(node),
            "differentiate with respect to another argument, or mark the intent with "
            "s2s_ad.stop_gradient(...)")


def reject_untracked_writes(levels, activity, registry):
    """Writes s2s_ad cannot follow (into a call's arguments) are located errors, never a
    silent wrong gradient (writes through a second name for one array: aliased_writes)."""
    for call, why in writes_into_arguments(levels, activity.varied, registry):
        if dotted_path(call.func) == "setattr":         # an attribute, not an array
            raise UnsupportedSyntaxError(
                "`setattr` writes a value that carries a derivative into an attribute, "
                "which s2s_ad does not follow", levels.parsed.source_map.locate(call),
                "keep the value in a local variable and use that (write `obj.name = value` "
                "too if the object needs it)")
        raise UnsupportedSyntaxError(
            f"this call may write a value that carries a derivative into an array: {why}, "
            f"and s2s_ad follows values through assignments only",
            levels.parsed.source_map.locate(call),
            "assign the result, e.g. `y = np.multiply(x, 2.0)`, `y = x.copy()`, "
            "`y[i] = expr` or `y = np.sort(x)`")


def held_methods_of_varied_objects(levels, activity, generated=False):
    """`m.loss(x)` with `m` carrying the derivative (an object argument differentiated, or
    one built from differentiated values) where m's class is not known while the
    derivative is built (the general derivative): if `m.loss` is a method, the call, made
    as a function chosen when the code runs, is differentiated with respect to its
    arguments only, and the part through m's attributes would be a silent zero; if it is
    a function m holds (`m.act = np.tanh`), it is right. [(the call's statement, the name
    holding `m.loss`, the located error to raise when it is a method, whether to raise it
    whatever the name holds)]: the
    derivative checks which it is when it runs (transforms/held_methods.py).

        def f(m, x):                        check_not_method(t1_0, "...`m.loss(...)`
            return m.loss(x)           ->   calls a method of `m`, which carries the
                                            derivative ...")

    Also `layer(x)` of a varied value itself (for layer in self.layers) and `self.l1(x)`
    on the method's own `self`: either may be an object with a `def __call__` reading
    attributes that carry the derivative. Not in s2s_ad's own derivative differentiated
    again (`generated`): the first derivative refused these calls already, and its tape
    (one list for every value it saves) makes anything it restores look varied. `m.act(h)` where the derivative's signature
    names the function (or l1's class) is called by name, not here.
    """
    from .runtime_functions import call_function
    from .transforms.aliased_writes import located
    methods, found = {}, []
    for stmt in all_statements(levels.tree.body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and isinstance(stmt.value, gast.Attribute) \
                and isinstance(stmt.value.value, gast.Name) \
                and stmt.value.value.id in activity.varied:
            methods[stmt.targets[0].id] = (stmt.value.value.id, stmt.value.attr)
    for stmt in all_statements(levels.tree.body):
        call = stmt.value if isinstance(stmt, (gast.Expr, gast.Assign)) else None
        if not isinstance(call, gast.Call) or not call.args \
                or not isinstance(call.args[0], gast.Name) \
                or operation_of(call, levels.callees).primitive is not call_function:
            continue
        held = call.args[0].id
        if generated and held not in methods:
            continue
        if held in levels.resolution.parameters and held in activity.varied:
            # f's own argument, differentiated and called: whatever it holds, the general
            # derivative cannot follow it (a function, or an object of a class unknown here)
            found.append((stmt, held, _called_argument(
                held, located(levels, call, portable=True)), True))
            continue
        if held not in methods and held in activity.varied:
            # `layer(x)` for layer in self.layers: an object with a `def __call__` (or a
            # bound method) that carries the derivative itself
            found.append((stmt, held, UnsupportedSyntaxError(
                f"`{held}(...)` calls a value that carries the derivative: if it is an "
                f"object with a `def __call__` (or a bound method), called as a function "
                f"chosen when the code runs it is differentiated with respect to its "
                f"arguments only, and the part through its own attributes would be a "
                f"silent zero", located(levels, call, portable=True),
                f"call it through its class, `ClassName.__call__({held}, ...)`"), False))
            continue
        if held not in methods:
            continue
        owner, attr = methods[held]
        error = UnsupportedSyntaxError(
            f"`{owner}.{attr}(...)` calls a method of `{owner}`, which carries the "
            f"derivative (or an object with a `def __call__` it holds): a method chosen when "
            f"the code runs is differentiated with respect "
            f"to its arguments only, and the part through `{owner}`'s attributes would be a "
            f"silent zero", located(levels, call, portable=True),
            f"call it through its class, `ClassName.{attr}({owner}, ...)` (an object it "
            f"holds: `Layer.__call__({owner}.{attr}, ...)`), or read the attributes in f "
            f"(`{owner}.W`)")
        found.append((stmt, held, error, False))
    return found


# library functions s2s_ad has no derivative for and must not follow into (their source is
# the library's own machinery): module prefix -> why, what to do
_UNSUPPORTED_LIBRARIES = {
    "scipy.integrate": (
        "scipy.integrate's solvers and quadratures (odeint, solve_ivp, quad) are not "
        "supported: s2s_ad has no derivative rule for them and does not differentiate "
        "through scipy's own code",
        "write the integration as a loop of steps in your function (explicit Euler or "
        "Runge-Kutta), which s2s_ad differentiates"),
}


def reject_unsupported_library_calls(levels):
    """A call of a library function listed above: a located error at the call, instead of
    one from inside the library's source."""
    for stmt in all_statements(levels.tree.body):
        for node in walk_tree(stmt):
            path = dotted_path(node.func) if isinstance(node, gast.Call) else None
            callee = levels.callees.get(path)
            module = getattr(callee, "__module__", None) or ""
            for prefix, (why, hint) in _UNSUPPORTED_LIBRARIES.items():
                if module == prefix or module.startswith(prefix + "."):
                    raise MissingDerivativeError(
                        f"`{prefix}.{getattr(callee, '__name__', path)}`: {why}",
                        levels.parsed.source_map.locate(stmt), hint)


def write_refusal(function, at, kind, called_at=None, state=False):
    """The located error for a def that writes (at `at`) into the `kind` ("array", "list",
    ...) its caller passes in, called where the caller's derivative cannot follow the
    write: through a function or object chosen when the code runs, or as a method
    differentiated on its own (a layer of a model). `called_at`: the call's location."""
    writer = at.function or function.__qualname__
    via = "" if writer == function.__qualname__ else f" (through `{function.__qualname__}`)"
    call = f" at {os.path.basename(called_at.filename)}:{called_at.lineno} " \
        f"(`{called_at.source_line.strip()}`)" \
        if called_at is not None else " through a function or object chosen when the code runs"
    if state:
        return UnsupportedSyntaxError(
            f"`{writer}` updates here an attribute of the object it is called on{via} (state "
            f"such as a counter), and it is called{call}, so its derivative, built on its own, "
            f"runs it a second time: the update would happen twice", at,
            "call it where the derivative knows the object's class (the derivative "
            "specialised on the arguments, `self.layer(x)` of a class with `__call__`), or "
            "update the state outside the differentiated function")
    return SharedMemoryWriteError(
        f"`{writer}` writes here into the {kind} its caller passes in{via}, and it is called"
        f"{call}, so it is differentiated as a derivative of its own, which cannot follow a "
        f"write into the caller's value", at,
        "copy before writing (`x = x * 2.0` rather than `x *= 2.0`, or `x = x.copy()` "
        "first), or return the new value instead of writing into the argument")
