"""What each stage-7 pass changes: the generated source of a corpus with and without it.

    python benchmarks/pass_effects.py                 # the table (several minutes on 2 cores)
    python benchmarks/pass_effects.py --fuzz 60       # fewer fuzz programs (default 300)
    python benchmarks/pass_effects.py --json out.json # also the raw counts
    python benchmarks/pass_effects.py --sources a.json  # only the corpus's sources (no units)
    python benchmarks/pass_effects.py --compare a.json b.json   # the programs that differ

`--sources` and `--compare` check that moving a rewrite into the generator leaves the
corpus's output as it was: the sources of one commit against another's.

The corpus (every source s2s_ad writes is recorded, helpers' and inner derivatives' too):
the golden cases (tests/test_golden.py), the user workloads (benchmarks/user_workloads.py,
run_user.py's list, on their small arguments: a specialisation depends on ranks, length-1
axes and dtypes, not sizes), the user programs of tests/user_programs_s10/s11.py, the
rows of tests/test_control_flow_suite.py (first seed), a grad and a jvp of each workload
and row (without the jvps, FORWARD's item loops fire nowhere), and fuzz programs
(tests/fuzz: narrow and --wide, modes grad, jvp and hvp in turn, both paths as tests.fuzz
checks them).

A unit is a pass of optimize/schedule.py's REVERSE, FORWARD or FORWARD_GRADIENT (left
out of that schedule), or a rewrite schedule.py's passes call, `(statements, ...) ->
(statements, changed)` (made to change nothing). The corpus is built once with every
unit watched: a pass "fires" on a program when the body it returns reads differently
from the one it was given, a rewrite when it says it changed something. Only the
programs where a unit fired are built again without it (a unit that hands back what it
was given cannot change what follows it), and their recorded sources compared with the
full schedule's. `changed` counts those whose sources differ, `broken` those whose build
fails or whose check's outcome differs without the unit; a unit is rebuilt until `--cap`
programs changed (then its count reads `N+`). Timing is benchmarks/paired_passes.py's job.
"""
import argparse
import collections
import contextlib
import io
import json
import os
import sys
import tempfile
import types
import warnings

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _path in (HERE, os.path.join(ROOT, "tests"), os.path.join(ROOT, "examples"), ROOT):
    sys.path.insert(0, _path)

import s2s_ad  # noqa: E402
import s2s_ad.optimize.schedule as schedule  # noqa: E402
import s2s_ad.pipeline as pipeline  # noqa: E402
from s2s_ad.derivative_registry import CACHE  # noqa: E402

SCHEDULES = ("REVERSE", "FORWARD", "FORWARD_GRADIENT")
# the rewrites schedule.py's passes call that return (statements, changed), each in its
# own module (float_gradients and closed_form_adjoints return statements: their passes
# are the units)
REWRITES = ("signs_as_copysign", "schedule_in_place", "batch_loop_tapes", "iterate_items",
            "share_unit_copies",
            "accumulate_in_place", "inline_temporaries", "read_quotients", "merge_where_sums",
            "adjoints_masked_outward", "share_inverses", "cancel_cholesky_products",
            "share_repeated_calls", "linear_tangent_forms",
            "remove_dead_cycles", "fold_constants",
            "eliminate_dead_code", "remove_unread_assignments", "drop_empty_comments")


# ---- the corpus: (name, build) pairs; build() makes the derivatives -------------------------
def _fresh(f):
    """A copy of f: the dispatchers and the cache know the copy by itself."""
    return types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                              f.__closure__)


def _jvp(f, make, wrt):
    """A jvp along the first argument differentiated, where it is a float or an array."""
    args = make(np.random.default_rng(0))
    k = wrt[0] if isinstance(wrt, tuple) else wrt
    if isinstance(args[k], np.ndarray):
        tangent = np.ones_like(args[k])
    elif isinstance(args[k], (float, np.floating)):
        tangent = type(args[k])(1.0)
    else:
        return "skipped"        # a dict or a model: no tangent written here
    return s2s_ad.jvp(_fresh(f), wrt=k)(*args, tangent)


