"""What each operand of a call is where that call runs (mixed into analyses.kinds).

A variable's fact is the join of every value it takes; an operand of one call can be
sharper there. A derivative's temporary restored from its tape holds anything where it is
bound again, but at the call that reads it, it holds what that call's operand held:

    t = np.exp(x)          x: float64[n]      at this call:  x -> float64[n]
    ...
    x = 0.0                x: fact float64[n] joined with float, i.e. unknown

`OperandsNoted` (the analysis side) records, for each `name = call(...)` statement,
{operand name: its kind there}, joined over the rounds a loop takes, and forgets an operand
(UNKNOWN) whose loop reaches no fixed point. `OperandsAtCalls` (the Kinds side) answers
`of_at(stmt, atom)`: that kind, else the operand's fact. Keys are id(statement) of the
levels tree analysed; nothing is written on the nodes.
"""
import gast

from ..signature import UNKNOWN
from .item_kinds import join, public


class OperandsAtCalls:
    """Kinds' reading of `at_calls` (id(statement) -> {operand: kind there})."""

    def of_at(self, stmt, atom):
        """The kind of operand `atom` of the call `stmt` makes, where it runs."""
        if isinstance(atom, gast.Name) and self.at_calls is not None:
            found = self.at_calls.get(id(stmt), {}).get(atom.id)
            if found is not None:
                return found
        return self.of(atom)


class OperandsNoted:
    """The analysis's side: needs `self.env` (variable -> (kind, stand-ins))."""

    def _init_operands(self):
        self.at_calls = {}

    def _note_operands(self, stmt):
        """at_calls for this call: its operand names' kinds here (joined over the rounds a
        loop takes)."""
        seen = self.at_calls.setdefault(id(stmt), {})
        for arg in list(stmt.value.args) + [k.value for k in stmt.value.keywords]:
            if isinstance(arg, gast.Name) and arg.id in self.env:
                kind = self.env[arg.id][0]
                seen[arg.id] = join(seen[arg.id], kind) if arg.id in seen else kind

    def _forget_operand(self, name):
        """A loop that reached no fixed point for `name`: no call knows what it holds."""
        for operands in self.at_calls.values():
            if name in operands:
                operands[name] = UNKNOWN

    def _operands_at_calls(self):
        return {key: {name: public(kind) for name, kind in operands.items()}
                for key, operands in self.at_calls.items()}

