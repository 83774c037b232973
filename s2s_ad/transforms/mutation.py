"""Normalizing in-place updates: index writes, list appends, insert_grad_of blocks.

    y[i] += v        ->    t1_0 = y[i]; t2_0 = t1_0 + v; y[i] = t2_0
    items.append(f(x))  -> t1_0 = f(x); items.append(t1_0)
    np.put_along_axis(y, ind, v, 1)  ->  t1_0 = along_axis_index(y, ind, 1); y[t1_0] = v
    np.add.at(y, i, v)               ->  t1_0 = np.copy(y); t2_0 = add_at(t1_0, i, v)
                                         y[...] = t2_0
    np.exp(x, out=y)  /  np.copyto(y, v)  /  y.fill(v)   ->   y[...] = np.exp(x) / v
    np.fill_diagonal(y, v)           ->  t1_0 = diagonal_index(y); y[t1_0] = v
    A[i][j] = v                      ->  row = copied(A[i], False); row[j] = v; A[i] = row

Used by `normalize` (mixed into its normalizer). A parameter written through is copied
on entry (transforms/inputs.py), so the caller's arrays never change.
"""
import dataclasses

import gast
import numpy

from ..errors import UnsupportedSyntaxError
from ..ir.build import dotted_path
from ..ir import build
from .. import runtime, runtime_flow, runtime_objects, runtime_pieces

_WHOLE = gast.Constant(value=Ellipsis, kind=None)


