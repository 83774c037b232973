"""The generated body between the clean-up passes: one structure, not a statement list.

    Body(forward=[t1_0 = np.exp(x)], backward=[x_bar = t1_0], returned=return x_bar)

`forward` is the forward sweep, `backward` the checks of the output and the backward
sweep, `returned` the final `return`. The passes written over statement lists see it
flattened (`statements()`, with the blank line the emitter writes between the sweeps)
and hand their result back through `Body.of`, the one place that reads the sweeps apart.
"""
from dataclasses import dataclass, replace

import gast

from ..ir import build


@dataclass(frozen=True)
class Body:
    forward: tuple
    backward: tuple
    returned: gast.Return
    reverse: bool = True      # two sweeps (a jvp's body is all forward)

    @classmethod
    def of(cls, statements):
        """The Body of a flattened statement list (forward, blank line, backward, return);
        without the blank line all of it is forward (a jvp has no backward sweep)."""
        statements = list(statements)
        returned = statements.pop() if statements and isinstance(statements[-1], gast.Return) \
            else None
        blank = next((k for k, s in enumerate(statements) if build.is_blank_line(s)), None)
        if blank is None:
            return cls(tuple(statements), (), returned, reverse=False)
        return cls(tuple(statements[:blank]), tuple(statements[blank + 1:]), returned)

    def statements(self):
        """The function body as the emitter writes it."""
        middle = [build.blank_line()] if self.reverse else []
        tail = [self.returned] if self.returned is not None else []
        return list(self.forward) + middle + list(self.backward) + tail

    def with_backward(self, backward):
        return replace(self, backward=tuple(backward))
