"""Which functions are the user's own defs: the ones s2s_ad follows into (inlines, or
differentiates as helpers when called as methods of a module-level object), and whose
writes into their arguments a derivative called when the code runs refuses
(runtime_functions). A def from numpy, scipy, math or s2s_ad itself, the standard
library or an installed package is a library's, left to the call rules for library code.

    is_users_def(Model.loss)               True    (a def in the user's module)
    is_users_def(logging.Logger.debug)     False   (the standard library)
    is_users_def(np.linalg.norm)           False   (numpy)
"""
import inspect
import os
import site
import sys
import sysconfig

from .backend.sources import is_generated

# modules whose functions are primitives or s2s_ad's own, never inlined
LIBRARIES = ("numpy", "scipy", "s2s_ad", "math")
# where installed packages live: a def there is a library's, not the user's
_INSTALLED = tuple(os.path.realpath(p) + os.sep for p in {
    *filter(None, (sysconfig.get_paths().get(k) for k in ("purelib", "platlib"))),
    *getattr(site, "getsitepackages", lambda: [])()})


def is_users_def(target):
    """Is `target` a def of the user's own code: a Python function, not generated, from
    neither numpy/scipy/math/s2s_ad, the standard library (`logging.Logger.debug`) nor an
    installed package?"""
    if not inspect.isfunction(target) or getattr(target, "__s2s_generated__", None) \
            or is_generated(target) or getattr(target, "__s2s_transform__", None):
        return False
    module = getattr(target, "__module__", None) or ""
    if module.startswith(LIBRARIES) or module.split(".")[0] in sys.stdlib_module_names:
        return False
    where = os.path.realpath(target.__code__.co_filename)
    return not where.startswith(_INSTALLED) and not any(
        f"{os.sep}{d}{os.sep}" in where for d in ("site-packages", "dist-packages"))
