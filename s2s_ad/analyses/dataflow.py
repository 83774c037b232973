"""Definitions and uses over structured levels form: which adjoints need accumulation.

A variable is *block-local* when it has exactly one definition, a plain statement of some
block, and every use comes after that definition inside the same block (directly or in
a nested statement). Its adjoint lives and dies within one execution of the block, so
the backward sweep treats it like straight-line code (the first contribution assigns,
a single use passes straight on). Parameters never reassigned are block-local to the
function body.

Every other variable is *accumulated*: redefined, carried around a loop, merged after a
branch, written in place (`y[i] = v`) or appended to. Its adjoint keeps one name, starts
at zero, accumulates, and is reset when the backward sweep passes a definition.

    s = 0.0                      s: accumulated (two definitions)
    for i in rng:                i: accumulated (loop target)
        t1_0 = x[i]              t1_0: block-local to the loop body
        s = s + t1_0

Lists that are appended to (and plain copies of them) are *list-valued*: their adjoint
is a Python list of per-element adjoints. Results of the runtime helpers that build
lists or dicts of adjoints are *structured*: their adjoints add with `add_adjoints`.
"""
from dataclasses import dataclass

import gast

from .. import runtime_flow, runtime_shape
from ..ir.build import dotted_path
from ..ir.primitives import appended_list, popped_list
from ..runtime_objects import attribute_of, attribute_tangent, make_object
from ..signature import Items, Opaque, SequenceOf
from ..ir.walk import names_loaded, walk_tree


@dataclass(frozen=True)
class DataFlow:
    block_local: frozenset
    accumulated: frozenset
    list_valued: frozenset
    definitions: dict       # variable -> number of definition sites
    in_loops: frozenset     # variables assigned inside a loop body (overwritten each pass)
    indexed_only: frozenset  # used only as `v[...]`, len(v), keys of v: maybe a dict/list/tuple
    subscripted: frozenset   # read or written as `v[...]` somewhere: adjoint updated in place
    structured: frozenset = frozenset()   # maybe a list/dict/tuple: adjoints add generically
    user_lists: frozenset = frozenset()   # certainly a list the user built (`*` repeats it)
    written_through: frozenset = frozenset()  # written by index (`v[i] = e`): its array changes

    def is_user_sequence(self, atom):
        """Is the operand `atom` a list or tuple the user built: a name in user_lists, or
        a display of constants left in place (`(2.0,)` in `(2.0,) + t1_0`)?"""
        if isinstance(atom, gast.Name):
            return atom.id in self.user_lists
        return isinstance(atom, (gast.List, gast.Tuple))

    def is_accumulated(self, name):
        return name in self.accumulated

    def is_overwritten(self, name):
        """Can a later statement or iteration overwrite this variable's value?"""
        return name in self.accumulated or name in self.in_loops


def is_sequence_operand(atom, dataflow, kinds):
    """Is the operand `atom` a list or tuple, so that `+` and `*` concatenate and repeat
    it: one the user built (dataflow.user_lists, a display), or one the facts prove a
    list or tuple (a parameter called with one: `def f(a, b): c = a + b`)?"""
    if dataflow.is_user_sequence(atom):
        return True
    return kinds is not None and isinstance(atom, gast.Name) and is_list_or_tuple(
        kinds.of(atom))


def is_list_or_tuple(kind):
    if isinstance(kind, (Items, SequenceOf)):
        return kind.container in (list, tuple)
    return isinstance(kind, Opaque) and kind.type in (list, tuple)


def _defined_by(stmt):
    """Names a statement (re)binds or mutates, not counting nested blocks."""
    if isinstance(stmt, gast.Assign):
        target = stmt.targets[0]
        if isinstance(target, gast.Name):
            popped = popped_list(stmt.value)
            return [target.id] + ([popped] if popped else [])
        if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
            return [target.value.id]
    if isinstance(stmt, gast.For):
        return [stmt.target.id]
    if appended_list(stmt):
        return [appended_list(stmt)]
    return []


