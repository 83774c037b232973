"""`python -m s2s_ad` runs the `s2s-ad` command."""
import sys

from .cli import main

sys.exit(main())
