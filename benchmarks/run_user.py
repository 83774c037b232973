"""s2s_ad on code written the way users write it: speed, first-call cost, memory, guards.

    python benchmarks/run_user.py             # full run (~75 s on 2 cores)
    python benchmarks/run_user.py --quick     # ~25 s: fewer, shorter rounds
    python benchmarks/run_user.py --write     # also rewrite benchmarks/USER_WORKLOADS.md
    python benchmarks/run_user.py --only RNN  # workloads whose name contains a word
    python benchmarks/run_user.py --first-call-only   # only (b), every workload (~1 min)
    python benchmarks/run_user.py --first-call-only --against /tmp/base   # (b), two checkouts

The workloads and their hand-written gradients are in user_workloads.py. Per workload:

  (a) speed: the function grad(f) returns (after a warm-up call) against the hand-written
      gradient, in interleaved rounds in this process (s2s_ad then hand-written, reverse
      order next round); each timing is a loop of calls lasting >= 25 ms (10 ms --quick),
      gc off. ratio = median over rounds of the paired ratio s2s_ad / hand-written.
  (b) first call: in a fresh Python process per workload (subprocess, sys.executable -c),
      the time of `s2s_ad.grad(f, wrt)` and of the first call of the result (which builds
      the derivative specialised on the arguments' kinds), against a later call; bytecode
      is read from caches as an installed package's is (bytecode_env).
  (c) peak memory: tracemalloc peak of one call, s2s_ad vs hand-written (every workload;
      the 10^7-element one is the memory workload).
  (d) geometric mean of the ratios.
  (e) guard overhead: for the workloads tagged "guard", df(*args) against the specialised
      derivative the dispatcher's guard calls, called directly.

Before anything is timed the s2s_ad gradient is checked against the hand-written one at
the benchmark size (user_workloads.check_all() also checks both against finite
differences at small sizes; run `python benchmarks/user_workloads.py`).
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"          # before numpy is imported: 2 cores, no BLAS threads

import argparse  # noqa: E402
import datetime  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import s2s_ad  # noqa: E402
import s2s_ad.api  # noqa: E402
import s2s_ad.derivative_registry  # noqa: E402
import user_workloads as uw  # noqa: E402

UNROLL = 10


# ---- timing -----------------------------------------------------------------------------
# the timing loop and one timed run are run.py's (the same method for both benchmark sets)
from run import _make_loop as make_loop, _timed as timed, fmt_time  # noqa: E402


def per_call(fn, args):
    loop, n = make_loop(len(args), 1), 1
    while True:
        elapsed = timed(loop, fn, n, args)
        if elapsed >= 0.004 or n >= 1 << 20:
            return elapsed / n
        n *= 4


def paired_times(a, b, args, rounds, min_timing):
    """Per-call seconds of a and b in interleaved rounds: {"a": [...], "b": [...]}."""
    a(*args)
    b(*args)
    plan = {}
    for side, fn in (("a", a), ("b", b)):
        estimate = per_call(fn, args)
        unroll = UNROLL if estimate * UNROLL < min_timing else 1
        n = max(1, math.ceil(min_timing / (estimate * unroll)))
        plan[side] = (fn, make_loop(len(args), unroll), n, n * unroll)
    times = {"a": [], "b": []}
    for r in range(rounds):
        gc.collect()
        for side in (("a", "b") if r % 2 == 0 else ("b", "a")):
            fn, loop, n, calls = plan[side]
            times[side].append(timed(loop, fn, n, args) / calls)
    return times


def page_faults(fn, args, calls=5):
    """Minor page faults per call: memory the allocator had to map afresh from the OS."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(calls):
        fn(*args)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / calls


def ratios(times):
    return [x / y for x, y in zip(times["a"], times["b"])]


