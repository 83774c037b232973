"""Reductions inside a loop or a branch whose operand is a value of that block alone.

A full reduction `s = np.mean(v)` gives v the adjoint `unreduce(g, v)`, an array of v's
shape filled with g. At the top level the backward sweep holds such an adjoint as the
number g and passes it on where v is defined (ad/uniform.py). Inside a loop v is bound
again every iteration; in a branch its adjoint starts as a join's. It may still be held
as a number when v is bound once in the function, by the statement of the block just
before the reduction, and read by the reduction alone: in the backward sweep the
reduction's adjoint and v's definition are then reversed one after the other, with
nothing between them that could rebind what g reads, and nothing else adds to v's adjoint.

    for x_t in xs:                              for x_t in reversed(xs):
        ...                                         ...
        t11_0 = t10_0 ** 2              ->          t10_0_bar = g * 2.0 * t10_0
        loss = loss + np.mean(t11_0)                (no array of g for t11_0)
"""
import gast

from ..ir.walk import all_statements, walk_tree


def block_seeds(body, definitions):
    """id(reduction statement) -> the name it reduces, for the statement pairs of a block
    `v = ...; s = f(v)` described above (f is decided later: only a template that spreads
    a number over v uses the entry). `definitions`: name -> definition sites
    (analyses.dataflow)."""
    loads = {}
    for node in walk_tree(gast.Module(body=body, type_ignores=[])):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            loads[node.id] = loads.get(node.id, 0) + 1
    found = {}
    blocks = [block for stmt in all_statements(body)
              if isinstance(stmt, (gast.For, gast.While, gast.If))
              for block in (stmt.body, stmt.orelse)]
    for block in blocks:
        for before, stmt in zip(block, block[1:]):
            operand = _bound_name(before)
            target = _bound_name(stmt)
            if operand is None or target is None or loads.get(operand) != 1 \
                    or definitions.get(operand) != 1:
                continue
            if any(isinstance(n, gast.Name) and n.id == operand for n in walk_tree(stmt.value)):
                found[id(stmt)] = operand
    return found


def _bound_name(stmt):
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], gast.Name):
        return stmt.targets[0].id
    return None
