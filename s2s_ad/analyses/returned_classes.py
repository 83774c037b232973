"""Which class of yours a method's result is, read from its source: the fact that lets
the normalizer call the class's methods on an object made by an operator or a method of
another object (transforms/object_paths.py `_constructed_class`).

    class Pair:
        def __sub__(self, other):              returned_class(Pair.__sub__, Pair) -> Pair
            return Pair(self.a - other.a, ...)
        def scaled(self, k):                   returned_class(Pair.scaled, Pair)  -> Pair
            return type(self)(self.a * k, ...)  (also self.__class__(...))
        def norm(self):                        returned_class(Pair.norm, Pair)    -> None
            return np.hypot(self.a, self.b)

Every `return` of the method (but `return NotImplemented`) must construct the same class;
nested defs and lambdas are not the method's returns. Read once per method.
"""
import ast

from ..frontend.parse import def_ast


def returned_class(function, owner, _known={}):
    """The class every `return` of `function` (a method of `owner`, or a def of yours:
    owner None) constructs, else None."""
    key = (function, owner)
    if key not in _known:
        _known[key] = _read(function, owner)
    return _known[key]


def _read(function, owner):
    fdef = def_ast(function)
    if fdef is None or not fdef.args.args:
        return None
    me = fdef.args.args[0].arg
    found = set()
    for node in _own_returns(fdef):
        value = node.value
        if isinstance(value, ast.Name) and value.id == "NotImplemented":
            continue
        found.add(_made_class(value, me, owner, function) if isinstance(value, ast.Call)
                  else None)
    return found.pop() if len(found) == 1 else None


def _own_returns(fdef):
    """The Return nodes of fdef's body, not of the defs, lambdas or classes inside it."""
    pending = list(fdef.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Return):
            yield node
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                   ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(node))


def _made_class(call, me, owner, function):
    """The class `call` constructs: `type(self)(...)` / `self.__class__(...)` is owner's,
    `Name(...)` the class that name holds in the method's module; None otherwise."""
    func = call.func
    own = isinstance(func, ast.Call) and isinstance(func.func, ast.Name) \
        and func.func.id == "type" and len(func.args) == 1 \
        and isinstance(func.args[0], ast.Name) and func.args[0].id == me \
        or isinstance(func, ast.Attribute) and func.attr == "__class__" \
        and isinstance(func.value, ast.Name) and func.value.id == me
    if own:
        return owner                      # (None for a def of yours: whose class?)
    if isinstance(func, ast.Name):
        held = function.__globals__.get(func.id)
        if held is None and owner is not None and func.id == owner.__name__:
            held = owner                  # a class defined in a function, by its own name
        return held if isinstance(held, type) else None
    return None
