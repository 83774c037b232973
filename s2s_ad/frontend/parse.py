"""Stage 1, parse: a function object -> its gast FunctionDef plus a source map.

    >>> parsed = parse(f)            # def f(x): return np.tanh(x)  (file model.py, line 12)
    >>> parsed.tree.name, parsed.source_map.filename, parsed.source_map.first_line
    ('f', 'model.py', 12)

The source map turns a node position (relative to the dedented source) back into the
file, line and column the user sees, for located errors.
"""
import ast
import builtins
import inspect
import linecache
import os
import textwrap
from dataclasses import dataclass

import gast

from ..ir.depth import MAX_DEPTH, recursion_room, tree_depth
from ..ir.translate import to_gast
from ..ir.walk import walk_tree
from ..errors import APIUsageError, SourceLocation, UnsupportedSyntaxError
from .star_params import source_function, with_star_items


@dataclass(frozen=True)
class SourceMap:
    filename: str
    first_line: int          # file line of line 1 of the parsed text
    indent: int              # columns removed by dedent
    lines: tuple             # the file's lines of the parsed text (not dedented)
    function: str

    def locate(self, node):
        lineno = getattr(node, "lineno", 1) or 1
        col = getattr(node, "col_offset", 0) or 0
        end_col = getattr(node, "end_col_offset", -1)
        if getattr(node, "end_lineno", lineno) != lineno:
            end_col = -1
        index = min(max(lineno - 1, 0), len(self.lines) - 1)
        text = self.lines[index] if self.lines else ""
        return SourceLocation(self.filename, self.first_line + lineno - 1, col + self.indent,
                              text, self.function,
                              end_col + self.indent if end_col is not None and end_col >= 0 else -1)

    def line_text(self, node):
        """The user's source line of `node`, stripped (for provenance comments)."""
        lineno = getattr(node, "lineno", None)
        if not lineno or lineno > len(self.lines):
            return ""
        return self.lines[lineno - 1].strip()


@dataclass(frozen=True)
class ParsedFunction:
    func: object
    tree: gast.FunctionDef
    source_map: SourceMap


def parse(func):
    if not callable(func):
        raise APIUsageError(f"expected a Python function, got {type(func).__name__}")
    star = getattr(func, "__s2s_star_of__", None)
    if star is not None:            # f with n items for its *args (star_params.py)
        parsed = parse(star[0])
        return ParsedFunction(func, with_star_items(parsed.tree, star[1], star[0], star[2]),
                              parsed.source_map)
    # a wrapper written in Python (functools.wraps) is what runs: differentiate it, not
    # the function it wraps; C-level wrappers (lru_cache, presenters) lead to a def
    func = inspect.unwrap(func, stop=inspect.isfunction)
    if not inspect.isfunction(func):
        raise APIUsageError(
            f"s2s_ad differentiates Python functions defined with `def`; got {func!r}",
            hint="wrap the call in a def whose source s2s_ad can read")
    # a wrapper by its code object: inspect would follow __wrapped__ to the wrapped
    # function's source (a function itself is faster: inspect finds its module by name)
    code = func.__code__
    try:
        lines, first_line = _source_lines(func, code)
    except (OSError, TypeError) as exc:
        raise APIUsageError(f"cannot read the source of {func.__qualname__}: {exc}",
                            hint="define the function in a .py file (or a notebook cell)") from None
    filename = inspect.getsourcefile(code) or code.co_filename
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    if func.__name__ == "<lambda>" and not _parses(dedented):
        # a lambda inside a statement spanning lines (a list of lambdas, a call's
        # argument): inspect gives the lines from the lambda's on, not a statement of
        # their own. Read it within its whole file.
        lines, first_line, indent = inspect.findsource(code)[0], 1, 0
        text = dedented = "".join(lines)
    label = func.__qualname__
    if hasattr(func, "__wrapped__"):
        label += f" (the wrapper `{code.co_name}` a decorator put around it)"
    smap = SourceMap(filename, max(first_line, 1), indent, tuple(lines), label)
    tree = ast.parse(dedented)
    depth, deepest = tree_depth(tree)
    if depth > MAX_DEPTH:
        raise UnsupportedSyntaxError(
            f"{label} nests {depth} levels deep (expressions inside expressions, blocks "
            f"inside blocks); s2s_ad takes up to {MAX_DEPTH}", smap.locate(deepest),
            "give parts of the expression names of their own (t = ...), one per line")
    with recursion_room(depth):
        module = to_gast(tree)
    node = module.body[0] if module.body else None
    if func.__name__ == "<lambda>":
        node = _lambda_as_def(module, func, smap)
    if isinstance(node, gast.AsyncFunctionDef):
        raise UnsupportedSyntaxError(
            f"{func.__qualname__} is a coroutine (`async def`): its value is an awaitable, "
            "not a number; s2s_ad differentiates plain functions", smap.locate(node),
            "differentiate the computation the coroutine awaits, written as a plain def")
    if not isinstance(node, gast.FunctionDef):
        raise UnsupportedSyntaxError(f"cannot find the definition of {func.__qualname__}",
                                     smap.locate(module.body[0]) if module.body else None)
    node.decorator_list = []
    if hasattr(func, "__wrapped__") and _forwards(func, node):
        # `def wrapper(*args, **kwargs): ...; return fn(*args, **kwargs)`: the value is
        # the wrapped function's, whatever else the wrapper does (logging, timing)
        return parse(func.__wrapped__)
    return ParsedFunction(func, node, smap)


