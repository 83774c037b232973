"""The template registry: primitive object -> parsed, validated template.

A template module is imported (its decorators record metadata) the first time a primitive
it holds is looked up, found through the template index (ad/template_index.py): a
derivative of tanh and matmul imports two modules, not the library. A template is parsed
and validated the first time its primitive is looked up. Expansion copies the cached
trees. Users add templates with the same decorators (`s2s_ad.adjoint`); they are picked
up on the next lookup.

    >>> entry = default_registry().reverse(np.tanh)
    >>> entry.params, entry.result
    (('x',), 'y')
"""
import builtins
import importlib
import importlib.util
import os
import inspect
import sys
import textwrap
from dataclasses import dataclass

import gast

from ..frontend.parse import def_lines
from ..ir.translate import parse_gast
from ..ir.walk import walk_tree
from ..errors import SourceLocation, TemplateError
from . import template_dsl


@dataclass(frozen=True)
class Template:
    kind: str                 # 'adjoint' or 'tangent'
    name: str
    result: str               # name of the first parameter (the primal result)
    params: tuple             # the primitive's parameters, in order
    defaults: dict            # parameter -> default value
    body: tuple               # gast statements
    namespace: dict           # the template module's globals (for free names)
    location: SourceLocation


class Registry:
    """`index`: a TemplateIndex naming the module(s) of each primitive (imported when it is
    first looked up); without one, every module is imported at the first lookup."""

    def __init__(self, module_names=(), optional=(), index=None):
        self._reverse = {}
        self._tangent = {}
        self._nondiff = {}
        self._seen = 0
        self._module_names = tuple(module_names)
        # (template module, the module it needs): imported once the user has imported
        # the latter (a scipy.special function can only reach us after `import scipy`),
        # so s2s_ad never imports an optional dependency itself
        self._optional = list(optional)
        self._loaded = False
        self._index = index
        self._imported = set()      # module names imported through the index

    # ---- lookup -------------------------------------------------------------------
    def reverse(self, primitive):
        self._refresh("adjoint", primitive)
        return self._parsed(self._reverse, primitive)

    def tangent(self, primitive):
        self._refresh("tangent", primitive)
        return self._parsed(self._tangent, primitive)

    def _parsed(self, table, primitive):
        """The template for `primitive`, parsed and validated on its first use (a process
        that differentiates a dozen primitives parses a dozen templates)."""
        entry = _lookup(table, primitive)
        if entry is None or isinstance(entry, Template):
            return entry
        if isinstance(entry, TemplateError):
            raise entry                 # every use reports it (never a silent fallback)
        kind, function = entry
        try:
            template = self._parse(kind, function)
            _check_signature(template, primitive)
        except TemplateError as error:
            for key, (prim, value) in list(table.items()):
                if value is entry:
                    table[key] = (prim, error)
            raise
        for key, (prim, value) in list(table.items()):
            if value is entry:
                table[key] = (prim, template)
        return template

    def has_own_adjoint(self, primitive):
        """Did the user register the adjoint of `primitive` (not one of s2s_ad's)? A
        gradient reading it must be built in reverse mode, where it is used."""
        self._refresh("adjoint", primitive)
        entry = _lookup(self._reverse, primitive)
        return entry is not None and not _is_built_in(
            entry if isinstance(entry, (Template, TemplateError)) else entry[1])

    def constant_parameters(self, primitive):
        """The parameters of `primitive` its adjoint template declares without a
        derivative (`d[v] += undifferentiated(v)`: scipy.special.iv's order): an argument
        reaching the output only through them would get a silent zero. (A parameter a
        template merely does not write may still carry the derivative another way, as
        call_function's function does through its vjp.) Empty without a template. A
        built-in template not imported yet is answered by the index (grad()'s silent-zero
        check asks of every operation of f: no template module imported, none parsed)."""
        indexed = self._indexed_constants(primitive)
        if indexed is not None:
            return indexed
        try:
            template = self.reverse(primitive)
        except TemplateError:
            return frozenset()
        if template is None:
            return frozenset()
        return undifferentiated_parameters(template)

    def _indexed_constants(self, primitive):
        """The constant parameters the index records for `primitive`'s built-in adjoint
        template (not parsed yet, its module perhaps not imported), or None when the
        template is to be read itself: no index, every module imported, a template parsed
        already, or one the index does not describe (yours, an optional module's)."""
        if self._index is None or self._loaded:
            return None
        if self._optional:
            self._load_optional()
        self._take_registrations()
        entry = _lookup(self._reverse, primitive)
        if entry is not None and not (
                isinstance(entry, tuple) and entry[1].__module__ in {
                    f"{_PACKAGE}.{m}" for m in self._index.modules_for("adjoint", primitive)
                    or ()}):
            return None
        return self._index.constant_parameters(primitive)

    def is_nondifferentiable(self, primitive):
        self._refresh("nondifferentiable", primitive)
        return _lookup(self._nondiff, primitive) is not None

    def primitives(self, kind="adjoint", built_in=True):
        """Primitives with a template of `kind` (built-in ones only, unless asked)."""
        self._refresh()
        table = {"adjoint": self._reverse, "tangent": self._tangent,
                 "nondifferentiable": self._nondiff}[kind]
        return [prim for prim, template in table.values()
                if not built_in or template is True
                or _filename(template).startswith(_TEMPLATES_DIR)]

    def loaded_modules(self):
        """The built-in template modules imported so far (by name, in import order)."""
        return [name for name in self._module_names if name in sys.modules]

    # ---- loading ------------------------------------------------------------------
    def _refresh(self, kind=None, primitive=None):
        """Import what a lookup of `primitive` in the table of `kind` needs (every module
        when no primitive is named or the index cannot tell), then take in the templates
        registered since the last refresh (built-in and the user's alike)."""
        if not self._loaded:
            modules = None if self._index is None or kind is None \
                else self._index.modules_for(kind, primitive)
            if modules is None:
                self._loaded = True
                for module_name in self._module_names:
                    importlib.import_module(module_name)
            else:
                for module in modules:
                    name = f"{_PACKAGE}.{module}"
                    if name not in self._imported and name in self._module_names:
                        self._imported.add(name)
                        importlib.import_module(name)
        if self._optional:
            self._load_optional()
        self._take_registrations()

    def _take_registrations(self):
        """The templates registered since the last look (built-in and the user's alike)
        into the tables, each parsed when first looked up."""
        if template_dsl.registration_count() == self._seen:
            return
        fresh = template_dsl.registrations_since(self._seen)
        for kind, primitives, function in fresh:
            self._seen += 1     # a malformed template raises once, then is skipped
            if kind == "nondifferentiable":
                for prim in primitives:
                    self._nondiff[_key(prim)] = (prim, True)
                continue
            table = self._reverse if kind == "adjoint" else self._tangent
            pending = (kind, function)           # parsed when first looked up
            for prim in primitives:
                if _key(prim) in table and _is_built_in(function) \
                        and not _is_built_in(table[_key(prim)][1]):
                    continue    # a user's template registered before the built-ins loaded
                table[_key(prim)] = (prim, pending)

    def _load_optional(self):
        for entry in list(self._optional):
            module_name, needs = entry
            if needs in sys.modules:
                self._optional.remove(entry)
                importlib.import_module(module_name)

    def _parse(self, kind, function):
        built_in = _is_built_in(function)
        found = def_lines(function) if built_in else None
        if found is not None:
            filename, (lines, first) = function.__code__.co_filename, found
        else:
            filename = inspect.getsourcefile(function) or "<template>"
            try:
                lines, first = inspect.getsourcelines(function)
            except OSError as exc:
                raise TemplateError(f"cannot read the source of template "
                                    f"{function.__name__}: {exc}", None,
                                    "define templates with `def` in a .py file")
        text = textwrap.dedent("".join(lines))
        tree = parse_gast(text).body[0]
        indent = len(lines[0]) - len(text.splitlines(True)[0])

        def locate(node):
            row = getattr(node, "lineno", 1) - 1
            return SourceLocation(filename, first + row, getattr(node, "col_offset", 0) + indent,
                                  lines[row], function.__name__)
        location = locate(tree)
        if not isinstance(tree, gast.FunctionDef):
            raise TemplateError("a template is a function defined with `def`", location,
                                "def name_adjoint(y, x): d[x] += ...")
        args = tree.args
        names = [a.id for a in args.args]
        if not names or args.vararg or args.kwarg or args.kwonlyargs:
            raise TemplateError("a template takes the result, then the primitive's parameters",
                                location)
        defaults = _defaults(function) if built_in else {
            p.name: p.default for p in inspect.signature(function).parameters.values()
            if p.default is not inspect.Parameter.empty}
        if not built_in:
            template_dsl.spell_d(tree, function.__globals__)
        body = [s for s in tree.body if not _is_docstring(s)]
        template = Template(kind, function.__name__, names[0], tuple(names[1:]), defaults,
                            tuple(body), function.__globals__, location)
        _validate(template, locate)
        return template


