"""Per-statement cost of a generated gradient and of its hand-written counterpart.

    python benchmarks/profile_lines.py                 # every workload
    python benchmarks/profile_lines.py layer seed      # workloads whose name contains a word

A diagnostic for benchmarks/README.md, not a benchmark. The function body is recompiled
with a time stamp after every statement (`_marks[k] = perf_counter()`), so statements run
in their real context (same allocations, same caches); the function is then called many
times and each statement's cost is the median over calls of the time between its stamps,
minus the cost of an empty stamp. The stamps add ~50 ns per statement, so for the scalar
workload treat the numbers as relative.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import ast  # noqa: E402
import inspect  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import s2s_ad  # noqa: E402
import workloads  # noqa: E402


def _stamp(k):
    return ast.parse(f"_marks[{k}] = _perf_counter()").body[0]


def instrument(source, fn):
    """fn's body from `source`, stamped after each statement; returns (function, lines)."""
    fdef = ast.parse(textwrap.dedent(source)).body[0]
    fdef.decorator_list = []
    body, lines = [_stamp(0)], []
    for stmt in fdef.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue                                              # docstring
        lines.append(ast.unparse(stmt).splitlines()[0])
        if isinstance(stmt, ast.Return):
            body += [ast.Assign([ast.Name("_returned", ast.Store())], stmt.value),
                     _stamp(len(lines)), ast.Return(ast.Name("_returned", ast.Load()))]
        else:
            body += [stmt, _stamp(len(lines))]
    fdef.body = body
    module = ast.fix_missing_locations(ast.Module([fdef], type_ignores=[]))
    ns = dict(fn.__globals__)                  # s2s_ad binds numpy and helpers as cells
    ns.update((name, cell.cell_contents)
              for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    ns.update(_marks=[0.0] * (len(lines) + 1), _perf_counter=time.perf_counter)
    exec(compile(module, "<instrumented>", "exec"), ns)
    return ns[fdef.name], ns["_marks"], lines


def profile(source, fn, args, seconds=0.5):
    stamped, marks, lines = instrument(source, fn)
    stamped(*args)
    samples, deadline = [], time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(samples) < 5:
        stamped(*args)
        samples.append(np.diff(marks))
    empty = []
    for _ in range(1000):
        marks[0] = time.perf_counter()
        marks[1] = time.perf_counter()
        empty.append(marks[1] - marks[0])
    costs = np.median(np.array(samples), axis=0) - np.median(empty)
    return list(zip(lines, costs)), len(samples)


def show(title, rows, calls):
    total = sum(c for _, c in rows)
    print(f"\n{title}: {total * 1e6:.1f} µs per call ({calls} calls)")
    for text, cost in rows:
        print(f"  {cost * 1e6:9.2f} µs  {100 * cost / total:5.1f}%  {text}")


def main(words):
    for wl in workloads.all_workloads():
        if words and not any(w.lower() in wl.name.lower() for w in words):
            continue
        df = s2s_ad.grad(wl.func, wrt=wl.wrt)
        source = s2s_ad.derivative_source(df)
        df = inspect.unwrap(df)                                   # the generated function
        source = source[source.index("def "):]                    # drop the header comment
        show(f"== {wl.name}: generated", *profile(source, df, wl.args))
        show(f"== {wl.name}: hand-written",
             *profile(inspect.getsource(wl.hand), wl.hand, wl.args))


if __name__ == "__main__":
    main(sys.argv[1:])
