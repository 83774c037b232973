"""The reverse of a call of one of the user's helpers: the call of its vjp, fed the
result's adjoint (item by item for a tuple it builds), with the random generators rewound
around it when the helper draws samples (transforms/random_replay.py).

    u = helper(x, w)       ->  x_bar, w_bar = vjp_helper(u_bar, x, w)
    p = fwd_helper(x, w)   ->  x_bar, w_bar = bwd_helper(p[1], u_bar)   (split: u = p[0])
    z = sample(mu, rs)     ->  draw_now = rewind_random_states(draw_state)
                               mu_bar = vjp_sample(z_bar, mu, rs)
                               rewind_random_states(draw_now)

A mixin of ad.statements.StatementReverser (it reads the reverser's adjoints, context
and inputs).
"""
import inspect

from .. import runtime, runtime_draws, runtime_flow
from ..ir import build


class HelperCallReverser:
    def _helper_call(self, op, target, helper, out):
        """t = helper(a, b)  ->  a_bar_1, b_bar_1 = vjp_helper(t_bar, a, b)."""
        active = active_params(op, self.ctx)
        vjp_name = self.i.bindings.name_for(helper.name, helper.function)
        if helper.split:
            # `pair = fwd_h(x)`: the value's adjoint is item 0's (a tuple's, items 0..n-1)
            items = self._cotangent(target, helper).elts[:-1]
            cotangent = items[0] if len(items) == 1 else build.tuple_(items)
            call = build.call(build.name(vjp_name), [
                build.subscript(build.name(target), build.const(len(items))), cotangent])
        else:
            cotangent = self._cotangent(target, helper)
            call = build.call(build.name(vjp_name), [cotangent] + list(op.args),
                              list(op.keywords.items()))
        parts = []
        for _, var in active:
            self.uniform.flush(var, out)        # an array from here: the helper adds to it
            fresh = not self.adj.has(var) and self.adj.name_of(var) not in parts
            parts.append(self.adj.name_of(var) if fresh else self.i.namer.fresh(f"{var}_bar"))
        if len(parts) == 1:
            out.append(build.assign(parts[0], call))
        else:
            out.append(build.assign_tuple(parts, call))
        for part, (_, var) in zip(parts, active):
            if part == self.adj.name_of(var) and not self.adj.accumulates(var):
                self.adj.contribute(var, build.name(part), [])
            else:
                self.contribute(var, build.name(part), out)

    def _rewind_draws(self, stmt, out):
        """Before a vjp that runs a call of f again (transforms/random_replay.py): the
        generators back in their states before the call, so it draws the same samples.
        Returns the name holding their states now, or None for a call that draws nothing."""
        state = (self.i.draw_states or {}).get(id(stmt))
        if state is None:
            return None
        now = self.i.namer.fresh("draw_now")
        out.append(build.assign(now, build.call(self._rewind(), [build.name(state)])))
        return now

    def _forward_draws(self, now, out):
        """After that vjp: the generators on to where the forward sweep left them."""
        if now is not None:
            out.append(build.expr_stmt(build.call(self._rewind(), [build.name(now)])))

    def _rewind(self):
        return build.name(self.i.bindings.name_for("rewind_random_states",
                                                   runtime_draws.rewind_random_states))

    def _cotangent(self, target, helper):
        """The helper's cotangent: its adjoint, or for a helper returning a tuple or list
        of known length the items' adjoints, each from its slot (`a, b = helper(x)`) and
        from the adjoint of the whole (`lp = helper(x)` then `lp[t]` read in a loop)."""
        if not helper.result_arity:
            return self.adj.get(target)
        whole = self.adj.get(target) if self.adj.has(target) else None
        items = []
        for k in range(helper.result_arity):
            slot = self.adj.get((target, k))
            if whole is not None:
                part = build.call(self.adj.helper(runtime_flow.take_adjoint),
                                  [build.clone(whole), build.const(k)])
                # the whole's adjoint may still be the scalar zero (or hold 0.0 for an
                # item nothing reached): the vjp, specialised on the item's kind, takes
                # it shaped as the item (np.flip(0.0, 0) failed in a grad of grad)
                part = build.call(self.adj.helper(runtime_flow.match_adjoint), [
                    part, build.subscript(build.name(target), build.const(k))])
                slot = part if slot is None else build.call(
                    self.adj.helper(runtime_flow.add_adjoints), [slot, part])
            if slot is None:
                zero = self.i.bindings.name_for("zero_adjoint", runtime.zero_adjoint)
                slot = build.call(build.name(zero), [build.subscript(build.name(target),
                                                                     build.const(k))])
            items.append(slot)
        return build.tuple_(items)


def active_params(op, ctx):
    """(parameter name, operand variable) for each active operand of a helper call."""
    params = list(inspect.signature(op.primitive).parameters)
    active = []
    for position, atom in enumerate(op.args):
        if ctx.is_active_operand(atom) and position < len(params):
            active.append((params[position], atom.id))
    for key, atom in op.keywords.items():
        if ctx.is_active_operand(atom):
            active.append((key, atom.id))
    return active
