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

Arguments may be dicts and tuples of arrays (directions and gradients are compared leaf
by leaf) and float32: the oracle then differentiates f at the arguments widened to
float64, the tolerances are those of float32, and a derivative must come back float32
where numpy computes f in float32 (README's contract).
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


def _tree_map(fn, tree, *others):
    """fn over the leaves (numbers, numpy scalars, arrays) of dicts, tuples and lists."""
    if isinstance(tree, dict):
        return {k: _tree_map(fn, v, *[o[k] for o in others]) for k, v in tree.items()}
    if isinstance(tree, (tuple, list)):
        return type(tree)(_tree_map(fn, v, *[o[k] for o in others]) for k, v in enumerate(tree))
    return fn(tree, *others)


def _leaves(tree):
    out = []
    _tree_map(out.append, tree)
    return out


def _widened(x):
    """float32 leaves as float64: the oracle differentiates the function numpy computes
    in float32 at float64 precision, so its steps are not drowned by float32 rounding."""
    if isinstance(x, (np.ndarray, np.floating)) and x.dtype == np.float32:
        return x.astype(np.float64) if isinstance(x, np.ndarray) else np.float64(x)
    return np.copy(x) if isinstance(x, np.ndarray) else x


def _own_copy(x):
    return x.copy() if isinstance(x, np.ndarray) else x


def _call(f, args):
    with np.errstate(all="raise"):
        return f(*[_tree_map(_widened, a) for a in args])


def _step(x, d, step):
    x = _widened(x)
    moved = x + step * _widened(d)
    return moved if isinstance(x, np.ndarray) else type(x)(moved)


def _moved(args, k, direction, step):
    out = list(args)
    out[k] = _tree_map(lambda x, d: _step(x, d, step), args[k], direction)
    return out


def _inner(a, b):
    return float(sum(np.sum(np.asarray(x, dtype=float) * np.asarray(y, dtype=float))
                     for x, y in zip(_leaves(a), _leaves(b))))


def _is_float32(tree):
    return any(getattr(x, "dtype", None) == np.float32 for x in _leaves(tree))


def _structure_differs(got, want, float32=True):
    """A description when `got` is not shaped like `want` (nor float32 where `want` is
    float32 and `float32`: README's contract is float32 derivatives where numpy computes
    f in float32; where f widens, as math.* or a float64 constant do, they follow it)."""
    got_leaves, want_leaves = _leaves(got), _leaves(want)
    if len(got_leaves) != len(want_leaves) or type(got) is not type(want) and \
            isinstance(want, (dict, tuple, list)):
        return f"structure {type(got).__name__} of {len(got_leaves)} for " \
               f"{type(want).__name__} of {len(want_leaves)}"
    for g, w in zip(got_leaves, want_leaves):
        if np.shape(g) != np.shape(w):
            return f"shape {np.shape(g)} for {np.shape(w)}"
        if float32 and getattr(w, "dtype", None) == np.float32 \
                and getattr(g, "dtype", None) != np.float32:
            return f"dtype {getattr(g, 'dtype', type(g).__name__)} for a float32 argument"
    return ""


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


def _random_like(tree, rng):
    """A random direction shaped (and typed) like `tree`: a float for a float."""
    def one(x):
        d = rng.standard_normal(np.shape(x))
        if isinstance(x, float):
            return float(d)
        return d.astype(x.dtype) if isinstance(x, np.ndarray) else x.dtype.type(d)
    return _tree_map(one, tree)


def _probe(program, rng):
    k = program.wrt if isinstance(program.wrt, int) else None
    positions = (k,) if k is not None else program.wrt
    directions = [_random_like(program.args[p], rng) for p in positions]
    return positions, directions


def _weight(value, rng, float32=False):
    """A random cotangent shaped like `value` (float32 in a float32 program)."""
    weight = rng.standard_normal(np.shape(value)).astype(np.float32 if float32 else np.float64)
    if np.ndim(weight):
        return weight
    return np.float32(weight) if float32 else float(weight)


def _derivative_check(f, program, value):
    """The mode's derivative at program.args compared with differences: (status, detail)."""
    rng = np.random.default_rng(program.seed)
    args, mode = program.args, program.mode
    positions, directions = _probe(program, rng)
    scale = float(np.max(np.abs(value))) if np.size(value) else 1.0
    loose = _is_float32(args)
    in_float32 = loose and _is_float32(f(*[_tree_map(_own_copy, a) for a in args]))
    rtol, atol = (2e-3, 2e-3) if loose else (RTOL, ATOL)
    rtol2, atol2 = (1e-2, 5e-3) if loose else (RTOL2, ATOL2)
    if mode == "grad":
        got = s2s_ad.grad(f, wrt=program.wrt)(*args)
        got = got if isinstance(program.wrt, tuple) else (got,)
        for k, g in zip(positions, got):
            wrong = _structure_differs(g, args[k], in_float32)
            if wrong:
                return "wrong", f"gradient {wrong} in argument {k}"
        analytic = sum(_inner(g, d) for g, d in zip(got, directions))
        return _compare(lambda s: _directional(f, args, positions, directions, 1.0, s),
                        analytic, (1e-6, 1e-7, 1e-5), rtol, atol, scale)
    k, direction = positions[0], directions[0]
    if mode == "gradgrad":
        second = s2s_ad.grad(s2s_ad.grad(f, wrt=0), wrt=0)(*args)
        if np.shape(second) != ():
            return "wrong", f"grad of grad has shape {np.shape(second)} for a float argument"
        return _compare(lambda s: _mixed(f, args, 0, 1.0, 1.0, s), float(second),
                        (1e-4, 3e-5, 3e-4), rtol2, atol2, scale)
    if mode == "jvp":
        out, tangent = s2s_ad.jvp(f, wrt=k)(*args, direction)
        wrong = _structure_differs(tangent, value)
        if wrong:
            return "wrong", f"tangent {wrong} of the output"
        # (the primal is compared with f at the arguments as given: `value` is f at the
        # arguments widened to float64, which a float32 program's output need not match)
        primal = f(*[_tree_map(_own_copy, a) for a in args])
        if not np.allclose(out, primal, rtol=1e-5 if loose else 1e-12,
                           atol=1e-5 if loose else 1e-12):
            return "wrong", f"jvp value {out!r}, f gives {primal!r}"
        weight = rng.standard_normal(np.shape(value))
        return _compare(lambda s: _directional(f, args, (k,), (direction,), weight, s),
                        _inner(weight, tangent), (1e-6, 1e-7, 1e-5), rtol, atol, scale)
    if mode == "vjp":
        weight = _weight(value, rng, loose)
        cotangent = s2s_ad.vjp(f, wrt=k)(*args, weight)
        wrong = _structure_differs(cotangent, args[k], in_float32)
        if wrong:
            return "wrong", f"vjp {wrong} of argument {k}"
        return _compare(lambda s: _directional(f, args, (k,), (direction,), weight, s),
                        _inner(cotangent, direction), (1e-6, 1e-7, 1e-5), rtol, atol, scale)
    product = s2s_ad.hvp(f, wrt=k)(*args, direction)
    wrong = _structure_differs(product, args[k], in_float32)
    if wrong:
        return "wrong", f"hvp {wrong} of argument {k}"
    other = _random_like(args[k], rng)
    return _compare(lambda s: _mixed(f, args, k, other, direction, s), _inner(other, product),
                    (1e-4, 3e-5, 3e-4), rtol2, atol2, scale)


def _cause(error):
    """A short, program-independent description of an exception, for grouping."""
    frames = traceback.extract_tb(error.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        name = os.path.basename(last.filename)
        # (a generated module's name ends in a hash of the source: without it, a shrunk
        # program's crash is the same cause as the program's)
        name = re.sub(r"_[0-9a-f]{16}\.py$", ".py", name)
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
    weight = _weight(_call(f, program.args), rng)
    return any(abs(_directional(f, program.args, positions, directions, weight, s)) > 1e-9
               for s in (1e-6, 1e-4))


def check_loaded(f, program):
    """The outcome of `program` (whose `f` is already loaded)."""
    try:
        value = _call(f, program.args)
        if not np.all(np.isfinite(value)) or np.max(np.abs(value)) > 1e8 \
                or not program.any_shape and np.shape(value) not in SHAPES.values():
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
