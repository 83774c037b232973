"""A nested def of f that reads f's variables, as a module-level function taking them
as parameters after its own, for `s2s_ad.grad(inner)(x)` called in f:

    def f(x):                               def inner(z, c):       (lifted: its source
        c = x * 2.0                             return np.sin(z) * c   registered like
        def inner(z):                   ->                             generated code's)
            return np.sin(z) * c            grad(inner)(x)  ->  grad(inner_lifted)(x, c)
        return s2s_ad.grad(inner)(x)

A nested def calling itself is lifted too, called like a module-level recursive helper
(transforms/inline.py): `rec(y, n)` reading f's `c` is `rec(y, n, c=c)`, its own calls pass
c on, and it reaches itself through a closure cell (`def rec_maker(): def rec...; return
rec`). A lambda works the same way, named (`g = lambda z: ...`) or written as the transform's
argument (`s2s_ad.jacobian(lambda z: np.tanh(M @ z))(x)`, as JAX users write it).

Python's inner reads c when it runs, so passing c's value where grad(inner) is called
gives the same function of z; and f's derivative then flows through c as through any
argument of a gradient called in f (the gradient is generated code, differentiable
again). One lifted function per nested def (cached by f's code object), so the
derivatives made of it are cached too.
"""
import ast
import types

import gast

from ..ir import build
from ..ir.translate import to_ast
from ..backend.sources import register

_LIFTED = {}      # (f's code object, the def's name, line) -> (code object held, function)


def lifted(func, fdef, outer, line):
    """(the function, the names of f's variables it takes after its own parameters) for
    the nested def `fdef` of `func` (its code object: among func's constants, made on
    `line`), when it reads only f's variables among the enclosing ones (`outer(name)`:
    is it one?) and takes plain parameters without defaults; else None."""
    code = code_of(func.__code__, fdef.name, line)
    a = fdef.args
    # a def calling itself reads its own name from f: it is the lifted function
    extra = [v for v in code.co_freevars if v != fdef.name] if code is not None else []
    if code is None or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults \
            or fdef.decorator_list or not all(outer(v) for v in extra):
        return None
    key = (func.__code__, fdef.name, line)
    hit = _LIFTED.get(key)
    if hit is not None and hit[0] is func.__code__:
        return hit[1], extra
    tree = build.clone(fdef)
    # a lambda (code named `<lambda>`) gets a name its source can be written with
    tree.name = fdef.name if fdef.name.isidentifier() else "anonymous"
    for v in extra:
        param = build.name(v)
        param.ctx = gast.Param()
        tree.args.args.append(param)
    recursive = fdef.name in code.co_freevars
    if recursive:
        _pass_on(tree, extra)
        tree = _made_by_maker(tree)
    module = to_ast(gast.Module(body=[tree], type_ignores=[]))
    source = ast.unparse(ast.fix_missing_locations(module)) + "\n"
    name = f"{tree.name}_of_{func.__name__}"
    compiled = compile(source, register(name, source), "exec")
    made = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    function = types.FunctionType(made, func.__globals__, tree.name)
    if recursive:
        function = function()
    function.__qualname__ = f"{func.__qualname__}.<locals>.{fdef.name}"
    _LIFTED[key] = (func.__code__, function)
    return function, extra


def _pass_on(tree, extra):
    """A recursive def's calls of itself pass on f's variables it takes, by name."""
    for node in gast.walk(tree):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and node.func.id == tree.name:
            node.keywords += [gast.keyword(arg=v, value=build.name(v)) for v in extra]


def _made_by_maker(tree):
    """`def rec_maker(): def rec(...): ...; return rec`: rec calls itself through its
    closure cell, as in f (not through a global of the user's module)."""
    result = gast.Return(value=build.name(tree.name))
    return gast.FunctionDef(name=f"{tree.name}_maker", args=gast.arguments(
        args=[], posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
        defaults=[]), body=[tree, result], decorator_list=[], returns=None,
        type_comment=None, type_params=[])


def given_def(arg, nested, current):
    """The nested function an argument of a derivative maker names: a nested def or named
    lambda (not rebound in f: `current`), or a lambda written there, as a def named
    `<lambda>` (the name of its code object). None for anything else."""
    if isinstance(arg, gast.Lambda):
        from .inline import lambda_as_def
        return lambda_as_def("<lambda>", arg, arg)
    if isinstance(arg, gast.Name) and arg.id in nested and arg.id not in current \
            and isinstance(nested[arg.id], gast.FunctionDef):
        return nested[arg.id]
    return None


def code_of(code, name, line):
    """The code object of the nested def `name` made on `line`, among code's constants;
    for a named lambda (`name = lambda ...`, whose code is `<lambda>`) the one lambda made
    on that line (None when there are several: which is which is not known)."""
    pending, lambdas = list(code.co_consts), []
    while pending:
        item = pending.pop()
        if isinstance(item, types.CodeType):
            if item.co_name == name and item.co_firstlineno == line:
                return item
            if item.co_name == "<lambda>" and item.co_firstlineno == line:
                lambdas.append(item)
            pending.extend(item.co_consts)
    return lambdas[0] if len(lambdas) == 1 else None
