"""Dicts made inside f, lowered to make_mapping (runtime_mappings.py); a mixin of the
normalizer (through python_calls.PythonCallMixin).

    {"a": x, "b": y}        ->  make_mapping(("a", "b"), (x, y))
    dict(a=x), dict(zip(keys, values)), dict([("a", x)])  ->  the same
    dict(d)                 ->  make_mapping(keys, [d[k] for k in keys]), keys = mapping_keys(d)
    {k: v for ...}          ->  make_mapping([k for ...], [v for ...])
"""
import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from .. import runtime_flow, runtime_mappings
from .container_updates import located as _located
from .iterator_items import subscripts_by


class MappingDisplayMixin:
    """Dict displays, comprehensions and dict(...) calls as make_mapping."""

    def _dict(self, expr):
        """dict(a=x, b=y), dict({"a": x}, b=y), dict([("a", x)], b=y) and
        dict(zip(keys, values)) as make_mapping; dict(d) as {k: d[k] for k in d}."""
        if any(k.arg is None for k in expr.keywords):
            return None
        entries = _display_entries(expr.args[0]) if len(expr.args) == 1 else \
            ([], []) if not expr.args else None
        if entries is not None:
            keys, values = entries
            display = gast.Dict(keys=keys + [build.const(k.arg) for k in expr.keywords],
                                values=values + [k.value for k in expr.keywords])
            return self._mapping_display(_located(display, expr))
        if len(expr.args) == 1 and not expr.keywords and isinstance(expr.args[0], gast.Name):
            # a copy: make_mapping(keys, [d[k] for k in keys]), keys = mapping_keys(d)
            base, key = expr.args[0], self.namer.fresh("key")
            keys = self._held(self._runtime_call(runtime_flow.mapping_keys, [build.clone(base)]))
            values = build.list_comp(build.subscript(build.clone(base), build.name(key)), key,
                                     build.clone(keys))
            return self._lower(_located(self._runtime_call(
                runtime_mappings.make_mapping, [build.clone(keys), values]), expr))
        if len(expr.args) == 1 and not expr.keywords and isinstance(expr.args[0], gast.Call) \
                and len(expr.args[0].args) == 2 and not expr.args[0].keywords \
                and self._names_builtin(expr.args[0].func, "zip"):
            # the keys and values as zip pairs them: an array's rows, no more than there
            # are keys and no more keys than values (make_mapping read an array as one
            # value for every key)
            key, value = self.namer.fresh("key"), self.namer.fresh("value")
            keys, values = (build.list_comp(build.name(item), (key, value),
                                            build.clone(expr.args[0])) for item in (key, value))
            return self._lower(_located(self._runtime_call(
                runtime_mappings.make_mapping, [keys, values]), expr))
        return None

    def _mapping_display(self, expr):
        """{k1: v1, k2: v2} -> make_mapping((k1, k2), (v1, v2))."""
        if any(k is None for k in expr.keys):
            raise UnsupportedSyntaxError(
                "`**` inside a dict display is not supported", self.smap.locate(expr),
                "write the entries out, or update a copy: d = dict(base); d['k'] = v")
        call = self._runtime_call(runtime_mappings.make_mapping, [
            build.tuple_(expr.keys), build.tuple_(expr.values)])
        return self._lower(_located(call, expr))

    def _mapping_comprehension(self, expr):
        """{k: v for ...} -> make_mapping([k for ...], [v for ...]) (the loop runs twice:
        once for the keys, once for the values)."""
        keys = gast.ListComp(elt=expr.key, generators=_keyed(expr))
        values = gast.ListComp(elt=expr.value, generators=build.clone(expr.generators))
        call = self._runtime_call(runtime_mappings.make_mapping, [keys, values])
        return self._lower(_located(call, expr))


def _keyed(expr):
    """The generators of {k: ... for k in d} for its keys' loop: `for k in d` reading
    `d[k]` iterates d's keys (control.py, as `for k in d: ... d[k]`), which the keys'
    loop alone (`[k for k in d]`, no d[k] in it) would take for a sequence's items
    (d[0], a KeyError inside the derivative): written `for k in d.keys()` there."""
    generators = build.clone(expr.generators)
    reads = [expr.key, expr.value] + [c for g in expr.generators for c in g.ifs]
    for gen in generators:
        if isinstance(gen.iter, gast.Name) and isinstance(gen.target, gast.Name) \
                and subscripts_by(reads, gen.iter.id, gen.target.id):
            gen.iter = _located(build.call(build.attribute(gen.iter, "keys"), []), gen.iter)
    return generators


def _display_entries(node):
    """(keys, values) of a dict display, or of a list / tuple display of (key, value)
    pair displays; None for anything else."""
    if isinstance(node, gast.Dict) and all(k is not None for k in node.keys):
        return list(node.keys), list(node.values)
    if isinstance(node, (gast.List, gast.Tuple)) and all(
            isinstance(e, (gast.Tuple, gast.List)) and len(e.elts) == 2 for e in node.elts):
        return [e.elts[0] for e in node.elts], [e.elts[1] for e in node.elts]
    return None
