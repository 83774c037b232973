"""Which object the signature's facts name an expression by, while normalizing: the path
of an argument, an object it holds, or an item of a list it holds, and the classes of
that list's items (call_kinds.known_functions gives the facts by such paths); and the
class of an object a name holds or an expression makes (`_receiver_class`,
`_constructed_class`: made in f, by an operator or method of a known class, or given).

    blk                          ->  "blk"                (an argument, or an inlined
                                                           method's self, inline._know_as)
    self.fc                      ->  "self.fc"
    self.layers[1]               ->  ("self.layers", 1)   ("self.layers[1]")
    layer of `for layer in self.layers`, bound nowhere else, or `layer_0 = layer_items[0]`
    after `layer_items = self.layers` (item_unrolling.py)
                                 ->  ("self.layers", None) / ("self.layers", 0)

Used by object_calls.py (ObjectCallMixin derives from ObjectPathMixin).
"""
import inspect

import gast

from ..analyses.returned_classes import returned_class
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from .. import runtime_objects
from ..runtime_objects import constructible
from .helper_inline import _LIBRARIES

# the methods `a op b` and `op a` call (the reflected one, `__rmul__`, for a number's
# literal on the left: `2.0 * v`)
BINARY_METHODS = {gast.Add: "__add__", gast.Sub: "__sub__", gast.Mult: "__mul__",
                  gast.Div: "__truediv__", gast.MatMult: "__matmul__", gast.Pow: "__pow__"}
UNARY_METHODS = {gast.USub: "__neg__", gast.UAdd: "__pos__"}
# how many names' bindings a class is looked for through (`c = b * 2` of `b = a - q`...)
_MOST_LINKS = 20


