"""Before/after of stage-7 rewrites on user workloads, paired in one process.

    python benchmarks/paired_passes.py WORD [WORD ...]          # workloads whose name has a word
    PASSES="cholesky products" python benchmarks/paired_passes.py cholesky
    PASSES="FORWARD_GRADIENT: shared calls" REWRITES="" python ... Kepler
    PASSES="" REWRITES=signs_as_copysign,closed_form_reading.whole_share python ... smooth
    ROUNDS=21 python benchmarks/paired_passes.py GP

For each workload the gradient is built twice from the same code: as the schedule runs now
("after") and with the named passes of optimize/schedule.REVERSE (or, named
`SCHEDULE: pass`, of FORWARD or FORWARD_GRADIENT) left out ("before"; REWRITES names
the rewrites optimize/schedule.py calls inside its passes to leave out as well, none by
default, and `module.rule` a rule of an s2s_ad.optimize module made to prove nothing).
Both and
the hand-written gradient are called in interleaved rounds; each round's time per call is
taken in CPU time (time.process_time: on a machine shared with other jobs, wall time
counts the waits for a core) and in wall time, and the ratios to the hand-written gradient
are medians of the per-round ratios. A diagnostic for benchmarks/USER_WORKLOADS.md, not
the benchmark (run_user.py).
"""
import importlib
import os
import sys
import time
import types

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import s2s_ad  # noqa: E402
import s2s_ad.optimize.schedule as schedule  # noqa: E402
import s2s_ad.pipeline as pipeline  # noqa: E402
import user_workloads  # noqa: E402

SCHEDULES = ("REVERSE", "FORWARD", "FORWARD_GRADIENT")


def built_without(wl, passes, rewrites=()):
    """grad of a fresh copy of wl.f (the derivative cache is keyed by the function) built
    without `passes` and without the rewrites named: a function optimize/schedule.py calls,
    `(statements, ...) -> (statements, changed)`, or `module.rule`, a predicate of an
    s2s_ad.optimize module, made to answer False."""
    kept, stubbed = {attr: getattr(pipeline, attr) for attr in SCHEDULES}, []
    for name in rewrites:
        module, _, rule = name.rpartition(".")
        owner = importlib.import_module(f"s2s_ad.optimize.{module}") if module else schedule
        stubbed.append((owner, rule, getattr(owner, rule)))
        setattr(owner, rule, (lambda *args: False) if module
                else (lambda statements, *args: (statements, False)))
    for attr, steps in kept.items():
        setattr(pipeline, attr, tuple(p for p in steps if f"{attr}: {p.name}" not in passes
                                      and (attr != "REVERSE" or p.name not in passes)))
    try:
        f = types.FunctionType(wl.f.__code__, wl.f.__globals__, wl.f.__name__,
                               wl.f.__defaults__, wl.f.__closure__)
        df = s2s_ad.grad(f, wrt=wl.wrt)
        df(*wl.make())                        # built on the first call
        return df
    finally:
        for attr, steps in kept.items():
            setattr(pipeline, attr, steps)
        for owner, rule, function in stubbed:
            setattr(owner, rule, function)


def measure(wl, passes, rounds, rewrites=()):
    args = wl.make()
    after = s2s_ad.grad(wl.f, wrt=wl.wrt)
    after(*args)
    calls = {"before": built_without(wl, passes, rewrites), "after": after, "hand": wl.hand}
    for a, b in zip(_flat(calls["before"](*args)), _flat(after(*args))):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)
    start = time.perf_counter()
    wl.hand(*args)
    n = max(1, int(0.02 / max(time.perf_counter() - start, 1e-6)))
    times = {(k, clock): [] for k in calls for clock in ("cpu", "wall")}
    for _ in range(rounds):
        for k, fn in calls.items():
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(n):
                fn(*args)
            times[k, "cpu"].append((time.process_time() - cpu) / n)
            times[k, "wall"].append((time.perf_counter() - wall) / n)
    for clock in ("cpu", "wall"):
        hand = np.array(times["hand", clock])
        row = ", ".join(f"{k} {np.median(times[k, clock]) * 1e3:.2f} ms "
                        f"({np.median(np.array(times[k, clock]) / hand):.2f}x)"
                        for k in ("before", "after"))
        print(f"{wl.name} [{clock}]: {row}, hand {np.median(hand) * 1e3:.2f} ms")


def _flat(g):
    return g if isinstance(g, tuple) else (g,)


def main(words):
    passes = {p for p in os.environ.get("PASSES", "cholesky products").split(",") if p}
    rewrites = tuple(r for r in os.environ.get("REWRITES", "").split(",")
                     if r)
    rounds = int(os.environ.get("ROUNDS", "15"))
    print(f"load average {os.getloadavg()[0]:.1f}; left out: {sorted(passes)} + {rewrites}")
    for wl in user_workloads.WORKLOADS:
        if any(w.lower() in wl.name.lower() for w in words):
            measure(wl, passes, rounds, rewrites)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
