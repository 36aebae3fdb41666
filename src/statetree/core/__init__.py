"""The core runtime: states, transitions, the machine, state values and tracing.

Its modules, and the chart runtime's (``statetree.chart``: machine, runtime, states,
conditions, actions), are compiled with mypyc when the package is installed on a machine
with a C compiler, and run as plain Python otherwise: the same source, the same behaviour
and the same messages. Setting the environment variable ``STATETREE_PURE=1`` before the first
``import statetree`` runs the Python source even where compiled modules are installed
(to step through the core in a debugger, or to compare the two). ``statetree.__compiled__``
says which one runs.

This module itself is never compiled: it chooses, before any compiled module loads, where
they load from.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable
from contextlib import suppress
from importlib import import_module
from importlib.machinery import (
    BYTECODE_SUFFIXES,
    SOURCE_SUFFIXES,
    ExtensionFileLoader,
    FileFinder,
    SourceFileLoader,
    SourcelessFileLoader,
)
from importlib.util import find_spec
from types import FunctionType, ModuleType
from typing import TYPE_CHECKING, TypeVar

__all__ = [
    "COMPILED",
    "PURE_VARIABLE",
    "build_name",
    "document_compiled",
    "fast_helpers",
    "mypyc_attr",
    "repair_native",
]

T = TypeVar("T")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(**_options: object) -> Callable[[T], T]:
        """mypyc's class options, read when compiling; at run time they change nothing."""
        return lambda cls: cls


PURE_VARIABLE = "STATETREE_PURE"
"""The environment variable that asks for the pure Python core (any value but ``0``)."""


def _pure_requested() -> bool:
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def _compiled_folders() -> list[str]:
    """The folders of the packages with compiled modules: this one and the chart's."""
    return [*__path__, *(os.path.join(os.path.dirname(folder), "chart") for folder in __path__)]


def _load_from_sources() -> None:
    """Make the compiled packages' modules load from their ``.py`` files instead."""
    for folder in _compiled_folders():
        sys.path_importer_cache[folder] = FileFinder(
            folder, (SourceFileLoader, SOURCE_SUFFIXES), (SourcelessFileLoader, BYTECODE_SUFFIXES)
        )


def _compiled_loads() -> bool:
    """Whether the compiled core is installed and loads (else fall back to the source)."""
    spec = find_spec(f"{__name__}.machine")
    if spec is None or not isinstance(spec.loader, ExtensionFileLoader):
        return False
    try:
        __import__(spec.name)
        __import__("statetree._native_repair")
        __import__("statetree._native_transitions")
    except ImportError as error:
        # A half-built install (say, a compiler that failed on one module) must still run.
        for name in [name for name in sys.modules if name.startswith(f"{__name__}.")]:
            del sys.modules[name]
        warnings.warn(
            f"statetree: the compiled core does not load ({error}); running the Python source",
            RuntimeWarning,
            stacklevel=2,
        )
        return False
    return True


def repair_native(cls: type) -> None:
    """Make the compiled class ``cls`` free its instances as CPython frees a class's
    (clearing their weak references, releasing their class); nothing when pure.

    mypyc's deallocator for a compiled class that Python classes subclass does neither
    (see ``statetree/_native_repair.c``): every such class is repaired once, as it is defined.
    """
    if COMPILED:
        import_module("statetree._native_repair").repair(cls)


def document_compiled(package: str) -> None:
    """Give the compiled modules of ``package`` (``statetree.core``, ``statetree.chart``)
    the docstrings of their source, which mypyc leaves out; nothing when pure.

    The compiled build writes them to ``statetree/_compiled_docs.py`` (a build without it
    keeps the compiled objects as they are). Classes, modules and Python functions take
    theirs as ``__doc__``; compiled methods, functions and properties, whose docs Python
    cannot set, take theirs after their text signature (see ``statetree/_native_docs.c``).
    """
    if not COMPILED:
        return
    try:
        table = import_module("statetree._compiled_docs").DOCSTRINGS
        document = import_module("statetree._native_docs").document
    except (ImportError, AttributeError):
        return
    for name, docstrings in table.items():
        if name.rpartition(".")[0] == package:
            _document_module(import_module(name), docstrings, document)


# The docstring mypyc gives the classes it leaves to Python (enums).
_MYPYC_FILLER = "mypyc filler docstring"


def _document_module(
    module: ModuleType, docstrings: dict[str, str], document: Callable[[object, str], bool]
) -> None:
    for qualified, docstring in docstrings.items():
        owner: object = module
        *outer, name = qualified.split(".")
        for part in outer:
            owner = vars(owner).get(part)
            if not isinstance(owner, type):
                break
        else:
            target = vars(owner).get(name) if name else module
            if isinstance(target, (staticmethod, classmethod)):
                target = target.__func__
            if isinstance(target, (type, FunctionType, property, ModuleType)):
                if target.__doc__ in (None, "", _MYPYC_FILLER):
                    with suppress(AttributeError, TypeError):  # a class that forbids it
                        target.__doc__ = docstring
            elif getattr(target, "__objclass__", None) is owner or (
                getattr(target, "__module__", None) == module.__name__
            ):
                # Only a compiled object of this module: another module's C function could
                # keep its doc in read-only memory.
                document(target, docstring)


# The compiled core's classes that Python classes subclass (loaded with the compiled core).
_SUBCLASSED = (("state", "State"), ("machine", "StateMachine"), ("state_value", "StateValue"))


if _pure_requested():
    _load_from_sources()
    COMPILED = False
else:
    COMPILED = _compiled_loads()
    if not COMPILED:
        _load_from_sources()
"""Whether the core runs compiled (mypyc) rather than as Python source."""
if COMPILED:
    for _module, _name in _SUBCLASSED:
        repair_native(getattr(import_module(f"{__name__}.{_module}"), _name))
    # Before fast_helpers(), whose C helpers take the Python functions' docstrings.
    document_compiled(__name__)


def fast_helpers() -> dict[str, Callable[..., object]]:
    """The C versions of ``sibling``, ``inner`` and ``inner_entry`` by name, for the
    ``statetree`` namespace (none when pure).

    They return the same shared transitions and hand any other call to the Python
    functions, without the cost of a compiled function's call, which builds a tuple and a
    dict for ``*args, **kwargs`` (see ``statetree/_native_transitions.c``).
    """
    if not COMPILED:
        return {}
    transition = import_module(f"{__name__}.transition")
    names = ("sibling", "inner", "inner_entry")
    made = import_module("statetree._native_transitions").install(
        *(getattr(transition, name) for name in names), "statetree"
    )
    return dict(zip(names, made, strict=True))


def build_name() -> str:
    """``"compiled with mypyc"`` or ``"pure Python"``: what ``statetree --version`` shows."""
    return "compiled with mypyc" if COMPILED else "pure Python"
