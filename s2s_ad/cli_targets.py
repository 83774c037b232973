"""The `s2s-ad` command's targets: FILE.py:FUNC[wrt] -> the live function and its wrt.

A file is imported the way `python -m pytest` finds test modules: walk up the directories
that hold an `__init__.py` to the package root, put the directory above it on sys.path,
and import the module by its dotted name (pkg/sub/model.py -> pkg.sub.model), so relative
imports and absolute package imports both work. A file outside any package is the module
named after it.

A module name that is already taken by another file (a user's `math.py`, `operator.py`, or
a second `model.py` from another directory) is never put in sys.modules: that would hand
the user's module to every later `import math`, s2s_ad's own included. Such a file runs as
a module of its own, unregistered; a derivative that must import names from it is refused
when the file is written (backend/standalone.py), as Python would import the other module.

    model.py:loss            loss, w.r.t. --wrt (default: its first parameter)
    model.py:loss[w,b]       loss, w.r.t. w and b
    model.py:loss[0]         loss, w.r.t. its first parameter
    model.py:Model.loss      a method: its function, self the first parameter
"""
import importlib
import importlib.util
import linecache
import os
import re
import sys

from .errors import ADError, APIUsageError, SourceLocation

TARGET = re.compile(
    r"(?P<path>.+\.py):(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\[(?P<wrt>[^\]]*)\])?")


class CommandError(ADError):
    """The command cannot go on for a reason outside s2s_ad: a target file that does not
    compile or import, an output path that cannot be written. Its message says it all, so
    it prints without a class name."""


def parse_wrt(text, where="--wrt"):
    """A wrt list as grad's wrt: names and positions ("w,b", "0", "0,b"); None -> None."""
    if text is None:
        return None
    items = [item.strip() for item in text.split(",")]
    # An empty item would otherwise fall back to the first parameter ("") or reach grad
    # as a parameter called "" ("w,"): neither is what the user asked for.
    if not all(items):
        raise APIUsageError(f"{where} needs parameter names or positions, e.g. w, w,b or 0; "
                            f"got {text!r}")
    wrt = tuple(int(item) if re.fullmatch(r"-?\d+", item) else item for item in items)
    return wrt if len(wrt) > 1 else wrt[0]


def load_target(target):
    """(function, wrt written in the target or None) for FILE.py:FUNC or FILE.py:FUNC[wrt]."""
    match = TARGET.fullmatch(target)
    if match is None:
        raise APIUsageError(f"expected FILE.py:FUNC or FILE.py:FUNC[wrt], got {target!r}")
    path, name = match["path"], match["name"]
    if not os.path.isfile(path):
        raise APIUsageError(f"no such file: {path}")
    module = _module_of(path)
    func = module
    for part in name.split("."):        # Model.loss: a method (or static / class method)
        func = getattr(func, part, None)
    if func is None:
        raise APIUsageError(f"{path} defines no function {name!r}")
    wrt = parse_wrt(match["wrt"], f"the [wrt] of {target}") if match["wrt"] is not None \
        else None
    return func, wrt


def package_root(path):
    """(directory to put on sys.path, dotted module name) of the file `path`."""
    directory, filename = os.path.split(os.path.abspath(path))
    parts = [os.path.splitext(filename)[0]]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        if not package.isidentifier():
            break
        parts.insert(0, package)
    return directory, ".".join(parts)


def _module_of(path):
    root, dotted = package_root(path)
    top = dotted.split(".")[0]
    if _same_file(sys.modules.get(dotted), path):
        return sys.modules[dotted]
    if _taken(top, root):
        if "." in dotted:
            raise CommandError(
                f"cannot import {path} as {dotted}: the name {top!r} is already the module "
                f"{_where(sys.modules.get(top)) or top}; rename the package {top}")
        return _run_unregistered(dotted, path)
    if root not in sys.path:
        sys.path.insert(0, root)
    importlib.invalidate_caches()
    try:
        module = importlib.import_module(dotted)
    except SyntaxError as exc:
        raise CommandError(_syntax_error_text(exc, path)) from exc
    except Exception as exc:
        raise CommandError(f"importing {path} failed: {type(exc).__name__}: {exc}") from exc
    if not _same_file(module, path):
        # another directory earlier on sys.path holds a module of that name
        sys.modules.pop(dotted, None)
        return _run_unregistered(dotted, path)
    return module


def _taken(top, root):
    """Whether the top-level name `top` already means a module other than root's."""
    known = sys.modules.get(top)
    if known is not None:
        where = _where(known)
        root = os.path.realpath(root)
        return where is None or os.path.dirname(where) not in (
            root, os.path.join(root, top))
    return top in sys.builtin_module_names or top in getattr(sys, "stdlib_module_names", ())


def _run_unregistered(module_name, path):
    """Run the file as a module named `module_name` that sys.modules does not list."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise CommandError(_syntax_error_text(exc, path)) from exc
    except Exception as exc:
        raise CommandError(f"importing {path} failed: {type(exc).__name__}: {exc}") from exc
    return module


def _where(module):
    filename = getattr(module, "__file__", None)
    return os.path.realpath(filename) if filename else None


def _same_file(module, path):
    return module is not None and _where(module) == os.path.realpath(path)


def _syntax_error_text(exc, path):
    """A SyntaxError as Python prints it: the file and line, the line, a caret.

    exc.filename may be another file the target imports, so it is named too (as the user
    wrote it when it is the target: the import system makes it absolute)."""
    filename = exc.filename or path
    if os.path.abspath(filename) == os.path.abspath(path):
        filename = path
    lineno = exc.lineno or 1
    # compile() may leave the text out
    text = exc.text if exc.text is not None else linecache.getline(filename, lineno)
    col = max(0, (exc.offset or 1) - 1)
    # Python underlines offset..end_offset when they span one line, else one character
    # (SourceLocation would otherwise underline a whole word).
    single_line = exc.end_lineno == lineno and (exc.end_offset or 0) > col + 1
    end_col = exc.end_offset - 1 if single_line else col + 1
    location = SourceLocation(filename, lineno, col, text, end_col=end_col)
    what = f"{type(exc).__name__} in {filename}: {exc.msg}"
    if filename != path:
        what = f"importing {path} failed: {what}"
    return f"{what}\n{location.render()}"


def parsed_signature(func, text):
    """[(name, kind)] of a --signature text for func (classes named in its module)."""
    from .signature_text import parse_signature
    try:
        return parse_signature(text, lambda name: _class_named(func, name))
    except ValueError as exc:
        raise APIUsageError(f"--signature {text!r}: {exc}") from None


def _class_named(func, name):
    """The class `name` (`Model`, `layers.Dense`) names in f's module, or None."""
    head, *rest = name.split(".")
    found = func.__globals__.get(head, getattr(__import__("builtins"), head, None))
    for part in rest:
        found = getattr(found, part, None)
    return found
