"""Adjoint bookkeeping for the backward sweep (ARCHITECTURE §4).

Straight-line (block-local) values: the first contribution defines the adjoint. A bare
name is passed straight on (an alias, no statement); anything else is assigned to
`x_bar`. Later contributions add: `x_bar = alias + e` the first time, then `x_bar += e`,
in place only once the generated code allocated `x_bar` itself (never for an alias of a
seed, an argument or another adjoint).

    x used once:    x_bar is y_bar                       (no code)
    x used twice:   x_bar = t1_0_bar * w                 (allocated: owned)
                    x_bar += t1_1_bar                    (in place)

Accumulated values (redefined, loop-carried, written in place; see analyses.dataflow)
and straight-line values that receive contributions inside a loop or branch keep one
name, start from 0.0 and add (`x_bar = x_bar + e`); a definition resets them. That zero
stays symbolic (nothing written, `get` reads the literal 0.0) until something adds to the
adjoint, which then assigns (`x_bar = e`), or until a branch, a loop or a write that reads
it needs the number written (`materialize`); the walk joins it across branches and loops
(backward_walk.py, loop_zeros.py). Contributions to an item, `x_bar[index] += e`, are
indexed_contributions.py's.
"""
import gast

from ..ir import build
from ..ir.walk import walk_tree
from ..optimize.fold import fold_expression
from .. import runtime_flow, runtime_shape
from . import held_copies
from .indexed_contributions import IndexedContributions


_LISTS_FOR_LISTS = (runtime_flow.spread_adjoint, runtime_flow.scatter_add,
                    runtime_shape.split_array, runtime_flow.concatenation_part)