# code object -> (code object, its source lines, first line). Finding a def's lines
# tokenizes the file from the def on; a derivative parses f and each helper several times
# (checks, facts, helpers' derivatives). Keyed by the code object itself (held, so its id
# is never reused): the text a code object was compiled from does not change, and the
# lines are an immutable tuple.
_SOURCE_LINES = {}


def _source_lines(func, code):
    """inspect.getsourcelines of func (of its code object for a wrapper, whose source
    inspect would otherwise look for in the function it wraps), read once per code."""
    target = code if hasattr(func, "__wrapped__") else func
    hit = _SOURCE_LINES.get(id(code))
    if hit is not None and hit[0] is code and hit[1] is target.__class__:
        return hit[2], hit[3]
    found = def_lines(func) if target is func and func.__name__ != "<lambda>" else None
    lines, first_line = found or inspect.getsourcelines(target)
    _SOURCE_LINES[id(code)] = (code, target.__class__, tuple(lines), first_line)
    return tuple(lines), first_line


def def_lines(function):
    """(source lines, first line number) of a function written with `def` in a .py file,
    as inspect.getsourcelines gives them (its decorators through the last line of its
    body), read off its code object: inspect tokenizes the def to find where it ends,
    which cost more than the rest of reading it (compiling the tokenizer's patterns
    first, once per process). None when the lines cannot be told this way (inspect then
    reads them).

    The body ends on the last line any of its instructions spans. Before the next
    statement no deeper than the def may follow only blank lines and comments no deeper
    than the def; anything else (a deeper comment, which inspect counts in, a bracket
    closing the last statement) is left to inspect.

        @adjoint(np.tanh)                    <- first line (co_firstlineno)
        def tanh_adjoint(y, x):
            d[x] += d[y] * (1.0 - y * y)     <- the last line an instruction spans
        # a comment: not the def's
    """
    code = function.__code__
    filename = code.co_filename
    if not filename.endswith(".py") or not os.path.isfile(filename):
        return None
    linecache.checkcache(filename)                   # as inspect does: the file as it is now
    lines = linecache.getlines(filename, function.__globals__)
    first = code.co_firstlineno
    ends = [end for _, end, _, _ in code.co_positions() if end is not None]
    if not ends or not 0 < first <= len(lines):
        return None
    head = lines[first - 1].lstrip()
    if not head.startswith(("@", "def ", "async def ")):
        return None
    indent = len(lines[first - 1]) - len(head)
    last = max(ends)
    for line in lines[last:]:
        text = line.lstrip()
        if not text:
            continue
        if len(line) - len(text) > indent or text[0] in ")]}":
            return None
        if not text.startswith("#"):
            break
    return lines[first - 1:last], first


def def_ast(function):
    """The `ast.FunctionDef` of a method or function of yours (its lines read as def_lines
    does, inspect's only where that cannot tell them), or None where its source is not
    available or is no def (a lambda, a C function). For the facts read off a def's
    source: what its returns construct, whether it passes its call on, its __iter__."""
    try:
        found = def_lines(function)
        lines = found[0] if found is not None else inspect.getsourcelines(function)[0]
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (AttributeError, OSError, TypeError, SyntaxError, IndentationError):
        return None
    fdef = tree.body[0] if tree.body else None
    return fdef if isinstance(fdef, ast.FunctionDef) else None


