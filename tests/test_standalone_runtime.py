"""Every runtime helper a generated derivative may call, written into a standalone file
(the CLI's `s2s-ad grad ... -o out.py`), finds every global name it reads there: a helper
reading a module-level table (`_EXP_LIMIT` of the small-array logistic) was copied without
it, and the written file raised NameError when it ran."""
import dis
import inspect
import types
import builtins
import importlib

import pytest

from s2s_ad.backend.standalone import _Module
from s2s_ad.runtime import RUNTIME_MODULES


def _helpers():
    for module_name in RUNTIME_MODULES:
        module = importlib.import_module(module_name)
        for name, obj in sorted(vars(module).items()):
            if inspect.isfunction(obj) and obj.__module__ == module_name:
                yield pytest.param(obj, id=f"{module_name.split('.')[-1]}.{name}")


def _globals_read(code):
    for instruction in dis.get_instructions(code):
        if instruction.opname == "LOAD_GLOBAL":
            yield instruction.argval
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _globals_read(const)


@pytest.mark.parametrize("helper", list(_helpers()))
def test_a_copied_runtime_helper_finds_what_it_reads(helper):
    module = _Module()
    module._copy_runtime(helper.__name__, helper)
    namespace = {}
    exec(compile(module.render("# standalone"), "<standalone>", "exec"), namespace)
    for name, obj in module.runtime.items():
        if isinstance(obj, type):
            continue
        missing = {g for g in _globals_read(namespace[name].__code__)
                   if g not in namespace and not hasattr(builtins, g)}
        assert not missing, f"{name} reads {sorted(missing)}, not written into the file"
