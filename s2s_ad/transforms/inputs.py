"""Parameters that the function writes into are copied on entry.

    def f(x):                    def f(x):
        x[0] = 0.0        ->         x = copy_argument(x)
        return np.sum(x)             x[0] = 0.0
                                     ...

Writes through a view (`y = x[1:]; y[0] = ...`, `x.reshape(...)`) or through an array
an object holds (`W = self.W; W[0] = ...`: the object is copied) count too, so neither
the derivative nor its forward sweep changes the caller's arrays.
"""
import gast

from ..ir.build import dotted_path
from ..ir import build
from ..ir.walk import all_statements
from ..runtime_objects import attribute_of


def copy_written_inputs(body, written_arrays, parameters, callees, copier, tree):
    """`copier(name)` gives the call copying a parameter (an array, dict or list)."""
    aliased = set()
    for name in written_arrays:
        aliased |= _view_sources(body, name, parameters, callees, set())
    copies = [build.with_location(build.assign(p, copier(p)), tree)
              for p in parameters if p in aliased]
    return copies + body


def _view_sources(body, name, parameters, callees, seen):
    if name in seen:
        return set()
    seen.add(name)
    if name in parameters:
        return {name}
    sources = set()
    for stmt in all_statements(body):
        if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name) \
                and stmt.targets[0].id == name and _may_view(stmt.value, callees):
            for arg in _first_operand_names(stmt.value):
                sources |= _view_sources(body, arg, parameters, callees, seen)
    return sources

_VIEW_FUNCTIONS = frozenset(("reshape", "transpose", "ravel", "squeeze", "swapaxes",
                             "expand_dims", "asarray", "atleast_1d", "atleast_2d",
                             "broadcast_to", "diagonal"))


def _may_view(value, callees):
    """Can `value` share memory with its first operand (a copy, a slice, a reshape)?"""
    if isinstance(value, (gast.Name, gast.Subscript)):
        return True
    if isinstance(value, gast.Attribute):          # an object's array: `W = self.W`
        return callees.get(dotted_path(value)) is attribute_of
    if isinstance(value, gast.Call):
        obj = callees.get(dotted_path(value.func))
        return getattr(obj, "__name__", None) in _VIEW_FUNCTIONS
    return False


def _first_operand_names(value):
    if isinstance(value, gast.Name):
        return [value.id]
    if isinstance(value, (gast.Subscript, gast.Attribute)) \
            and isinstance(value.value, gast.Name):
        return [value.value.id]
    if isinstance(value, gast.Call) and value.args and isinstance(value.args[0], gast.Name):
        return [value.args[0].id]
    return []