def _defaults(function):
    """parameter -> default value of a template function (its positional parameters: a
    template has no others), as inspect.signature gives them."""
    code = function.__code__
    names = code.co_varnames[:code.co_argcount]
    values = function.__defaults__ or ()
    return dict(zip(names[len(names) - len(values):], values))


def _check_signature(template, primitive):
    """A user template of a Python function names that function's parameters: each one
    it has without a default, and no other."""
    if not inspect.isfunction(primitive) or _is_built_in(template):
        return
    params = inspect.signature(primitive).parameters.values()
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p.name for p in params if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p not in names for p in template.params) \
            or any(p not in template.params for p in required):
        raise TemplateError(
            f"template {template.name} takes ({', '.join(template.params)}) after the result, "
            f"but {primitive.__name__} takes ({', '.join(names)})", template.location,
            f"def {template.name}({template.result}, {', '.join(names)}): ...")


def _filename(template):
    if isinstance(template, Template):
        return template.location.filename
    if isinstance(template, TemplateError):
        return template.location.filename if template.location else "<template>"
    return os.path.abspath(template[1].__code__.co_filename)


def _is_built_in(template):
    """A template (or template function) from s2s_ad/templates/."""
    if callable(template):
        return os.path.abspath(template.__code__.co_filename).startswith(_TEMPLATES_DIR)
    return template is True or _filename(template).startswith(_TEMPLATES_DIR)


