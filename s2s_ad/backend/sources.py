"""Where generated source lives, so that debuggers and tracebacks show it.

`register(name, text)` returns the filename to compile `text` under, after making that
name show `text` to every reader of source lines:

- `linecache` (with no modification time, so `linecache.checkcache` keeps it): the
  traceback module, `inspect.getsource`, pdb's `l`/`ll` and its `->` line;
- a file of that name on disk, written once: the interpreter's own printer of uncaught
  errors reads source from disk, not from linecache, on Python before 3.13; pdb sets a
  breakpoint (`b FILE:LINE`) only in a file that exists; and a linecache entry disappears
  when someone calls `linecache.clearcache()`.

The file is `<cache>/s2s_ad/generated/<name>_<hash of text>.py`: stable across runs and
processes for one text, distinct for different texts, so it never shows another
derivative's lines. <cache> is $S2S_AD_SOURCE_DIR, else $XDG_CACHE_HOME, else ~/.cache.
Where no such file can be written, the name is `<s2s_ad NAME HASH>`: pdb and the traceback
module then still find it in linecache (a name in angle brackets is never looked up on
disk, where a relative name would be read from the user's directory instead).
"""
import hashlib
import linecache
import os
import tempfile

_REGISTERED = set()     # the filenames of every generated source compiled in this process
_DIRECTORY = []          # the directory found writable, once per process (or "" if none)


def register(name, text):
    """The filename under which `text` (the generated function `name`) is compiled."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    filename = _on_disk(f"{name}_{digest}.py", text) or f"<s2s_ad {name} {digest}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    _REGISTERED.add(filename)
    return filename


def is_generated(function):
    """Was `function` compiled from source s2s_ad generated in this process?"""
    code = getattr(function, "__code__", None)
    return code is not None and code.co_filename in _REGISTERED


def source_directory():
    """The directory generated sources are written to, or None if none can be made."""
    if not _DIRECTORY:
        base = os.environ.get("S2S_AD_SOURCE_DIR")
        if not base:
            cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(
                os.path.expanduser("~"), ".cache")
            base = os.path.join(cache, "s2s_ad", "generated")
        try:
            os.makedirs(base, mode=0o700, exist_ok=True)
            usable = os.access(base, os.W_OK)
        except OSError:
            usable = False
        _DIRECTORY.append(os.path.abspath(base) if usable else "")
    return _DIRECTORY[0] or None


def _on_disk(basename, text):
    """The path of a file holding exactly `text` (written if missing or different)."""
    directory = source_directory()
    if directory is None:
        return None
    path = os.path.join(directory, basename)
    try:
        with open(path, encoding="utf-8") as fh:
            if fh.read() == text:
                return path
    except (OSError, UnicodeDecodeError):
        pass
    try:
        # through a temporary file: another process may read (or write) the same name
        handle, temporary = tempfile.mkstemp(prefix=".", suffix=".py", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return None
    return path