def corpus(n_fuzz):
    import test_golden
    for name in sorted(test_golden.CASES):
        yield f"golden {name}", test_golden.CASES[name]
    import user_workloads
    for wl in user_workloads.WORKLOADS:
        yield f"workload {wl.name}", (
            lambda wl=wl: s2s_ad.grad(_fresh(wl.f), wrt=wl.wrt)(*wl.make(small=True)))
    for wl in user_workloads.WORKLOADS:         # forward mode too: FORWARD's passes
        yield f"workload-jvp {wl.name}", (
            lambda wl=wl: _jvp(wl.f, lambda rng: wl.make(small=True), wl.wrt))
    import user_programs_s10
    import user_programs_s11
    for program in user_programs_s10.PROGRAMS + user_programs_s11.PROGRAMS:
        name, f, args, wrt = program[:4]
        keywords = program[4] if len(program) > 4 else {}
        yield f"user {name}", (
            lambda f=f, args=args, wrt=wrt, kw=keywords: s2s_ad.grad(f, wrt=wrt)(*args, **kw))
    import test_control_flow_suite as suite
    for k, (f, make, wrt) in enumerate(suite.ROWS):
        yield f"suite {k} {f.__name__}", (
            lambda f=f, make=make, wrt=wrt:
            s2s_ad.grad(_fresh(f), wrt=wrt)(*make(np.random.default_rng(0))))
    for k, (f, make, wrt) in enumerate(suite.ROWS):     # forward mode too: FORWARD's passes
        yield f"suite-jvp {k} {f.__name__}", (lambda f=f, make=make, wrt=wrt: _jvp(f, make, wrt))
    from tests.fuzz import generator, runner, shaped_program
    modes = ("grad", "jvp", "hvp")
    directory = tempfile.mkdtemp(prefix="s2s_ad_pass_effects_")
    for k in range(n_fuzz):
        make = (shaped_program if k % 2 else generator).generate
        program = make(1000 + k, modes[k % 3])

        def build(program=program):
            f = runner.load(program, directory)
            return runner.check_loaded(f, program).status
        yield f"fuzz {'wide' if k % 2 else 'narrow'} {program.mode} {program.seed}", build


def run(build):
    """The sources built (in order) and the outcome, with a fresh derivative cache."""
    CACHE.__init__()
    sources = []
    real = pipeline.to_source

    def recording(tree):
        source = real(tree)
        sources.append(source)
        return source
    pipeline.to_source = recording
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            status = build()
        outcome = status if isinstance(status, str) else "built"
    except Exception as error:      # noqa: BLE001 — a unit left out may break a build
        outcome = f"error {type(error).__name__}"
    finally:
        pipeline.to_source = real
    return sources, outcome


# ---- watching and leaving out units --------------------------------------------------------
def _dump(body):
    import gast
    return [gast.dump(s) for s in body.statements()]


@contextlib.contextmanager
def watched(fired):
    """Every unit records into `fired` (a set) when it changes something."""
    saved = []
    for attr in SCHEDULES:
        steps = getattr(pipeline, attr)
        saved.append((pipeline, attr, steps))
        new = []
        for step in steps:
            def run_step(body, facts, step=step, key=f"{attr}: {step.name}"):
                before = _dump(body) if key not in fired else None   # passes edit in place
                after = step.run(body, facts)
                if before is not None and _dump(after) != before:
                    fired.add(key)
                return after
            new.append(schedule.Pass(step.name, run_step, step.writes_arrays))
        setattr(pipeline, attr, tuple(new))
    for name in REWRITES:
        real = getattr(schedule, name)
        saved.append((schedule, name, real))

        def rewrite(*args, real=real, name=name, **kwargs):
            result = real(*args, **kwargs)
            if isinstance(result, tuple) and len(result) == 2 and result[1]:
                fired.add(f"rewrite {name}")
            return result
        setattr(schedule, name, rewrite)
    try:
        yield
    finally:
        for owner, attr, value in saved:
            setattr(owner, attr, value)


