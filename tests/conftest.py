import atexit
import os
import shutil
import sys
import tempfile

# optimisation passes that fall back to the unoptimised code on an internal error raise
# it here instead, so the suite sees it
os.environ.setdefault("S2S_AD_STRICT_PASSES", "1")
# generated sources (backend/sources.py) go to a directory of this run, not the user's cache
if "S2S_AD_SOURCE_DIR" not in os.environ:
    os.environ["S2S_AD_SOURCE_DIR"] = tempfile.mkdtemp(prefix="s2s_ad-test-sources-")
    atexit.register(shutil.rmtree, os.environ["S2S_AD_SOURCE_DIR"], True)

sys.path.insert(0, os.path.dirname(__file__))

from paths import both_paths  # noqa: E402,F401  (the fixture, for every test module)

import pytest  # noqa: E402


@pytest.fixture
def reverse_mode(monkeypatch):
    """Gradients of number code in reverse mode too (analyses/number_code.py builds them
    in forward mode): for the tests of the reverse sweep's own rewrites on numbers."""
    monkeypatch.setenv("S2S_AD_REVERSE", "1")
