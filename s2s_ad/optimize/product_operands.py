"""The elementwise operand of a matrix product named, so that buffers.py may evaluate it
in place (a step of optimize/buffers.py's schedule_in_place, before it plans).

A closed form (optimize/closed_forms.py) writes an adjoint that a product reads into
the product itself; buffers.py plans whole assignments of elementwise arithmetic, so an
operand inside `@` took a new array for each of its operations. Named first, it is one
more elementwise assignment, planned like any other:

    w_bar = np.clip(t2_0, -1.35, 1.35) / y.size @ X      w_bar_operand = np.clip(t2_0, -1.35,
                                                  ->         1.35, out=t2_0)
                                                         w_bar_operand /= y.size
                                                         w_bar = w_bar_operand @ X
"""
import gast

from ..ir import build


def product_operands_named(schedule, allocates):
    """(statements, names given): schedule.body (not edited) with each operand E of a
    product `t = E @ M` or `t = M @ E` (t a generated name, E arithmetic or a ufunc giving a
    new float array: `allocates(E, schedule)` and a class in schedule.class_of) assigned a
    name of its own just before; `names given` empty and the body as it was when there is
    no such operand."""
    out, named = [], {}
    for stmt in schedule.body:
        target = stmt.targets[0].id if isinstance(stmt, gast.Assign) and len(
            stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name) else None
        value = stmt.value if target is not None else None
        # the right operand named first runs before the left one: only when the left
        # calls nothing (a name, `X.T`), so that no order of effects changes
        sides = [side for side in ("left", "right")
                 if isinstance(value, gast.BinOp) and isinstance(value.op, gast.MatMult)
                 and schedule.generated(target)
                 and allocates(getattr(value, side), schedule)
                 and isinstance(schedule.class_of(getattr(value, side)), tuple)
                 and (side == "left" or not any(isinstance(n, gast.Call)
                                                for n in gast.walk(value.left)))]
        if not sides:
            out.append(stmt)
            continue
        product = build.clone(value)
        assigned = build.with_location(build.assign(target, product), stmt)
        for side in sides:
            name = schedule.fresh(f"{target}_operand")
            out.append(build.with_location(build.assign(name, getattr(product, side)), stmt))
            setattr(product, side, build.name(name))
            named[name] = (out[-1], product, side)
        out.append(assigned)
    return (out, named) if named else (schedule.body, named)


def unplanned_operands_inlined(statements, named):
    """`statements` (the planned body) with each operand named by product_operands_named
    that the plan left as it was (a new array either way: `P_bar_operand = 0.5 * X`) put
    back into its product; the statements themselves when there is none. (The products
    are product_operands_named's own nodes: editing them edits no input.)"""
    present = {id(s) for s in statements}
    values = {id(s.value) for s in statements if isinstance(s, gast.Assign)}
    # an operand the plan gave another statement as its buffer (`np.tanh(w5, out=
    # t3_0_operand)`, once the product has read it) stays named: inlined, that name is
    # never bound
    read = {}
    for s in statements:
        for node in gast.walk(s):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
                read[node.id] = read.get(node.id, 0) + 1
    unplanned = [(stmt, product, side) for stmt, product, side in named.values()
                 if id(stmt) in present and id(product) in values
                 and read.get(stmt.targets[0].id, 0) <= 1]
    for stmt, product, side in unplanned:
        setattr(product, side, stmt.value)
    dropped = {id(stmt) for stmt, _, _ in unplanned}
    return [s for s in statements if id(s) not in dropped] if dropped else statements
