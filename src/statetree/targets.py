"""Finding the machine a command line names: ``module:State`` or ``path/to/file.py:State``."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
import sysconfig
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any, TypeAlias, get_args

from statetree.bitmask import BitmaskDefinition, BitState
from statetree.chart.loading import EXTENSIONS, format_of
from statetree.core.state import State
from statetree.errors import DefinitionError, UsageError
from statetree.plot.output import PlotFormat
from statetree.structure import CONVENTION, find_initial_states
from statetree.structure.discover import InitialStatesError

__all__ = [
    "TARGET_HELP",
    "LoadError",
    "Machine",
    "attribute_of",
    "existing_file",
    "import_target_module",
    "load_machines",
    "load_object",
    "raised_at",
    "shown_path",
    "split_target",
]

TARGET_HELP = (
    "the machine: MODULE:STATE, where MODULE is a dotted module name or a .py file and "
    "STATE the initial state class (e.g. CharacterStates.Alive) or a bitmask definition "
    "(e.g. PLAYER_STATES); with MODULE alone, the module's machines are found for you; "
    "or a chart file (.yaml, .toml, .json)"
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


def existing_file(name: str | Path, what: str = "file") -> Path:
    """``name`` as a path, after checking that it is a file.

    Raises:
        LoadError: there is no such file (or it is a directory, a named pipe, a device).
    """
    path = Path(name)
    if not path.is_file():
        # A folder, a named pipe or a device exists but is no file to read.
        if path.is_dir():
            article = "an" if what[:1] in ("a", "e", "i", "o", "u") else "a"
            raise LoadError(f"{str(name)!r} is a directory, not {article} {what}")
        missing = "regular" if path.exists() else "such"
        raise LoadError(f"no {missing} {what}: {str(name)!r}")
    return path


def _package_module(path: Path) -> tuple[Path, str] | None:
    """For a file inside a package: the folder holding the outermost package, and the
    file's dotted module name (``game/hero.py`` is ``game.hero``); None for a plain file."""
    folder = path.resolve().parent
    if not (folder / "__init__.py").is_file():
        return None
    parts = [] if path.name == "__init__.py" else [path.stem]
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return folder, ".".join(parts)