class MutationMixin:
    """Statements that change a value in place."""

    def _grad_of_block(self, stmt):
        """`with s2s_ad.insert_grad_of(x) as g: ...`: kept whole, run by the backward sweep."""
        item = stmt.items[0]
        call = item.context_expr
        target = self.res.lookup(dotted_path(call.func) or "")
        if target is not runtime_flow.insert_grad_of or len(call.args) != 1 \
                or not isinstance(call.args[0], gast.Name) or call.keywords \
                or call.args[0].id not in self.current:
            raise UnsupportedSyntaxError(
                "`with` is supported only as `with s2s_ad.insert_grad_of(x) as g:`",
                self.smap.locate(stmt), "move the context manager outside the function")
        variable = self.current[call.args[0].id]
        adjoint = item.optional_vars.id if isinstance(item.optional_vars, gast.Name) \
            else self.namer.fresh("g")
        self.current[adjoint] = adjoint
        self.levels.setdefault(adjoint, 0)
        self.multi_def.add(adjoint)
        body = self._block(stmt.body)
        head = self._runtime_call(runtime_flow.insert_grad_of, [build.name(variable)])
        self._flush(stmt, [gast.With(items=[gast.withitem(
            context_expr=head, optional_vars=build.name(adjoint, store=True))],
            body=body, type_comment=None)])

    def _index_write(self, target, value, origin, op=None, item=None):
        """y[idx] = v   and   y[idx] op= v   (the latter as a read, an op and a write).
        `item`: the name holding what y[idx] held, which the write updates in place (the
        write-back of `y[i][j] = v`)."""
        if isinstance(target.value, gast.Subscript):
            self._chained_write(target, value, origin, op)
            return
        if not isinstance(target.value, gast.Name):
            raise UnsupportedSyntaxError("only writes into a named array are supported",
                                         self.smap.locate(target), "assign the array to a name")
        base = target.value.id
        if base not in self.current:
            raise UnsupportedSyntaxError(f"`{base}` is written before it is assigned",
                                         self.smap.locate(target))
        self.written_arrays.add(self.current[base])
        index, _ = self._index(target.slice)
        if op is not None:
            old, lvl = self._atom(build.subscript(build.name(self.current[base]),
                                                  build.clone(index)))
            value = gast.BinOp(left=old, op=op, right=value)
            gast.copy_location(value, origin)
            # numpy does `y[i] op= v` in the array y[i] holds: when y is a list or dict,
            # another name's (analyses/aliases.py reads LevelsForm.updated_item)
            item = old.id if isinstance(old, gast.Name) else None
        atom, _ = self._atom(value)
        store = build.store_subscript(build.name(self.current[base]), index)
        write = build.with_location(build.assign(store, atom), origin)
        if item is not None:
            self._in_place.append((write, item))
        self._flush(origin, [write])

    def _chained_write(self, target, value, origin, op):
        """y[i][j] = v (or op=, or deeper): y[i] copied, written and put back, `row =
        copied(y[i], False); row[j] = v; y[i] = row`: what numpy does for an array (y[i] is
        a view it writes through) and Python for a list of lists, in values s2s_ad
        follows (the copy is no second name for y's memory)."""
        outer = target.value
        row = self.namer.fresh("row")
        self.res = dataclasses.replace(self.res, locals=self.res.locals | {row})
        held, _ = self._atom(build.clone(outer))
        copy = self._runtime_call(runtime_objects.copied, [held, build.const(False)])
        self._assign([build.name(row, store=True)], gast.copy_location(copy, origin), origin)
        self._index_write(build.store_subscript(build.name(row), build.clone(target.slice)),
                          value, origin, op)
        self._index_write(build.store_subscript(build.clone(outer.value),
                                                build.clone(outer.slice)),
                          build.name(row), origin,
                          item=held.id if isinstance(held, gast.Name) else None)

    def _append(self, call, origin):
        base = call.func.value.id
        if base not in self.current or len(call.args) != 1 or call.keywords:
            raise UnsupportedSyntaxError("`.append(value)` needs a list defined earlier",
                                         self.smap.locate(call))
        atom, _ = self._atom(call.args[0])
        method = build.attribute(build.name(self.current[base]), "append")
        self._flush(origin, [build.expr_stmt(build.call(method, [atom]))])

    def _is_put_along_axis(self, call):
        path = dotted_path(call.func)
        return path is not None and not self.res.is_value(path.split(".")[0]) \
            and self.res.has(path) and self.res.lookup(path) is numpy.put_along_axis

    def _put_along_axis(self, call, origin):
        """np.put_along_axis(arr, indices, values, axis) is arr[index] = values, index the
        one np.take_along_axis reads (runtime_pieces.along_axis_index)."""
        names = ("arr", "indices", "values", "axis")
        given = dict(zip(names, call.args))
        given.update({k.arg: k.value for k in call.keywords})
        if len(call.args) > 4 or set(given) != set(names):
            raise UnsupportedSyntaxError(
                "np.put_along_axis is differentiated as np.put_along_axis(arr, indices, "
                "values, axis)", self.smap.locate(call))
        index = self._runtime_call(runtime_pieces.along_axis_index,
                                   [given["arr"], given["indices"], given["axis"]])
        target = build.subscript(given["arr"], build.with_location(index, call))
        self._index_write(build.with_location(target, call), given["values"], origin)

    def _array_write(self, call):
        """The index write a call that fills an existing named array is, as (target, value),
        or None: `F(..., out=y)` of a numpy function (without where=, which writes only
        some places), `np.copyto(y, v)`, `y.fill(v)`, `np.fill_diagonal(y, v)` (no wrap).
        Written as `y[...] = value`, they are index writes like any other: the alias
        analysis sees them, and the backward sweep restores y's old values."""
        keywords = {k.arg: k.value for k in call.keywords}
        func = call.func
        if isinstance(func, gast.Attribute) and func.attr == "fill" \
                and isinstance(func.value, gast.Name) \
                and (self.res.is_value(func.value.id) or func.value.id in self.current) \
                and len(call.args) == 1 and not keywords:
            return self._whole(func.value, call), call.args[0]
        found = self._numpy_function(call)
        if found is None:
            return None
        if "out" in keywords and "where" not in keywords and not any(
                isinstance(a, gast.Starred) for a in call.args):
            target = keywords["out"]
            if isinstance(target, gast.Tuple) and len(target.elts) == 1:
                target = target.elts[0]
            if not isinstance(target, gast.Name):
                return None
            rest = [k for k in call.keywords if k.arg != "out"]
            value = gast.Call(func=call.func, args=list(call.args), keywords=rest)
            return self._whole(target, call), gast.copy_location(value, call)
        given = dict(zip(("dst", "src"), call.args))
        given.update(keywords)
        if found is numpy.copyto and set(given) == {"dst", "src"} \
                and isinstance(given["dst"], gast.Name):
            return self._whole(given["dst"], call), given["src"]
        given = dict(zip(("a", "val"), call.args))
        given.update(keywords)
        if found is numpy.fill_diagonal and set(given) == {"a", "val"} \
                and isinstance(given["a"], gast.Name):
            index = self._runtime_call(runtime_pieces.diagonal_index, [given["a"]])
            target = build.subscript(build.name(given["a"].id), build.with_location(index, call))
            return build.with_location(target, call), given["val"]
        return None

    def _whole(self, name, call):
        return build.with_location(build.subscript(build.name(name.id), build.clone(_WHOLE)),
                                   call)

    def _numpy_function(self, call):
        path = dotted_path(call.func)
        if path is None or self.res.is_value(path.split(".")[0]) or not self.res.has(path):
            return None
        found = self.res.lookup(path)
        module = getattr(found, "__module__", None) or ""
        return found if isinstance(found, numpy.ufunc) or module.split(".")[0] == "numpy" \
            else None

    def _is_add_at(self, call):
        path = dotted_path(call.func)
        if path is None or self.res.is_value(path.split(".")[0]) or not self.res.has(path):
            return False
        found = self.res.lookup(path)
        return getattr(found, "__self__", None) is numpy.add \
            and getattr(found, "__name__", None) == "at"

    def _add_at(self, call, origin):
        """np.add.at(a, indices, values) adds values into a copy of a, repeated indices
        accumulating (runtime.add_at, whose derivatives gather every repeat), and writes
        the sum back into a whole (`a[...] =`), an index write like any other: what else
        sees a's array sees the update, and the backward sweep restores a's old values."""
        if len(call.args) != 3 or call.keywords or not isinstance(call.args[0], gast.Name):
            raise UnsupportedSyntaxError(
                "np.add.at is differentiated as np.add.at(a, indices, values), with `a` a "
                "name", self.smap.locate(call), "assign the array to a name first")
        array, index, values = call.args
        path = f"{self.np}.copy"
        self.callees[path] = numpy.copy
        copy = build.with_location(build.call(build.dotted(path), [build.clone(array)]), call)
        summed = build.with_location(self._runtime_call(runtime.add_at, [copy, index, values]),
                                     call)
        target = build.subscript(build.clone(array), gast.Constant(value=Ellipsis, kind=None))
        self._index_write(build.with_location(target, call), summed, origin)
