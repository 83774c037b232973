"""Reverse generation: a copy of one adjoint into another name, written only where the
backward code after it needs it.

Reversing `x = x + dt * v` where x accumulates (a loop carries it), statements.py holds
x's adjoint under a fresh name before resetting it (ad/adjoints.py `hold`): the template
reads the adjoint x has after the statement, while contributions to the old x may bind
x_bar anew. The copy binds a second name to the object x_bar holds, and x_bar keeps
holding it until x_bar is bound again. So where the statement's backward code binds x_bar
nowhere before the copy's last read (a read in the statement that binds x_bar counts as
before it: its right-hand side runs first), and no adjoint kept for later statements reads
the copy, the copy's reads read x_bar and the copy is not written:

    # grad of: x = x + dt * v                 # grad of: x = x + dt * v
    x_bar_1 = x_bar                  ->       x = _tape.pop()
    x = _tape.pop()                           v_bar += x_bar * dt
    v_bar += x_bar_1 * dt

    p_bar_1 = p_bar                           (kept: p_bar is bound before the last read)
    a_bar += p_bar_1 * c
    p_bar = p_bar_1 * x
    x_bar += p_bar_1 * p

The same holds for the other copies ad/adjoints.py writes (`Adjoints.copied`): an
adjoint that starts as another one, `t1_1_bar = s_bar` (a value read inside a branch, a
restarted sum). Such a name is its variable's own adjoint, so it goes only where its
variable is defined in the block and the name is bound nowhere after the copy.

Renaming one name of an object for another that holds the same object, this is exact on
every path: specialised, general, and the code a derivative of this derivative reads.
"""
import gast

from ..ir.walk import names_loaded, names_stored, walk_tree


class HeldCopies:
    """Mixin of statements.StatementReverser. `self.adj.copies` lists the copies written in
    the block being walked (backward_walk.block sets it to a new list at the block's start;
    None outside every block)."""

    def without_held_copies(self, block, outer, stmts):
        """The backward `block` of the levels-form `stmts`, without the held copies it does
        not need; `outer`: the copies of the enclosing block, pending again (None: this is
        f's whole body). A copy is decided at the end of the block it is written in: an
        adjoint passed on lazily (`t4_0_bar` is `x_bar_1` after `x = t4_0`) is read by
        the statements after it. In a loop or branch, a copy still read by the adjoint of
        a variable defined before it stays; after f's whole body only the returned
        gradients read such adjoints, and nothing binds x_bar again: they read x_bar."""
        copies, self.adj.copies = self.adj.copies, outer
        if not copies:
            return block
        done = {name for stmt in stmts for name in names_stored(stmt)}
        for copy in copies:
            k = next(k for k, stmt in enumerate(block) if stmt is copy)
            variable = self.i.namer.variable_of_adjoint(copy.targets[0].id)
            if variable is not None and (variable not in done or any(
                    copy.targets[0].id in names_stored(s) for s in block[k + 1:])):
                continue    # a variable's own adjoint, read after the block or bound again
            # an adjoint passed on to a variable defined before the block still reads the
            # copy: in a loop or branch it stays; after f's whole body, the returned
            # gradients are those readers, and they read x_bar too
            rest = _without_copy(block[k:], lambda name: self.adj.reads(
                name, self.uniform.pending.items(), done), outer is None)
            if rest is not None:
                # the copy's reads read the object it held: one that may still be the
                # shapeless 0.0 of a branch not taken (maybe_zero.py) is known so by its
                # source's name now
                self.same_object(copy.targets[0].id, copy.value.id)
                if outer is None:
                    self.adj.rename(copy.targets[0].id, copy.value.id,
                                    self.uniform.pending.values())
                block = block[:k] + rest
        return block


def _without_copy(chunk, lingering, after):
    """chunk: the statements from the copy `held = x_bar` to the block's end; lingering(held):
    is the copy still read by an adjoint kept for later? `after`: those reads come after
    the block (f's whole body; else the copy stays for them). The chunk without the copy,
    its reads reading x_bar (renamed in place), where that is exact (the module
    docstring); else None."""
    copy = chunk[0]
    if not isinstance(copy.value, gast.Name):
        return None             # a zero: `x_bar_1 = 0.0` is no second name of x_bar's object
    held, source = copy.targets[0].id, copy.value.id
    rest = chunk[1:]
    readers = [j for j, stmt in enumerate(rest) if held in names_loaded(stmt)]
    kept = lingering(held)
    if kept and not after or not readers and not kept:
        return None
    last = len(rest) if kept else readers[-1]
    binds = [j for j in range(min(last + 1, len(rest))) if source in names_stored(rest[j])]
    if binds and (binds[0] < last or not isinstance(rest[last], (gast.Assign,
                                                                 gast.AugAssign))):
        return None
    for stmt in rest:
        # renamed where they stand: tape.py edits these chunks (the generator's own) later,
        # through the backward walk's record of them
        rename(stmt, held, source)
    return rest


def rename(node, old, new):
    """Every `old` in the generator's own expression or statement `node` reads `new`."""
    for name in walk_tree(node):
        if isinstance(name, gast.Name) and name.id == old:
            name.id = new
