"""Which object the signature's facts name an expression by, while normalizing: the path
of an argument, an object it holds, or an item of a list it holds, and the classes of
that list's items (call_kinds.known_functions gives the facts by such paths).

    blk                          ->  "blk"                (an argument, or an inlined
                                                           method's self, inline._know_as)
    self.fc                      ->  "self.fc"
    self.layers[1]               ->  ("self.layers", 1)   ("self.layers[1]")
    layer of `for layer in self.layers`, bound nowhere else, or `layer_0 = layer_items[0]`
    after `layer_items = self.layers` (item_unrolling.py)
                                 ->  ("self.layers", None) / ("self.layers", 0)

Used by object_calls.py (ObjectCallMixin derives from ObjectPathMixin).
"""
import gast

from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from .. import runtime_objects


class ObjectPathMixin:
    """Paths of objects and the classes of list items, from the signature's facts."""

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
