"""Stage 7 (number code): a pure call repeated with the same operands is made once.

Each direction of a forward-mode gradient expands its own tangent templates, so a
function of two inputs asks for `math.cos(x)` once per direction, and the value itself
may already be computed beside them (`t2_2 = math.cos(E)`). On numbers a call costs far
more than reading a name: the first occurrence's value is kept in a name and read again.

    dt1_2_da = dx_da * math.cos(x)              cos_x = math.cos(x)
    dt1_2_db = dx_db * math.cos(x)      ->      dt1_2_da = dx_da * cos_x
                                                dt1_2_db = dx_db * cos_x

When one of the later occurrences is a whole assignment `t = math.cos(x)` (and t is not
read or written before it), that statement moves up to the first occurrence instead of
making a new name. Only in one block, only between writes of what the call reads (a
statement that writes one still reads its operands first), only calls without effects
(numpy's and math's) and never out of `a if c else b` or `and`/`or`: the values and the
order of every effect stay as they were. np.sign of a Python float written out
(`1.0 if x > 0.0 else ...`, build.float_sign: comparisons of a float, no effects) is
made once the same way. Repeats are looked for in the next 64
statements (a body of n statements costs O(n), not O(n**2)).
"""
import gast

from ..ir import build
from ..ir.walk import every_call, names_stored, walk_tree

# how far ahead a call's repeats are looked for: the ones tangent templates make sit in
# the next few statements, and a bounded scan keeps a long straight-line body linear
_WINDOW = 64

_CONDITIONAL = (gast.IfExp, gast.BoolOp, gast.Lambda, gast.ListComp, gast.GeneratorExp,
                gast.SetComp, gast.DictComp)


def share_repeated_calls(body, pure_call, fresh):
    """(new body, changed). pure_call(call): a call without effects; fresh(hint): a new
    name. The pass edits a copy it makes at its entry (it moves calls between the
    statements of every block): `body` and its statements stay as they were."""
    body = build.clone(body)
    return body, _share_in_block(body, pure_call, fresh)


def _share_in_block(body, pure_call, fresh):
    """Whether a call was shared; every block of `body` edited in place."""
    changed = False
    for stmt in body:
        for field in ("body", "orelse"):
            if isinstance(stmt, (gast.If, gast.For, gast.While)):
                changed |= _share_in_block(getattr(stmt, field), pure_call, fresh)
    seen = _Seen()
    k = 0
    while k < len(body):
        if _simple(body[k]):
            for call in _calls(body[k].value, pure_call):
                if _share(body, k, call, fresh, seen):
                    changed = True
                    break               # body[k] changed: look at it again
            else:
                k += 1
        else:
            k += 1
    return changed


class _Seen:
    """Per statement of a block, the calls its value makes (as gast.dump keys) and the
    names it stores, worked out once: the scan for a call's repeats reads them for every
    later statement, and a straight-line body of n statements would otherwise dump n**2
    calls. A statement an edit changed is forgotten (`forget`)."""
    def __init__(self):
        self._keys, self._stores = {}, {}

    def keys(self, stmt):
        found = self._keys.get(id(stmt))
        if found is None:
            found = self._keys[id(stmt)] = (stmt, frozenset(
                gast.dump(c) for c in _calls(stmt.value, lambda c: True)))
        return found[1]

    def stores(self, stmt):
        found = self._stores.get(id(stmt))
        if found is None:
            found = self._stores[id(stmt)] = (stmt, set(names_stored(stmt)))
        return found[1]

    def forget(self, stmt):
        self._keys.pop(id(stmt), None)

def _simple(stmt):
    return isinstance(stmt, (gast.Assign, gast.Return)) and stmt.value is not None and (
        not isinstance(stmt, gast.Assign) or all(isinstance(t, gast.Name)
                                                 for t in stmt.targets))


def _calls(value, pure_call):
    """The calls `value` always evaluates (not under a condition), all of whose calls
    have no effects, outermost first."""
    found, todo = [], [value]
    while todo:
        node = todo.pop(0)
        if build.is_float_sign(node):
            found.append(node)
            continue
        if isinstance(node, _CONDITIONAL):
            continue
        if isinstance(node, gast.Call):
            if not every_call(node, pure_call):
                continue
            found.append(node)
        todo.extend(gast.iter_child_nodes(node))
    return found


def _share(block, k, call, fresh, seen):
    """Make `call` (in block[k]) once if a later statement repeats it; did it?"""
    key = gast.dump(call)
    reads = {n.id for n in walk_tree(call) if isinstance(n, gast.Name)}
    places = [(k, node) for node in _calls(block[k].value, lambda c: True)
              if node is not call and gast.dump(node) == key]
    stored = seen.stores(block[k])
    m, end = k + 1, min(len(block), k + 1 + _WINDOW)
    while not (stored & reads) and m < end and (
            _simple(block[m]) or build.is_comment(block[m])):
        if _simple(block[m]):
            if key in seen.keys(block[m]):
                places += [(m, node) for node in _calls(block[m].value, lambda c: True)
                           if gast.dump(node) == key]
            stored = seen.stores(block[m])
        m += 1
    if not places:
        return False
    first = block[k]
    if first.value is call and isinstance(first, gast.Assign) and len(first.targets) == 1 \
            and not any(first.targets[0].id in seen.stores(block[j])
                        for j in range(k + 1, max(j for j, _ in places) + 1)):
        for j, node in places:          # `t = f(x)` first: later ones read t
            _replace(block[j], node, build.name(first.targets[0].id))
            seen.forget(block[j])
        return True
    whole = next((j for j, node in places if block[j].value is node and j > k
                  and isinstance(block[j], gast.Assign) and len(block[j].targets) == 1
                  and not _touches(block[k:j], block[j].targets[0].id)), None)
    if whole is not None:
        name = block[whole].targets[0].id
        moved = block.pop(whole)
        places = [(j, node) for j, node in places if node is not moved.value]
        block.insert(k, moved)
        places = [(j + 1, node) for j, node in places] + [(k + 1, call)]
    else:
        if build.is_float_sign(call):
            hint = "sign_" + call.test.left.id
        else:
            hint = getattr(call.func, "attr", getattr(call.func, "id", "value"))
            if len(call.args) == 1 and isinstance(call.args[0], gast.Name):
                hint += "_" + call.args[0].id
        name = fresh(hint)
        block.insert(k, build.assign(name, build.clone(call)))
        places = [(j + 1, node) for j, node in places] + [(k + 1, call)]
    for j, node in places:
        _replace(block[j], node, build.name(name))
        seen.forget(block[j])
    return True


def _touches(stmts, name):
    return any(isinstance(n, gast.Name) and n.id == name for s in stmts for n in walk_tree(s))


def _replace(stmt, old, new):
    if stmt.value is old:
        stmt.value = new
        return
    for holder in walk_tree(stmt.value):
        for field, child in gast.iter_fields(holder):
            if child is old:
                setattr(holder, field, new)
                return
            if isinstance(child, list) and any(c is old for c in child):
                child[[id(c) for c in child].index(id(old))] = new
                return