class Adjoints(IndexedContributions):
    def __init__(self, namer, bindings, numpy_name, dataflow, fixed_arrays=frozenset(),
                 containers=frozenset(), complex_names=frozenset(), is_integer=None,
                 float_arrays=frozenset(), distinct_index=None, int_value=None,
                 fixed_lists=frozenset()):
        self._namer = namer
        # an integer atom's value as an affine expression of lengths (analyses/lengths.py)
        self._int_value = int_value or (lambda atom: None)
        # variable -> (the block that made its adjoint by np.zeros_like, the windows
        # written into those zeros since): indexed_contributions._still_zero
        self._windows = {}
        self._negations = set()   # adjoint names bound to `-e` (windows: kept `+=`, `-= e`)
        # is this atom an integer (analyses/kinds.py)? Then x[k] picks one element
        self._is_integer = is_integer or (lambda atom: False)
        # does this index pick no element twice (adjoint_facts.distinct_index_test)?
        self._distinct_index = distinct_index or (lambda index: False)
        self._replaced = set()    # accumulated adjoints bound to an expression they may alias
        self._complex = complex_names       # values that may be complex: so may adjoints
        self.fixed_arrays = fixed_arrays    # float arrays of one shape (reverse.py's facts)
        self.fixed_lists = fixed_lists      # lists/tuples of floats (adjoint_facts.py)
        self._float_arrays = float_arrays   # float arrays of any shape (adjoint_facts.py)
        # accumulated variables whose adjoint is, until their next reset, an array this
        # code allocated with the shape of the value they hold now (np.zeros_like)
        self._arrays = set()
        self._containers = containers       # may hold lists/dicts (reverse._containers)
        self._bindings = bindings
        self._np = numpy_name
        self._flow = dataflow
        self._current = {}   # straight-line variable (or (tuple variable, k)) -> expression
        self._owned = set()
        self._forced = set()  # straight-line variables now accumulated (used in a loop/branch)
        self._zeroed = set()  # accumulated variables reset, whose zero is not yet written
        self._held = {}       # variable -> the name its pre-reset adjoint is held under
        self._unchanged = {}  # ... when the adjoint's own name still holds it (see hold)
        self.copies = None    # copies of an adjoint written in the block being walked
        self._holders = set()  # the names adjoints were held under (hold)

    # ---- state ---------------------------------------------------------------------------
    def snapshot(self):
        return dict(self._current), set(self._owned), set(self._forced), set(self._zeroed), \
            set(self._arrays)

    def restore(self, state):
        self._windows.clear()
        self._current, self._owned, self._forced, self._zeroed, self._arrays = (
            dict(state[0]), set(state[1]), set(state[2]), set(state[3]), set(state[4]))

    def accumulates(self, variable):
        return not isinstance(variable, tuple) and (
            self._flow.is_accumulated(variable) or variable in self._forced)

    def _structured(self, variable, expr=None):
        """Maybe a list or dict of adjoints (a derivative differentiated again): `+` would
        concatenate, add_adjoints adds item by item. So do containers' adjoints, and
        one a helper gives a list for a list (`sum(xs)`'s spread_adjoint, np.array(xs)'s
        split_array) where the derivative does not know xs's kind."""
        return not isinstance(variable, tuple) and (
            variable in self._flow.structured or variable in self._containers) \
            or isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name) \
            and self._bindings.names.get(expr.func.id) in _LISTS_FOR_LISTS

    def is_container(self, variable):
        """May `variable` hold a list, tuple or dict (its adjoint mirrors it)?"""
        return not isinstance(variable, tuple) and variable in self._containers

    def is_list(self, variable):
        return not isinstance(variable, tuple) and variable in self._flow.list_valued

    def get(self, variable):
        """The adjoint's expression now; while a definition of `variable` is reversed
        (`hold`), the adjoint it had before its reset."""
        held = self._held.get(variable) if not isinstance(variable, tuple) else None
        return build.name(held) if held is not None else self._value(variable)

    def hold(self, variable, name, unchanged=False):
        """Reversing `variable = ...`: its adjoint was copied to `name`, then reset; the
        template reads it there (None: no longer). `unchanged`: `name = x_bar` was written
        from the adjoint's own name, which still holds that value (its reset is symbolic)
        until x_bar is written again: a contribution of `name` to that zero (`x = x + e`
        passes it back, now or from a later statement) leaves x_bar as it is, no `x_bar =
        name`. Forgotten at any write of x_bar and where branches or loops begin."""
        self._windows.pop(variable, None)
        if name is None:
            self._held.pop(variable, None)
        else:
            self._held[variable] = name
            self._holders.add(name)
            if unchanged:
                self._unchanged[variable] = name

    def _value(self, variable):
        if self.accumulates(variable):
            if variable in self._zeroed:        # reset, nothing added since: the zero
                return build.const(0.0)
            return build.name(self.name_of(variable))
        node = self._current.get(variable)
        return build.clone(node) if node is not None else None

    def reads(self, name, pending=(), done=frozenset()):
        """Does the adjoint passed on to a variable (not written yet; or one of the
        (variable, expression) pairs `pending`) read `name`, a variable not in `done`
        (whose definitions are reversed already: its adjoint is read no more)?"""
        return any(isinstance(n, gast.Name) and n.id == name
                   for variable, node in list(self._current.items()) + list(pending)
                   if node is not None and (variable[0] if isinstance(variable, tuple)
                                             else variable) not in done
                   for n in walk_tree(node))

    def copied(self, out, stmt):
        """out.append(stmt), noting it in `copies` when it binds a second name to an
        adjoint's object (`t1_1_bar = s_bar`): the backward walk drops the copies nothing
        needs at the end of their block (held_copies.py)."""
        out.append(stmt)
        if isinstance(stmt.value, gast.Name) and self.copies is not None and (
                self._namer.is_adjoint(stmt.value.id) or stmt.value.id in self._holders):
            self.copies.append(stmt)

    def rename(self, old, new, pending=()):
        """The adjoints passed on (and the expressions `pending`) read `new` for `old`."""
        for node in list(self._current.values()) + list(pending):
            if node is not None:
                held_copies.rename(node, old, new)

    def variable_holding(self, adjoint_name):
        """The straight-line variable (not accumulated, not a tuple item) whose adjoint is
        the array named `adjoint_name` now, else None."""
        for variable, node in self._current.items():
            if isinstance(node, gast.Name) and node.id == adjoint_name \
                    and not isinstance(variable, tuple) and not self.accumulates(variable):
                return variable
        return None

    def has(self, variable):
        return self.accumulates(variable) or variable in self._current

    def name_of(self, variable):
        return self._namer.adjoint(_label(variable))

    def helper(self, function):
        return build.name(self._bindings.name_for(function.__name__, function))

    # a contribution added to a sum reads a value the forward sweep holds (a first one
    # would make the adjoint that array): a specialisation's ExpansionContext.forward_value
    forward_value = staticmethod(lambda expr: expr)

    # ---- contributions -------------------------------------------------------------------
    def forget_unchanged(self):
        """A branch or loop begins: which names still hold an adjoint is not followed in."""
        self._unchanged.clear()
        self._windows.clear()

    def apart(self, walk, stmt):
        """walk(stmt) for a loop, a branch or a write by index, which no window of zeros
        (indexed_contributions._still_zero) is known across: one written inside is not
        one after it (the loop may run no time, the branch not be taken)."""
        self._windows.clear()
        try:
            return walk(stmt)
        finally:
            self._windows.clear()

    def contribute(self, variable, expr, out):
        # fold first: `1.0 * t1_1` is an alias of t1_1, not a fresh array we may update
        expr = fold_expression(expr)
        unchanged = self._unchanged.pop(variable, None)
        name = self.name_of(variable)
        self._arrays.discard(variable)          # `x_bar + e` may broadcast to another shape
        self._windows.pop(variable, None)
        if self.accumulates(variable):
            zero = variable in self._zeroed
            self._zeroed.discard(variable)
            if zero and isinstance(expr, gast.Name) and expr.id == unchanged \
                    and self.owned_value(variable, expr) is expr:
                # x_bar still holds it: nothing to write (unless x_bar is updated in place
                # later: then it is a copy, `name` being read by the template too)
                return
            if self.is_list(variable) or self._structured(variable, expr):
                # (from the zero too: a list's adjoint becomes a list, an object's the
                # dict of its attributes, as the sums after it and the scatters need)
                helper = runtime_flow.add_lists if self.is_list(variable) \
                    else runtime_flow.add_adjoints
                current = build.const(0.0) if zero else build.name(name)
                out.append(build.assign(name, build.call(self.helper(helper), [current, expr])))
            elif zero:
                self.copied(out, build.assign(name, self._snapshot(
                    self.owned_value(variable, expr))))
            else:
                expr = self.forward_value(expr)
                out.append(build.assign(name, build.binop(build.name(name), "Add", expr)))
            return
        if variable not in self._current:
            if _is_alias(expr) and not self._may_change(expr):
                self._current[variable] = expr
                return
            out.append(build.assign(name, self._snapshot(expr)))
            self._current[variable] = build.name(name)
            if isinstance(expr, (gast.BinOp, gast.UnaryOp)):
                self._owned.add(variable)
            if isinstance(expr, gast.UnaryOp) and isinstance(expr.op, gast.USub):
                self._negations.add(name)
            return
        if self.is_list(variable) or self._structured(variable, expr):
            helper = runtime_flow.add_lists if self.is_list(variable) else runtime_flow.add_adjoints
            add = build.call(self.helper(helper), [self._value(variable), expr])
            out.append(build.assign(name, add))
        elif variable in self._owned:
            out.append(build.aug_add(name, self.forward_value(expr)))
        else:
            out.append(build.assign(name, build.binop(self._value(variable), "Add",
                                                      self.forward_value(expr))))
            self._owned.add(variable)
        self._current[variable] = build.name(name)

    def _may_change(self, expr):
        """Does `expr` read a value that a later backward statement restores from the
        tape (a variable redefined in a loop or branch)? Then it is not an alias to
        pass on lazily: `x_bar = y` is written now, while `y` still holds that value."""
        base = expr.value if isinstance(expr, gast.Subscript) else expr
        if isinstance(base, gast.Name) and self._namer.is_adjoint(base.id):
            # an accumulated adjoint is zeroed again where its variable's definition is
            # reversed (`t4_0_bar = 0.0` for `t4_0 = list(t3_0)`): an alias of it would
            # lose what it held
            owner = self._namer.variable_of_adjoint(base.id)
            return owner is not None and self.accumulates(owner)
        return isinstance(base, gast.Name) and self._flow.is_overwritten(base.id)

    def _snapshot(self, expr):
        """`expr`, copied when it may be (a view of) a forward array the backward sweep
        writes into later (`v[2] = _tape.pop()` restoring an index write): `x_bar = v`
        would change with it (np.vdot(v, x)'s adjoint of x is v itself, raveled)."""
        if isinstance(expr, (gast.BinOp, gast.UnaryOp, gast.Constant)):
            return expr                 # arithmetic makes a new array
        if any(isinstance(n, gast.Name) and n.id in self._flow.written_through
               and not self._namer.is_adjoint(n.id) for n in walk_tree(expr)):
            # a name, an item, or a call that may return a view (np.ravel, reshape_like)
            return build.call(self.helper(runtime_flow.copy_adjoint), [expr])
        return expr

    def owned_value(self, variable, expr):
        """`expr`, copied when it may alias and `variable`'s adjoint is updated in place
        (scatter into x_bar[i], clearing y_bar[i] after `y[i] = v`, popping a list's
        adjoint item by item to undo its appends: a vjp's cotangent list is its caller's,
        which a gradient differentiated again reads once more)."""
        if (variable in self._flow.subscripted or variable in self._flow.list_valued) \
                and not isinstance(expr, (gast.BinOp, gast.UnaryOp)) \
                and not (isinstance(expr, gast.Constant)):
            return build.call(self.helper(runtime_flow.copy_adjoint), [expr])
        return expr

    def replace(self, variable, expr, out):
        """The adjoint of `variable` becomes `expr` (what an insert_grad_of block left)."""
        self._arrays.discard(variable)
        self._windows.pop(variable, None)
        self._unchanged.pop(variable, None)
        if self.accumulates(variable):
            self._zeroed.discard(variable)
            out.append(build.assign(self.name_of(variable), expr))
            self._replaced.add(variable)
        else:
            self._current[variable] = expr
            self._owned.discard(variable)

    # ---- accumulated values --------------------------------------------------------------
    def reset(self, variable):
        """The value is being redefined: its earlier versions start with no adjoint."""
        self._arrays.discard(variable)
        self._windows.pop(variable, None)
        if self.accumulates(variable):
            self._zeroed.add(variable)

    def set_zero(self, variable):
        """An accumulated adjoint that is 0.0 from here, nothing written yet."""
        self._arrays.discard(variable)
        self._windows.pop(variable, None)
        self._zeroed.add(variable)

    def zeroed(self):
        """The accumulated adjoints whose zero is not written (symbolic)."""
        return frozenset(self._zeroed)

    def keep_zeroed(self, variables):
        """After a branch or loop: these zeros stay symbolic (the others were written)."""
        self._zeroed = set(variables)

    def materialize(self, variables, out):
        """Write `x_bar = 0.0` for those of `variables` whose zero is symbolic: code that
        may run with or without what follows (a loop body, one branch) or that updates the
        adjoint by name reads it."""
        for variable in sorted(set(variables) & self._zeroed):
            self._zeroed.discard(variable)
            self._unchanged.pop(variable, None)
            out.append(build.assign(self.name_of(variable), build.const(0.0)))

    def initial_value(self, variable, primal):
        """Zero: `np.zeros_like(x)` for a float array of one shape throughout, `[0.0] *
        len(x)` for a list of floats (fixed_lists), else 0.0, which stands for an
        all-zero adjoint of any shape, other list adjoints included (they take their
        length from the list the first time something is added)."""
        if variable in self.fixed_arrays and isinstance(primal, gast.Name) \
                and primal.id == variable:
            return build.call(f"{self._np}.zeros_like", [build.name(variable)])
        if variable in self.fixed_lists and isinstance(primal, gast.Name) \
                and primal.id == variable:
            length = build.call(self._bindings.name_for("len", len), [build.name(variable)])
            return build.binop(build.list_([build.const(0.0)]), "Mult", length)
        return build.const(0.0)

    def list_gradient(self, adjoint, container):
        """A fixed list's gradient from its adjoint, the list of floats this code made:
        itself for a list (no argument shares it), `tuple(x_bar)` for a tuple."""
        if container is list:
            return adjoint
        return build.call(self._bindings.name_for("tuple", tuple), [adjoint])

    def force(self, variables, primal_of, out):
        """Straight-line values about to receive contributions inside a loop or branch."""
        for variable in sorted(variables):
            self._windows.pop(variable, None)
            if self.accumulates(variable):
                continue
            name = self.name_of(variable)
            if variable not in self._current:
                value = self.initial_value(variable, primal_of(variable))
                if isinstance(value, gast.Constant):
                    self._zeroed.add(variable)      # (symbolic until needed, as a reset)
                else:
                    out.append(build.assign(name, value))
            else:
                current = self._current[variable]
                if variable not in self._owned:   # it may be updated in place from now on
                    current = build.call(self.helper(runtime_flow.copy_adjoint), [current])
                if not (isinstance(current, gast.Name) and current.id == name):
                    self.copied(out, build.assign(name, current))
            self._forced.add(variable)


def _is_alias(expr):
    """A bare name, a number, or an item of a name (`parts[0]`): passed on as is."""
    if isinstance(expr, gast.Constant):
        return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
    if isinstance(expr, gast.UnaryOp) and isinstance(expr.op, gast.USub):
        return isinstance(expr.operand, gast.Constant)
    if isinstance(expr, gast.Subscript):
        return isinstance(expr.value, gast.Name) and isinstance(expr.slice, gast.Constant)
    return isinstance(expr, gast.Name)


def _label(variable):
    if isinstance(variable, tuple):
        return f"{variable[0]}_{variable[1]}"
    return variable