@contextlib.contextmanager
def without(unit):
    if unit.startswith("rewrite "):
        name = unit.split(" ", 1)[1]
        real = getattr(schedule, name)
        setattr(schedule, name, lambda statements, *args, **kwargs: (statements, False))
        try:
            yield
        finally:
            setattr(schedule, name, real)
        return
    attr, pass_name = unit.split(": ", 1)
    steps = getattr(pipeline, attr)
    setattr(pipeline, attr, tuple(s for s in steps if s.name != pass_name))
    try:
        yield
    finally:
        setattr(pipeline, attr, steps)


def units():
    names = [f"{attr}: {step.name}" for attr in SCHEDULES for step in getattr(pipeline, attr)]
    return names + [f"rewrite {name}" for name in REWRITES if hasattr(schedule, name)]


def measure(n_fuzz, cap, progress=print):
    programs = list(corpus(n_fuzz))
    baseline, fires = {}, collections.defaultdict(list)
    for name, build in programs:
        fired = set()
        with watched(fired):
            baseline[name] = run(build)
        for unit in fired:
            fires[unit].append(name)
    progress(f"baseline: {len(programs)} programs, "
             f"{sum(len(s) for s, _ in baseline.values())} sources")
    builds = dict(programs)
    table = {}
    for unit in units():
        changed, broken = [], []
        for name in fires.get(unit, ()):
            if len(changed) + len(broken) >= cap:
                break               # enough to know it changes output
            with without(unit):
                sources, outcome = run(builds[name])
            if outcome != baseline[name][1]:
                broken.append(f"{name}: {baseline[name][1]} -> {outcome}")
            elif sources != baseline[name][0]:
                changed.append(name)
        table[unit] = {"fires": len(fires.get(unit, ())), "changed": changed,
                       "broken": broken, "capped": len(changed) + len(broken) >= cap}
        progress(f"{unit}: fires {len(fires.get(unit, ()))}, changed {len(changed)}, "
                 f"broken {len(broken)}")
    return len(programs), table


def write_sources(n_fuzz, path):
    """Every corpus program's recorded sources and outcome, as JSON."""
    with open(path, "w") as out:
        json.dump({name: run(build) for name, build in corpus(n_fuzz)}, out, indent=0)


def compare(before_path, after_path):
    """Print the programs whose sources or outcome differ, with a unified diff of each."""
    import difflib
    with open(before_path) as a, open(after_path) as b:
        before, after = json.load(a), json.load(b)
    differing = [name for name in before if before[name] != after.get(name)]
    for name in differing:
        print(f"==== {name}: {before[name][1]} -> {after.get(name, [[], 'missing'])[1]}")
        old, new = before[name][0], after.get(name, [[]])[0]
        print("".join(difflib.unified_diff("\n\n".join(old).splitlines(True),
                                           "\n\n".join(new).splitlines(True), n=2)))
    print(f"{len(differing)} of {len(before)} programs differ")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sources", help="write the corpus's sources here and stop")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--fuzz", type=int, default=300)
    parser.add_argument("--cap", type=int, default=30,
                        help="stop rebuilding a unit's programs after this many changed")
    parser.add_argument("--json")
    parsed = parser.parse_args()
    if parsed.compare:
        return compare(*parsed.compare)
    if parsed.sources:
        return write_sources(parsed.fuzz, parsed.sources)
    n, table = measure(parsed.fuzz, parsed.cap, progress=lambda line: print(line, flush=True))
    print(f"\n{n} programs\n| unit | fires | output changes | broken without it | where |")
    print("|---|---|---|---|---|")
    for unit, row in table.items():
        where = collections.Counter(p.split(" ")[0] for p in row["changed"] + row["broken"])
        more = "+" if row["capped"] else ""
        print(f"| {unit} | {row['fires']} | {len(row['changed'])}{more} | {len(row['broken'])} "
              f"| {', '.join(f'{k} {v}' for k, v in sorted(where.items()))} |")
    if parsed.json:
        with open(parsed.json, "w") as out:
            json.dump(table, out, indent=1)


if __name__ == "__main__":
    main()
