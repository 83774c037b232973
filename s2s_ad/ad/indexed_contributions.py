"""Contributions to an item of an adjoint, `x_bar[index] += e` (the adjoint of a read
`y = x[index]`), for ad.adjoints.Adjoints (ARCHITECTURE §4): which form the addition takes
given what is known of x's adjoint when it comes.

    a float array's adjoint a loop accumulates:     w_bar[k] += g               (in place)
    a float array's adjoint nothing reached yet:    z_bar = np.zeros_like(z)
                                                    z_bar[0:3] = g
    a list of floats' (adjoint_facts.fixed_float_lists), one item:
                                                    x_bar = [0.0] * len(x)
                                                    x_bar[k] += g
    a list's, or an adjoint that may be the 0.0:    x_bar = scatter_add(x_bar, x, k, g)
    an index that may pick an element twice:        x_bar = add_at(x_bar, i, g)

A mixin: it reads and updates the Adjoints' own state (which adjoints are allocated by
this code, accumulated, zeroed), which adjoints.py documents.
"""
import gast

from ..ir import build
from .. import runtime, runtime_flow
from .windows import disjoint_windows


class IndexedContributions:
    """`contribute_at(variable, primal, index, expr, out)` for Adjoints."""

    def contribute_at(self, variable, primal, index, expr, out, may_be_number=False):
        """x_bar[index] += expr (allocating, or copying an alias of, x_bar first).
        `may_be_number`: x_bar may still be the number 0.0 standing for an adjoint nothing
        reached (scatter_add then makes the array)."""
        name = self.name_of(variable)
        self._unchanged.pop(variable, None)
        generic = not isinstance(variable, tuple) and variable in self._flow.indexed_only \
            and variable not in self.fixed_arrays \
            or self.is_container(variable)        # the facts say: a float array / a list
        if self._adds_in_place(variable, index, may_be_number):
            # a float array's adjoint that a loop accumulates, allocated here as zeros_like
            # or a copy: `w_bar[k] += g`, as by hand, where scatter_add would test and call
            self._windows.pop(variable, None)
            target = build.store_subscript(build.name(name), index)
            out.append(gast.AugAssign(target=target, op=gast.Add(), value=expr))
            return
        if self._zeros_then_add(variable, primal, index, name, expr, out):
            return
        if self._list_item_add(variable, primal, index, name, expr, out, may_be_number):
            return
        self._windows.pop(variable, None)         # x_bar changes other than by a window
        if self.accumulates(variable) or self.is_list(variable) or generic \
                or variable in self._zeroed or (may_be_number and variable in self._current):
            current = self._value(variable) if self.has(variable) else build.const(0.0)
            self._zeroed.discard(variable)
            call = build.call(self.helper(runtime_flow.scatter_add),
                              [current, primal, build.index_value(index), expr])
            out.append(build.assign(name, call))
            if not self.accumulates(variable):
                self._current[variable] = build.name(name)
            return
        if variable not in self._current and variable in self.fixed_arrays:
            out.append(build.assign(name, self.initial_value(variable, build.name(variable))))
        elif variable not in self._current:
            # float_zeros keeps a float32 x's dtype (np.zeros(np.shape(x)) would not)
            zeros = build.call(f"{self._np}.zeros", [build.call(f"{self._np}.shape", [primal])],
                               [("dtype", build.name("complex"))]) \
                if variable in self._complex else \
                build.call(self.helper(runtime_flow.float_zeros), [primal])
            out.append(build.assign(name, zeros))
        elif variable not in self._owned:
            copy = build.call(f"{self._np}.array", [self._value(variable)], [
                ("dtype", build.name("complex"))]) if variable in self._complex else \
                build.call(self.helper(runtime_flow.float_copy), [self._value(variable)])
            out.append(build.assign(name, copy))
        if _is_basic_static_index(index) or self._distinct_index(index):
            target = build.store_subscript(build.name(name), index)
            out.append(gast.AugAssign(target=target, op=gast.Add(), value=expr))
        else:   # assigned (add_at returns its array) so forward mode sees the update
            out.append(build.assign(name, build.call(self.helper(runtime.add_at),
                                                     [build.name(name), build.index_value(index),
                                                      expr])))
        self._current[variable] = build.name(name)
        self._owned.add(variable)

    def _adds_in_place(self, variable, index, may_be_number):
        """Can `x_bar[index] += e` accumulate into x's adjoint? x a float array of one
        shape (fixed_arrays) whose adjoint a loop accumulates (forced: it starts as
        zeros_like or as a copy this code made, never an alias nor the number 0.0), and
        the index basic: slices, literals, integers (no repeated elements)."""
        if isinstance(variable, tuple) or variable not in self._forced \
                or variable not in self.fixed_arrays or may_be_number \
                or variable in self._replaced or variable in self._zeroed:
            return False
        return self._basic_index(index)

    def _list_item_add(self, variable, primal, index, name, expr, out, may_be_number):
        """`x_bar[k] += e` into a list of floats' adjoint, made `[0.0] * len(x)` where
        nothing reached it yet (a loop's made it before the loop: adjoints.force); False
        where that does not apply: x no such list, k not one integer (a slice of a list
        `+=` would lengthen it: scatter_add adds item by item), the adjoint maybe the 0.0."""
        if variable not in self.fixed_lists or may_be_number or variable in self._replaced \
                or variable in self._zeroed or variable in self._held \
                or not (isinstance(primal, gast.Name) and primal.id == variable) \
                or not (self._is_integer(index) or isinstance(index, gast.Constant)
                        and type(index.value) is int):
            return False
        if variable not in self._current and not self.accumulates(variable):
            out.append(build.assign(name, self.initial_value(variable, primal)))
            self._current[variable] = build.name(name)
            self._owned.add(variable)
        elif variable not in self._owned and not self.accumulates(variable):
            return False                # an alias of an adjoint this code did not make
        out.append(gast.AugAssign(target=build.store_subscript(build.name(name), index),
                                  op=gast.Add(), value=expr))
        return True

    def _zeros_then_add(self, variable, primal, index, name, expr, out):
        """`z_bar = np.zeros_like(z)` then `z_bar[index] = e` for a float array (gates
        sliced out of a loop's `z`) whose adjoint nothing reached yet, and `z_bar[index]
        += e` for the contributions after it (until z is reset): what scatter_add(z_bar,
        z, index, e) does, without its tests. False when it does not apply (the index may
        repeat elements, z may be no float array, z_bar may be the 0.0 of no shape or an
        array that is not ours)."""
        if variable not in self._float_arrays or variable in self._complex \
                or variable in self._replaced or self.is_list(variable) \
                or self.is_container(variable) \
                or not (isinstance(primal, gast.Name) and primal.id == variable) \
                or not self._basic_index(index):
            return False
        fresh = variable in self._zeroed if self.accumulates(variable) \
            else variable not in self._current
        if fresh:
            self._zeroed.discard(variable)
            out.append(build.assign(name, build.call(f"{self._np}.zeros_like", [primal])))
            self._arrays.add(variable)
            self._windows[variable] = []
            if not self.accumulates(variable):
                self._current[variable] = build.name(name)
                self._owned.add(variable)
        elif variable not in self._arrays:
            return False
        target = build.store_subscript(build.name(name), index)
        # a window of zeros: `z_bar[index] = e` is `+= e` without reading the zeros back
        # (an augmented subscript reads, adds and writes the window)
        zeros = self._still_zero(variable, index)
        if zeros and not self._negation(expr):
            out.append(build.assign(target, expr))
        else:
            out.append(gast.AugAssign(target=target, op=gast.Add(), value=expr))
        return True

    def _still_zero(self, variable, index):
        """Is x_bar[index] all zeros? True when x_bar was made by np.zeros_like in this
        straight run of statements (loops and branches forget the windows), only windows
        have been written into it since (nothing else added to x_bar: every other
        contribution forgets them), and `index` provably overlaps none of them
        (disjoint_windows). Records `index` as written either way."""
        written = self._windows.get(variable)
        if written is None or variable not in self._arrays:
            self._windows.pop(variable, None)
            return False
        apart = all(disjoint_windows(index, other, self._int_value) for other in written)
        written.append(index)         # added into or assigned, it holds no zeros now
        return apart

    def _negation(self, expr):
        """`-e`, or a name bound to it: `+= -e` becomes `-= e` (optimize/), in place, where
        assigning would make an array for -e."""
        return isinstance(expr, gast.UnaryOp) and isinstance(expr.op, gast.USub) \
            or isinstance(expr, gast.Name) and expr.id in self._negations

    def _basic_index(self, index):
        """Slices, literals and integers only: no element is picked twice."""
        parts = index.elts if isinstance(index, gast.Tuple) else [index]
        return all(isinstance(p, gast.Slice) or self._is_integer(p) for p in parts) \
            and _is_basic_static_index(gast.Tuple(elts=[p for p in parts if not isinstance(
                p, (gast.Slice, gast.Name))], ctx=gast.Load()))


def _is_basic_static_index(index):
    """Only literals, slices and Ellipsis: no repeated elements are possible."""
    parts = index.elts if isinstance(index, gast.Tuple) else [index]
    return all(isinstance(p, gast.Slice) or (isinstance(p, gast.Constant)
               and (isinstance(p.value, int) or p.value is Ellipsis or p.value is None))
               or (isinstance(p, gast.UnaryOp) and isinstance(p.operand, gast.Constant))
               for p in parts)

