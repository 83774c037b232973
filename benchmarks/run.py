"""Speed of s2s_ad's generated gradients against hand-written numpy gradients.

    python benchmarks/run.py            # full run (a few minutes on 2 cores); updates README.md
    python benchmarks/run.py --quick    # smoke check: few rounds, README.md left alone

Everything runs in one process. For each workload the generated gradient and the
hand-written one are first checked to agree (np.allclose), then timed in interleaved
rounds (generated, hand-written, then the reverse order in the next round), each timing
long enough (>= ~25 ms) to swamp timer noise; the per-call time of a side is the median
(and the min) over rounds, and ratio = generated / hand-written.
"""
import os

# One BLAS thread, set before numpy is imported: with 2 cores, BLAS threads would compete
# with each other and with the interpreter and make the ratios noisy.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import datetime  # noqa: E402
import gc  # noqa: E402
import platform  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import s2s_ad  # noqa: E402
import workloads  # noqa: E402

ARRAY_TARGET, SCALAR_TARGET, TRANSFORM_TARGET_MS = 1.15, 1.3, 50.0
MIN_TIMING = 0.025          # seconds per timed block (>= 20 ms asked for)
UNROLL = 10                 # calls per loop iteration in the timing loop (fast functions)
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


# ---- timing -----------------------------------------------------------------------------
def _make_loop(arity, unroll):
    """A timing loop calling fn(a0, ..., a{arity-1}) `unroll` times per iteration, without
    *args unpacking (which would add the same constant to both sides and hide ratios)."""
    params = ", ".join(f"a{i}" for i in range(arity))
    call = f"fn({params})"
    src = (f"def loop(fn, n, {params}):\n"
           f"    for _ in range(n):\n" + "".join(f"        {call}\n" for _ in range(unroll)))
    namespace = {}
    exec(src, namespace)
    return namespace["loop"]


def _timed(loop, fn, n, args):
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        loop(fn, n, *args)
        return time.perf_counter() - start
    finally:
        if gc_was_enabled:
            gc.enable()


def _per_call_estimate(fn, args):
    loop, n = _make_loop(len(args), 1), 1
    while True:
        elapsed = _timed(loop, fn, n, args)
        if elapsed >= 0.005:
            return elapsed / n
        n *= 4


def compare(gen, hand, args, rounds):
    """Interleaved rounds; returns per-call seconds {side: [per round]} and, per side, the
    calls in one timing (chosen so that each timing lasts >= MIN_TIMING)."""
    for fn in (gen, hand):                    # warm up both
        fn(*args)
    plan = {}
    for side, fn in (("gen", gen), ("hand", hand)):
        per_call = _per_call_estimate(fn, args)
        unroll = UNROLL if per_call * UNROLL < MIN_TIMING else 1
        n = max(1, int(np.ceil(MIN_TIMING / (per_call * unroll))))
        plan[side] = (fn, _make_loop(len(args), unroll), n, n * unroll)
    times = {"gen": [], "hand": []}
    order = ["gen", "hand"]
    for r in range(rounds):
        gc.collect()
        for side in (order if r % 2 == 0 else order[::-1]):
            fn, loop, n, calls = plan[side]
            times[side].append(_timed(loop, fn, n, args) / calls)
    return times, f"{plan['gen'][3]} / {plan['hand'][3]}"


