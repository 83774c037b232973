"""What the pipeline is asked for and what it hands back (pipeline.py runs the stages).

    Request(mode="grad", wrt=("x",))  ->  derive(f, request, ...)  ->  Derived(function, source, ...)

A Request is hashable: with the function it keys the derivative cache. A Derived holds the
loaded function, its source and the levels form it came from.
"""
import dataclasses
from dataclasses import dataclass

from .backend.emit import to_source


@dataclass(frozen=True)
class Request:
    mode: str                 # 'grad' | 'value_and_grad' | 'vjp'
    wrt: tuple                # parameter names
    preserve_result: bool = False
    single: bool = True       # one wrt parameter: return its gradient, not a 1-tuple
    helper: bool = False      # the adjoint of a function called by the one differentiated
    zero_allowed: bool = False  # a helper whose caller's output depends on wrt elsewhere
    tangent_only: bool = False  # jvp returning just the derivative (hvp: the gradient dies)
    signature: tuple = None   # ((parameter, kind), ...): specialised on these facts
    variant: int = 0          # the specialisation's number, for its name (grad_f_1)
    positive: tuple = ()      # parameters (Python floats) known > 0 (sign_facts.py)
    # the dispatcher's build: a list of records may be tested where a loop unpacks them,
    # the guard then tests only that it is a list (ad/unpacked_records.py)
    checks_records: bool = False
    has_aux: bool = False     # f returns (loss, aux): differentiate loss, return aux too
    # a helper's vjp split in two: fwd_h(args) -> (value, saved), bwd_h(saved, cotangent)
    # (helper_derivatives.py, backend/split_pair.py)
    pair: bool = False
    # calls of helpers reversed by their whole vjps, never split (the twin of a
    # derivative that is differentiated again: grad of grad, hvp)
    whole: bool = False
    # trace(pass name, body before, body after) of stage 7's passes (tests/test_passes.py)
    trace: object = dataclasses.field(default=None, compare=False)


@dataclass(frozen=True)
class Derived:
    function: object
    source: str
    levels_tree: object       # the levels form differentiated (levels_source: its text)
    request: Request
    func: object = None       # the user's function it is the derivative of
    bindings: dict = None     # names the generated code binds (numpy, helpers, adjoints)
    result_arity: object = None  # n when the function returns an n-tuple it builds
    # () -> (function, source) without the in-place schedule: what differentiating this
    # derivative again reads (None when the schedule changed nothing)
    plain: object = None
    backward: object = None   # a pair's bwd_h (its Derived); `function` is then fwd_h
    # parameters whose records the derivative tests itself where it unpacks them
    records_checked: tuple = ()
    signs_read: tuple = ()    # the request's sign facts its code relies on (sign_facts.py)

    @property
    def levels_source(self):
        """The levels form as source text (written when asked for: emitting costs)."""
        return to_source(self.levels_tree)