def peak_bytes(fn, args):
    """tracemalloc peak of one call above what was allocated before it (numpy reports
    its data buffers to tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = fn(*args)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    del result
    return peak


# ---- first call in a fresh process ------------------------------------------------------
FIRST_CALL = r"""
import os, sys, time, json
import numpy as np
sys.path.insert(0, {here!r})
import user_workloads as uw
t_numpy = time.perf_counter()
import s2s_ad
t_import = time.perf_counter()
wl = uw.WORKLOADS[{index}]
args = wl.make()
wl.f(*args); wl.hand(*args)          # numpy's own first-use costs are not s2s_ad's
c0, t0 = time.process_time(), time.perf_counter()
df = s2s_ad.grad(wl.f, wrt=wl.wrt)
c1, t1 = time.process_time(), time.perf_counter()
df(*args)
c2, t2 = time.process_time(), time.perf_counter()
later, later_cpu = [], []
for _ in range(3):
    s, sc = time.perf_counter(), time.process_time(); df(*args)
    later.append(time.perf_counter() - s); later_cpu.append(time.process_time() - sc)
later.sort(); later_cpu.sort()
# the same again in a second fresh process-like state is not possible; instead split the
# first call: build the specialisation for these arguments' kinds alone, on a fresh copy of f
import types
g = types.FunctionType(wl.f.__code__, wl.f.__globals__, wl.f.__name__, wl.f.__defaults__,
                       wl.f.__closure__)
dg = s2s_ad.grad(g, wrt=wl.wrt)
t3 = time.perf_counter()
s2s_ad.derivative_source(dg, *args)          # builds the specialised derivative, no call
t4 = time.perf_counter()
print(json.dumps(dict(import_ms=(t_import - t_numpy) * 1e3, grad_ms=(t1 - t0) * 1e3,
                      first_call_ms=(t2 - t1) * 1e3, later_call_ms=later[1] * 1e3,
                      build_ms=(t4 - t3) * 1e3,
                      cpu_overhead_ms=(c2 - c0 - later_cpu[1]) * 1e3,
                      s2s_ad=os.path.dirname(s2s_ad.__file__))))
"""


def bytecode_env(env):
    """The environment of a first-call process: bytecode read from caches as an
    installed package's is (pip compiles it at install). With PYTHONDONTWRITEBYTECODE set
    (some shells here set it) every s2s_ad module and template module a first call
    imports was compiled from source in that call: 20-60 ms counted as s2s_ad's first
    call that no user pays. The caches go under a prefix in the temporary directory, not
    into the checkout."""
    import tempfile
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(),
                                                       "s2s_ad-bench-pycache"))
    return env


_COMPILED = set()


def compiled(env):
    """Compile the s2s_ad package the process with `env` imports (once per checkout), so
    that the first workload measured does not pay for every later one's imports."""
    code = "import os, compileall, s2s_ad; print(os.path.dirname(s2s_ad.__file__))"
    key = env.get("PYTHONPATH")
    if key in _COMPILED:
        return
    _COMPILED.add(key)
    where = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, cwd=HERE).stdout.strip()
    if where:
        subprocess.run([sys.executable, "-m", "compileall", "-q", where], env=env, cwd=HERE,
                       capture_output=True)


