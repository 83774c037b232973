"""Writes into an array another name still reads (analyses/aliases.py): a located error,
or a run-time check where the facts cannot tell whether the other name is a view.

    w = v[0]            v a matrix (facts):    UnsupportedSyntaxError at the write
    v[0] = x * 3.0      v of unknown rank:     check_unshared(v, w, "<the error>")
    return np.sum(w)                           before the write, in a new levels form

s2s_ad follows values, so a derivative that let the write change `w` behind its back
would read the old values: a wrong gradient without an error. A number read out of a
vector (`w = v[0]`) shares nothing with v, so the check passes and the derivative runs.
Takes the levels form and the facts (analyses.kinds); returns a levels form (the same
one when no check is needed), never writing into its input.
"""
import ast
import copy
import dataclasses
import inspect
import re

import gast

from ..errors import SharedMemoryWriteError
from ..ir import build
from ..analyses.aliases import writes_through_aliases
from ..analyses.argument_writes import first_writes
from ..frontend.parse import parse
from ..ir.primitives import appended_list
from ..ir.walk import names_stored, walk_tree
from .. import runtime_checks


_GENERATED_HOLDER = re.compile(r"^(_tape\w*|t\d+_\d+)$")
_RETURNED = re.compile(r"^result(_\d+)?$")


def guard_aliased_writes(levels, kinds, namer, user_names, generated=False):
    """Raise for a write the facts prove changes a value read later; return `levels`
    with a check before each write that may (the facts do not tell). A `generated`
    derivative differentiated again restores what it overwrites before reading views
    of it: its item reads are not checked, nor are its tape and the temporaries of its
    levels form (the backward sweep undoes writes in the reverse order of the forward
    sweep's, so what they hold is what they held when the forward sweep made them by the
    time the backward sweep reads them; f's own variables were checked in f)."""
    findings = writes_through_aliases(levels, kinds, item_views=not generated)
    if generated:
        findings = [f for f in findings if not _GENERATED_HOLDER.match(f[2])]
    known = [f for f in findings if not f[3]]
    if known:
        raise _error(levels, known, user_names)
    if not findings:
        return levels
    name = namer.fresh("check_unshared")
    checks = {}
    for stmt, written, other, _ in findings:
        message = str(_error(levels, [(stmt, written, other, True)], user_names,
                             portable=True))
        checks.setdefault(id(stmt), []).append(build.expr_stmt(build.call(
            build.name(name), [build.name(written), build.name(other), build.const(message)])))
    tree = copy.copy(levels.tree)
    tree.body = _unbound_as_none(levels.tree, findings) + build.with_statements_before(
        levels.tree.body, lambda stmt: [
            build.with_location(check, stmt) for check in checks.get(id(stmt), [])])
    callees = dict(levels.callees, **{name: runtime_checks.check_unshared})
    runtime_names = dict(levels.runtime_names)
    runtime_names[runtime_checks.check_unshared] = name
    return dataclasses.replace(levels, tree=tree, callees=callees, runtime_names=runtime_names)


def _unbound_as_none(tree, findings):
    """`other = None` first, for each name a check reads that a run may reach the write
    without having bound (bound in an earlier iteration, or in a branch: `for ...: y *= 2;
    if c: z = y`): the check then reads None, which shares nothing, where f's own run
    has not bound it yet."""
    names = set()
    for stmt, _, other, _ in findings:
        if not _bound_before(tree, stmt, other):
            names.add(other)
    return [build.with_location(build.assign(build.name(n, store=True), build.const(None)),
                                tree.body[0]) for n in sorted(names)]


def _bound_before(tree, stmt, name):
    """Is `name` a parameter, or bound by a simple statement of the body's top level
    before the top-level statement that holds `stmt`?"""
    if name in {a.id for a in tree.args.args}:
        return True
    for top in tree.body:
        if top is stmt or any(node is stmt for node in walk_tree(top)):
            return False
        if not isinstance(top, (gast.For, gast.While, gast.If)) and name in names_stored(top):
            return True
    return False


def _error(levels, findings, user_names, portable=False):
    """The error for the first write found, naming a variable of the user's rather than
    a temporary. `portable`: the file named by its base name (the message is written into
    generated code, which must read the same on every machine)."""
    first = [f for f in findings if f[0] is findings[0][0]]
    stmt, written, other, _ = min(first, key=lambda f: (f[2] not in user_names, f[2]))
    in_place = levels.updated_in_place(stmt) is not None
    grown = appended_list(stmt) is not None        # `b = a; b.append(v)`: one list
    location, called = located(levels, stmt, portable), ""
    if written == levels.updated_item(stmt):       # `c[k] op= v`: c[k]'s own array
        container = stmt.targets[0].value.id
        written = levels.inlined.get(container, (container,))[0] + \
            ast.unparse(gast.gast_to_ast(stmt.targets[0].slice)).join("[]")
        return SharedMemoryWriteError(
            f"`{written}` holds the same numpy array as `{other}` (a list or dict holding "
            f"it), so this write changes `{other}` too, which is read later; s2s_ad follows "
            f"values, not shared memory", location,
            f"put a copy in the container (`{other}.copy()`), or write the update as an "
            f"assignment: `{written} = {written} + ...`")
    if written in levels.inlined:                  # a name of a def of yours, inlined
        written, location, called = _in_helper(*levels.inlined[written], location, portable)
    other = levels.inlined.get(other, (other,))[0]
    seen = f"`{other}`"
    if other not in user_names and _RETURNED.match(other):
        seen = "the value returned before it"      # `return v` lowered to `result = v`
    return SharedMemoryWriteError(
        f"`{written}`{called} holds the same {'list' if grown else 'numpy array'} as {seen} "
        f"(an assignment, a view or a list holding it), so this write changes {seen} too, "
        f"which is read later; "
        f"s2s_ad follows values, not shared memory", location,
        f"copy before writing: `{written} = " + (f"list({written})`" if grown else
                                                  f"{written}.copy()`")
        + (f"; for numbers, write the update as an assignment (`{written} = {written} "
           f"* ...` rather than `{written} *= ...`); to change the array both names hold "
           f"(a helper of yours writing into the array it is given), write through an "
           f"index: `{written}[...] *= ...`" if in_place else ""))


def _in_helper(name, helper, call, at_call, portable):
    """(the name in the helper's source, where the helper first writes into it, what says
    the call) for a write made by a def of yours inlined into f (its statements carry the
    call's place): `x *= 2.0` in `double`, not `b = double(a)` with `x_1`."""
    write = first_writes(helper).get(name)
    location = at_call
    if write is not None:
        location = parse(helper).source_map.locate(write)
        if portable:
            location = location.portable()
    params = inspect.signature(helper).parameters
    return name, location, (f" ({'a parameter' if name in params else 'a variable'} of "
                            f"`{helper.__name__}`, called from {call.function} at line "
                            f"{call.lineno})")


def located(levels, stmt, portable):
    """Where `stmt` is in the user's source; `portable`: its file by base name (a message
    written into generated code reads the same on every machine)."""
    location = levels.parsed.source_map.locate(stmt)
    if portable and location is not None:
        location = location.portable()
    return location
