"""Stage 9, load: generated source -> a live Python function.

The function is built with the user's own (live) globals, so a module-level value the
user reassigns later is seen exactly as the original function sees it; s2s_ad never
writes into those globals. Names the generated code adds (numpy, runtime helpers, the
adjoints of helper functions) reach it as closure cells. For that the text is compiled
inside a one-line wrapper that takes the place of the header comment on line 1, so the
compiled lines and the text registered in `linecache` have the same numbers and, past
the `def` line, the same columns: tracebacks, pdb and `inspect.getsource` show the
generated source itself.

    source:   # s2s_ad: gradient of f (model.py:12)
              def grad_f(x):
                  ...
    compiled: def __s2s_bindings__(np, unbroadcast):
               def grad_f(x):
                  ...
"""
import hashlib
import linecache
import types


def load(source, function_name, user_function, bindings):
    """Compile `source` (whose line 1 is a comment) and return the function it defines."""
    lines = source.split("\n")
    assert lines[0].startswith("#") and lines[1].startswith("def "), "header layout"
    digest = hashlib.sha1(source.encode()).hexdigest()[:10]
    filename = f"<s2s_ad {function_name} {digest}>.py"
    free = sorted(bindings)
    user_cells = dict(zip(user_function.__code__.co_freevars, user_function.__closure__ or ()))
    wrapper = f"def __s2s_bindings__({', '.join(free + sorted(user_cells))}):"
    compiled_text = "\n".join([wrapper, " " + lines[1]] + lines[2:])
    module_code = compile(compiled_text, filename, "exec")
    wrapper_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    code = next(c for c in wrapper_code.co_consts
                if isinstance(c, types.CodeType) and c.co_name == function_name)
    closure = tuple(
        user_cells[v] if v in user_cells and v not in bindings else types.CellType(bindings[v])
        for v in code.co_freevars)
    function = types.FunctionType(code, user_function.__globals__, function_name, None,
                                  closure or None)
    function.__defaults__ = user_function.__defaults__
    function.__kwdefaults__ = user_function.__kwdefaults__
    function.__module__ = user_function.__module__
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return function
