"""The function grad(f) hands out: one derivative per abstract signature, found by a guard.

The general derivative works for every argument; `grad(f)` checks f's source at once
(any error in f is reported at the grad call) but builds the general derivative only when
a call or a caller needs it (arguments no guard can classify, a derivative of the
derivative, `derivative_source(df)`). The function grad returns is a plain Python
function whose source is an inline cache: one guard per signature seen so far, calling
the derivative built for it. A call that no guard accepts goes to `specialise`, which
classifies the arguments (signature.py), builds that derivative (the transform cost is
paid once per signature), and rewrites the guards:

    def grad_f(x, w):
        if type(x) is float and type(w) is numpy_ndarray and w.dtype is float64_dtype \\
                and w.ndim == 1 and w.size != 1:
            return grad_f_1(x, w)
        return specialise(x, w)

Arguments with no facts at all (every kind opaque) and signatures past the eighth get
the general derivative (S2S_AD_GENERAL=1: every call, as tests/test_control_flow_suite.py
does). A float argument not differentiated may be known > 0 (sign_facts.py).
"""
import inspect
import operator
import os
import types
from dataclasses import dataclass

import numpy as np

from .backend.sources import register
from .errors import ADError, APIUsageError, function_location
from .freshness import (arrays_guarded, helper_bindings, note_rebound, object_bindings,
                        stale_test, still_bound)
from .guard_checks import ItemTypeCheck, RecordCheck, RecordsDiffer, sums_to_float
from .signature import guard, is_general, signature_of, unsupported_argument
from .sign_facts import accepts, kept, settled, with_signs, without_signs

MAX_SPECIALISATIONS = 8
# the derivative of a function called through a variable (runtime_functions' appliers) has
# no general form: a model calling layers of twelve classes so needs twelve, not an error
MAX_APPLIER_SPECIALISATIONS = 64


@dataclass(frozen=True)
class Outline:
    """What the dispatcher needs of the general derivative's def before it is built."""
    name: str
    params: list              # inspect.Parameter, in order
    defaults: tuple
    kwdefaults: dict
    module: str
    doc: str
    request: object
    func: object              # the user's function it is the derivative of

    @classmethod
    def of(cls, derived):
        function = derived.function
        return cls(function.__name__, list(inspect.signature(function).parameters.values()),
                   function.__defaults__, function.__kwdefaults__, function.__module__,
                   function.__doc__, derived.request, derived.func)


class _GeneralCallee:
    """What code differentiating a call of the dispatcher differentiates: the general
    derivative, built when that happens (transforms/calls.py follows __s2s_callee__)."""

    def __init__(self, dispatcher):
        self._dispatcher = dispatcher

    @property
    def __s2s_callee__(self):
        return self._dispatcher.general.function