def _import_file(path: Path) -> ModuleType:
    existing_file(path)
    packaged = _package_module(path)
    if packaged is not None:  # imported as its package imports it, so its imports work
        root, dotted = packaged
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        return importlib.import_module(dotted)
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # as `python file.py` does: it may import its neighbours
    name = path.stem
    taken = sys.modules.get(name)
    if taken is not None:
        if Path(getattr(taken, "__file__", "") or "").resolve() == path.resolve():
            return taken  # already imported: running it again would make new classes
        name = f"statetree_target_{name}"  # do not replace another module of that name
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        if format_of(path) is not None:
            raise _chart_named(str(path))
        raise _not_a_target(str(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # inspect and dataclasses look modules up by name
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


_PLOTS = tuple(f".{kind}" for kind in get_args(PlotFormat))
"""What ``statetree plot`` writes: a target that ends so is an output given as input."""


def _not_a_target(name: str) -> LoadError:
    """The error for a file that is neither a chart file nor Python."""
    return LoadError(
        f"{name!r} is neither a chart file ({', '.join(EXTENSIONS)}) nor a Python module or "
        ".py file (an events script goes to 'statetree run CHART --events')"
    )


def _chart_named(name: str) -> LoadError:
    """The error for a chart file named as a module (``chart.yaml:State``)."""
    return LoadError(
        f"{name!r} is a chart file: name it alone, without :NAME (a chart file holds one machine)"
    )


def import_target_module(module: str) -> ModuleType:
    """Import ``module`` (a dotted name, or a file), the current directory first on the path.

    Raises:
        LoadError: the name is empty, the module is not found, or importing it raised;
            the message names the file and line that raised, when they are known.
    """
    if not module.strip() or (module.startswith(".") and not _is_path(module)):
        raise LoadError(
            f"{module!r} names no module: give a dotted module name (game.states), "
            "a .py file or a chart file"
        )
    if str(Path.cwd()) not in sys.path and "" not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        if _is_path(module):
            return _import_file(Path(module))
        return importlib.import_module(module)
    except (LoadError, KeyboardInterrupt):
        raise
    except ModuleNotFoundError as error:
        if format_of(module) is not None:
            raise _chart_named(module) from None
        if error.name == module.partition(".")[0] and Path(module).suffix in _PLOTS:
            raise LoadError(
                f"{module!r} names a drawing, not a machine: a plot's output goes after -o "
                f"(statetree plot TARGET -o {module})"
            ) from None
        if error.name == module.partition(".")[0] and Path(module).is_file():
            raise _not_a_target(module) from None  # a file of another kind: door.events
        raise LoadError(f"{raised_at(error)}cannot import {module!r}: {error}") from error
    except BaseException as error:  # the module's top level raised, exited or skipped
        raise _import_failed(module, error) from None


def _import_failed(module: str, error: BaseException) -> LoadError:
    where = raised_at(error)
    if isinstance(error, SystemExit):  # a script without an ``if __name__ == "__main__"``
        return LoadError(
            f"{where}importing {module!r} exited (SystemExit({error.code!r})): put the "
            "script's own run under if __name__ == '__main__': so that it can be imported"
        )
    return LoadError(f"{where}importing {module!r} raised {type(error).__name__}: {error}")


def raised_at(error: BaseException) -> str:
    """``file:line: `` of the user's code that raised ``error``, or ``""`` when unknown.

    That is the innermost frame outside statetree, the standard library and installed
    packages (else the innermost one outside statetree), or where a syntax error is.
    """
    if isinstance(error, SyntaxError) and error.filename and error.lineno:
        return f"{shown_path(error.filename)}:{error.lineno}: "
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.lineno is not None and not frame.filename.startswith(_MACHINERY)
    ]
    own = [f for f in frames if not f.filename.startswith(_LIBRARY_DIRECTORIES)]
    chosen = (own or frames)[-1:]
    return "".join(f"{shown_path(frame.filename)}:{frame.lineno}: " for frame in chosen)


_MACHINERY = (
    "<",
    str(Path(importlib.__file__ or "").resolve().parent),
    str(Path(__file__).resolve().parent),
)
"""Frames never named: the import machinery's and statetree's own."""
_LIBRARY_DIRECTORIES = tuple(
    str(Path(sysconfig.get_paths()[key]).resolve()) for key in ("stdlib", "purelib", "platlib")
)


def shown_path(filename: str) -> str:
    """``filename`` relative to the current directory when it is inside it, for messages."""
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return filename


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


Machine: TypeAlias = "type[State[Any]] | BitmaskDefinition"
"""What a target names: the initial state class of a machine, or a bitmask definition."""


def _definitions(module: ModuleType) -> tuple[BitmaskDefinition, ...]:
    """The bitmask definitions among the module's globals, in order."""
    found = {id(v): v for v in vars(module).values() if isinstance(v, BitmaskDefinition)}
    return tuple(found.values())


def _not_a_machine(target: str, value: object, module: ModuleType) -> LoadError:
    if isinstance(value, type) and issubclass(value, BitState):
        holders = [
            f"{target.rpartition(':')[0]}:{name}"
            for name, v in vars(module).items()
            if isinstance(v, BitmaskDefinition) and value in v.lookup
        ]
        hint = f", e.g. {holders[0]}" if holders else ""
        return LoadError(f"{target!r} is a bitmask state; name its BitmaskDefinition{hint}")
    if isinstance(value, type):
        module_name, _, inside = target.rpartition(":")
        return LoadError(
            f"{target!r} is a class that does not derive from statetree.State"
            f"{_machines_hint(module_name, module, inside)}"
        )
    return LoadError(
        f"{target!r} is not a State subclass or a BitmaskDefinition (its type is "
        f"{type(value).__name__})"
    )


def _found_machines(module_name: str, module: ModuleType) -> tuple[type[State[Any]], ...]:
    try:
        return find_initial_states(module)
    except InitialStatesError as error:
        raised = error.__cause__ or error
        # Named as given: the module may have been imported under another name.
        raise LoadError(
            f"{raised_at(raised)}calling {CONVENTION}() of {module_name!r} raised "
            f"{type(raised).__name__}: {raised}"
        ) from raised


def load_machines(target: str) -> tuple[Machine, ...]:
    """The machines a command-line target names: initial state classes or bitmask rules.

    With a module alone, its machines are found (see
    :func:`~statetree.structure.find_initial_states`), else its bitmask definitions.

    Raises:
        LoadError: the module cannot be imported, its ``initial_states()`` raised (the
            message names the file and line that raised), the name is missing or names
            something else, or the module defines no machine.
        DefinitionError: the module's ``initial_states()`` returns something other than
            state classes.
    """
    module_name, attribute = split_target(target)
    module = import_target_module(module_name)
    if not attribute:
        found: tuple[Machine, ...] = _found_machines(module_name, module) or _definitions(module)
        if not found:
            raise LoadError(f"{module_name!r} defines no state classes and no bitmask definition")
        return found
    try:
        value = attribute_of(module, attribute)
    except LoadError as error:
        inside = attribute.rpartition(".")[0]
        raise LoadError(f"{error}{_machines_hint(module_name, module, inside)}") from None
    if isinstance(value, BitmaskDefinition) or (
        isinstance(value, type) and issubclass(value, State)
    ):
        return (value,)
    raise _not_a_machine(target, value, module)


def _machines_hint(module_name: str, module: ModuleType, inside: str) -> str:
    """``; its machines: ...``: the targets of the machines ``module`` defines (those in
    class ``inside`` when given), for a message about a name that is not one; or nothing."""
    try:
        found = find_initial_states(module)
    except DefinitionError:  # its initial_states() is broken: said when it is asked for
        return ""
    names = [f"{module_name}:{cls.__qualname__}" for cls in found]
    definitions = {id(definition) for definition in _definitions(module)}
    names += [f"{module_name}:{name}" for name, v in vars(module).items() if id(v) in definitions]
    if inside:
        names = [name for name in names if name.partition(":")[2].startswith(inside + ".")]
    return f"; its machines: {', '.join(names)}" if names else ""


def load_object(text: str, default_attribute: str) -> object:
    """The object ``module:attribute`` names (``default_attribute`` when none is given).

    Raises:
        LoadError: the module does not load or has no such attribute.
    """
    module_name, attribute = split_target(text)
    return attribute_of(import_target_module(module_name), attribute or default_attribute)