def _key(primitive):
    try:
        hash(primitive)
        return primitive
    except TypeError:
        return id(primitive)


def _lookup(table, primitive):
    try:
        hit = table.get(_key(primitive))
    except TypeError:
        return None
    return hit[1] if hit else None


def _is_docstring(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant)


def undifferentiated_parameters(template):
    """The parameters a reverse template declares without a derivative:
    `d[v] += undifferentiated(v)` (template_dsl.undifferentiated)."""
    return frozenset(derivative_target(stmt.target)[0] for stmt in template.body
                     if is_undifferentiated(stmt, template))


def is_undifferentiated(stmt, template):
    """Is `stmt` a `d[v] += undifferentiated(v)` declaration?"""
    value = getattr(stmt, "value", None)
    return isinstance(stmt, gast.AugAssign) and isinstance(value, gast.Call) \
        and isinstance(value.func, gast.Name) \
        and template.namespace.get(value.func.id) is template_dsl.undifferentiated


def derivative_target(node):
    """For `d[p]` -> ('p', None); for `d[p][i]` -> ('p', i); otherwise None."""
    if not isinstance(node, gast.Subscript):
        return None
    if isinstance(node.value, gast.Name) and node.value.id == "d" \
            and isinstance(node.slice, gast.Name):
        return node.slice.id, None
    inner = derivative_target(node.value)
    if inner is not None and inner[1] is None:
        return inner[0], node.slice
    return None


def _validate(template, locate):
    known = set(template.params) | {template.result}
    temps = set()
    for stmt in template.body:
        fail = TemplateError(f"template {template.name}: unsupported statement",
                             locate(stmt),
                             "write `d[p] += expr`, `d[p][index] += expr` or `_tmp = expr`"
                             if template.kind == "adjoint" else "write `d[y] = expr`")
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, gast.Name) and target.id.startswith("_"):
                temps.add(target.id)
            elif template.kind == "tangent" and derivative_target(target) == (template.result, None):
                pass
            else:
                raise fail
        elif isinstance(stmt, gast.AugAssign) and isinstance(stmt.op, gast.Add) \
                and template.kind == "adjoint":
            target = derivative_target(stmt.target)
            if target is None or target[0] not in template.params:
                raise fail
        else:
            raise fail
        for node in walk_tree(stmt):
            if isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name) \
                    and node.value.id == "d":
                if not isinstance(node.slice, gast.Name) or node.slice.id not in known:
                    raise TemplateError(f"template {template.name}: d[...] must name a parameter",
                                        locate(node), "d[x] with x one of the template's "
                                        "parameters")
            elif isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
                ident = node.id
                if ident in known or ident in temps or ident == "d":
                    continue
                if ident not in template.namespace and not hasattr(builtins, ident):
                    raise TemplateError(f"template {template.name}: unknown name `{ident}`",
                                        locate(node), "use the template's parameters, "
                                        "`_temporaries` or names its module defines")


_DEFAULT = None
_PACKAGE = "s2s_ad.templates"
_TEMPLATES_DIR = os.path.dirname(os.path.abspath(
    importlib.util.find_spec("s2s_ad.templates").origin))


def default_registry():
    """The registry of the built-in templates plus every user registration."""
    global _DEFAULT
    if _DEFAULT is None:
        from ..templates import MODULES, OPTIONAL_MODULES
        from .template_index import TemplateIndex, templates_directory
        index = TemplateIndex.read()
        _DEFAULT = Registry(tuple(f"{_PACKAGE}.{m}" for m in MODULES),
                            tuple((f"{_PACKAGE}.{m}", needs) for m, needs in OPTIONAL_MODULES),
                            index if index.describes(MODULES, templates_directory()) else None)
    return _DEFAULT