class Dispatcher:
    """The public function of one (f, request) and the derivatives built behind it.

    `build(signature, variant)` returns the Derived record specialised on `signature`
    (a tuple of (parameter, kind)); `general` is the Derived record of the general
    derivative, or a function of no arguments that builds it the first time a call or
    a caller needs it (`outline` then says what its def will be); `extra` names the
    parameters that are not f's (a jvp's tangent); `wrt` the parameters differentiated."""

    def __init__(self, general, build, extra=(), outline=None, wrt=(), rebuild=None):
        self._general = general if outline is None else None
        self._make_general = general if outline is not None else None
        self._rebuild_general = rebuild or self._make_general
        self.outline = outline or Outline.of(general)
        self._build = build
        self.extra = tuple(extra)
        params = list(self.outline.params)
        self._params = params
        self._names = [p.name for p in params]
        self._user_params = [n for n in self._names if n not in self.extra]
        self._wrt = tuple(wrt)
        self.entries = []            # (signature, function or None for the general one)
        self._else = {}              # signature -> _general_else's function (kept)
        self._signless = set()       # parameters whose signs varied (sign_facts.py)
        self.built = []              # Derived records of the specialisations, in order
        self._namespace = {}

        def specialise(*args, **kwargs):
            return self._specialise(*args, **kwargs)
        self._slow_path = specialise

        def general(*args, **kwargs):
            # the guards let through only kinds they know; what reaches the general
            # derivative may be a masked or complex array: rejected here, at the call
            self._reject_unsupported(self._values(args, kwargs))
            return self.general.function(*args, **kwargs)
        self._checked_general = general

        def refresh(*args, **kwargs):
            return self._refresh(*args, **kwargs)
        self._refresh_path = refresh
        self._bound = {}
        self._checkers = {}   # item type / ("records of", types) / ("item", j) -> its checker
        self._helpers = helper_bindings(self.outline.func)
        self._objects = object_bindings(self.outline.func)
        self.function = None
        self._compile()

    @property
    def general(self):
        """The Derived record of the general derivative (built now if it is not yet)."""
        if self._general is None:
            self._general = self._make_general()
        return self._general

    # ---- the guard source ---------------------------------------------------------------
    def source(self):
        general = self._named("general", self._checked_general)   # names no parameter has
        fallback = general if len(self.entries) >= self._limit() else \
            self._named("specialise", self._slow_path)
        checked = {id(d.function): d.records_checked for d in self.built}
        entries = [(signature, self._bind(function) if function is not None else
                    self._bind(self._general_else(signature)) if self._failure(signature)
                    else general, checked.get(id(function), ()))
                   for signature, function in self.entries]
        doc = (f"{self.outline.request.mode} of {self.outline.func.__qualname__}: calls the "
               f"derivative built for its arguments' kinds. Generated by s2s_ad.")
        # a helper f calls redefined since (freshness.py): every derivative is built again
        stale = [stale_test(self._named('helpers', namespace), name, value, self._named,
                             self._bind) for namespace, name, value in self._helpers]
        for namespace, name, value, kind in self._objects:
            # a module-level object f reads (`model`): the same one, of the kind the
            # derivatives were built for (type(model.layers[1]) is ReLU ...)
            held = self._named(name, value)
            test = guard(kind, held, self._bind)
            stale.append(f"{self._named('helpers', namespace)}.get({name!r}) is not {held}"
                         + (f" or not ({test})" if test else ""))
        stale = " or ".join(stale)
        return guard_source(self.outline.name, doc, self._params, entries,
                            fallback, self._bind, self._wrt or None,
                            (stale, self._named("refresh", self._refresh_path)) if stale
                            else None)

    def _refresh(self, *args, **kwargs):
        """A helper of f's was redefined: forget the derivatives built from the old one
        and take the call again (the cache builds them anew, freshness.py)."""
        if still_bound(self._helpers, self._objects):
            # only arrays of the same kinds rebound (a new batch): they are the ones seen now
            return self.function(*args, **kwargs)
        old = list(self.built) + [value for _, _, value in self._helpers]
        note_rebound(self._helpers)     # a number rebound: read when the code runs from now on
        self._helpers = helper_bindings(self.outline.func)
        self._objects = object_bindings(self.outline.func)
        self.entries, self.built = [], []
        if self._rebuild_general is not None:
            self._general, self._make_general = None, self._rebuild_general
        for key, (name, obj) in list(self._bound.items()):
            if any(obj is getattr(item, "function", item) for item in old):
                del self._bound[key]      # an old derivative or helper: its name is free
                self._namespace.pop(name, None)
        self._compile()
        return self.function(*args, **kwargs)

    def _named(self, name, obj):
        """Bind `obj` under `name` (or name_2, ... when a parameter or another object has
        it)."""
        key = id(obj)
        if key not in self._bound:
            base, k = name, 1
            while name in self._namespace or name in self._names:
                k += 1
                name = f"{base}_{k}"
            self._namespace[name] = obj
            self._bound[key] = (name, obj)
        return self._bound[key][0]

    def _bind(self, obj):
        """The name the guard source uses for a type, dtype or derivative."""
        if obj == ("float items",):                 # one checker (signature.sums_to_float)
            return self._bind(sums_to_float)
        if isinstance(obj, tuple) and obj[0] == "item":   # ("item", j): operator.itemgetter(j)
            if obj not in self._checkers:
                self._checkers[obj] = self._named(f"item_{obj[1]}", operator.itemgetter(obj[1]))
            return self._checkers[obj]
        if isinstance(obj, tuple) and obj[0] == "records of":  # (..., position types)
            checker = self._checkers.setdefault(obj, RecordCheck(obj[1]))
            return self._bind(checker)
        if isinstance(obj, tuple):                   # ("items of", item type): one checker
            checker = self._checkers.setdefault(obj[1], ItemTypeCheck(obj[1]))
            return self._bind(checker)
        key = id(obj)
        for name, value in self._namespace.items():
            if value is obj and key not in self._bound and name not in self._names:
                self._bound[key] = (name, obj)
        if key not in self._bound:
            if isinstance(obj, np.dtype):
                base = f"{obj.name}_dtype"
            elif isinstance(obj, type):
                base = obj.__name__ if obj.__module__ == "builtins" else \
                    f"{obj.__module__.split('.')[0]}_{obj.__name__}"
                # a module named `<run_path>` (runpy), a class named in another script
                base = base if base.isidentifier() else f"class_{obj.__name__}"
                base = base if base.isidentifier() else "a_class"
            else:
                base = getattr(obj, "__name__", "")
                base = base if base.isidentifier() else "function"     # a lambda
            name, k = base, 1
            while name in self._namespace or name in self._names:
                k += 1
                name = f"{base}_{k}"
            self._namespace[name] = obj
            self._bound[key] = (name, obj)       # keeps obj alive, so its id stays unique
        return self._bound[key][0]

    def _compile(self):
        text = self.source()
        # registered (linecache and a file) so that pdb and tracebacks show the guards
        code = compile(text, register(f"dispatch_{self.outline.name}", text), "exec")
        inner = next(c for c in code.co_consts if isinstance(c, types.CodeType))
        if self.function is None:
            outline = self.outline
            self.function = types.FunctionType(inner, self._namespace, outline.name)
            self.function.__defaults__ = outline.defaults
            self.function.__kwdefaults__ = outline.kwdefaults
            self.function.__module__ = outline.module
            self.function.__doc__ = outline.doc
            # differentiated through the general one
            self.function.__s2s_callee__ = _GeneralCallee(self)
        else:
            self.function.__code__ = inner

    # ---- the slow path ------------------------------------------------------------------
    def _specialise(self, *args, **kwargs):
        values = self._values(args, kwargs)
        self._reject_unsupported(values)
        signature = self._signature(values)
        function = self.specialisation(signature)
        if function is None and self._failure(signature):
            function = self._general_else(signature)
        return (function or self.general.function)(*args, **kwargs)

    def _values(self, args, kwargs):       # the value of each parameter in a call
        values = list(args) + [kwargs[n] for n in self._names[len(args):] if n in kwargs]
        if len(values) != len(self._names):      # defaults or keywords: bind as Python does
            bound = inspect.signature(self.function).bind(*args, **kwargs)
            bound.apply_defaults()
            values = [bound.arguments[n] for n in self._names]
        return values

    def _reject_unsupported(self, values):
        """An APIUsageError naming the first argument s2s_ad cannot differentiate right
        (a masked array, complex numbers), or a differentiated one that holds no number
        (None, a string: f's first operation on it would fail inside the derivative)."""
        for name, value in zip(self._names, values):
            if name in self._wrt and (value is None or isinstance(value, (str, bytes))):
                raise APIUsageError(
                    f"the argument `{name}` of {self.outline.func.__qualname__} is "
                    f"{value!r}, and it is differentiated: s2s_ad differentiates with "
                    f"respect to numbers, arrays, and lists, tuples, dicts and objects "
                    f"holding them", function_location(self.outline.func),
                    f"pass a number or an array for `{name}`, or differentiate with "
                    f"respect to another argument (wrt=...)")
        found = unsupported_argument(self._names, values)
        if found is not None:
            name, why, hint = found
            what = "argument" if name in self._user_params else "(co)tangent"
            raise APIUsageError(f"the {what} `{name}` of {self.outline.func.__qualname__} "
                                f"{why}", function_location(self.outline.func), hint)

    def specialisation(self, signature):
        """The derivative for `signature` (None: the general one), built if new; guarded
        by the sign facts its code relies on only (sign_facts.py)."""
        for known, function in self.entries:
            if accepts(known, signature):      # (as its guard: sign facts it has not, kept)
                return function
        signature = settled(signature, [known for known, _ in self.entries], self._signless)
        function = None
        if not self._forced_general() and not is_general(
                [k for _, k in signature]) and len(self.entries) < self._limit():
            with arrays_guarded(self._helpers):
                derived = self._build(signature, len(self.built) + 1)
            if derived is not None:
                self.built.append(derived)
                function, signature = derived.function, kept(signature, derived.signs_read)
        if len(self.entries) < self._limit():
            self.entries.append((signature, function))
            self._compile()
        return function

    def _failure(self, signature):
        """The located error building the derivative for `signature` raised, else None."""
        failures = getattr(self._build, "failures", {})
        failure = failures.get(without_signs(signature, self._signless))
        return failure if isinstance(failure, ADError) else None

    def _general_else(self, signature):
        """For a signature whose derivative could not be built (`_failure`): the general
        derivative, raising the failure's error should it fail too (it names the construct
        the arguments' kinds reached, `global` in a model's `__call__`, where the general
        one's cannot). (`specialisation` still answers None: the general derivative.)"""
        if signature not in self._else:      # one function per signature: bound once
            def general_else(*args, **kwargs):
                try:
                    return self._checked_general(*args, **kwargs)
                except ADError as error:     # (the failure of the latest build)
                    raise (self._failure(signature) or error) from None
            self._else[signature] = general_else
        return self._else[signature]

    def _limit(self):
        """How many specialisations the guard holds before calls take the general one."""
        from .runtime_functions import is_applier
        return MAX_APPLIER_SPECIALISATIONS if is_applier(self.outline.func) \
            else MAX_SPECIALISATIONS

    def _forced_general(self):
        """S2S_AD_GENERAL=1 makes every call take the general derivative, except the
        derivative s2s_ad builds itself of a function held in a variable (runtime_functions):
        only one specialised on that function's identity can differentiate it."""
        from .runtime_functions import is_applier
        return bool(os.environ.get("S2S_AD_GENERAL")) and not is_applier(self.outline.func)

    def signature_for(self, args, kwargs):
        """The signature of a call of the derivative (arguments as the user passes them)."""
        bound = inspect.signature(self.function).bind(*args, **kwargs)
        bound.apply_defaults()
        return self._signature([bound.arguments[n] for n in self._names])

    def _signature(self, values):
        """The signature of f's arguments among `values` (one per parameter), with the sign
        facts of the floats not differentiated (sign_facts.py)."""
        mine = [v for n, v in zip(self._names, values) if n not in self.extra]
        eligible = set(self._user_params) - set(self._wrt or self._user_params)
        return with_signs(tuple(zip(self._user_params, signature_of(mine))), mine, eligible)


