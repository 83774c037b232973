"""Generated code under a debugger and in tracebacks: pdb's `->`, `l`, `ll` and breakpoints,
the interpreter's own printing of an uncaught error, and `inspect.getsource` all show the
generated lines (backend/sources.py), on the specialised and the general derivative, also
where no file can be written (linecache only)."""
import inspect
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import s2s_ad
from s2s_ad.derivative_registry import dispatcher_of

SCRIPT = textwrap.dedent('''
    import sys
    import numpy as np
    import s2s_ad


    def f(x, i):
        y = np.sin(x) * 2.0
        return np.sum(y[i])


    g = s2s_ad.grad(f)
    x = np.ones(3)
    g(x, 1)
    from s2s_ad.derivative_registry import dispatcher_of
    dispatcher = dispatcher_of(g)
    derivative = (dispatcher.built or [dispatcher.general])[0].function   # what g(x, 1) ran
    if sys.argv[1:] == ["where"]:
        code = derivative.__code__
        print(code.co_filename)
        print(next(k for k, line in enumerate(open(code.co_filename), 1)
                   if "x_bar =" in line))
        raise SystemExit(0)
    r = g(x, 2)
    g(x, 7)
''')
CALL_LINE = SCRIPT.splitlines().index("r = g(x, 2)") + 1


@pytest.fixture(params=["written", "linecache only"])
def script(tmp_path, request, monkeypatch):
    """The script in tmp_path, its generated sources written to tmp_path/sources, or
    (linecache only) with no directory they can be written to."""
    (tmp_path / "script.py").write_text(SCRIPT)
    if request.param == "written":
        monkeypatch.setenv("S2S_AD_SOURCE_DIR", str(tmp_path / "sources"))
    else:
        (tmp_path / "a_file").write_text("")
        monkeypatch.setenv("S2S_AD_SOURCE_DIR", str(tmp_path / "a_file" / "sources"))
    return tmp_path, request.param


def _run(directory, *args, stdin=None):
    return subprocess.run([sys.executable, *args], cwd=directory, input=stdin,
                          capture_output=True, text=True, timeout=120)


def _pdb(directory, commands):
    return _run(directory, "-m", "pdb", "script.py", stdin="\n".join(commands) + "\n").stdout


def test_pdb_steps_into_the_generated_derivative(script, both_paths):
    directory, _ = script
    out = _pdb(directory, [f"b {CALL_LINE}", "c", "b derivative", "s", "n", "c", "ll", "n",
                           "l", "q"])
    # stepping into g: the dispatcher's lines
    assert re.search(r"\(\d+\)grad_f\(\)\n-> def grad_f\(x, i\):", out), out
    assert re.search(r"\(3\)grad_f\(\)\n-> if type\(x\) is ", out), out
    # a breakpoint on the derivative (as `b grad_f_1` would be): its own lines
    entered = out[out.index("Breakpoint 2 at "):]
    name = "grad_f_1" if both_paths == "specialised" else "grad_f"
    # (the specialised derivative builds y in sin(x)'s array: `y_part = np.sin(x)`, then
    # `y = np.multiply(y_part, 2.0, out=y_part)`)
    user_line = r"y(_part)? = np\.sin\(x\)"
    assert re.search(rf"\(\d+\){name}\(\)\n-> {user_line}", entered), out
    assert "def f(x, i):" not in entered                 # never the user's module's lines
    # ll (3.13 marks the breakpoint on the same line: "4 B->")
    assert re.search(rf"\d+ +B?->\s+{user_line}", entered), out
    # l, after `n`: the next statement (t3_0 = ..., or y's second line)
    assert re.search(r"\d+ +B?->\s+(t3_0 = |y = np\.multiply\()", entered) \
        and "y_bar" in entered, out


def test_pdb_breakpoint_in_a_generated_file(script):
    directory, kind = script
    if kind == "linecache only":
        pytest.skip("pdb sets breakpoints by file only in files that exist")
    where = _run(directory, "script.py", "where")
    filename, line = where.stdout.split()
    out = _pdb(directory, [f"b {filename}:{line}", "c", "p y_bar", "p x_bar", "q"])
    assert "Breakpoint 1 at " + filename in out, out
    assert re.search(rf"{re.escape(filename)}\({line}\)grad_f\w*\(\)\n-> x_bar = ", out), out
    after = out.split("-> x_bar = ", 1)[1]
    assert "array([" in after and "NameError" in after          # stopped before it ran


def test_an_uncaught_error_in_generated_code_shows_its_line(script, both_paths):
    directory, kind = script
    out = _run(directory, "script.py")
    assert out.returncode == 1 and "IndexError" in out.stderr
    tail = out.stderr[out.stderr.index('line', out.stderr.index("g(x, 7)")):]
    if kind == "linecache only" and sys.version_info < (3, 13):
        # the interpreter's printer reads only files before 3.13; the traceback module
        # (what IDEs, pytest and logging use) reads linecache
        tail = _run(directory, "-c", "import runpy, traceback\ntry:\n"
                    "    runpy.run_path('script.py', run_name='__main__')\n"
                    "except IndexError:\n    traceback.print_exc()").stderr
    assert re.search(r"\n +t3_0 = (float\()?y\[i\]", tail), out.stderr


def test_inspect_getsource_of_every_generated_function(tmp_path, monkeypatch):
    monkeypatch.setenv("S2S_AD_SOURCE_DIR", str(tmp_path))

    def f(x, i):
        return np.sum(np.sin(x)[i])
    g = s2s_ad.grad(f)
    g(np.ones(3), 1)
    dispatcher = dispatcher_of(g)
    for derived in [dispatcher.general] + dispatcher.built:
        shown = inspect.getsource(derived.function)
        assert shown == derived.source, (shown, derived.source)
        with open(derived.function.__code__.co_filename) as fh:
            assert fh.read() == "# generated by s2s_ad\n" + derived.source
    assert "def grad_f(x, i):" in inspect.getsource(g)


def test_one_file_per_text_stable_across_processes(tmp_path):
    env = dict(os.environ, S2S_AD_SOURCE_DIR=str(tmp_path / "sources"))
    (tmp_path / "script.py").write_text(SCRIPT)
    names = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "script.py", "where"], cwd=tmp_path, env=env,
                             capture_output=True, text=True)
        names.append(out.stdout.split()[0])
    assert names[0] == names[1] and names[0].startswith(str(tmp_path / "sources"))
    # the specialised derivative; the dispatcher before and after its guard (the general
    # derivative is built only when something needs it: nothing here does)
    assert len(os.listdir(tmp_path / "sources")) == 3
