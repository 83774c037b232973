"""Control flow: s2s_ad's gradients through Python loops against hand-written reverse loops.

    python benchmarks/control_flow.py            # full run; rewrites its block in README.md
    python benchmarks/control_flow.py --quick    # smoke check (3 rounds); prints only
    python benchmarks/control_flow.py --no-write # full run, prints only

Workloads: a tanh RNN unrolled over time (BPTT), an explicit-Euler ODE integrator (adjoint
recursion), a scalar recurrence on Python floats. Same timing method as run.py (its helpers
are imported): one process, one BLAS thread, interleaved rounds, paired ratios. Also
measures the tape (the list the generated forward sweep pushes overwritten values on).
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"          # before numpy is imported (as in run.py)

import argparse  # noqa: E402
import datetime  # noqa: E402
import inspect  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import s2s_ad  # noqa: E402
from run import (check_agree, compare, fmt_time, machine, markdown_table,  # noqa: E402
                 page_faults_per_call, paired_ratio)

SECTION = "loops-forward"
BLOCK = "control-flow"


# ---- 1. tanh RNN, loop over time steps --------------------------------------------------
def rnn_loss(Wx, Wh, b, Wy, h0, xs, ys):
    """Sum over time of the squared error of a linear read-out of a tanh RNN, over T."""
    h = h0
    loss = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wx + h @ Wh + b)
        y = h @ Wy
        loss = loss + np.sum((y - ys[t]) ** 2)
    return loss / xs.shape[0]


def rnn_hand_gradient(Wx, Wh, b, Wy, h0, xs, ys):
    """Backprop through time: keep the states and residuals, then one reverse loop."""
    steps = xs.shape[0]
    h = h0
    hs, residuals = [h0], []
    for t in range(steps):
        h = np.tanh(xs[t] @ Wx + h @ Wh + b)
        hs.append(h)
        residuals.append(h @ Wy - ys[t])
    scale = 2.0 / steps
    dWx, dWh, db, dWy = (np.zeros_like(Wx), np.zeros_like(Wh), np.zeros_like(b),
                         np.zeros_like(Wy))
    dh = np.zeros_like(h0)
    for t in range(steps - 1, -1, -1):
        h = hs[t + 1]
        dy = scale * residuals[t]
        dWy += h.T @ dy
        dz = (dh + dy @ Wy.T) * (1.0 - h * h)
        dWx += xs[t].T @ dz
        dWh += hs[t].T @ dz
        db += dz.sum(axis=0)
        dh = dz @ Wh.T
    return dWx, dWh, db, dWy


def rnn_problem(steps, hidden, batch=32, inputs=32, outputs=16, seed=0):
    rng = np.random.default_rng(seed)
    Wx = rng.standard_normal((inputs, hidden)) / np.sqrt(inputs)
    Wh = rng.standard_normal((hidden, hidden)) * (0.9 / np.sqrt(hidden))
    b = 0.1 * rng.standard_normal(hidden)
    Wy = rng.standard_normal((hidden, outputs)) / np.sqrt(hidden)
    h0 = np.zeros((batch, hidden))
    xs = rng.standard_normal((steps, batch, inputs))
    ys = rng.standard_normal((steps, batch, outputs))
    return Wx, Wh, b, Wy, h0, xs, ys


# ---- 2. explicit Euler, dx/dt = tanh(W x + b) - k * x ----------------------------------
def ode_loss(W, k, b, x0, dt, steps):
    """Squared norm of the final state of `steps` explicit-Euler steps."""
    x = x0
    for _ in range(steps):
        x = x + dt * (np.tanh(W @ x + b) - k * x)
    return np.sum(x ** 2)


def ode_hand_gradient(W, k, b, x0, dt, steps, with_W=True):
    """Discrete adjoint: lam_N = 2 x_N, lam_n = lam_{n+1} (I - dt diag k) + W^T dz_n, with
    dz_n = dt lam_{n+1} (1 - s_n^2); the forward sweep keeps the states x_n and s_n."""
    x, xs, ss = x0, [], []
    for _ in range(steps):
        s = np.tanh(W @ x + b)
        xs.append(x)
        ss.append(s)
        x = x + dt * (s - k * x)
    lam = 2.0 * x
    dW, dk, db = np.zeros_like(W) if with_W else None, np.zeros_like(k), np.zeros_like(b)
    for n in range(steps - 1, -1, -1):
        g = dt * lam
        dz = g * (1.0 - ss[n] * ss[n])
        dk -= g * xs[n]
        db += dz
        if with_W:
            dW += np.outer(dz, xs[n])
        lam = lam - k * g + W.T @ dz
    return (dW, dk, db) if with_W else (dk, db)


def ode_hand_gradient_kb(W, k, b, x0, dt, steps):
    """The same adjoint without dW (gradient w.r.t. k and b only)."""
    return ode_hand_gradient(W, k, b, x0, dt, steps, with_W=False)


def ode_problem(dim=500, steps=1000, dt=0.01, seed=0):
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((dim, dim)) / np.sqrt(dim)
    k = rng.uniform(0.5, 1.5, dim)
    b = 0.1 * rng.standard_normal(dim)
    x0 = rng.standard_normal(dim)
    return W, k, b, x0, dt, steps


# ---- 3. scalar recurrence on Python floats ----------------------------------------------
def recurrence(a, x0, n):
    """The sum of the iterates of x <- a x + sin x (the final iterate alone would have a
    vanishing gradient w.r.t. x0 after 1000 contracting steps)."""
    x = x0
    total = 0.0
    for _ in range(n):
        x = x * a + math.sin(x)
        total = total + x
    return total


def recurrence_hand_gradient(a, x0, n):
    """Keep the iterates, then one reverse loop: dx_{i+1} = (a + cos x_i) dx_i + x_i da."""
    xs = []
    x = x0
    for _ in range(n):
        xs.append(x)
        x = x * a + math.sin(x)
    x_bar, a_bar = 0.0, 0.0
    for i in range(n - 1, -1, -1):
        xi = xs[i]
        x_bar += 1.0                    # from total += x_{i+1}
        a_bar += x_bar * xi
        x_bar *= a + math.cos(xi)
    return a_bar, x_bar


# ---- the tape ---------------------------------------------------------------------------
class TapeProbe(list):
    """A list that records its peak length and the peak of the array bytes it holds."""
    nbytes = peak_nbytes = peak_items = 0

    def append(self, value):
        super().append(value)
        self.nbytes += value.nbytes if isinstance(value, np.ndarray) else 0
        self.peak_items = max(self.peak_items, len(self))
        self.peak_nbytes = max(self.peak_nbytes, self.nbytes)

    def pop(self, *index):
        value = super().pop(*index)
        self.nbytes -= value.nbytes if isinstance(value, np.ndarray) else 0
        return value


def load_source(df, source, **extra):
    """Compile `source` (df's generated source, possibly edited) with df's own globals and
    helpers (s2s_ad binds numpy and its runtime helpers as closure cells)."""
    fn = inspect.unwrap(df)
    namespace = dict(fn.__globals__, **extra)
    namespace.update(zip(fn.__code__.co_freevars,
                         (cell.cell_contents for cell in fn.__closure__ or ())))
    exec(compile(source, f"<edited {fn.__name__}>", "exec"), namespace)
    return namespace[fn.__name__]


def tape_report(df, args):
    """Re-run the generated source with `_tape = []` replaced by a TapeProbe."""
    source = s2s_ad.derivative_source(df)
    assert source.count("_tape = []") == 1, "expected one tape"
    probes = []
    probed = load_source(df, source.replace("_tape = []", "_tape = _new_tape()"),
                         _new_tape=lambda: probes.append(TapeProbe()) or probes[-1])
    probed(*args)
    pushes = len(re.findall(r"_tape\.append\(", source))
    pushed = sorted(set(re.findall(r"_tape\.append\((\w+)\)", source)))
    return pushes, probes[0].peak_items, probes[0].peak_nbytes, pushed


# ---- what-if: hand edits of the generated source, re-timed (diagnosis of misses) --------
def _drop(*lines):
    return [(f"        {line}\n", "") for line in lines]


def _names_pushed_only_for_shape(names):
    return _drop(*(f"_tape.append({n})" for n in names), *(f"{n} = _tape.pop()" for n in names))


RNN_EDITS = [
    ("loss seed: `unreduce(loss_bar_1, t8_0, ...)` + `t8_0_bar * 2 * t7_0` → "
     "`(loss_bar_1 * 2) * t7_0`",
     [("        t8_0_bar = unreduce(loss_bar_1, t8_0, None, False)\n"
       "        t7_0_bar = t8_0_bar * 2 * t7_0\n",
       "        t7_0_bar = (loss_bar_1 * 2) * t7_0\n")]),
    ("no-op `unbroadcast(g, x)` (equal shapes) → `g`",
     [("unbroadcast(t7_0_bar, y)", "t7_0_bar"), ("unbroadcast(t4_0_bar, t3_1)", "t4_0_bar"),
      ("unbroadcast(t3_1_bar, t2_1)", "t3_1_bar"), ("unbroadcast(t3_1_bar, t1_2)", "t3_1_bar")]),
    ("tape pushes/pops of `t1_2, t2_1, t3_1, y, t8_0` (kept only as shape arguments) removed",
     _names_pushed_only_for_shape(["t1_2", "t2_1", "t3_1", "y", "t8_0"])),
    ("`matmul_adjoint_a/b(...)` → `g @ W.T` / `a.T @ g`; `unbroadcast(t4_0_bar, b)` → "
     "`t4_0_bar.sum(axis=0)`",
     [("matmul_adjoint_a(y_bar, h, Wy)", "y_bar @ Wy.T"),
      ("matmul_adjoint_b(y_bar, h, Wy)", "h.T @ y_bar"),
      ("matmul_adjoint_b(t2_1_bar, t1_1, Wx)", "t1_1.T @ t2_1_bar"),
      ("matmul_adjoint_a(t1_2_bar, h, Wh)", "t1_2_bar @ Wh.T"),
      ("matmul_adjoint_b(t1_2_bar, h, Wh)", "h.T @ t1_2_bar"),
      ("unbroadcast(t4_0_bar, b)", "t4_0_bar.sum(axis=0)")]),
    ("weight adjoints accumulated in place (`Wh_bar += ...` on zeros) instead of "
     "`Wh_bar = Wh_bar + ...`",
     [(f"{w}_bar = {w}_bar + ", f"{w}_bar += ") for w in ("Wh", "Wx", "Wy", "b")]
     + [(f"    {w}_bar = 0.0\n", f"    {w}_bar = np.zeros_like({w})\n")
        for w in ("Wh", "Wx", "Wy", "b")]),
]

RECURRENCE_EDITS = [
    ("`unbroadcast(...)` on Python floats (4 per iteration) → the value",
     [("unbroadcast(total_bar_1, total)", "total_bar_1"),
      ("unbroadcast(x_bar_1, t1_1)", "x_bar_1"),
      ("unbroadcast(t1_1_bar * a, x)", "t1_1_bar * a"),
      ("unbroadcast(t1_1_bar * x, a)", "t1_1_bar * x")]),
    ("tape pushes/pops of `t1_1`, `total` (kept only as shape arguments) removed",
     _names_pushed_only_for_shape(["t1_1", "total"])),
    ("adjoint copies folded: `x_bar_1 = x_bar`, `t1_1_bar = x_bar_1`, two statements for "
     "`x_bar`",
     [("        total_bar_1 = total_bar\n        total_bar = total_bar_1\n"
       "        x_bar = x_bar + total_bar_1\n", "        x_bar = x_bar + total_bar\n"),
      ("        x_bar_1 = x_bar\n        t1_1_bar = x_bar_1\n        x = _tape.pop()\n"
       "        x_bar = x_bar_1 * math.cos(x)\n        x_bar = x_bar + t1_1_bar * a\n"
       "        a_bar = a_bar + t1_1_bar * x\n",
       "        x = _tape.pop()\n        a_bar = a_bar + x_bar * x\n"
       "        x_bar = x_bar * (math.cos(x) + a)\n")]),
]


def whatif(name, df, hand, args, chain, rounds):
    """Apply the edits of `chain` cumulatively; re-check and re-time after each step."""
    source, rows = s2s_ad.derivative_source(df), []
    for label, edits in [("as generated", [])] + chain:
        if not all(old in source for old, _ in edits):
            rows.append([name, label, "skipped (generated code changed)"])
            continue
        for old, new in edits:
            source = source.replace(old, new)
        edited = load_source(df, source)
        check_agree(f"{name}: {label}", edited(*args), hand(*args))
        times, _ = compare(edited, hand, args, rounds)
        rows.append([name, label, f"{paired_ratio(times):.2f}"])
        print(f"    what-if {name}: {label[:50]}: {rows[-1][-1]}", file=sys.stderr)
    return rows


# ---- main -------------------------------------------------------------------------------
def workloads():
    """(name, f, wrt, hand-written gradient, args, target, tape trip count or None, edits)"""
    rnn_small, rnn_big = rnn_problem(20, 64), rnn_problem(100, 256)
    ode = ode_problem()
    return [
        ("RNN T=20 hidden=64", rnn_loss, (0, 1, 2, 3), rnn_hand_gradient, rnn_small, 1.3,
         20, RNN_EDITS),
        ("RNN T=100 hidden=256", rnn_loss, (0, 1, 2, 3), rnn_hand_gradient, rnn_big, 1.3,
         100, RNN_EDITS),
        ("Euler ODE dim=500 steps=1000, wrt W, k, b", ode_loss, (0, 1, 2), ode_hand_gradient,
         ode, 1.3, 1000, None),
        ("Euler ODE dim=500 steps=1000, wrt k, b", ode_loss, (1, 2), ode_hand_gradient_kb,
         ode, 1.3, 1000, None),
        ("scalar recurrence (floats), 1000 steps, wrt a, x0", recurrence, (0, 1),
         recurrence_hand_gradient, (0.5, 0.3, 1000), 1.5, None, RECURRENCE_EDITS),
    ]


def hand_tape_bytes(name, args):
    """What the hand-written gradient keeps across the loop (computed from its code)."""
    if name.startswith("RNN"):
        _, _, _, Wy, h0, xs, _ = args
        steps = xs.shape[0]
        return 2 * steps + 1, (steps + 1) * h0.nbytes + steps * h0.shape[0] * Wy.shape[1] * 8
    W, k, b, x0, dt, steps = args
    return 2 * steps, 2 * steps * x0.nbytes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds; README left alone")
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    opts = parser.parse_args(argv)
    rounds = 3 if opts.quick else 21
    whatif_rounds = 3 if opts.quick else 15

    speed_rows, tape_rows, whatif_rows, sources, missed = [], [], [], [], []
    for name, func, wrt, hand, args, target, trips, edits in workloads():
        df = s2s_ad.grad(func, wrt=wrt)
        check_agree(name, df(*args), hand(*args))
        sources.append(s2s_ad.derivative_source(df).strip())
        times, calls = compare(df, hand, args, rounds)
        faults = (f"{page_faults_per_call(df, args, 3):.0f} / "
                  f"{page_faults_per_call(hand, args, 3):.0f}")
        ratio = paired_ratio(times)
        gen_med, hand_med = statistics.median(times["gen"]), statistics.median(times["hand"])
        ok = ratio <= target
        if not ok:
            missed.append(f"{name} ({ratio:.2f} > {target})")
        speed_rows.append([name, fmt_time(gen_med), fmt_time(hand_med), f"**{ratio:.2f}**",
                           f"{gen_med / hand_med:.2f}",
                           f"{min(times['gen']) / min(times['hand']):.2f}", f"≤ {target}",
                           "met" if ok else "**missed**", calls, faults])
        print(f"  {name}: ratio {ratio:.2f}", file=sys.stderr)
        if trips:
            pushes, items, nbytes, pushed = tape_report(df, args)
            h_items, h_bytes = hand_tape_bytes(name, args)
            tape_rows.append([name, pushes, ", ".join(f"`{p}`" for p in pushed),
                              f"{items} = {pushes} × {trips}", f"{nbytes / 1e6:.2f} MB",
                              f"{h_items}", f"{h_bytes / 1e6:.2f} MB",
                              f"{nbytes / h_bytes:.1f}×"])
        if edits:
            whatif_rows += whatif(name, df, hand, args, edits, whatif_rounds)

    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    speed_header = ["workload", "generated / call", "hand-written / call", "ratio",
                    "ratio of medians", "ratio of mins", "target", "",
                    "calls per timing (gen / hand)", "page faults per call (gen / hand)"]
    tape_header = ["workload", "pushes per iteration (source)", "values pushed",
                   "peak tape items (measured)", "peak tape bytes (measured)",
                   "hand-written: arrays kept", "hand-written: bytes kept", "bytes gen / hand"]
    report = "\n\n".join([
        f"Run {when}, {rounds} rounds, `python benchmarks/control_flow.py"
        f"{' --quick' if opts.quick else ''}`.  ",
        f"Machine: {machine()}.  ",
        f"Code: {core_state()}.",
        "**Gradient speed through loops.** RNN: batch 32, 32 inputs, 16 outputs. *ratio* = "
        "median over rounds of the paired ratio generated / hand-written (interleaved "
        "rounds, each timing ≥ 25 ms, as in `run.py`).",
        markdown_table(speed_header, speed_rows),
        "**Tape.** *Pushes per iteration*: `_tape.append` calls in the generated loop body. "
        "*Peak items / bytes*: measured by re-running the generated source with its "
        "`_tape = []` replaced by a list subclass that tracks its length and the sum of "
        "`nbytes` of the arrays it holds (the `None` pushed by the first iteration counts "
        "as an item of 0 bytes). The hand-written columns count what its reverse loop "
        "keeps, from its code (RNN: the T+1 states and T residuals; ODE: the N states "
        "and N tanh values).",
        markdown_table(tape_header, tape_rows),
        f"**What-if** (diagnosis of the misses): the generated source edited by hand, "
        f"edits cumulative top to bottom, each version checked with `np.allclose` and "
        f"re-timed against the hand-written gradient ({whatif_rounds} rounds, paired "
        f"ratio).",
        markdown_table(["workload", "edit (cumulative)", "ratio"], whatif_rows),
    ])
    print(report)
    print("\nTargets: " + ("all met" if not missed else "missed: " + ", ".join(missed)))
    if not opts.quick and not opts.no_write:
        listing = "\n\n".join(dict.fromkeys(sources))
        write_block(BLOCK, report + "\n\n<details><summary>The generated gradients timed "
                    "in this run</summary>\n\n```python\n" + listing + "\n```\n</details>")
    return 0


def core_state():
    """Which s2s_ad ran: the repository's commit and whether s2s_ad/ has uncommitted
    changes (every ratio depends on the generated code), or where else it came from."""
    package = os.path.dirname(os.path.abspath(s2s_ad.__file__))
    repo = os.path.dirname(HERE)
    if package != os.path.join(repo, "s2s_ad"):
        return f"s2s_ad imported from `{package}`, not from this working tree"

    def git(*cmd):
        return subprocess.run(["git", *cmd], cwd=repo, capture_output=True,
                              text=True).stdout.strip()
    try:
        changed = git("status", "--porcelain", "--", "s2s_ad", "templates").splitlines()
    except OSError:
        return "s2s_ad from this working tree (git not available)"
    return (f"s2s_ad at commit {git('rev-parse', '--short', 'HEAD')}"
            + (f" plus uncommitted changes to {len(changed)} file(s) under s2s_ad/, "
               f"templates/" if changed else ", no uncommitted changes to s2s_ad/, templates/"))


def write_block(block, body, readme=os.path.join(HERE, "README.md")):
    """Rewrite this script's block inside the loops-forward section at the end of
    README.md (created at the end if missing); nothing outside the block changes."""
    sec_begin, sec_end = f"<!-- {SECTION}:begin -->", f"<!-- {SECTION}:end -->"
    begin, end = f"<!-- {SECTION}:{block}:begin -->", f"<!-- {SECTION}:{block}:end -->"
    text = open(readme, encoding="utf-8").read()
    if sec_begin not in text:
        text = text.rstrip("\n") + f"\n\n{sec_begin}\n{sec_end}\n"
    if begin not in text:
        text = text.replace(sec_end, f"{begin}\n{end}\n{sec_end}")
    text = text[:text.index(begin)] + f"{begin}\n{body}\n" + text[text.index(end):]
    with open(readme, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"\nwrote {os.path.relpath(readme)} ({block} block)", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
