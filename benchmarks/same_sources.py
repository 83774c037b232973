"""Does a change meant to make derivatives faster to build leave what they are unchanged?
Every user workload's generated sources, from another checkout and from this one,
compared byte for byte.

    git archive BASE | tar -x -C /tmp/base                        # the checkout to compare
    ln -s ../templates /tmp/base/s2s_ad/templates                 # what the editable install maps
    python benchmarks/same_sources.py /tmp/base                   # every workload
    python benchmarks/same_sources.py /tmp/base GRU "GP NLL"      # workloads named by a word

Each side runs in a child process (the other checkout first on its path, this venv's
editable finder taken out, as in paired_sources.py) and writes, per workload, the
general derivative's source (`derivative_source(df)` before any call), the specialised
one for the benchmark's arguments (`derivative_source(df, *args)`) and the dispatcher's
source after the first call. Exit status 1 and the names of the workloads that differ
when any source does. The golden tests (tests/test_golden*.py) hold the rest.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def sources(words):
    """{workload name: [general, specialised, after the first call]} (or the error)."""
    sys.path.insert(0, HERE)
    import s2s_ad
    from user_workloads import WORKLOADS
    out = {}
    for wl in WORKLOADS:
        if words and not any(w.lower() in wl.name.lower() for w in words):
            continue
        try:
            args = wl.make()
            df = s2s_ad.grad(wl.f, wrt=wl.wrt)
            general = s2s_ad.derivative_source(df)
            special = s2s_ad.derivative_source(df, *args)
            df(*args)
            out[wl.name] = [general, special, s2s_ad.derivative_source(df)]
        except Exception as exc:           # an error is compared like a source
            out[wl.name] = [f"{type(exc).__name__}: {exc}"]
    return out


def side(checkout, words):
    env = dict(os.environ, S2S_AD_SOURCE_DIR=os.path.join("/tmp", "s2s_ad-same-sources"))
    command = [sys.executable, __file__, "--sources", checkout or "", *words]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=HERE)
    if done.returncode:
        sys.exit(f"{checkout or 'this checkout'}: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def main(base, words):
    before, after = side(base, words), side(None, words)
    differ = sorted(name for name in set(before) | set(after)
                    if before.get(name) != after.get(name))
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(after) - len(differ)}/{len(after)} workloads: generated sources identical")
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1] == "--sources":
        if sys.argv[2]:
            # the other checkout's s2s_ad and templates, not this venv's editable install
            sys.meta_path[:] = [f for f in sys.meta_path
                                if "editable" not in type(f).__module__.lower()]
            sys.path.insert(0, sys.argv[2])
        print(json.dumps(sources(sys.argv[3:])))
    else:
        sys.exit(main(sys.argv[1], sys.argv[2:]))
