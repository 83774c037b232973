"""Is an attribute a state update writes read again by the code differentiated?

normalize turns `obj.n = v` / `obj.n += v` into `set_attribute(obj, "n", v)`, run once in
the forward sweep, where Python runs it, and nondifferentiable. That is right only while
the output does not depend on the written value: a running mean, a call counter. A read
of the attribute after the write (later in the code, or anywhere in a loop around the
write) whose value reaches the output, or a call reaching the output that is given the
object (or an object holding it) after the write, would make the output depend on the
write, whose derivative s2s_ad does not follow: a located error, never a gradient
missing that path.

    def forward(self, x):                        (inlined into f: self is m.bn)
        self.rm = 0.9 * self.rm + 0.1 * x.mean()     set_attribute(t1, "rm", t4): allowed
        self.calls += 1                              allowed (read before the write)
        self.cache = np.tanh(x)
        return self.cache * 2.0                  ->  UnsupportedSyntaxError here

Objects are told apart by the path from f's parameters (`m`, `m.bn`); a name bound any
other way (an item of a list of layers) may be any object, so its reads of the same
attribute name count. Read only; returns None or raises.
"""
import gast

from ..errors import UnsupportedSyntaxError
from ..ir.build import dotted_path
from ..ir.walk import walk_tree
from ..runtime_objects import set_attribute

_UNKNOWN = object()


def reject_state_read_back(levels, activity, request):
    """Raise the located error above for the first read-back; None when there is none.
    Also for any write in the vjp of a function f calls (`request.helper`, not split in
    two): its caller runs the function, then the vjp runs it again, so the state would be
    updated twice (a helper's jvp replaces the call, and the forward half of a split pair
    is the only run: those keep their writes)."""
    events, arms = _events(levels)
    writes = [e for e in events if e[0] == "write"]
    if not writes:
        return
    if request.helper and request.mode != "jvp" and not request.pair:
        raise UnsupportedSyntaxError(
            "this attribute write is in a function called by the one differentiated, whose "
            "vjp s2s_ad builds on its own and which runs the function again after the call "
            "ran it (a gradient differentiated again, a model's method under hvp), so the "
            "update would happen twice",
            levels.parsed.source_map.locate(writes[0][3]),
            "update the state outside the function differentiated (after the call), or "
            "take the first-order derivative (grad, value_and_grad, jvp)")
    paths = _paths(levels)
    for kind, order, loops, node, base, attr, target in events:
        if kind == "write" or target not in activity.useful:
            continue
        for _, w_order, w_loops, w_node, w_base, w_attr, _ in writes:
            # after the write: later and not on another arm of a branch (`if training:
            # update, else: read the running mean`), or in a loop around both
            if not (order > w_order and not _exclusive(arms[id(node)], arms[id(w_node)])
                    or set(loops) & set(w_loops)):
                continue
            held, written = paths.get(base, _UNKNOWN), paths.get(w_base, _UNKNOWN)
            if kind == "read" and attr == w_attr and _same(held, written):
                what = f"reads `.{attr}`, which the code differentiated wrote before"
            elif kind == "call" and held is not _UNKNOWN and written is not _UNKNOWN \
                    and _overlap(held, written):
                what = (f"passes the object whose `.{w_attr}` the code differentiated "
                        f"wrote before to a call")
            else:
                continue
            raise UnsupportedSyntaxError(
                f"this {what}: the output would depend on an attribute write, which s2s_ad "
                f"runs as a side effect (state such as a running mean or a counter) and does "
                f"not differentiate", levels.parsed.source_map.locate(node),
                "keep the value in a local variable (and store it too if the object needs "
                "it), and use the local")


def _same(a, b):
    return a is _UNKNOWN or b is _UNKNOWN or a == b


def _overlap(a, b):
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def _exclusive(arms, other):
    """Are two statements on different arms of one branch (one never runs after the other
    but by a loop around them)?"""
    taken = dict(arms)
    return any(branch in taken and taken[branch] != arm for branch, arm in other)


def _events(levels):
    """([(kind, order, enclosing loops, node, object name, attribute, target)] in program
    order: "write" for set_attribute, "read" for `t = obj.n`, "call" for each object name
    given to a call (target: the name its result is bound to)], {id(statement): the
    (id(if), arm) pairs of the branches it is in})."""
    found, arms = [], {}

    def visit(body, loops, within=()):
        for stmt in body:
            arms[id(stmt)] = within
            value = stmt.value if isinstance(stmt, (gast.Assign, gast.Expr)) else None
            target = stmt.targets[0].id if isinstance(stmt, gast.Assign) \
                and isinstance(stmt.targets[0], gast.Name) else None
            if isinstance(value, gast.Call) and levels.callees.get(
                    dotted_path(value.func)) is set_attribute:
                obj, name = value.args[0], value.args[1]
                found.append(("write", len(found), loops, stmt, getattr(obj, "id", None),
                              name.value, None))
            elif isinstance(value, gast.Attribute) and isinstance(value.value, gast.Name):
                found.append(("read", len(found), loops, stmt, value.value.id, value.attr,
                              target))
            elif isinstance(value, gast.Call):
                for arg in value.args + [k.value for k in value.keywords]:
                    if isinstance(arg, gast.Name):
                        found.append(("call", len(found), loops, stmt, arg.id, None,
                                      target))
            inner = loops + (id(stmt),) if isinstance(stmt, (gast.For, gast.While)) \
                else loops
            for field in ("body", "orelse", "handlers", "finalbody"):
                block = getattr(stmt, field, None)
                if isinstance(block, list):
                    visit(block, inner, within + ((id(stmt), field),)
                          if isinstance(stmt, gast.If) else within)

    visit(levels.tree.body, ())
    return found, arms


def _paths(levels):
    """name -> its object's path from f's parameters (("m", "bn")), _UNKNOWN when bound
    to anything else or to two different paths."""
    args = levels.tree.args
    paths = {a.id: (a.id,) for a in args.posonlyargs + args.args + args.kwonlyargs}
    bound = {}
    for node in walk_tree(levels.tree):
        if not (isinstance(node, gast.Assign) and isinstance(node.targets[0], gast.Name)):
            continue
        bound.setdefault(node.targets[0].id, []).append(node.value)
    rebound = {name for name in bound if name in paths}   # a parameter may hold anything
    for _ in range(len(bound) + 1):     # chains `t2 = t1.bn` settle in as many rounds
        for name, values in bound.items():
            found = {_path_of(v, paths) for v in values}
            paths[name] = found.pop() if len(found) == 1 and name not in rebound \
                else _UNKNOWN
    return paths


def _path_of(value, paths):
    if isinstance(value, gast.Name):
        return paths.get(value.id, _UNKNOWN)
    if isinstance(value, gast.Attribute) and isinstance(value.value, gast.Name):
        base = paths.get(value.value.id, _UNKNOWN)
        return _UNKNOWN if base is _UNKNOWN else base + (value.attr,)
    return _UNKNOWN
