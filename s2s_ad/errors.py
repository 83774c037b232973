"""Errors s2s_ad raises about user code and API use.

Every error about user code carries a `SourceLocation` and prints like Python's own
SyntaxError: ``file:line:col``, the source line, a caret under the construct, what is
unsupported and what to write instead.

    >>> raise UnsupportedSyntaxError("`while` loops are not supported yet", loc,
    ...                              hint="unroll the loop")
    s2s_ad.errors.UnsupportedSyntaxError: `while` loops are not supported yet
      File "model.py", line 12, col 4, in loss
        while x > 0:
        ^^^^^
    Write instead: unroll the loop
"""
import dataclasses
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class SourceLocation:
    """Where a construct sits in the user's file (1-based line, 0-based column)."""
    filename: str
    lineno: int
    col: int
    source_line: str
    function: str = ""
    end_col: int = -1

    def portable(self):
        """This location with its file named by its base name: a message written into
        generated code reads the same on every machine."""
        return dataclasses.replace(self, filename=os.path.basename(self.filename))

    def render(self):
        where = f'  File "{self.filename}", line {self.lineno}, col {self.col + 1}'
        if self.function:
            where += f", in {self.function}"
        text = self.source_line.rstrip("\n")
        stripped = text.lstrip()
        indent = len(text) - len(stripped)
        width = 1
        if self.end_col > self.col:
            width = self.end_col - self.col
        elif self.col < len(text):   # a multi-line construct: underline its first word
            word = text[self.col:].split(None, 1)[0] if text[self.col:].strip() else "^"
            width = len(word.rstrip(":("))
        width = max(1, min(width, len(text) - self.col)) if len(text) > self.col else 1
        caret = " " * (4 + max(0, self.col - indent)) + "^" * width
        return f"{where}\n    {stripped}\n{caret}"


def function_location(func):
    """Where `func` is defined (its `def` line), for errors about the function as a whole."""
    import inspect
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    try:
        lines, first = inspect.getsourcelines(func)
        line = next((text for text in lines if text.lstrip().startswith(("def ", "async def"))),
                    lines[0])
        first += lines.index(line)
    except (OSError, TypeError):
        line, first = "", code.co_firstlineno
    col = len(line) - len(line.lstrip())
    return SourceLocation(code.co_filename, first, col, line, func.__qualname__,
                          col + len(line.strip()))


class ADError(Exception):
    """Base class of every error s2s_ad raises on purpose."""

    def __init__(self, message, location=None, hint=None):
        self.message = message
        self.location = location
        self.hint = hint
        super().__init__(self._format())

    @property
    def filename(self):
        return self.location.filename if self.location else None

    @property
    def lineno(self):
        return self.location.lineno if self.location else None

    def _format(self):
        parts = [self.message]
        if self.location is not None:
            parts.append(self.location.render())
        if self.hint:
            parts.append(f"Write instead: {self.hint}")
        return "\n".join(parts)


class UnsupportedSyntaxError(ADError):
    """A Python construct that is not differentiated (yet)."""


class SharedMemoryWriteError(UnsupportedSyntaxError):
    """A write into an array (or list) that another name, or the caller, reads later: what
    the program computes depends on memory shared in a way the derivative cannot follow.
    It is a fact of the program at those arguments, so no other derivative of it (the
    general one a failed specialisation falls back to) is tried."""


class MissingDerivativeError(ADError):
    """A call whose derivative is needed but that has no template and no source."""


class NonDifferentiableError(ADError):
    """A value flows through an operation that has no derivative where one is needed."""


class APIUsageError(ADError, ValueError):
    """Bad use of the public API: wrt out of range, non-scalar output for grad, ..."""


class NonScalarOutputError(APIUsageError):
    """grad() of a function whose output is not a scalar."""


class TemplateError(ADError):
    """A derivative template (built-in or user-registered) is malformed."""
