"""What stage 7's passes read about the derivative being built (PassFacts), and which
calls they may move, merge or drop.

    facts.pure_call(np.exp(x))       True      (numpy's and math's functions, no out=)
    facts.number_call(math.sin(a))   True      (its value is a number: read again, not called)
    facts.resolve("np")              numpy     (a binding, a user global, a builtin)
"""
import builtins
import math
import re
from dataclasses import dataclass, field

import gast
import numpy

from .. import runtime, runtime_flow
from ..analyses.shapes import is_elementwise
from ..ir.build import dotted_path
from ..signature import Num

_TEMPORARY = re.compile(r"t\d+_\d+$")


@dataclass(frozen=True)
class PassFacts:
    """What the passes read about the derivative being built."""
    request: object           # pipeline.Request
    levels: object            # f in levels form (callees, numpy's name, parameters)
    namer: object
    bindings: object          # names the generated code binds
    user_globals: dict
    kinds: object = None      # analyses.kinds facts (a specialisation's)
    raising: object = None    # analyses.raising: f's statements that may raise
    trace: object = None      # trace(pass name, body before, body after), for tests
    tape: str = "_tape"       # the name of the derivative's tape list
    # the parameters of request.positive whose sign a pass's rewrite relied on, filled as
    # the passes run: the facts the dispatcher keeps guarding (sign_facts.py)
    signs_read: set = field(default_factory=set)

    def resolve(self, name):
        """What a free name of the generated code denotes: a binding, a user global, a
        builtin."""
        for space in (self.bindings.names, self.user_globals, vars(builtins)):
            if name in space:
                return space[name]
        return None

    def pure_call(self, call):
        """A call without effects: numpy's and math's functions (not writing into `out=`,
        not drawing random numbers)."""
        if any(k.arg == "out" for k in call.keywords):
            return False
        callee = self._callee(call)
        home = getattr(callee, "__module__", None) or ""
        if "random" in home:
            return False
        if callee is abs:
            # the builtin on a number or an array (its __abs__ computes a value); on an
            # object of unknown kind it may do anything
            return len(call.args) == 1 and not call.keywords and self.kinds is not None \
                and isinstance(call.args[0], gast.Name) \
                and isinstance(self.kinds.of(call.args[0].id), Num)
        if callee is len:
            # of an array of rank >= 1 (len of a number or a 0-d array raises)
            kind = self.kinds.of(call.args[0].id) if self.kinds is not None and len(
                call.args) == 1 and not call.keywords and isinstance(call.args[0], gast.Name) \
                else None
            return isinstance(kind, Num) and kind.type is numpy.ndarray \
                and bool(getattr(kind, "axes", None))
        return isinstance(callee, numpy.ufunc) or home.startswith("numpy") or _of_math(callee)

    def number_call(self, call):
        """A pure call whose value is a number, which reading again in place of a second
        call cannot alias: math's functions, and numpy's elementwise ones of numbers (the
        facts say so). Not np.zeros(3): two calls make two arrays."""
        if not self.pure_call(call):
            return False
        callee = self._callee(call)
        if _of_math(callee):
            return True
        return is_elementwise(callee) and not call.keywords and self.kinds is not None \
            and all(isinstance(a, gast.Constant) and type(a.value) in (int, float)
                    or isinstance(a, gast.Name) and self.kinds.is_number(a.id)
                    for a in call.args)

    def _callee(self, call):
        path = dotted_path(call.func)
        callee = self.levels.callees.get(path)
        if callee is None and path is not None:
            # a call a template wrote (math.cos in the tangent of math.sin): what it names
            callee = self.resolve(path.split(".")[0])
            for attr in path.split(".")[1:]:
                callee = getattr(callee, attr, None)
        return callee

    def value_call(self, call):
        """A call that computes a value and writes nothing: pure_call's, and the runtime
        helpers that only read their arguments (unbroadcast, float_copy)."""
        return self.pure_call(call) or isinstance(call.func, gast.Name) and not call.keywords \
            and self.resolve(call.func.id) in (runtime.unbroadcast, runtime_flow.float_copy)

    def elementwise_call(self, call):
        return elementwise_call_of(self.levels)(call)

    def generated_name(self, name):
        """Is a name one s2s_ad made: a temporary `t2_0` or an adjoint `x_bar`?"""
        return self.namer.is_adjoint(name) or _TEMPORARY.match(name) is not None

    @property
    def specialised(self):
        return self.request.signature is not None and self.kinds is not None


def elementwise_call_of(levels):
    """call -> is it an elementwise call (no keywords) of one of f's callees?"""
    def elementwise(call):
        return not call.keywords and is_elementwise(levels.callees.get(dotted_path(call.func)))
    return elementwise


def _of_math(callee):
    """One of math's functions (also reached as a template's `math.cos`)."""
    return getattr(callee, "__module__", None) == "math" \
        or getattr(math, getattr(callee, "__name__", ""), None) is callee is not None
