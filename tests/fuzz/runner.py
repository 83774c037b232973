"""Checks one generated program in one mode against central differences.

`check(program, directory)` writes the program as a module (s2s_ad reads its source, so it
must live in a file), builds the derivative the program's mode asks for, calls it on the
specialised path and on the general one (S2S_AD_GENERAL=1), and returns an `Outcome`:

- ok: both paths agree with central differences (or both refuse, rightly, an output
  that does not depend on the argument at all);
- wrong: a derivative came back and disagrees;
- crash: anything other than an s2s_ad error was raised (in s2s_ad or in generated code);
- rejected: an `s2s_ad.ADError` (a located refusal) for an output that does depend on the
  argument: the generator only writes supported constructs, so this is a false rejection;
- skipped: the point sits at a kink (a branch test flips within the difference step: two
  step sizes disagree with each other);
- invalid: the program itself fails or overflows at its arguments (not counted).
"""
import importlib.util
import os
import re
import signal
import sys
import traceback
from dataclasses import dataclass

import numpy as np

import s2s_ad

from .generator import SHAPES

RTOL, ATOL = 1e-4, 1e-5          # first order, steps 1e-6 (rounding and truncation ~1e-10)
RTOL2, ATOL2 = 1e-3, 1e-4        # Hessian-vector products, steps 1e-4 (error ~1e-8)
TIME_LIMIT = 30                  # CPU seconds per mode: a hang is a crash


@dataclass
class Outcome:
    status: str                  # ok / wrong / crash / rejected / skipped / invalid
    cause: str = ""
    detail: str = ""


class _Timeout(Exception):
    pass


def load(program, directory, name=None):
    """The program's `f`, imported from a file in `directory`."""
    name = name or f"fuzz_program_{program.seed}"
    path = os.path.join(directory, name + ".py")
    with open(path, "w") as out:
        out.write(program.source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module.f


def _call(f, args):
    with np.errstate(all="raise"):
        return f(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])


def _moved(args, k, direction, step):
    out = list(args)
    out[k] = args[k] + step * direction
    if not isinstance(args[k], np.ndarray):
        out[k] = float(out[k])
    return out


def _inner(a, b):
    return float(np.sum(np.asarray(a, dtype=float) * np.asarray(b, dtype=float)))


def _directional(f, args, positions, directions, weight, step):
    """d/de <weight, f(args + e * directions)> by central differences."""
    plus, minus = list(args), list(args)
    for k, v in zip(positions, directions):
        plus = _moved(plus, k, v, step)
        minus = _moved(minus, k, v, -step)
    return (_inner(weight, _call(f, plus)) - _inner(weight, _call(f, minus))) / (2 * step)


def _mixed(f, args, k, u, v, step):
    """u^T H v of scalar f in argument k by a four-point difference."""
    total = 0.0
    for su, sv in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        moved = _moved(_moved(args, k, u, su * step), k, v, sv * step)
        total += su * sv * _call(f, moved)
    return total / (4 * step * step)


def _close(got, want, rtol, atol, scale):
    return abs(got - want) <= atol * max(1.0, scale) + rtol * abs(want)


def _compare(reference, got, steps, rtol, atol, scale):
    """'ok', 'wrong' or 'skipped' (the references at the steps disagree: a kink)."""
    want = reference(steps[0])
    if _close(got, want, rtol, atol, scale):
        return "ok", ""
    others = [reference(s) for s in steps[1:]]
    if any(not _close(o, want, rtol, atol, scale) for o in others):
        return "skipped", ""
    return "wrong", f"s2s_ad {got!r}, central differences {want!r}"


def _probe(program, rng):
    k = program.wrt if isinstance(program.wrt, int) else None
    positions = (k,) if k is not None else program.wrt
    directions = [rng.standard_normal(np.shape(program.args[p])) for p in positions]
    directions = [d if np.ndim(d) else float(d) for d in directions]
    return positions, directions


