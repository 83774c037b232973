"""Per-statement cost of a generated gradient and of its hand-written counterpart.

    python benchmarks/profile_lines.py                 # every workload
    python benchmarks/profile_lines.py layer seed      # workloads whose name contains a word

A diagnostic for benchmarks/README.md, not a benchmark: each statement of the function
body is compiled on its own and executed repeatedly in the function's globals, in order,
after the statements before it; the printed cost is the median of the timed executions
minus the cost of executing an empty statement. Statements that update an array in place
(`a += b`) get a fresh copy of `a` before each (untimed) execution.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import ast  # noqa: E402
import inspect  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import textwrap  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import s2s_ad  # noqa: E402
import workloads  # noqa: E402


def _exec_cost(code, ns, reps, restore=None):
    samples = []
    for _ in range(reps):
        if restore is not None:
            ns[restore[0]] = np.copy(restore[1])
        start = time.perf_counter()
        exec(code, ns)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def profile(source, globals_, args, reps):
    """[(statement source, seconds)] for the body of the function defined in `source`."""
    fdef = ast.parse(textwrap.dedent(source)).body[0]
    ns = dict(globals_)
    ns.update(zip([a.arg for a in fdef.args.args], args))
    empty = _exec_cost(compile("pass", "<empty>", "exec"), ns, reps)
    rows = []
    for stmt in fdef.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue                                      # docstring
        if isinstance(stmt, ast.Return):
            stmt = ast.Assign([ast.Name("_returned", ast.Store())], stmt.value, lineno=0)
            ast.fix_missing_locations(stmt)
        code = compile(ast.Module([stmt], type_ignores=[]), "<stmt>", "exec")
        restore = None
        if isinstance(stmt, ast.AugAssign) and isinstance(ns.get(stmt.target.id), np.ndarray):
            restore = (stmt.target.id, np.copy(ns[stmt.target.id]))
        cost = _exec_cost(code, ns, reps, restore) - empty
        if restore is not None:
            ns[restore[0]] = np.copy(restore[1])
        exec(code, ns)                                    # the state the next line sees
        rows.append((ast.unparse(stmt).replace("_returned = ", "return "), cost))
    return rows


def show(title, rows):
    total = sum(c for _, c in rows)
    print(f"\n{title}: sum of statements {total * 1e6:.1f} µs")
    for text, cost in rows:
        first = text.splitlines()[0]
        print(f"  {cost * 1e6:9.2f} µs  {100 * cost / total:5.1f}%  {first}")


def namespace(fn):
    """fn's globals plus its closure (s2s_ad binds numpy and its runtime helpers as cells)."""
    ns = dict(fn.__globals__)
    ns.update((name, cell.cell_contents)
              for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    return ns


def main(words):
    for wl in workloads.all_workloads():
        if words and not any(w.lower() in wl.name.lower() for w in words):
            continue
        df = s2s_ad.grad(wl.func, wrt=wl.wrt)
        reps = 2001 if wl.scalar else 51
        show(f"== {wl.name}: generated",
             profile(s2s_ad.derivative_source(df).split("\n", 1)[1], namespace(df),
                     wl.args, reps))
        show(f"== {wl.name}: hand-written",
             profile(inspect.getsource(wl.hand), namespace(wl.hand), wl.args, reps))


if __name__ == "__main__":
    main(sys.argv[1:])
