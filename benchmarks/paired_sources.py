"""Paired before/after of a change to generation: the specialised source another checkout
builds and the one this checkout builds, compiled into one process, timed interleaved with
the hand-written gradient.

    git archive s21-base | tar -x -C /tmp/base                    # the checkout to compare
    ln -s /tmp/base/templates /tmp/base/s2s_ad/templates          # what the editable install maps
    ROUNDS=21 python benchmarks/paired_sources.py /tmp/base "GP NLL" "OU process"

A child process with the other checkout first on the path (this venv's editable finder
taken out) writes `derivative_source(df, *args)` for the workloads whose names contain a
word; both sources are executed with this checkout's runtime helpers (the specialisation's
globals, then every runtime module's names), checked against the hand-written gradient,
and timed with CPU time (`time.process_time`, >= 20 ms per timing, BLAS on one thread) in
rounds whose order reverses each round. Printed: median [IQR] of the per-round ratios over
the hand-written gradient, and the tracemalloc peak of one call (MB: before / after /
hand). A workload whose derivative calls a helper's derivative (vjp_...) cannot be
compiled this way and fails with a NameError.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import gc  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import pkgutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def sources(words):
    """{workload name: specialised source} for the workloads named by a word."""
    sys.path.insert(0, HERE)
    import s2s_ad
    from user_workloads import WORKLOADS
    out = {}
    for wl in WORKLOADS:
        if any(w in wl.name for w in words):
            args = wl.make()
            df = s2s_ad.grad(wl.f, wrt=wl.wrt)
            df(*args)
            out[wl.name] = s2s_ad.derivative_source(df, *args)
    return out


def _compiled(src, namespace):
    import s2s_ad
    namespace = dict(namespace)
    for info in pkgutil.iter_modules(s2s_ad.__path__):
        if info.name.startswith("runtime"):
            for k, v in vars(importlib.import_module("s2s_ad." + info.name)).items():
                namespace.setdefault(k, v)
    name = src.split("def ", 1)[1].split("(", 1)[0]
    exec(compile(src, "<generated>", "exec"), namespace)
    return namespace[name]


def _per_call(fn, args, n):
    start = time.process_time()
    for _ in range(n):
        fn(*args)
    return (time.process_time() - start) / n


def _peak_mb(fn, args):
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    fn(*args)
    peak = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    return peak / 1e6


def _agree(got, want):
    import numpy as np
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    return all(np.allclose(g, w, rtol=1e-6, atol=1e-8) for g, w in zip(got, want))


def compare(base_dir, words, rounds):
    base = json.loads(subprocess.run([sys.executable, __file__, "--sources", base_dir, *words],
                                     capture_output=True, text=True, check=True).stdout)
    sys.path.insert(0, HERE)
    import s2s_ad
    from s2s_ad.derivative_registry import dispatcher_of
    from user_workloads import WORKLOADS
    for wl in (w for w in WORKLOADS if w.name in base):
        args = wl.make()
        df = s2s_ad.grad(wl.f, wrt=wl.wrt)
        df(*args)
        dispatcher = dispatcher_of(df)
        namespace = dispatcher.specialisation(dispatcher.signature_for(args, {})).__globals__
        sides = {"before": _compiled(base[wl.name], namespace),
                 "after": _compiled(s2s_ad.derivative_source(df, *args), namespace),
                 "hand": wl.hand}
        want = wl.hand(*args)
        for side in ("before", "after"):
            assert _agree(sides[side](*args), want), f"{wl.name}: {side} disagrees"
        counts = {k: max(1, math.ceil(0.02 / max(_per_call(fn, args, 3), 1e-7)))
                  for k, fn in sides.items()}
        times = {k: [] for k in sides}
        for r in range(rounds):
            gc.collect()
            for k in (list(sides) if r % 2 == 0 else list(sides)[::-1]):
                times[k].append(_per_call(sides[k], args, counts[k]))

        def summary(side):
            ratios = [a / h for a, h in zip(times[side], times["hand"])]
            q = statistics.quantiles(ratios, n=4)
            return f"{statistics.median(ratios):.2f} [{q[0]:.2f}-{q[2]:.2f}]"
        peaks = " / ".join(f"{_peak_mb(sides[k], args):.2f}" for k in sides)
        print(f"{wl.name}: before {summary('before')}  after {summary('after')}  peak MB "
              f"{peaks}  hand {statistics.median(times['hand']) * 1e3:.2f} ms", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--sources":
        # the other checkout's s2s_ad and templates, not this venv's editable install
        sys.meta_path[:] = [f for f in sys.meta_path
                            if "editable" not in type(f).__module__.lower()]
        sys.path.insert(0, sys.argv[2])
        print(json.dumps(sources(sys.argv[3:])))
    else:
        compare(sys.argv[1], sys.argv[2:], int(os.environ.get("ROUNDS", "21")))
