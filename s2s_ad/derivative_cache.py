"""The derivatives built so far, and the stand-in for one still being built.

    cache = DerivativeCache()
    cache.put(f, request, derived); cache.get(f, request) is derived
    cache.derived_of(derived.function) is derived     # a generated function's record

A helper function's derivative is built once per (function, request); a recursive helper
calls a `ForwardReference` bound once its derivative exists. A derivative written with
in-place operations is differentiated again through its twin written without them
(`differentiable`).
"""
import contextlib
import dataclasses

import gast

from .analyses.number_code import reverse_forced
from .freshness import helper_bindings, note_rebound, object_bindings, still_bound
from .ir.walk import walk_tree


class DerivativeCache:
    """(function, Request) -> Derived, plus the helpers being derived (recursion guard)."""

    def __init__(self):
        self._entries = {}
        self.in_progress = {}     # (function, Request) -> ForwardReference
        self.by_function = {}     # generated function -> Derived
        self._variants = {}       # (function, request) -> signatures specialised on
        self._plain = {}          # in-place derivative -> its twin without (differentiable)
        self._shared = None       # key -> value, while one derivation is under way
        self._checked = {}        # key -> (front, what it read): grad()'s, for the first call
        self._helpers = {}        # entry key -> the helper functions it was built from

    @contextlib.contextmanager
    def one_derivation(self):
        """The span of one derivation (f's derivative with its helpers'): what `front`
        remembers lives this long. A later derivation works everything out again (the
        user may have rebound a global in between)."""
        outermost = self._shared is None
        if outermost:
            self._shared = {}
        try:
            yield
        finally:
            if outermost:
                self._shared = None

    def derivation_memo(self, name):
        """A dict that lives as long as the derivation under way (one per `name`: the
        helpers' derivatives of one derivation share it), or a fresh one outside one."""
        if self._shared is None:
            return {}
        return self._shared.setdefault(("memo", name), {})

    def front(self, key, make):
        """make() (f's levels form and namer) once per derivation under way; one made
        outside a derivation (grad()'s checks of f) serves the first derivation after it
        too, if every name f reads still denotes the same object, so that the first call
        does not parse and normalize f again."""
        if self._shared is not None and key in self._shared:
            return self._shared[key]
        kept = self._checked.pop(key, None)
        made = kept[0] if kept is not None and _same_objects(_names_read(kept[0]), kept[1]) \
            else make()
        if self._shared is not None:
            self._shared[key] = made
        else:
            self._checked[key] = (made, _names_read(made))
            while len(self._checked) > _KEPT_CHECKS:          # the oldest first
                del self._checked[next(iter(self._checked))]
        return made

    def variant(self, func, request, signature):
        """The number of `func`'s derivative for `signature` (1, 2, ... in the order they
        are first asked for): distinct specialisations get distinct names."""
        seen = self._variants.setdefault((func, request), [])
        if signature not in seen:
            seen.append(signature)
        return seen.index(signature) + 1

    def get(self, func, request):
        """The derivative built for (func, request), unless a helper it differentiated has
        been redefined since (freshness.py): then it is forgotten, to be built again."""
        key = (func, request, reverse_forced())
        hit = self._entries.get(key)
        if hit is not None and not still_bound(*self._helpers.get(key, ((), ()))):
            note_rebound(self._helpers[key][0])
            del self._entries[key]
            return None
        return hit

    def put(self, func, request, derived):
        key = (func, request, reverse_forced())
        self._entries[key] = derived
        self._helpers[key] = helper_bindings(func), object_bindings(func)
        self.by_function[derived.function] = derived

    def derived_of(self, function):
        """The Derived record of a generated function (following forward references)."""
        function = getattr(function, "_function", None) or function
        return self.by_function.get(function)

    def differentiable(self, function):
        """What differentiating `function` reads: a derivative written with in-place
        operations (optimize/buffers.py) is differentiated through its twin written
        without them, built the first time it is asked for."""
        derived = self.derived_of(function) if callable(function) else None
        if derived is None or derived.plain is None:
            return function
        if derived.function not in self._plain:
            twin, source = derived.plain()
            self.by_function[twin] = dataclasses.replace(derived, function=twin,
                                                         source=source, plain=None)
            self._plain[derived.function] = twin
        return self._plain[derived.function]


class ForwardReference:
    """The adjoint of a recursive helper, called before its generated code exists."""

    def __init__(self, name):
        self.__name__ = name
        self._function = None

    def bind(self, function):
        self._function = function

    def __call__(self, *args, **kwargs):
        return self._function(*args, **kwargs)

    @property
    def __s2s_callee__(self):
        """Differentiating code that calls this reference (a second derivative of a
        recursive function) differentiates the generated function it stands for."""
        return self._function


_KEPT_CHECKS = 16


def _names_read(made):
    """name -> the object it denotes now, for every name f's source reads."""
    resolution = made[0].resolution
    return {n.id: resolution.lookup(n.id) for n in walk_tree(made[0].parsed.tree)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}


def _same_objects(now, then):
    return now.keys() == then.keys() and all(now[k] is then[k] for k in now)
