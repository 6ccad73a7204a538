"""A script of `scripts/` loaded as a module, for tests of its parts (the scripts are no package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).parents[1] / "scripts"


def load_script(name: str) -> ModuleType:
    """`scripts/<name>.py` as the module `name`, registered so that its dataclasses find their module."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
