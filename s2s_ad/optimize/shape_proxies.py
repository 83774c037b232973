"""Keep forward values alive for their values, not for their shapes.

`unbroadcast(g, x)` and `unreduce(g, x, ...)` read only x's shape. When x is an
elementwise result that nothing else reads, its shape is the broadcast of its operands'
shapes, so x can be replaced by those operands (values the gradient keeps anyway), and
dead-code elimination then drops the computation of x:

    t6_0 = np.log(p)                          (removed)
    t7_0 = y * t6_0                           (removed)
    ...
    unbroadcast(t9_0_bar, t7_0)       ->      unbroadcast(t9_0_bar, shaped_like(y, p))

shaped_like(...) is a zero-stride view with the broadcast shape: no allocation.
"""
import gast

from ..ir import build
from ..ir.walk import walk_tree

_SHAPE_ONLY = {"unbroadcast": 1, "unreduce": 1, "reduced_count": 0}
_ELEMENTWISE_BINOPS = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.Mod)


def make_shape_proxy_pass(helper_names, is_elementwise_call, shaped_like):
    """A pass (body -> (body, changed)); helper_names: generated name -> helper name, and
    shaped_like: the generated name of runtime.shaped_like (either may be a callable,
    asked when the pass runs). Only top-level definitions are read in place of another
    (after the tape is decided, a loop's values may not be restored)."""
    def run(body):
        names = helper_names() if callable(helper_names) else helper_names
        shape_positions = {name: _SHAPE_ONLY[helper] for name, helper in names.items()
                           if helper in _SHAPE_ONLY}
        if not shape_positions:
            return body, False
        shaped_like_name = shaped_like() if callable(shaped_like) else shaped_like
        defs, counts = {}, {}
        for stmt in body:
            if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
                defs[stmt.targets[0].id] = stmt.value
        # one walk: stores, loads, shape-reading calls, marker calls (comments, blanks)
        shape_args, shaped_calls, markers, loads = [], [], [], []
        for node in walk_tree(gast.Module(body=body, type_ignores=[])):
            if isinstance(node, gast.Name):
                if isinstance(node.ctx, gast.Store):
                    counts[node.id] = counts.get(node.id, 0) + 1
                elif isinstance(node.ctx, gast.Load):
                    loads.append(node)
            elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
                if node.func.id in shape_positions:
                    k = shape_positions[node.func.id]
                    if len(node.args) > k and isinstance(node.args[k], gast.Name):
                        shape_args.append((node, k))
                elif node.func.id == shaped_like_name:       # its arguments: shapes only
                    shaped_calls.append(node)
                    shape_args.extend((node, k) for k, a in enumerate(node.args)
                                      if isinstance(a, gast.Name))
                elif node.func.id.startswith("__s2s_"):
                    markers.append(node)
        skipped = {id(call.args[k]) for call, k in shape_args}
        skipped |= {id(n) for call in markers for n in walk_tree(call)}
        value_reads = {}
        for node in loads:
            if id(node) not in skipped:
                value_reads[node.id] = value_reads.get(node.id, 0) + 1

        def operands(name, depth=0):
            value = defs.get(name)
            if value is None or counts.get(name) != 1 or value_reads.get(name) or depth > 20:
                return [name]
            parts = elementwise_operands(value, is_elementwise_call)
            if parts is None:
                return [name]
            found = []
            for part in parts:
                for leaf in operands(part, depth + 1):
                    if leaf not in found:
                        found.append(leaf)
            return found

        changed = False
        for call, k in shape_args:
            if call.func.id == shaped_like_name:
                continue
            name = call.args[k].id
            leaves = operands(name)
            if leaves != [name]:
                changed = True
                call.args[k] = build.name(leaves[0]) if len(leaves) == 1 else \
                    build.call(build.name(shaped_like_name), [build.name(v) for v in leaves])
        for node in shaped_calls:
            flat = []
            for arg in node.args:
                for leaf in (operands(arg.id) if isinstance(arg, gast.Name) else [arg]):
                    leaf = build.name(leaf) if isinstance(leaf, str) else leaf
                    if not any(isinstance(f, gast.Name) and isinstance(leaf, gast.Name)
                               and f.id == leaf.id for f in flat):
                        flat.append(leaf)
            if gast.dump(gast.Tuple(elts=flat, ctx=gast.Load())) != \
                    gast.dump(gast.Tuple(elts=node.args, ctx=gast.Load())):
                node.args = flat
                changed = True
        return body, changed

    return run


def elementwise_operands(value, is_elementwise_call):
    """The Name operands of an elementwise operation (literals dropped), else None."""
    if isinstance(value, gast.BinOp) and isinstance(value.op, _ELEMENTWISE_BINOPS):
        atoms = [value.left, value.right]
    elif isinstance(value, gast.UnaryOp) and isinstance(value.op, (gast.USub, gast.UAdd)):
        atoms = [value.operand]
    elif isinstance(value, gast.Call) and is_elementwise_call(value):
        atoms = list(value.args)
    else:
        return None
    names = [a.id for a in atoms if isinstance(a, gast.Name)]
    if len(names) + sum(isinstance(a, gast.Constant) for a in atoms) != len(atoms):
        return None
    return names or None
