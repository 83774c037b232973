"""Which built-in template module holds which primitive's templates, read without importing
any of them: the registry imports only the modules a derivative needs.

Importing every module of templates/ on the first `grad()` was most of what that call cost
(and more again where Python compiles them from source). The index is generated from the
modules themselves and committed (templates/template_index.py); a test fails when it is
stale, and `python -m s2s_ad.ad.template_index --write` regenerates it. It records the
CRC-32 of each module's source: where one differs (a template added without regenerating
the index), the registry imports every module, as it did before the index.

    index = TemplateIndex.read()
    index.modules_for("adjoint", np.tanh)     # -> ("numpy_math",)
    index.modules_for("nondifferentiable", np.tanh)   # -> ()  indexed, as differentiable
    index.modules_for("adjoint", my_helper)   # -> ()    a function of yours: none built in
    index.modules_for("adjoint", np.new_fn)   # -> None  numpy's, yet not indexed: import all

A primitive is known by `module:qualname` (`numpy:tanh`, `_operator:add`,
`s2s_ad.runtime_arrays:unbroadcast`). A numpy object the index does not list answers None,
and the registry then imports every module: a numpy whose functions live in other modules
than in the one the index was generated with costs time, never a template.
"""
import importlib
import os
import sys
import zlib

KINDS = ("adjoint", "tangent", "nondifferentiable")


def primitive_key(primitive):
    """`module:qualname` of a primitive, or None for an object without both."""
    try:
        owner = getattr(primitive, "__self__", None)
        if type(owner).__name__ == "ufunc":      # np.maximum.accumulate: numpy:maximum.accumulate
            return f"numpy:{owner.__name__}.{primitive.__name__}"
        module = getattr(primitive, "__module__", None)
        name = getattr(primitive, "__qualname__", None) or getattr(primitive, "__name__", None)
    except Exception:           # an object whose attribute lookup raises: not a built-in's
        return None
    if not isinstance(module, str) or not isinstance(name, str):
        return None
    return f"{module}:{name}"


def _package(key):
    return key.split(":", 1)[0].split(".", 1)[0].lstrip("_")


class TemplateIndex:
    """(kind, primitive key) -> the template modules registering it; `sources`: module ->
    the CRC-32 of the source the index was generated from."""

    def __init__(self, rows, sources=None, constants=None):
        self._constants = dict(constants or {})
        self._modules = {}
        for kind, key, module in rows:
            found = self._modules.setdefault((kind, key), [])
            if module not in found:
                found.append(module)
        self._keys = {key for _, key in self._modules}
        self.sources = dict(sources or {})

    @classmethod
    def read(cls):
        """The committed index: its table is a literal of the generated module, read as
        it is (every process's first grad() reads it: splitting a thousand lines of text
        was 1-2 ms of it)."""
        from ..templates.template_index import CONSTANT_PARAMETERS, MODULES_FOR, SOURCES
        index = cls((), SOURCES, CONSTANT_PARAMETERS)
        index._modules = MODULES_FOR
        index._keys = {key for _, key in MODULES_FOR}
        return index

    def describes(self, modules, directory):
        """Was the index generated from these template modules as they are now in
        `directory`? A template added or changed since (a merge that did not regenerate
        the index) makes the answer no, and the registry then imports every module:
        a stale index costs time, never a template."""
        for module in modules:
            try:
                with open(os.path.join(directory, module + ".py"), "rb") as fh:
                    text = fh.read()
            except OSError:
                return False
            if self.sources.get(module) != zlib.crc32(text):
                return False
        return True

    def modules_for(self, kind, primitive):
        """The modules to import before looking `primitive` up in the table of `kind`:
        () when no built-in template can name it, None when only importing every module
        can tell."""
        key = primitive_key(primitive)
        if key is None:
            return ()
        found = self._modules.get((kind, key))
        if found is not None:
            return tuple(found)
        if key in self._keys:        # indexed, with templates of other kinds only
            return ()
        # numpy moves functions between its modules from one version to the next
        return None if _package(key) == "numpy" else ()

    def constant_parameters(self, primitive):
        """The parameters the built-in adjoint template of `primitive` declares without a
        derivative (registry.undifferentiated_parameters), read without importing or
        parsing it: frozenset() when no built-in template names it, None when the index
        cannot tell (a numpy function it does not list, two modules registering one)."""
        modules = self.modules_for("adjoint", primitive)
        if modules is None or len(modules) > 1:
            return None
        return frozenset(self._constants.get(primitive_key(primitive), ()))

    def text(self):
        """The index as the Python literals of the generated module: SOURCES (module ->
        CRC-32) and MODULES_FOR ((kind, primitive key) -> the modules registering it),
        sorted."""
        sources = "".join(f"    {module!r}: {crc},\n" for module, crc in sorted(
            self.sources.items()))
        # a primitive's modules by name, the order the registry imports them in
        table = "".join(f"    ({kind!r}, {key!r}): {tuple(sorted(modules))!r},\n"
                        for (kind, key), modules in sorted(self._modules.items()))
        constants = "".join(f"    {key!r}: {tuple(sorted(names))!r},\n"
                            for key, names in sorted(self._constants.items()))
        return f"SOURCES = {{\n{sources}}}\n\nMODULES_FOR = {{\n{table}}}\n\n" \
            f"CONSTANT_PARAMETERS = {{\n{constants}}}\n"


def generate():
    """The index of every module in templates.MODULES, from their registrations: each
    registration is put down to the module whose import made it (importing that module
    makes it again)."""
    from . import template_dsl
    from ..templates import MODULES
    if template_dsl.registration_count():
        raise RuntimeError("templates are registered already: generate the index in a fresh "
                           "process (python -m s2s_ad.ad.template_index --write)")
    from .registry import Registry, undifferentiated_parameters
    reader = Registry()         # parses each adjoint template for its constant parameters
    rows, sources, constants = [], {}, {}
    for module in MODULES:
        with open(os.path.join(templates_directory(), module + ".py"), "rb") as fh:
            sources[module] = zlib.crc32(fh.read())
        before = template_dsl.registration_count()
        importlib.import_module(f"s2s_ad.templates.{module}")
        for kind, primitives, function in template_dsl.registrations_since(before):
            for primitive in primitives:
                key = primitive_key(primitive)
                if key is None or " " in key:
                    raise RuntimeError(f"template module {module}: {primitive!r} has no "
                                       f"module and qualified name the index can record")
                rows.append((kind, key, module))
                if kind == "adjoint":
                    names = undifferentiated_parameters(reader._parse(kind, function))
                    if names:
                        constants[key] = names
    return TemplateIndex(rows, sources, constants)


def module_text(index):
    return ('"""Generated by `python -m s2s_ad.ad.template_index --write`: the CRC-32 of each '
            'template\nmodule\'s source, then which modules register which primitive ((kind, '
            'module:qualname)\n-> template modules), then the parameters adjoint templates declare '
            'without a\nderivative. Do not edit."""\n\n'
            + index.text())


def templates_directory():
    from .. import templates
    return os.path.dirname(os.path.abspath(templates.__file__))


def index_path():
    return os.path.join(templates_directory(), "template_index.py")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    text = module_text(generate())
    if "--write" in argv:
        with open(index_path(), "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote {index_path()}")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