def first_call(index, against=None):
    """(b) for one workload in a fresh process; `against`: a checkout of s2s_ad put first
    on that process's path (its s2s_ad/ with templates/ reachable as s2s_ad/templates)."""
    code = FIRST_CALL.format(here=HERE, index=index)
    env = bytecode_env(dict(os.environ))
    if against:
        env["PYTHONPATH"] = os.pathsep.join([against] + [p for p in [env.get("PYTHONPATH")]
                                                        if p])
    compiled(env)
    # run from benchmarks/: a checkout's root on the path (the current directory is, for
    # `-c`) would shadow `against`
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, env=env, cwd=HERE)
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def first_call_report(only, against=None):
    """(b) alone: one fresh process per workload, a table of what the first call costs.
    With `against`, each workload is measured with that checkout and with this one in
    turn (the same minutes of a shared machine), and the table compares them."""
    rows, totals, pairs = [], [], []
    for index, wl in enumerate(uw.WORKLOADS):
        if only and not any(w.lower() in wl.name.lower() for w in only):
            continue
        base = first_call(index, against) if against else None
        fc = first_call(index)
        if base and "error" not in base and "error" not in fc:
            assert base["s2s_ad"] != fc["s2s_ad"], (base["s2s_ad"], fc["s2s_ad"])
        if "error" in fc or (base and "error" in base):
            rows.append([wl.name, fc.get("error") or base.get("error")] + [""] * 6)
            continue
        total = fc["grad_ms"] + fc["first_call_ms"] - fc["later_call_ms"]
        totals.append(total)
        row = [wl.name, f"{fc['grad_ms']:.1f}", f"{fc['first_call_ms']:.1f}",
               f"{fc['later_call_ms']:.2f}", f"{fc['build_ms']:.1f}", f"{total:.0f}",
               f"{fc['cpu_overhead_ms']:.0f}", f"{fc['import_ms']:.0f}"]
        if base:
            was = base["grad_ms"] + base["first_call_ms"] - base["later_call_ms"]
            pairs.append((was, total, base["cpu_overhead_ms"], fc["cpu_overhead_ms"]))
            row[5] = f"{was:.0f} → {total:.0f}"
            row[6] = f"{base['cpu_overhead_ms']:.0f} → {fc['cpu_overhead_ms']:.0f}"
        rows.append(row)
        print(f"  {wl.name}: overhead {row[5]} ms (CPU {row[6]})", file=sys.stderr)
    print(f"Machine: {machine()}. s2s_ad at commit {code_version()}"
          + (f", against {against}" if against else "") + ".\n")
    print(table(["workload", "grad() ms", "first call ms", "later call ms",
                 "of which: build for the signature ms", "overhead ms", "overhead CPU ms",
                 "import s2s_ad ms"], rows))
    if totals:
        print(f"\nOverhead (grad() + first call - a later call): median "
              f"{statistics.median(totals):.0f} ms, max {max(totals):.0f} ms, "
              f"{sum(t <= 50 for t in totals)}/{len(totals)} workloads <= 50 ms.")
    if pairs:
        print(f"Against {against}: median overhead {statistics.median(p[0] for p in pairs):.0f}"
              f" → {statistics.median(p[1] for p in pairs):.0f} ms (median of the ratios "
              f"{statistics.median(p[1] / p[0] for p in pairs):.2f}); CPU time "
              f"{statistics.median(p[2] for p in pairs):.0f} → "
              f"{statistics.median(p[3] for p in pairs):.0f} ms (median of the ratios "
              f"{statistics.median(p[3] / p[2] for p in pairs):.2f}).")
    return 0


# ---- formatting -------------------------------------------------------------------------
def fmt_mb(nbytes):
    return f"{nbytes / 1e6:.3g}" if nbytes >= 1e5 else f"{nbytes / 1e3:.2g} kB"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


def geomean(values):
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else float("nan")


def code_version():
    """The s2s_ad commit (and whether its files differ from it): the code can change
    between runs while others work in the same checkout."""
    root = os.path.dirname(HERE)
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "s2s_ad",
                                "templates"], capture_output=True, text=True,
                               timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + (" (s2s_ad/ or templates/ modified)" if dirty else "") if head else "unknown"


def machine():
    return (f"{os.cpu_count()} cores ({platform.machine()}), Python {platform.python_version()}, "
            f"numpy {np.__version__}, {platform.system()} {platform.release()}; "
            f"OMP/OPENBLAS/MKL_NUM_THREADS=1"
            + ("; PYTHONDONTWRITEBYTECODE set (every fresh process compiles s2s_ad and the "
               "template modules from source)" if sys.dont_write_bytecode else "")
            + f"; load average {os.getloadavg()[0]:.1f} at the start")