def page_faults_per_call(fn, args, calls=5):
    """Minor page faults per call: memory the allocator had to map afresh from the OS."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(calls):
        fn(*args)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / calls


# ---- correctness gate -------------------------------------------------------------------
def check_agree(name, got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want), f"{name}: {len(got)} gradients vs {len(want)} hand-written"
    for k, (g, h) in enumerate(zip(got, want)):
        assert np.shape(g) == np.shape(h), \
            f"{name}: gradient {k} has shape {np.shape(g)}, not {np.shape(h)}"
        assert np.allclose(g, h, rtol=1e-7, atol=1e-10), \
            f"{name}: gradient {k} disagrees with the hand-written one " \
            f"(max abs diff {np.max(np.abs(np.asarray(g) - np.asarray(h)))})"


# ---- transform time ---------------------------------------------------------------------
def fresh_copy(f):
    """A new function object with f's code: s2s_ad caches per function object, so grad of
    the copy runs the whole transform again (helpers f calls would stay cached)."""
    g = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    g.__qualname__, g.__module__, g.__doc__ = f.__qualname__, f.__module__, f.__doc__
    g.__kwdefaults__ = f.__kwdefaults__
    return g


def transform_ms(f, wrt, repeats):
    samples = []
    for _ in range(repeats):
        copy = fresh_copy(f)
        gc.collect()
        start = time.perf_counter()
        s2s_ad.grad(copy, wrt=wrt)
        samples.append((time.perf_counter() - start) * 1e3)
    return samples


# ---- reporting --------------------------------------------------------------------------
def fmt_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def paired_ratio(times):
    """Median over rounds of gen/hand timed back to back: robust to load that comes and
    goes on a shared machine, since both timings of a pair see nearly the same load."""
    return statistics.median(g / h for g, h in zip(times["gen"], times["hand"]))


def unique(items):
    seen = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def machine():
    return (f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), "
            f"Python {platform.python_version()}, numpy {np.__version__}, "
            f"{platform.system()} {platform.release()}; "
            f"OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=MKL_NUM_THREADS=1")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few rounds, smoke check only")
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    opts = parser.parse_args(argv)
    rounds = 3 if opts.quick else 41
    transform_repeats = 3 if opts.quick else 15

    # The very first grad() in the process also loads the template registry: time it alone.
    start = time.perf_counter()
    s2s_ad.grad(fresh_copy(workloads.ident))
    first_in_process_ms = (time.perf_counter() - start) * 1e3

    speed_rows, transform_rows, met, sources = [], [], [], []
    all_wl = workloads.all_workloads()
    for wl in all_wl:
        df = s2s_ad.grad(wl.func, wrt=wl.wrt)
        check_agree(wl.name, df(*wl.args), wl.hand(*wl.args))
        if wl.func not in [f for f, _ in sources]:
            sources.append((wl.func, s2s_ad.derivative_source(df)))
        times, calls = compare(df, wl.hand, wl.args, rounds)
        faults = (f"{page_faults_per_call(df, wl.args):.0f} / "
                  f"{page_faults_per_call(wl.hand, wl.args):.0f}")
        gen_med, hand_med = statistics.median(times["gen"]), statistics.median(times["hand"])
        ratio = paired_ratio(times)
        ratio_med, ratio_min = gen_med / hand_med, min(times["gen"]) / min(times["hand"])
        target = SCALAR_TARGET if wl.scalar else ARRAY_TARGET
        ok = ratio <= target
        met.append((wl.name, ok, ratio, target))
        speed_rows.append([wl.name, fmt_time(gen_med), fmt_time(hand_med), f"**{ratio:.2f}**",
                           f"{ratio_med:.2f}", f"{ratio_min:.2f}", f"≤ {target}",
                           "met" if ok else "**missed**", calls, faults])
        print(f"  {wl.name}: ratio {ratio:.2f} (medians {ratio_med:.2f}, mins {ratio_min:.2f})",
              file=sys.stderr)

    transform_rows.append(["first `grad()` in a fresh process (`ident`; includes loading "
                           "the template registry)", f"{first_in_process_ms:.1f}", "—", "—",
                           "met" if first_in_process_ms <= TRANSFORM_TARGET_MS else "**missed**"])
    # Transform time, once per distinct function (the input sizes do not matter to it).
    for func, wrt in unique((wl.func, wl.wrt) for wl in all_wl):
        t_ms = transform_ms(func, wrt, transform_repeats)
        t_med = statistics.median(t_ms)
        transform_rows.append([f"`{func.__name__}` (wrt={wrt})", f"{t_med:.1f}",
                               f"{min(t_ms):.1f}", f"{max(t_ms):.1f}",
                               "met" if t_med <= TRANSFORM_TARGET_MS else "**missed**"])
        print(f"  transform {func.__name__}: {t_med:.1f} ms", file=sys.stderr)

    # Call overhead of a cached df on a trivial function, against the hand-written d/dx
    # (df is the generated function itself: nothing is wrapped around it).
    d_ident = s2s_ad.grad(workloads.ident)
    overhead_rows = []
    for label, fn in (("`df(3.0)`", d_ident),):
        check_agree("ident", fn(3.0), workloads.ident_hand_gradient(3.0))
        times, calls = compare(fn, workloads.ident_hand_gradient, (3.0,), rounds)
        gen_med, hand_med = statistics.median(times["gen"]), statistics.median(times["hand"])
        overhead_rows.append([label, fmt_time(gen_med), fmt_time(hand_med),
                              fmt_time(gen_med - hand_med), f"{paired_ratio(times):.2f}", calls])
    # ... and of asking for it again: grad(f) on an already transformed f is a cache hit.
    times, calls = compare(lambda f: s2s_ad.grad(f), lambda f: f, (workloads.ident,), rounds)
    hit = statistics.median(times["gen"]) - statistics.median(times["hand"])
    overhead_rows.append(["`s2s_ad.grad(ident)` again (cache hit)", fmt_time(hit), "—",
                          fmt_time(hit), "—", calls.split(" / ")[0]])

    speed_header = ["workload", "generated / call", "hand-written / call", "ratio",
                    "ratio of medians", "ratio of mins", "target", "",
                    "calls per timing (gen / hand)", "page faults per call (gen / hand)"]
    transform_header = ["function", "median ms", "min ms", "max ms", "≤ 50 ms"]
    overhead_header = ["call", "generated", "hand-written", "overhead", "ratio",
                       "calls per timing (gen / hand)"]
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    mode = "quick (3 rounds)" if opts.quick else f"{rounds} rounds"
    report = "\n\n".join([
        f"Run {when}, {mode}, `python benchmarks/run.py{' --quick' if opts.quick else ''}`.  ",
        f"Machine: {machine()}.",
        f"**Gradient speed.** Per-call times are medians over {rounds} interleaved rounds; "
        "*ratio* (judged against the target) is the median over rounds of the paired ratio "
        "generated / hand-written of the two timings taken back to back in that round; the "
        "ratio of the medians and of the minima are shown as a cross-check.",
        markdown_table(speed_header, speed_rows),
        f"**Transform time** of the first `grad()` in the process (timed once, before "
        f"anything else), then of `grad(f)` on fresh copies of each `f` "
        f"({transform_repeats} copies each, templates already loaded):",
        markdown_table(transform_header, transform_rows),
        "**Call overhead** of a cached `df = grad(ident)` for `def ident(x): return x * 1.0` "
        "(hand-written equivalent: `def d_ident(x): return 1.0`), and the cost of a "
        "repeated `grad(f)`:",
        markdown_table(overhead_header, overhead_rows),
    ])
    print(report)
    missed = [m for m in met if not m[1]]
    sys.stderr.flush()
    print("\nTargets: " + ("all speed targets met" if not missed else
                           "missed: " + ", ".join(f"{n} ({r:.2f} > {t})" for n, _, r, t in missed)))
    if not opts.quick and not opts.no_write:
        listing = "\n\n".join(src.strip() for _, src in sources)
        write_readme(report + "\n\n<details><summary>The generated gradients timed in this run"
                     "</summary>\n\n```python\n" + listing + "\n```\n</details>")
    return 0


def write_readme(report):
    """Replace the results block of README.md (the prose around it is kept)."""
    path = os.path.join(HERE, "README.md")
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    block = f"{BEGIN}\n{report}\n{END}"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = (text or "# s2s_ad benchmarks\n") + "\n" + block + "\n"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"\nwrote {os.path.relpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
