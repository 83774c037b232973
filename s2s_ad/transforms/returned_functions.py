"""Helpers that return functions they make: inlined into f, during normalization.

A def of yours that returns a nested function or a lambda (alone or in a tuple, as
a flatten helper returns `(flat_vector, unflatten)`) makes a closure over its own
variables. Where f unpacks the call into names, the helper's body is inlined into f
(helper_inline.py), its nested functions become f's, and each name the returned
function lands in calls it, inlined in turn (inline.py) and reading the helper's
variables as Python's closure would:

    def flatten(params):                      def loss(params):
        flat = np.concatenate(...)                params_1 = params
        def unflatten(v):                         flat = np.concatenate(...)
            return v.reshape(...)       ->        v = flat           (unflatten, inlined)
        return flat, unflatten                    t1_0 = v.reshape(...)
                                                  ...
    def loss(params):
        flat, unf = flatten(params)
        return np.sum(unf(flat) ** 2)

The function's identity and closure are facts of the derivative. A returned function
kept in a container or passed on (`pair = flatten(p)`) is a located error. Used by
`normalize` through AssignmentMixin.
"""
import inspect

import gast

from ..errors import ADError, UnsupportedSyntaxError
from ..ir import build
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from ..frontend.fence import fence
from ..frontend.parse import parse
from ..frontend.resolve import resolve
from .helper_inline import _LIBRARIES
from .inline import collect_nested, lambda_as_def


class ReturnedFunctionMixin:
    """`_assign_returned_functions(target, value, stmt)`."""

    def _assign_returned_functions(self, target, value, stmt):
        """Bind `target = value` when value calls a def of yours returning functions it
        makes; False (nothing done) for any other assignment."""
        helper = self._helper_returning_functions(value)
        if helper is None:
            return False
        key, held = self._prepared_returning_helper(helper, value)
        returned = self._inline(key, value, held)
        targets = target.elts if isinstance(target, gast.Tuple) else [target]
        items = returned.elts if isinstance(returned, gast.Tuple) \
            and isinstance(target, gast.Tuple) else [returned]
        if len(targets) != len(items) or any(isinstance(t, gast.Starred) for t in targets) \
                or isinstance(returned, gast.Tuple) and not isinstance(target, gast.Tuple):
            raise UnsupportedSyntaxError(
                f"`{helper.__name__}` returns a function: its result is supported unpacked "
                f"into one name per item it returns", self.smap.locate(stmt),
                f"write `a, fn = {helper.__name__}(...)` with as many names as it returns")
        finals = []
        self._deferred_writes = []
        for name, item in zip(targets, items):
            function = self._local_function(item)
            if function is not None:
                if not isinstance(name, gast.Name):
                    raise UnsupportedSyntaxError(
                        "a function returned by a helper is supported bound to a name",
                        self.smap.locate(name), "assign it to a name and call that")
                self.nested[name.id] = function     # calls of the name inline it
                continue
            atom, level = self._atom(item)
            if isinstance(name, gast.Name):
                finals.append(self._bind(name.id, atom, level))
            else:
                finals.extend(self._unpack(name, atom, level))
        self._flush(stmt, finals)
        for written, item in self._deferred_writes:
            self._index_write(written, item, stmt)
        self._deferred_writes = []
        return True

    def _helper_returning_functions(self, value):
        """The def of yours `value` calls when its last statement returns a function it
        makes (a lambda or a nested def, alone or as an item of a tuple), else None."""
        if not isinstance(value, gast.Call):
            return None
        path = dotted_path(value.func)
        if path is None or self.res.is_value(path.split(".")[0]) or not self.res.has(path):
            return None
        target = self.res.lookup(path)
        if not inspect.isfunction(target) or getattr(target, "__s2s_generated__", None) \
                or (getattr(target, "__module__", None) or "").startswith(_LIBRARIES):
            return None
        found = self.__dict__.setdefault("_returns_functions", {})
        if target not in found:
            found[target] = _returns_made_function(target)
        return target if found[target] else None

    def _prepared_returning_helper(self, target, call):
        """(name of the helper's body among f's nested functions, {fresh name: nested def
        of the helper}), prepared once per helper."""
        prepared = self.__dict__.setdefault("_returning_helpers", {})
        if target in prepared:
            return prepared[target]
        parsed = parse(target)
        tree = parsed.tree
        final = tree.body[-1]
        items = final.value.elts if isinstance(final.value, gast.Tuple) else [final.value]
        for k, item in enumerate(items):
            if isinstance(item, gast.Lambda):
                # `return flat, lambda v: ...` -> `def lambda_(v): ...; return flat, lambda_`
                name = self.namer.fresh("lambda_")
                tree.body.insert(-1, lambda_as_def(name, item, item))
                replacement = build.with_location(build.name(name), item)
                if isinstance(final.value, gast.Tuple):
                    final.value.elts[k] = replacement
                else:
                    final.value = replacement
        resolution = resolve(parsed)
        fence(parsed, resolution=resolution)
        nested = collect_nested(tree, parsed.source_map)
        fresh = {name: self.namer.fresh(name) for name in nested}
        held = {fresh[name]: fdef for name, fdef in nested.items()}
        for fn in [tree] + list(held.values()):
            for node in walk_tree(fn):
                if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) \
                        and node.id in fresh:
                    node.id = fresh[node.id]
        self._check_free_names(tree, resolution, target, call, held,
                               "returns a function it makes")
        for fn in [tree] + list(held.values()):
            for node in walk_tree(fn):
                if hasattr(node, "lineno"):
                    gast.copy_location(node, call)
        key = self.namer.fresh(target.__name__)
        self.nested[key] = tree
        prepared[target] = key, held
        return prepared[target]


def _returns_made_function(target):
    """Does the def's last statement return a lambda or a def nested in it (alone or in
    a tuple)? False also when its source cannot be read (the usual path reports that)."""
    try:
        tree = parse(target).tree
    except (ADError, OSError, TypeError):
        return False
    final = tree.body[-1] if tree.body else None
    if not isinstance(final, gast.Return) or final.value is None:
        return False
    made = {stmt.name for stmt in tree.body if isinstance(stmt, gast.FunctionDef)}
    made |= {stmt.targets[0].id for stmt in tree.body if isinstance(stmt, gast.Assign)
             and len(stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name)
             and isinstance(stmt.value, gast.Lambda)}
    items = final.value.elts if isinstance(final.value, gast.Tuple) else [final.value]
    return any(isinstance(item, gast.Lambda) or isinstance(item, gast.Name)
               and item.id in made for item in items)
