"""Golden files: generated source held byte for byte in tests/golden/.
S2S_AD_UPDATE_GOLDEN=1 rewrites them (read the diff before committing it)."""
import os

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")


def assert_matches_golden(name, source):
    path = os.path.join(GOLDEN, f"{name}.py.txt")
    if os.environ.get("S2S_AD_UPDATE_GOLDEN"):
        with open(path, "w") as fh:
            fh.write(source)
    with open(path) as fh:
        assert source == fh.read(), f"generated source changed: diff against {path}"
