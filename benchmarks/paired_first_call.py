"""The transform's share of a first call, paired: another checkout against this one.

    git archive BASE | tar -x -C /tmp/base                        # the checkout to compare
    ln -s ../templates /tmp/base/s2s_ad/templates
    ROUNDS=3 python benchmarks/paired_first_call.py /tmp/base           # every workload
    python benchmarks/paired_first_call.py /tmp/base GRU "GP NLL"       # named by a word

run_user.py --first-call-only times grad() and the first call, and that call also runs
the derivative once at the benchmark's size: on a loaded machine, and for the workloads
whose first run touches fresh memory (10^6-element arrays), that part is most of the
noise. Here each fresh process (bytecode from caches, as run_user's) times only what
building costs: `grad(f)` and `derivative_source(df, *args)` (the specialisation for the
benchmark's arguments, built, not run), in wall and CPU time. The two checkouts alternate
process by process (base first in even rounds); per workload the median over rounds of
each, then the median and max over workloads and the median of the per-workload ratios.
"""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run_user import bytecode_env, compiled  # noqa: E402

CHILD = r"""
import os, sys, time, json
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"
sys.path.insert(0, {here!r})
import numpy as np
import user_workloads as uw
import s2s_ad
wl = uw.WORKLOADS[{index}]
args = wl.make()
c0, t0 = time.process_time(), time.perf_counter()
df = s2s_ad.grad(wl.f, wrt=wl.wrt)
s2s_ad.derivative_source(df, *args)
c1, t1 = time.process_time(), time.perf_counter()
print(json.dumps(dict(wall=(t1 - t0) * 1e3, cpu=(c1 - c0) * 1e3,
                      where=os.path.dirname(s2s_ad.__file__))))
"""


def one(index, checkout):
    env = bytecode_env(dict(os.environ))
    if checkout:
        env["PYTHONPATH"] = os.pathsep.join([checkout] + [p for p in [env.get("PYTHONPATH")]
                                                          if p])
    compiled(env)
    done = subprocess.run([sys.executable, "-c", CHILD.format(here=HERE, index=index)],
                          capture_output=True, text=True, env=env, cwd=HERE, timeout=300)
    if done.returncode:
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(base, words, rounds):
    import user_workloads as uw
    rows = []
    for index, wl in enumerate(uw.WORKLOADS):
        if words and not any(w.lower() in wl.name.lower() for w in words):
            continue
        runs = {"base": [], "this": []}
        for r in range(rounds):
            for side in (("base", "this") if r % 2 == 0 else ("this", "base")):
                got = one(index, base if side == "base" else None)
                if got is not None:
                    runs[side].append(got)
        if not runs["base"] or not runs["this"]:
            print(f"  {wl.name}: failed", file=sys.stderr)
            continue
        assert runs["base"][0]["where"] != runs["this"][0]["where"]
        row = {side: {m: statistics.median(x[m] for x in runs[side]) for m in ("wall", "cpu")}
               for side in runs}
        rows.append((wl.name, row))
        print(f"  {wl.name}: wall {row['base']['wall']:.0f} -> {row['this']['wall']:.0f} ms, "
              f"CPU {row['base']['cpu']:.0f} -> {row['this']['cpu']:.0f} ms", file=sys.stderr)
    for m in ("wall", "cpu"):
        before = [r["base"][m] for _, r in rows]
        after = [r["this"][m] for _, r in rows]
        ratio = statistics.median(r["this"][m] / r["base"][m] for _, r in rows)
        print(f"{m}: median {statistics.median(before):.1f} -> {statistics.median(after):.1f} ms,"
              f" max {max(before):.1f} -> {max(after):.1f} ms, median of the ratios "
              f"{ratio:.3f}, over {len(rows)} workloads x {rounds} rounds")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:], int(os.environ.get("ROUNDS", "3")))
