"""Methods that only pass their call on to another method of the same object, read from
their source: where one is called, the method it passes on to is called instead
(transforms/object_calls.py), so a model's derivative calls the method doing the work
directly and builds no derivative of the pass-through (PyTorch's `Module.__call__`
running `self.forward(*args)`: four of a three-layer model's nine derivatives were such).

    class Module:
        def __call__(self, *args):             forwards(Module.__call__) -> "forward"
            return self.forward(*args)
        def predict(self, x, scale):           forwards(Module.predict) -> "forward"
            return self.forward(x, scale)
        def loss(self, x):                     forwards(Module.loss)    -> None
            return np.sum(self.forward(x))

Its parameters passed on as they come (positional ones in order, or `*args`; `**kwargs`
as `**kwargs`), no defaults, nothing else in its body but a docstring. Read once per def.
"""
import ast
import inspect

from ..frontend.parse import def_ast
from .argument_writes import parameter_writes


def forwards(function, _known={}):
    """"m" when the method `function` only returns `self.m(<its own parameters>)`, else
    None."""
    if function not in _known:
        _known[function] = _read(function)
    return _known[function]


def _read(function):
    fdef = def_ast(function)
    if fdef is None or fdef.decorator_list:
        return None
    a = fdef.args
    if not a.args or a.defaults or a.kw_defaults or a.kwonlyargs or a.posonlyargs:
        return None
    body = [s for s in fdef.body if not (isinstance(s, ast.Expr)
                                         and isinstance(s.value, ast.Constant))]
    call = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name) and call.func.value.id == a.args[0].arg):
        return None
    given = [ast.dump(ast.Name(id=p.arg, ctx=ast.Load())) for p in a.args[1:]]
    if a.vararg is not None:
        given.append(ast.dump(ast.Starred(value=ast.Name(id=a.vararg.arg, ctx=ast.Load()),
                                          ctx=ast.Load())))
    keywords = [(k.arg, ast.dump(k.value)) for k in call.keywords]
    wanted = [(None, ast.dump(ast.Name(id=a.kwarg.arg, ctx=ast.Load())))] if a.kwarg else []
    same = [ast.dump(e) for e in call.args] == given and keywords == wanted
    return call.func.attr if same and call.func.attr != fdef.name else None


def passes_on(method, classes):
    """Does `method` only pass its call on to a method that each of `classes` defines with
    def and that writes into nothing it is given nor the object? (One that does is
    inlined through the pass-through, where the object's facts reach it.)"""
    target = forwards(method) if inspect.isfunction(method) else None
    found = [inspect.getattr_static(cls, target, None) for cls in classes] if target \
        else [None]
    return all(inspect.isfunction(m) and not parameter_writes(m, cls, None)
               for m, cls in zip(found, classes))
