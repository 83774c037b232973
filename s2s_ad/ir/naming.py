"""One namer per generated function: deterministic, collision-free names.

Every name the generated code introduces (temporaries `t{m}_{j}`, adjoints `x_bar`,
template temporaries, runtime helpers) comes from here. The namer is seeded with every
identifier the user's code and globals use, so a generated name never shadows one.

    >>> n = Namer({"x", "x_bar"})
    >>> n.adjoint("x"), n.level_temp(1), n.level_temp(1), n.fresh("x")
    ('x_bar_1', 't1_0', 't1_1', 'x_1')
"""
import math
import re
import types

import gast
import numpy

from .. import runtime_checks
from .build import dotted_path


class Namer:
    def __init__(self, reserved=()):
        self._taken = set(reserved)
        self._level_counts = {}
        self._adjoints = {}
        self._adjoint_names = set()
        self._tangent_names = set()

    def __deepcopy__(self, memo):
        """What copy.deepcopy makes, without its walk over every name (a namer reserves
        f's module's globals: a deep copy per derivation was 0.3 ms): the tables hold
        strings and ints only, so copies of the tables are a deep copy."""
        made = self.__class__.__new__(self.__class__)
        memo[id(self)] = made
        made.__dict__.update({key: table.copy() for key, table in self.__dict__.items()})
        return made

    def reserve(self, identifier):
        self._taken.add(identifier)

    def is_taken(self, identifier):
        return identifier in self._taken

    def fresh(self, base):
        """`base` itself if free, else `base_1`, `base_2`, ..."""
        base = base.lstrip("_") or "tmp"
        if base in self._taken:
            stem = re.sub(r"_\d+$", "", base)
            k = 1
            while f"{stem}_{k}" in self._taken:
                k += 1
            base = f"{stem}_{k}"
        self._taken.add(base)
        if re.search(r"_bar(_\d+)?$", base):
            self._adjoint_names.add(base)
        return base

    def tangent(self, variable, wrt):
        """A fresh name for variable's derivative along the input `wrt` in a forward-mode
        gradient: `dp_dx`."""
        made = self.fresh(f"d{variable}_d{wrt}")
        self._tangent_names.add(made)
        return made

    def is_tangent(self, identifier):
        """Was `identifier` made by `tangent` (a number: forward-mode gradients are built
        for number code only)?"""
        return identifier in self._tangent_names

    def is_adjoint(self, identifier):
        """Was `identifier` made here for an adjoint (`x_bar`, `x_bar_1`)? A user's own
        `x_bar` is reserved, so its adjoint is `x_bar_bar` and it is not one itself."""
        return identifier in self._adjoint_names

    def level_temp(self, level):
        """The next `t{level}_{j}` that is not a user name."""
        while True:
            j = self._level_counts.get(level, 0)
            self._level_counts[level] = j + 1
            candidate = f"t{level}_{j}"
            if candidate not in self._taken:
                self._taken.add(candidate)
                return candidate

    def variable_of_adjoint(self, identifier):
        """The variable whose adjoint is named `identifier`, else None."""
        for variable, name in self._adjoints.items():
            if name == identifier:
                return variable
        return None

    def adjoint(self, variable):
        """The adjoint name of `variable` (`x` -> `x_bar`), stable per variable."""
        if variable not in self._adjoints:
            self._adjoints[variable] = self.fresh(f"{variable}_bar")
        return self._adjoints[variable]


class Bindings:
    """Objects the generated code refers to by name (numpy, runtime helpers, helper
    adjoints), each under a collision-free name from the namer. They become the
    generated function's closure cells."""

    def __init__(self, namer, user_lookup=None):
        self._namer = namer
        self._user_lookup = user_lookup or (lambda ident: None)
        self._by_id = {}
        self.names = {}

    def name_for(self, suggested, obj, exact=False):
        if id(obj) in self._by_id:
            return self._by_id[id(obj)]
        if self._user_lookup(suggested) is obj:
            exact = True   # the user's own `math` is this very module: say `math`
        ident = suggested if exact else self._namer.fresh(suggested)
        self._namer.reserve(ident)
        self._by_id[id(obj)] = ident
        self.names[ident] = obj
        return ident

    def bind_all(self, runtime_names, imported):
        """The runtime helpers normalize called by name ({helper: name}), and the names
        imports inside f bind ({name: object}), each under its own name even when the
        object has another (`import numpy as onp`)."""
        for helper, name in runtime_names.items():
            self.name_for(name, helper, exact=True)
        for name, obj in imported.items():
            self.names.setdefault(name, obj)


def callee(func, resolve):
    """What the called expression `func` of generated code denotes: a name through
    `resolve` (bindings, user globals, builtins), or `math.f` / `np.f`; else None."""
    if isinstance(func, gast.Name):
        return resolve(func.id)
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
        owner = resolve(func.value.id)
        if owner is math or owner is numpy:
            return getattr(owner, func.attr, None)
    return None


def dotted_callee(func, resolve):
    """callee() through numpy's submodules too: `np.linalg.solve` -> numpy.linalg.solve."""
    path = dotted_path(func)
    if path is None:
        return None
    first, *rest = path.split(".")
    found = resolve(first)
    for attr in rest:
        if not (isinstance(found, types.ModuleType) and found.__name__.split(".")[0] == "numpy"):
            return None
        found = getattr(found, attr, None)
    return found


def output_check_call(stmt, resolve):
    """The `check_scalar_output(...)` call of grad's guard `if ...: check_scalar_output(...)`
    when `stmt` is that guard, else None."""
    if not (isinstance(stmt, gast.If) and not stmt.orelse and len(stmt.body) == 1
            and isinstance(stmt.body[0], gast.Expr)):
        return None
    call = stmt.body[0].value
    return call if calls(call, runtime_checks.check_scalar_output, resolve) else None


def calls(value, function, resolve):
    """Is `value` a call of `function`?"""
    return isinstance(value, gast.Call) and callee(value.func, resolve) is function
