"""Finding the machine a command line names: ``module:State`` or ``path/to/file.py:State``."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from statetree.core.state import State
from statetree.errors import UsageError
from statetree.structure import find_initial_states

__all__ = [
    "TARGET_HELP",
    "LoadError",
    "attribute_of",
    "import_target_module",
    "load_initial_states",
    "load_object",
    "split_target",
]

TARGET_HELP = (
    "the machine: MODULE:STATE, where MODULE is a dotted module name or a .py file and "
    "STATE the initial state class (e.g. CharacterStates.Alive); with MODULE alone, the "
    "module's machines are found for you"
)


class LoadError(UsageError):
    """A command-line target names no loadable module or no state class."""


def split_target(text: str) -> tuple[str, str]:
    """``("module", "Qual.Name")`` from ``module:Qual.Name``; the name may be empty."""
    module, colon, attribute = text.rpartition(":")
    if not colon or "/" in attribute or "\\" in attribute:
        return text, ""
    return module, attribute


def _is_path(module: str) -> bool:
    return module.endswith(".py") or "/" in module or "\\" in module


def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise LoadError(f"no such file: {str(path)!r}")
    name = path.stem
    taken = sys.modules.get(name)
    if taken is not None and Path(getattr(taken, "__file__", "") or "").resolve() != path.resolve():
        name = f"statetree_target_{name}"  # do not replace a module already imported
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise LoadError(f"cannot load {str(path)!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # inspect and dataclasses look modules up by name
    spec.loader.exec_module(module)
    return module


def import_target_module(module: str) -> ModuleType:
    """Import ``module`` (a dotted name, or a file), the current directory first on the path."""
    if str(Path.cwd()) not in sys.path and "" not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        if _is_path(module):
            return _import_file(Path(module))
        return importlib.import_module(module)
    except LoadError:
        raise
    except ModuleNotFoundError as error:
        raise LoadError(f"cannot import {module!r}: {error}") from error
    except Exception as error:  # the user's module failed while running its top level
        raise LoadError(f"importing {module!r} raised {type(error).__name__}: {error}") from error


def attribute_of(module: ModuleType, path: str) -> object:
    """The object at dotted ``path`` inside ``module``, read without running descriptors.

    Raises:
        LoadError: an attribute on the way is missing.
    """
    value: object = module
    walked = []
    for part in path.split("."):
        walked.append(part)
        value = inspect.getattr_static(value, part, _MISSING)
        if value is _MISSING:
            where = module.__name__ + "".join("." + p for p in walked[:-1])
            raise LoadError(f"{where} has no attribute {part!r} (looking for {path!r})")
    return value


_MISSING = object()


def _not_a_state(target: str, value: object) -> LoadError:
    if isinstance(value, type):
        return LoadError(f"{target!r} is a class that does not derive from statetree.State")
    return LoadError(f"{target!r} is a {type(value).__name__}, not a State subclass")


def load_initial_states(target: str) -> tuple[type[State[Any]], ...]:
    """The initial state class(es) a command-line target names.

    Raises:
        LoadError: the module cannot be imported, the name is missing or is not a
            ``State`` subclass, or the module defines no state classes.
    """
    module_name, attribute = split_target(target)
    module = import_target_module(module_name)
    if not attribute:
        found = find_initial_states(module)
        if not found:
            raise LoadError(f"{module_name!r} defines no state classes")
        return found
    value = attribute_of(module, attribute)
    if not (isinstance(value, type) and issubclass(value, State)):
        raise _not_a_state(target, value)
    return (value,)


def load_object(text: str, default_attribute: str) -> object:
    """The object ``module:attribute`` names (``default_attribute`` when none is given).

    Raises:
        LoadError: the module does not load or has no such attribute.
    """
    module_name, attribute = split_target(text)
    return attribute_of(import_target_module(module_name), attribute or default_attribute)