class ObjectPathMixin:
    """Paths of objects and the classes of list items, from the signature's facts."""

    def _receiver_class(self, receiver):
        """(class, "instance" or "class") when the class of the object a name holds is
        known while normalizing: `self` / `cls` of the method differentiated (resolve.py),
        a local made once in f by a dataclass or namedtuple class (`m = Params(W, b)`), or
        an object argument of the class the specialisation's signature gives ("exact"),
        whose methods are then differentiated like any helper, `m` included. None
        otherwise (a method of an object chosen when the code runs: refusals.py)."""
        if receiver.id in self.constructed:
            return self.constructed[receiver.id]
        found = self.res.receivers.get(receiver.id)
        values, stores = self._bindings_in_source()
        given = self.known_functions.get(f"{receiver.id}.__class__")
        if found is not None:
            if found[1] == "instance" and isinstance(given, type) \
                    and issubclass(given, found[0]) and receiver.id not in stores:
                # self of a subclass instance (grad(swish.loss) of Base.loss): the
                # signature gives its exact class, whose overrides the calls take
                return given, "exact"
            return found
        if given is not None and receiver.id in self.res.parameters \
                and receiver.id not in stores:
            # an object argument whose exact class the specialisation's signature gives
            return given, "exact"
        made = values.get(receiver.id, [])
        if not made or len(made) != stores.get(receiver.id) \
                or receiver.id in self.res.parameters:      # (its value before them too)
            return None
        # bound once, or several times (`acc = Vec(...)`, then `acc = acc + v` in a
        # loop): the class every binding makes, the name's reads in them taken as of it.
        # Kept per name (a chain of 2000 statements, each reading the one before, asked
        # its first name's class 2000 times over); no deeper than _MOST_LINKS names
        assumed = self.__dict__.setdefault("_assumed_classes", {})
        known = self.__dict__.setdefault("_classes_of_names", {})
        if receiver.id in assumed:
            return assumed[receiver.id]
        if receiver.id in known:
            return known[receiver.id]
        if len(assumed) >= _MOST_LINKS:
            return None
        assumed[receiver.id] = None
        try:
            found = self._constructed_class(made[0])
            assumed[receiver.id] = found
            same = found is not None and all(self._constructed_class(v) == found
                                             for v in made[1:])
        finally:
            del assumed[receiver.id]
        if not assumed:         # (not decided under another name's assumed class)
            known[receiver.id] = found if same else None
        return found if same else None

    def _constructed_class(self, value):
        """(C, "instance") when `value` makes an object of a class of yours that
        differentiation can construct (runtime_objects.constructible): a call `C(...)`, or
        an operator or a method call on an object of a known class whose method returns
        a C (`p - q` with Pair.__sub__ returning `Pair(...)`, `p.scaled(2.0)`: their
        result's methods are then the class's, not numpy's). None otherwise."""
        method = None
        if isinstance(value, gast.Call) and self._replaced_class(value):
            return self._replaced_class(value)      # s._replace(vel=v): s's class
        if isinstance(value, (gast.BinOp, gast.UnaryOp)):
            name, _, _, found = self._operator_of(value) or (None, None, None, None)
            method = getattr(found[0], name, None) if found else None
        elif isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
                and isinstance(value.func.value, (gast.Name, gast.Call)):
            found = self._receiver_class(value.func.value) \
                if isinstance(value.func.value, gast.Name) \
                else self._constructed_class(value.func.value)
            method = inspect.getattr_static(found[0], value.func.attr, None) \
                if found and found[1] != "class" else None
        if method is not None:
            made = returned_class(method, found[0]) if inspect.isfunction(method) else None
            return (made, "instance") if made is not None and constructible(made) else None
        if not isinstance(value, gast.Call):
            return None
        path = dotted_path(value.func)
        if path is None or self.res.is_value(path.split(".")[0]) or not self.res.has(path):
            return None
        cls = self.res.lookup(path)
        if inspect.isfunction(cls) and (cls.__module__ or "").split(".")[0] not in _LIBRARIES:
            cls = returned_class(cls, None)     # a def of yours returning `Pair(...)`
        return (cls, "instance") if cls is not None and constructible(cls) else None

    def _operator_of(self, expr):
        """(the name of the method `a op b` / `op a` calls, the operand it is called on,
        the other operand or None, the operand's class found) when that class is known (a
        number's literal on the left gives way to the right operand's reflected method,
        `2.0 * v`: v.__rmul__), else None."""
        binary = isinstance(expr, gast.BinOp)
        name = (BINARY_METHODS if binary else UNARY_METHODS).get(type(expr.op))
        operand, other = (expr.left, expr.right) if binary else (expr.operand, None)
        if binary and isinstance(expr.left, gast.Constant) and name:
            operand, other, name = expr.right, expr.left, name[:2] + "r" + name[2:]
        if name is None or not isinstance(operand, (gast.Name, gast.Call, gast.BinOp,
                                                    gast.UnaryOp)):
            return None
        found = self._receiver_class(operand) if isinstance(operand, gast.Name) \
            else self._constructed_class(operand)
        return (name, operand, other, found) if found and found[1] != "class" else None

    def _item_classes(self, func):
        """The classes of the objects in the list or tuple the specialisation's signature
        gives, when `func` names one of its items (call_kinds.known_functions): for
        `self.layers[k]`, or `layer` of `for layer in self.layers` (bound nowhere else),
        (Layer,) when all are Layers, (Dense, Tanh) for a list mixing them. None otherwise."""
        item = self._item_path(func)
        if item is None:
            return None
        path, key = item
        exact = self.known_functions.get(f"{path}[{key!r}].__class__") \
            if key is not None else None
        if exact is not None:
            return (exact,)
        one = self.known_functions.get(f"{path}[*].__class__")
        return (one,) if one is not None else self.known_functions.get(f"{path}[*].__classes__")

    def _receiver_path(self, given):
        """The path the signature's facts name the object `given` by: "blk" for an
        argument (or a name the facts were given under, an inlined method's self),
        "blk.fc" for an object it holds, "model.layers[1]" / "model.layers[*]" for an item
        of a list it holds (`as_instance(layer, Dense)` too); None when they name none."""
        if isinstance(given, gast.Call) and given.args and \
                self.callees.get(dotted_path(given.func)) is runtime_objects.as_instance:
            given = given.args[0]
        path = dotted_path(given) if isinstance(given, (gast.Name, gast.Attribute)) else None
        if path is not None and self._named_by_facts(path):
            return path
        item = self._item_path(given)
        if item is None:
            return None
        return f"{item[0]}[{item[1]!r}]" if item[1] is not None else f"{item[0]}[*]"

    def _item_path(self, func):
        """(the path of the list, the literal key or None) when `func` names an item of
        a list or tuple an argument holds (`self.layers[k]`, `layer` of `for layer in
        self.layers` bound nowhere else), else None."""
        source, key = None, None
        def bound_once(node):
            if not isinstance(node, gast.Name):
                return None
            values, stored, _ = self._binding_of(node.id)
            return values[0] if stored == 1 and len(values) == 1 else None
        if isinstance(bound_once(func), gast.Subscript):
            # `layer_0 = layer_items[0]` after `layer_items = self.layers` (item_unrolling.py)
            func = bound_once(func)
        if isinstance(func, gast.Subscript):
            source = func.value
            if isinstance(bound_once(source), (gast.Attribute, gast.Name)):
                source = bound_once(source)
            if isinstance(func.slice, gast.Constant) and type(func.slice.value) in (int, str):
                key = func.slice.value          # self.layers[0], self.blocks["enc"]
        elif isinstance(func, gast.Name) and self._binding_of(func.id)[1] == 1:
            tree = self._binding_of(func.id)[2]     # f, or the inlined def binding it
            source = next((self._iterated_by(node, func.id) for node in walk_tree(tree)
                           if isinstance(node, gast.For)
                           and self._iterated_by(node, func.id) is not None), None)
        path = dotted_path(source) if source is not None else None
        root = path.split(".")[0] if path is not None else None
        if root is None or self._binding_of(root)[1] \
                or root not in self.res.parameters and not self._named_by_facts(root):
            return None
        return path, key

    def _named_by_facts(self, name):
        """Do the signature's facts name objects `name` holds (an inlined method's self,
        given its object's facts by inline._know_as)?"""
        return any(key.startswith((name + ".", name + "[")) for key in self.known_functions)

    def _iterated_by(self, loop, name):
        """The sequence whose items `name` takes in `loop`: `for name in xs`, `for k, name
        in enumerate(xs)`, `for name, o in zip(xs, ys)` give xs; else None."""
        target, iterated = loop.target, loop.iter
        if isinstance(target, gast.Name):
            return iterated if target.id == name else None
        if not (isinstance(target, gast.Tuple) and isinstance(iterated, gast.Call)
                and not iterated.keywords and all(isinstance(e, gast.Name)
                                                  for e in target.elts)):
            return None
        position = [e.id for e in target.elts].index(name) \
            if name in [e.id for e in target.elts] else None
        callee = dotted_path(iterated.func)
        called = self.res.lookup(callee) if callee and not self.res.is_value(callee) \
            and self.res.has(callee) else None
        if called is enumerate and len(target.elts) == 2 and position == 1 \
                and len(iterated.args) == 1:
            return iterated.args[0]
        if called is zip and position is not None and len(iterated.args) == len(target.elts):
            return iterated.args[position]
        return None