def analyse_dataflow(levels):
    tree = levels.tree
    params = _parameters(tree)
    sites = {}          # name -> list of (block id, position, is plain assignment)
    uses = {}           # name -> list of (chain of (block id, position))

    def visit(block, chain):
        for pos, stmt in enumerate(block):
            here = chain + ((id(block), pos),)
            for name in _defined_by(stmt):
                plain = isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
                sites.setdefault(name, []).append((id(block), pos, plain))
            heads = []
            if isinstance(stmt, (gast.If, gast.While)):
                heads = [stmt.test]
            elif isinstance(stmt, gast.For):
                heads = [stmt.iter]
            elif not isinstance(stmt, (gast.If, gast.For, gast.While)):
                heads = [stmt]
            for node in heads:
                for name in names_loaded(node):
                    uses.setdefault(name, []).append(here)
            if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
                uses.setdefault(stmt.targets[0].value.id, []).append(here)
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if inner:
                    visit(inner, here)
            if isinstance(stmt, gast.While):
                # the loop test is read again at the end of every iteration
                for name in names_loaded(stmt.test):
                    uses.setdefault(name, []).append(here + ((id(stmt.body), len(stmt.body)),))

    visit(tree.body, ())
    local, accumulated = set(), set()
    for name in set(sites) | set(params):
        defs = sites.get(name, [])
        if name in params:
            defs = defs + [(id(tree.body), -1, True)]
        if len(defs) == 1 and defs[0][2] and all(
                _after(chain, defs[0][0], defs[0][1]) for chain in uses.get(name, [])):
            local.add(name)
        else:
            accumulated.add(name)
    lists = _list_valued(tree, sites)
    counts = {name: len(defs) for name, defs in sites.items()}
    in_loops = set()
    for node in walk_tree(tree):
        if isinstance(node, (gast.For, gast.While)):
            for inner in node.body:
                in_loops |= {n.id for n in walk_tree(inner)
                             if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    return DataFlow(frozenset(local), frozenset(accumulated), frozenset(lists), counts,
                    frozenset(in_loops), frozenset(_indexed_only(tree, levels.callees)),
                    frozenset(n.value.id for n in walk_tree(tree)
                              if isinstance(n, gast.Subscript) and isinstance(n.value, gast.Name)),
                    frozenset(_structured(tree, levels.callees)),
                    frozenset(_user_lists(tree, lists, levels.callees)),
                    frozenset(n.value.id for n in walk_tree(tree)
                              if isinstance(n, gast.Subscript) and isinstance(n.ctx, gast.Store)
                              and isinstance(n.value, gast.Name)))


def _after(chain, block, position):
    """Is the use at `chain` inside `block` at a position after `position`?"""
    for block_id, pos in chain:
        if block_id == block:
            return pos > position
    return False


def _parameters(tree):
    a = tree.args
    return {p.id for p in a.posonlyargs + a.args + a.kwonlyargs}


def _list_valued(tree, sites):
    lists = set()
    for node in walk_tree(tree):
        if appended_list(node):
            lists.add(appended_list(node))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                and node.func.attr == "pop" and isinstance(node.func.value, gast.Name):
            lists.add(node.func.value.id)
    changed = True
    while changed:
        changed = False
        for node in walk_tree(tree):
            if isinstance(node, gast.Assign) and isinstance(node.targets[0], gast.Name) \
                    and isinstance(node.value, gast.Name) and node.value.id in lists \
                    and node.targets[0].id not in lists:
                lists.add(node.targets[0].id)
                changed = True
    return lists


def _structured(tree, callees):
    """Variables that may hold a list, dict or tuple of adjoints: results of the runtime
    helpers that build those (they appear when a generated derivative is differentiated
    again), a user's list literals, tuple displays, and plain copies of such variables.
    `+` would concatenate them."""
    builders = {runtime_flow.scatter_add, runtime_flow.add_adjoints, runtime_flow.add_lists,
                runtime_flow.push_adjoint, runtime_flow.spread_adjoint, runtime_flow.copy_adjoint,
                runtime_flow.take_adjoint, runtime_flow.match_adjoint, runtime_shape.split_array,
                make_object}     # an object of your class: its adjoint is the dict of its fields'
    found = set()
    assigns = [n for n in walk_tree(tree)
               if isinstance(n, gast.Assign) and isinstance(n.targets[0], gast.Name)]
    for node in assigns:
        value = node.value
        if isinstance(value, gast.Call) and isinstance(value.func, gast.Name) \
                and callees.get(value.func.id) in builders:
            found.add(node.targets[0].id)
        elif _builds_list(value, found) or isinstance(value, gast.Tuple):
            # then filled by index: vals[i] = ...; a tuple display (`t = x,`, a held
            # function's arguments) has a list of adjoints too, which a tape restoring it
            # in a gradient differentiated again makes accumulate
            found.add(node.targets[0].id)
    changed = True
    while changed:
        changed = False
        for node in assigns:
            copied = isinstance(node.value, gast.Name) and node.value.id in found
            if (copied or _builds_list(node.value, found)) and node.targets[0].id not in found:
                found.add(node.targets[0].id)
                changed = True
    return found


def _user_lists(tree, appended, callees):
    """Variables every assignment of which is a list or tuple literal, a conversion
    `tuple(v)` / `list(v)`, or a repetition, concatenation or slice of those (`2 * xs`,
    `a + b`, `(x,) + (y,)`, `xs[1:]`), and lists grown by append: `+` and `*` on them
    concatenate and repeat."""
    values = {}
    for node in walk_tree(tree):
        if isinstance(node, gast.Assign) and isinstance(node.targets[0], gast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
    # the largest set consistent with every assignment: a list rebuilt from slices of
    # itself (`items = items[:i] + [v] + items[i:]`) is a list if its first value is
    found = (set(values) - _parameters(tree)) | set(appended)

    def is_list(node):
        if isinstance(node, gast.BinOp) and isinstance(node.op, (gast.Mult, gast.Add)):
            return is_list(node.left) or is_list(node.right)
        if isinstance(node, gast.Subscript) and isinstance(node.slice, gast.Slice):
            return is_list(node.value)          # a slice of a list is a list
        if isinstance(node, gast.Call) and len(node.args) == 1 and not node.keywords \
                and callees.get(dotted_path(node.func)) in (tuple, list):
            return True
        return isinstance(node, (gast.List, gast.Tuple)) \
            or isinstance(node, gast.Name) and node.id in found
    changed = True
    while changed:
        changed = False
        for name, assigned in values.items():
            if name in found and name not in appended \
                    and not all(is_list(v) for v in assigned):
                found.discard(name)
                changed = True
    return found


def _builds_list(value, lists):
    """`[a, b]`, `[0.0] * n`, `n * t1_0` for a list t1_0 (in `lists`): a user's list."""
    def is_list(node):
        return isinstance(node, gast.List) or isinstance(node, gast.Name) and node.id in lists
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Mult):
        return is_list(value.left) or is_list(value.right)
    return isinstance(value, gast.List)


_SIZE_AND_TYPE = (len, isinstance, runtime_flow.mapping_keys)


def _indexed_only(tree, callees):
    """Variables every use of which is `v[...]`, an object's attribute `v.w`, len(v), the
    keys of v or a type test (`isinstance(v, list)`, also under another name: `is_a =
    isinstance`): nothing says they are arrays."""
    allowed, other = set(), set()
    for node in walk_tree(tree):
        if isinstance(node, (gast.Subscript, gast.Attribute)) \
                and isinstance(node.value, gast.Name) and isinstance(node.ctx, gast.Load) \
                and (isinstance(node, gast.Subscript)
                     or callees.get(dotted_path(node)) is attribute_of):
            allowed.add(id(node.value))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                and (_sizes_or_types(node.func.id, callees)
                     or callees.get(node.func.id) is attribute_tangent) and node.args \
                and isinstance(node.args[0], gast.Name):
            allowed.add(id(node.args[0]))
    indexed = set()
    for node in walk_tree(tree):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            (indexed if id(node) in allowed else other).add(node.id)
    return indexed - other


def _sizes_or_types(name, callees):
    if name in ("len", "mapping_keys", "isinstance"):
        return True
    return any(callees.get(name) is f for f in _SIZE_AND_TYPE)