def _forwards(wrapper, node):
    """Does `wrapper` take only *args/**kwargs and return, unchanged, what the function
    it wraps returns for them (directly, or through one name assigned once)?"""
    a = node.args
    if a.args or a.posonlyargs or a.kwonlyargs or (a.vararg is None and a.kwarg is None):
        return False
    cells = dict(zip(wrapper.__code__.co_freevars, wrapper.__closure__ or ()))
    target = inspect.unwrap(wrapper.__wrapped__, stop=inspect.isfunction)

    def forwarding_call(value):
        if not (isinstance(value, gast.Call) and isinstance(value.func, gast.Name)):
            return False
        cell = cells.get(value.func.id)
        try:
            called = cell.cell_contents if cell is not None else None
        except ValueError:
            return False
        starred = [x.value.id for x in value.args if isinstance(x, gast.Starred)
                   and isinstance(x.value, gast.Name)]
        spread = [k.value.id for k in value.keywords if k.arg is None
                  and isinstance(k.value, gast.Name)]
        return called is not None and inspect.unwrap(called, stop=inspect.isfunction) \
            is target and len(value.args) == len(starred) == (a.vararg is not None) \
            and len(value.keywords) == len(spread) == (a.kwarg is not None) \
            and starred == ([a.vararg.id] if a.vararg else []) \
            and spread == ([a.kwarg.id] if a.kwarg else [])

    body = [n for stmt in node.body for n in walk_tree(stmt)]
    stores = {}
    for n in body:
        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store):
            stores[n.id] = stores.get(n.id, 0) + 1
    assigned = {stmt.targets[0].id: stmt.value for stmt in node.body
                if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], gast.Name)}
    returns = [n for n in body if isinstance(n, gast.Return)]
    if not returns or any(isinstance(n, (gast.FunctionDef, gast.Lambda)) for n in body):
        return False
    for ret in returns:
        value = ret.value
        if isinstance(value, gast.Name) and stores.get(value.id) == 1:
            value = assigned.get(value.id)
        if not forwarding_call(value):
            return False
    return True


def _parses(text):
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def _lambda_as_def(module, func, smap):
    """`lambda x: e` on the source line -> `def <lambda>(x): return e`. Of several
    lambdas there with the same parameters, the one whose body holds the positions of
    the code object's instructions (Python 3.11 and later record them)."""
    code = func.__code__
    params = list(code.co_varnames[:code.co_argcount])
    line = code.co_firstlineno - smap.first_line + 1
    found = [n for n in walk_tree(module) if isinstance(n, gast.Lambda)
             and [a.id for a in n.args.args] == params and n.lineno == line]
    if len(found) > 1 and hasattr(code, "co_positions"):
        spots = [(start - smap.first_line + 1, col - smap.indent)
                 for start, _, col, _ in code.co_positions()
                 if start is not None and col is not None]
        held = [sum(_holds(n.body, spot) for spot in spots) for n in found]
        found = [n for n, count in zip(found, held) if count == max(held) and count]
    if len(found) != 1:
        raise UnsupportedSyntaxError(
            "cannot tell which lambda on this line is being differentiated",
            smap.locate(module.body[0]), hint="define the function with `def`")
    lam = found[0]
    body = gast.Return(value=lam.body)
    gast.copy_location(body, lam.body)
    fdef = gast.FunctionDef(name="lambda_", args=lam.args, body=[body], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
    return gast.copy_location(fdef, lam)


def _holds(node, spot):
    """Does `node`'s span hold the (line, column) `spot`?"""
    return (node.lineno, node.col_offset) <= spot < (node.end_lineno, node.end_col_offset)


def visible_names(parsed):
    """Every name the parsed function reads, binds or could see (its globals, builtins,
    code object's names): what generated names must not take."""
    # the def a C-level wrapper (lru_cache) leads to; f for f with fixed *args items
    func = source_function(parsed.func)
    names = {n.id for n in walk_tree(parsed.tree) if isinstance(n, gast.Name)}
    names |= {parsed.tree.name}
    names |= set(func.__code__.co_names) | set(func.__code__.co_varnames)
    names |= set(func.__code__.co_freevars)
    names |= set(func.__globals__)
    return names | set(dir(builtins))