def _derivative_check(f, program, value):
    """The mode's derivative at program.args compared with differences: (status, detail)."""
    rng = np.random.default_rng(program.seed)
    args, mode = program.args, program.mode
    positions, directions = _probe(program, rng)
    scale = float(np.max(np.abs(value))) if np.size(value) else 1.0
    if mode == "grad":
        got = s2s_ad.grad(f, wrt=program.wrt)(*args)
        got = got if isinstance(program.wrt, tuple) else (got,)
        for k, g in zip(positions, got):
            if np.shape(g) != np.shape(args[k]):
                return "wrong", f"gradient shape {np.shape(g)} for argument shape {np.shape(args[k])}"
        analytic = sum(_inner(g, d) for g, d in zip(got, directions))
        return _compare(lambda s: _directional(f, args, positions, directions, 1.0, s),
                        analytic, (1e-6, 1e-7, 1e-5), RTOL, ATOL, scale)
    k, direction = positions[0], directions[0]
    if mode == "gradgrad":
        second = s2s_ad.grad(s2s_ad.grad(f, wrt=0), wrt=0)(*args)
        if np.shape(second) != ():
            return "wrong", f"grad of grad has shape {np.shape(second)} for a float argument"
        return _compare(lambda s: _mixed(f, args, 0, 1.0, 1.0, s), float(second),
                        (1e-4, 3e-5, 3e-4), RTOL2, ATOL2, scale)
    if mode == "jvp":
        out, tangent = s2s_ad.jvp(f, wrt=k)(*args, direction)
        if np.shape(tangent) != np.shape(value):
            return "wrong", f"tangent shape {np.shape(tangent)} for output shape {np.shape(value)}"
        if not np.allclose(out, value, rtol=1e-12, atol=1e-12):
            return "wrong", f"jvp value {out!r}, f gives {value!r}"
        weight = rng.standard_normal(np.shape(value))
        return _compare(lambda s: _directional(f, args, (k,), (direction,), weight, s),
                        _inner(weight, tangent), (1e-6, 1e-7, 1e-5), RTOL, ATOL, scale)
    if mode == "vjp":
        weight = rng.standard_normal(np.shape(value))
        weight = weight if np.ndim(weight) else float(weight)
        cotangent = s2s_ad.vjp(f, wrt=k)(*args, weight)
        if np.shape(cotangent) != np.shape(args[k]):
            return "wrong", f"vjp shape {np.shape(cotangent)} for argument shape {np.shape(args[k])}"
        return _compare(lambda s: _directional(f, args, (k,), (direction,), weight, s),
                        _inner(cotangent, direction), (1e-6, 1e-7, 1e-5), RTOL, ATOL, scale)
    product = s2s_ad.hvp(f, wrt=k)(*args, direction)
    if np.shape(product) != np.shape(args[k]):
        return "wrong", f"hvp shape {np.shape(product)} for argument shape {np.shape(args[k])}"
    other = rng.standard_normal(np.shape(args[k]))
    other = other if np.ndim(other) else float(other)
    return _compare(lambda s: _mixed(f, args, k, other, direction, s), _inner(other, product),
                    (1e-4, 3e-5, 3e-4), RTOL2, ATOL2, scale)


def _cause(error):
    """A short, program-independent description of an exception, for grouping."""
    frames = traceback.extract_tb(error.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        name = os.path.basename(last.filename)
        where = "generated code" if name.startswith("<") else f"{name}:{last.name}"
    message = str(error).strip().split("\n")[0]
    message = re.sub(r"`[^`]*`", "`…`", message)
    message = re.sub(r"'[^']*'", "'…'", message)
    message = re.sub(r"\b(t\d+_\d+|\w+_bar(_\d+)?|\w+_dot(_\d+)?)\b", "NAME", message)
    message = re.sub(r"\(?<[^>]*>[^)]*\)?", "<…>", message)
    message = re.sub(r"\b\d+\b", "N", message)[:100]
    if isinstance(error, s2s_ad.ADError):
        return f"{type(error).__name__}: {message}"
    return f"{type(error).__name__} in {where}: {message}"


def _on_path(f, program, value, general):
    previous = os.environ.pop("S2S_AD_GENERAL", None)
    if general:
        os.environ["S2S_AD_GENERAL"] = "1"
    try:
        status, detail = _derivative_check(f, program, value)
        return Outcome(status, "" if status != "wrong" else "wrong value", detail)
    except s2s_ad.ADError as error:
        return Outcome("rejected", _cause(error), str(error))
    except _Timeout:
        return Outcome("crash", "timeout", f"over {TIME_LIMIT} s")
    except (Exception, RecursionError) as error:   # a crash is what the fuzzer looks for
        return Outcome("crash", _cause(error), traceback.format_exc())
    finally:
        os.environ.pop("S2S_AD_GENERAL", None)
        if previous is not None:
            os.environ["S2S_AD_GENERAL"] = previous


def _alarm(signum, frame):
    raise _Timeout()


def _depends_on_wrt(f, program):
    rng = np.random.default_rng(program.seed + 1)
    positions, directions = _probe(program, rng)
    weight = rng.standard_normal(np.shape(_call(f, program.args)))
    return any(abs(_directional(f, program.args, positions, directions, weight, s)) > 1e-9
               for s in (1e-6, 1e-4))


def check_loaded(f, program):
    """The outcome of `program` (whose `f` is already loaded)."""
    try:
        value = _call(f, program.args)
        if not np.all(np.isfinite(value)) or np.max(np.abs(value)) > 1e8 \
                or np.shape(value) not in SHAPES.values():
            return Outcome("invalid", "value out of range")
    except Exception as error:
        return Outcome("invalid", _cause(error))
    # the limit is on CPU time (SIGPROF): a hang spins, while a machine shared with other
    # jobs only stretches the wall clock (two programs timed out that way, in 1-2 s of CPU)
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, TIME_LIMIT)
    try:
        outcomes = [_on_path(f, program, value, general) for general in (False, True)]
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    for outcome, path in zip(outcomes, ("specialised", "general")):
        if outcome.status == "rejected" and not _depends_on_wrt(f, program):
            outcome.status, outcome.cause = "ok", ""     # rightly refused: no dependence
        outcome.detail = f"[{path} path] {outcome.detail}"
    order = ("wrong", "crash", "rejected", "skipped", "ok")
    return min(outcomes, key=lambda o: order.index(o.status))


def check(program, directory):
    try:
        f = load(program, directory)
    except Exception as error:
        return Outcome("invalid", _cause(error), traceback.format_exc())
    return check_loaded(f, program)