# ---- main -------------------------------------------------------------------------------
def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="~25 s: 5 short rounds")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--only", nargs="*", default=None, help="name substrings")
    parser.add_argument("--no-first-call", action="store_true", help="skip (b)")
    parser.add_argument("--first-call-only", action="store_true",
                        help="only (b): first-call overhead per workload, fresh processes")
    parser.add_argument("--against", default=None, metavar="DIR",
                        help="with --first-call-only: also measure the s2s_ad checkout in DIR "
                             "(put first on the path), alternating, and compare")
    parser.add_argument("--write", action="store_true", help="rewrite USER_WORKLOADS.md")
    opts = parser.parse_args(argv)
    if opts.first_call_only:
        return first_call_report(opts.only, opts.against)
    rounds = opts.rounds or (5 if opts.quick else 21)
    min_timing = 0.010 if opts.quick else 0.025
    guard_rounds = 5 if opts.quick else 15
    wall = time.perf_counter()
    version_at_start = code_version()

    chosen = [(i, wl) for i, wl in enumerate(uw.WORKLOADS)
              if not opts.only or any(w.lower() in wl.name.lower() for w in opts.only)]
    rows, results, wrong, rejected, guard_rows, memory_rows, notes = [], [], [], [], [], [], []

    for index, wl in chosen:
        args = wl.make()
        try:
            df = s2s_ad.grad(wl.f, wrt=wl.wrt)
            got = df(*args)
        except Exception as exc:
            rejected.append((wl.name, f"{type(exc).__name__}: {str(exc).splitlines()[0]}"))
            print(f"  {wl.name}: REJECTED {rejected[-1][1]}", file=sys.stderr)
            continue
        want = wl.hand(*args)
        tol = (1e-4, 1e-5) if wl.dtype == "float32" else (1e-7, 1e-9)
        why = uw.compare(got, want, *tol)
        if why:
            wrong.append((wl.name, why))
            print(f"  {wl.name}: WRONG {why}", file=sys.stderr)
            continue
        gd = uw.dtype_of(got)
        if wl.dtype == "float32" and any(str(d) != "float32" for d in gd):
            notes.append(f"{wl.name}: s2s_ad returned {gd} for float32 inputs")

        times = paired_times(df, wl.hand, args, rounds, min_timing)
        r = ratios(times)
        ratio = statistics.median(r)
        q = statistics.quantiles(r, n=4) if len(r) >= 4 else [min(r), ratio, max(r)]
        gen_med, hand_med = statistics.median(times["a"]), statistics.median(times["b"])
        f_time = statistics.median(per_call(wl.f, args) for _ in range(3))
        faults = (page_faults(df, args), page_faults(wl.hand, args))
        mem_gen, mem_hand = peak_bytes(df, args), peak_bytes(wl.hand, args)
        results.append(dict(name=wl.name, kind=wl.kind, dtype=wl.dtype, ratio=ratio,
                            q1=q[0], q3=q[-1], gen=gen_med, hand=hand_med, f=f_time,
                            faults=faults,
                            ratio_min=min(times["a"]) / min(times["b"]),
                            mem_gen=mem_gen, mem_hand=mem_hand, index=index))
        print(f"  {wl.name}: ratio {ratio:.2f} [{q[0]:.2f}-{q[-1]:.2f}]  "
              f"{fmt_time(gen_med)} vs {fmt_time(hand_med)}", file=sys.stderr)

        if "memory" in wl.tags:
            mem_f = peak_bytes(wl.f, args)
            data = sum(a.nbytes for a in args if isinstance(a, np.ndarray))
            memory_rows.append([wl.name, fmt_mb(data), fmt_mb(mem_f), fmt_mb(mem_gen),
                                fmt_mb(mem_hand), f"{mem_gen / mem_hand:.2f}"])

        if "guard" in wl.tags:
            dispatcher = s2s_ad.derivative_registry.dispatcher_of(df)
            direct = dispatcher.specialisation(dispatcher.signature_for(args, {}))
            last = dispatcher.built[-1].function if dispatcher.built else None
            if direct is None:
                guard_rows.append([wl.name, "—", "—", "—", "—",
                                   "no specialisation (general derivative)", "—"])
            else:
                gt = paired_times(df, direct, args, guard_rounds, min_timing)
                d_med, s_med = statistics.median(gt["a"]), statistics.median(gt["b"])
                diffs = [a - b for a, b in zip(gt["a"], gt["b"])]
                over = statistics.median(diffs)
                q1, _, q3 = statistics.quantiles(diffs, n=4)
                shown = (fmt_time(over) if abs(over) > (q3 - q1) else
                         f"below noise ({fmt_time(abs(over))}, IQR {fmt_time(q3 - q1)})")
                guard_rows.append([wl.name, fmt_time(d_med), fmt_time(s_med), shown,
                                   f"{statistics.median(ratios(gt)):.3f}",
                                   f"{over / hand_med:.1%}",
                                   "yes" if last is direct else "no"])

    if not opts.no_first_call:
        for res in results:
            fc = first_call(res["index"])
            res["first"] = fc
            print(f"  first call {res['name']}: {fc}", file=sys.stderr)

    # ---- report ---------------------------------------------------------------------------
    for res in results:
        fc = res.get("first", {})
        first = ("—" if not fc else fc.get("error") or
                 f"{fc['grad_ms']:.0f} + {fc['first_call_ms']:.0f}")
        rows.append([res["name"], res["kind"] + (" f32" if res["dtype"] == "float32" else ""),
                     fmt_time(res["gen"]), fmt_time(res["hand"]), f"**{res['ratio']:.2f}**",
                     f"{res['q1']:.2f}–{res['q3']:.2f}", f"{res['ratio_min']:.2f}",
                     fmt_time(res["f"]),
                     f"{res['gen'] / res['f']:.1f} / {res['hand'] / res['f']:.1f}",
                     f"{fmt_mb(res['mem_gen'])} / {fmt_mb(res['mem_hand'])}",
                     f"{res['faults'][0]:.0f} / {res['faults'][1]:.0f}", first])
    all_r = [r["ratio"] for r in results]
    arr_r = [r["ratio"] for r in results if r["kind"] == "array"]
    sca_r = [r["ratio"] for r in results if r["kind"] == "scalar"]
    worst = sorted(results, key=lambda r: -r["ratio"])[:6]
    first_rows = []
    for res in results:
        fc = res.get("first")
        if fc and "error" not in fc:
            first_rows.append([res["name"], f"{fc['grad_ms']:.1f}", f"{fc['first_call_ms']:.1f}",
                               f"{fc['later_call_ms']:.2f}", f"{fc['build_ms']:.1f}",
                               f"{fc['grad_ms'] + fc['first_call_ms'] - fc['later_call_ms']:.0f}",
                               f"{fc['import_ms']:.0f}"])
    fc_totals = [r["first"]["grad_ms"] + r["first"]["first_call_ms"] - r["first"]["later_call_ms"]
                 for r in results if r.get("first") and "error" not in r["first"]]

    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    mode = "--quick" if opts.quick else "full"
    parts = [
        f"Run {when}, `python benchmarks/run_user.py{' --quick' if opts.quick else ''}` "
        f"({mode}: {rounds} rounds, timings ≥ {min_timing * 1e3:.0f} ms), "
        f"{time.perf_counter() - wall:.0f} s wall.  ",
        f"Machine: {machine()}. s2s_ad at commit {version_at_start}"
        + ("" if code_version() == version_at_start else
           f" at the start, {code_version()} at the end (the code changed during the run)")
        + ".",
        f"**Summary.** {len(results)} workloads timed; geometric mean of the ratios "
        f"s2s_ad / hand-written: **{geomean(all_r):.2f}** (array workloads "
        f"{geomean(arr_r):.2f}, n={len(arr_r)}; scalar workloads {geomean(sca_r):.2f}, "
        f"n={len(sca_r)}). Worst: " + ", ".join(f"{r['name']} {r['ratio']:.2f}" for r in worst)
        + f". Wrong gradients: {len(wrong) or 'none'}. Rejected by s2s_ad: "
        f"{len(rejected) or 'none'} (plus {len(uw.REJECTED)} variant(s) listed in "
        f"`user_workloads.REJECTED`)."
        + (f" First-call overhead (grad() + first call − a later call, fresh process): median "
           f"{statistics.median(fc_totals):.0f} ms, max {max(fc_totals):.0f} ms."
           if fc_totals else ""),
        "**Speed.** *ratio* = median over rounds of the paired ratio s2s_ad / hand-written "
        "(IQR of the paired ratios beside it; *ratio of mins* as a cross-check). *f / call*: "
        "the function itself (not paired); *÷ f*: each gradient's time over f's. *peak MB* = "
        "tracemalloc peak of one call above the arguments. *page faults*: minor faults per "
        "call after the timing (memory the allocator mapped afresh from the OS; they depend "
        "on what ran earlier in the process). *first call ms* = `grad(f)` + the "
        "first call of the result, in a fresh process.",
        table(["workload", "kind", "s2s_ad / call", "hand / call", "ratio", "IQR",
               "ratio of mins", "f / call", "÷ f (s2s_ad / hand)", "peak MB (s2s_ad / hand)",
               "page faults / call (s2s_ad / hand)", "first call ms (grad + 1st)"], rows),
    ]
    if first_rows:
        parts += ["**First call with a new signature**, each workload in a fresh process "
                  "(`sys.executable -c`): `import s2s_ad`, then `df = s2s_ad.grad(f, wrt)` "
                  "(checks f's source; the general derivative is built only when something "
                  "needs it; the first `grad()` of a process also loads the templates), the "
                  "first `df(*args)` (builds the derivative specialised on "
                  "the arguments' kinds, then runs it) and a later call (median of 3). "
                  "*overhead* = grad + first − later. *build for the signature*: the "
                  "specialised derivative built alone (`derivative_source(dg, *args)` on a "
                  "fresh copy of f, same process, templates loaded); the rest of the first "
                  "call above a later call is the first run itself (for the 10^7 workload: "
                  "the kernel mapping the memory the gradient's extra temporaries touch for "
                  "the first time).",
                  table(["workload", "grad() ms", "first call ms", "later call ms",
                         "of which: build for the signature ms", "overhead ms",
                         "import s2s_ad ms"], first_rows)]
    if memory_rows:
        parts += ["**Peak memory** (tracemalloc, one call, bytes allocated above what was "
                  "live before it; the argument itself is not counted):",
                  table(["workload", "argument MB", "f itself MB", "s2s_ad gradient MB",
                         "hand-written MB", "s2s_ad / hand"], memory_rows)]
    if guard_rows:
        parts += ["**Guard overhead**: `df(*args)` (the dispatcher: guards on the "
                  "arguments' kinds, then the call) against the specialised derivative "
                  "called directly (`dispatcher_of(df)`'s function for this signature), "
                  f"paired, {guard_rounds} rounds; *overhead / hand-written*: the overhead as a "
                  "share of the hand-written gradient's time; last column: whether that "
                  "function is `dispatcher_of(df).built[-1].function`.",
                  table(["workload", "df(*args)", "specialised directly", "overhead / call",
                         "ratio", "overhead / hand-written",
                         "is `built[-1].function`"], guard_rows)]
    if wrong or rejected or notes:
        parts += ["**Findings.**\n\n" + "\n".join(
            [f"- WRONG: {n}: {w}" for n, w in wrong]
            + [f"- REJECTED: {n}: {e}" for n, e in rejected]
            + [f"- {n}" for n in notes])]
    report = "\n\n".join(parts)
    print(report)
    print(f"\n({time.perf_counter() - wall:.0f} s)", file=sys.stderr)
    if opts.write:
        write_report(report)
    return 1 if wrong else 0


BEGIN, END = "<!-- user-results:begin -->", "<!-- user-results:end -->"


def write_report(report):
    path = os.path.join(HERE, "USER_WORKLOADS.md")
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else "# User workloads\n"
    block = f"{BEGIN}\n{report}\n{END}"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {os.path.relpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
