import os
import sys

# optimisation passes that fall back to the unoptimised code on an internal error raise
# it here instead, so the suite sees it
os.environ.setdefault("S2S_AD_STRICT_PASSES", "1")

sys.path.insert(0, os.path.dirname(__file__))

from paths import both_paths  # noqa: E402,F401  (the fixture, for every test module)
