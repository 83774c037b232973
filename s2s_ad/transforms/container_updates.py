"""Statements that update a list or dict f made, rewritten as rebindings and index writes
s2s_ad follows (the container the name held before is not changed):

    ys.extend(xs)          ->  ys = ys + list(xs)
    ys.insert(i, v)        ->  ys = ys[:i] + [v] + ys[i:]
    ys.pop(i)              ->  ys[i], then ys = ys[:i] + ys[i:][1:]
    d.update({"b": v})     ->  entry = v; d["b"] = entry

A mixin of the normalizer (through python_calls.PythonCallMixin).
"""
import gast

from ..errors import UnsupportedSyntaxError
from ..ir import build
from ..ir.walk import walk_tree


class ContainerUpdateMixin:
    def _made_container(self, name):
        """Is `name` bound only to list or dict displays, comprehensions or list(...) /
        dict(...) in f (not an argument, which may be an object with such a method)?"""
        values, stores = self._bindings_in_source()
        made = [v for v in values.get(name, []) if isinstance(v, (
            gast.List, gast.Dict, gast.ListComp, gast.DictComp)) or isinstance(v, gast.Call)
            and isinstance(v.func, gast.Name) and v.func.id in ("list", "dict")]
        return bool(made) and len(made) == stores.get(name, 0)

    def _dict_update(self, call, stmt):
        """`d.update({k: v, ...})` / `d.update(k=v)` as a statement, d a dict made in f: the
        values computed first, then one index write `d[k] = v` each (which s2s_ad
        follows). False for any other statement."""
        func = call.func
        if not (isinstance(func, gast.Attribute) and func.attr == "update"
                and isinstance(func.value, gast.Name) and self._made_container(func.value.id)):
            return False
        entries = []
        for arg in call.args:
            if not isinstance(arg, gast.Dict) or any(k is None for k in arg.keys):
                raise UnsupportedSyntaxError(
                    "`.update(...)` of a dict is supported with a dict display ({k: v, ...}) "
                    "or keywords", self.smap.locate(call),
                    "write the entries as index writes: d[k] = v")
            entries += list(zip(arg.keys, arg.values))
        entries += [(build.const(k.arg), k.value) for k in call.keywords if k.arg is not None]
        if any(k.arg is None for k in call.keywords):
            raise UnsupportedSyntaxError("`.update(**...)` is not supported",
                                         self.smap.locate(call),
                                         "write the entries as index writes: d[k] = v")
        held = []
        for key, value in entries:
            entry = self.namer.fresh("entry")
            self._statement(located(build.assign(entry, value), stmt))
            held.append((key, entry))
        for key, entry in held:
            self._statement(located(build.assign(
                build.store_subscript(build.name(func.value.id), key), build.name(entry)), stmt))
        return True

    def _list_update(self, call, stmt):
        """`ys.extend(xs)` / `ys.insert(i, v)` / `ys.pop(i)` as statements: ys rebound to
        the updated list (the list ys held is not changed)."""
        ys = call.func.value
        method, args = call.func.attr, call.args
        if call.keywords or (method, len(args)) not in (("extend", 1), ("insert", 2),
                                                        ("pop", 1)):
            raise UnsupportedSyntaxError(
                f"`.{method}(...)` takes {'one argument' if method != 'insert' else 'two'}"
                f" here", self.smap.locate(call), "pass the arguments by position")
        if method == "pop":
            self._pop_at(ys, args[0], call)
            self._flush(stmt, [])
            return
        if method == "extend":
            tail = args[0] if isinstance(args[0], gast.List) else \
                build.call(build.name("list"), [args[0]])
            if not isinstance(args[0], gast.List):
                self._check_builtin("list", call)
            value = gast.BinOp(left=build.clone(ys), op=gast.Add(), right=tail)
        else:
            at = self._held(args[0])
            head = build.subscript(build.clone(ys), build.slice_(upper=at))
            rest = build.subscript(build.clone(ys), build.slice_(lower=build.clone(at)))
            value = gast.BinOp(left=gast.BinOp(left=head, op=gast.Add(),
                                               right=build.list_([args[1]])),
                               op=gast.Add(), right=rest)
        self._assign([build.name(ys.id, store=True)], located(value, call), stmt)

    def _pop_at(self, ys, index, node):
        """ys.pop(i): the item ys[i], then ys rebound without it."""
        if isinstance(index, gast.Constant) and not isinstance(index.value, int):
            raise UnsupportedSyntaxError(
                "`.pop(key)` of a dict is not supported", self.smap.locate(node),
                "read the entry, d[key], and leave the dict as it is")
        at = self._held(index)
        item, level = self._atom(located(
            build.subscript(build.clone(ys), at), node))
        rest = gast.BinOp(
            left=build.subscript(build.clone(ys), build.slice_(upper=build.clone(at))),
            op=gast.Add(),
            right=build.subscript(build.subscript(build.clone(ys),
                                                  build.slice_(lower=build.clone(at))),
                                  build.slice_(lower=build.const(1))))
        op, rest_level = self._operation(located(rest, node))
        # reads evaluated after the pop see the new list: their level is above this one
        self._pend(rest_level, self._bind(ys.id, op, rest_level))
        return item, level


def located(new, old):
    """`new` and every node in it without a source position placed at `old` (errors and
    provenance comments point at the user's call)."""
    for node in walk_tree(new):
        if not hasattr(node, "lineno"):
            build.with_location(node, old)
    return new