def guard_source(name, doc, params, entries, fallback, bind, wrt=None, stale=None):
    """The text of a dispatching function: `entries` are (signature, callee name) pairs,
    or triples whose third item names the parameters whose records the callee tests
    itself where it unpacks them (ad/unpacked_records.py: their guard is that they are
    lists, and the callee's RecordsDiffer takes the call on to the next guard);
    `fallback` the callee when no guard holds, `bind(obj)` the text naming a type or dtype,
    `wrt` the differentiated parameters (None: any may be), `stale` (test, callee): a
    first test sending the call elsewhere (a helper redefined).

        def grad_f(x, w):
            if type(x) is float and type(w) is float:
                return grad_f_1(x, w)
            if type(x) is float and type(pairs) is list:
                try:
                    return grad_f_2(x, pairs)
                except RecordsDiffer:
                    pass
            return grad_f_general(x, w)
    """
    header, star = [], False
    for p in params:
        if p.kind is p.KEYWORD_ONLY and not star:
            header.append("*")
            star = True
        header.append(p.name)
    call_args = ", ".join(p.name if p.kind is not p.KEYWORD_ONLY else f"{p.name}={p.name}"
                          for p in params)
    lines = [f"def {name}({', '.join(header)}):", f'    """{doc}"""']
    shape = "_s"
    while shape in [p.name for p in params]:
        shape += "_"
    if stale is not None:                  # (test, callee) taken first when the test holds
        lines.append(f"    if {stale[0]}:")
        lines.append(f"        return {stale[1]}({call_args})")
    for signature, callee, *checked in entries:
        checked = checked[0] if checked else ()
        tests = [t for t in (f"{bind(type)}({param}) is {bind(list)}" if param in checked
                             else guard(kind, param, bind, shape, wrt is None or param in wrt)
                             for param, kind in signature) if t]
        lines.append(f"    if {' and '.join(tests) or 'True'}:")
        if checked:
            lines.append("        try:")
            lines.append(f"            return {callee}({call_args})")
            lines.append(f"        except {bind(RecordsDiffer)}:")
            lines.append("            pass")
        else:
            lines.append(f"        return {callee}({call_args})")
    lines.append(f"    return {fallback}({call_args})")
    return "\n".join(lines) + "\n"
