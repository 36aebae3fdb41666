"""Every statetree exception, in every subpackage, pickles with its message and its fields.

The classes are found, not listed: every module of the package is imported and every
subclass of ``StateTreeError`` is built from sample values chosen by its constructor's
annotations, so an exception added later is covered without touching this file.
"""

from __future__ import annotations

import collections.abc
import copy
import dataclasses
import enum
import importlib
import inspect
import pickle
import pkgutil
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest

import statetree
from statetree.errors import StateTreeError


def _all_modules() -> list[str]:
    """Every module that imports here: those of an optional extra not installed (JAX on
    CPython 3.10, say) say so, and only they are left out."""
    names = []
    for module in pkgutil.walk_packages(statetree.__path__, "statetree."):
        if module.name.rpartition(".")[2] == "__main__":  # runs the command line
            continue
        try:
            importlib.import_module(module.name)
        except ImportError as error:
            if "pip install 'statetree[" not in str(error):
                raise
            continue
        names.append(module.name)
    return names


MODULES = _all_modules()


def _subclasses(cls: type[StateTreeError]) -> Iterator[type[StateTreeError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


EXCEPTIONS = sorted(
    {cls for cls in _subclasses(StateTreeError) if cls.__module__.startswith("statetree")}
    | {StateTreeError},
    key=lambda cls: f"{cls.__module__}.{cls.__qualname__}",
)


# Parameters whose strings must be one of a few words, by name.
WORDS = {"rule": "terminates"}


def sample(annotation: Any, name: str) -> Any:
    """A value of the type ``annotation`` for a parameter called ``name``."""
    if name in WORDS:
        return WORDS[name]
    origin = typing.get_origin(annotation)
    if origin is not None:
        return _generic(origin, typing.get_args(annotation), name)
    return _plain(annotation, name)


def _generic(origin: Any, args: tuple[Any, ...], name: str) -> Any:
    if origin is typing.Literal:
        return args[0]
    if origin in (typing.Union, types.UnionType):
        return sample(next(arg for arg in args if arg is not type(None)), name)
    if origin in (tuple, list, collections.abc.Sequence, collections.abc.Iterable):
        return (sample(args[0], name), sample(args[0], f"{name}2")) if args else ("a", "b")
    if origin in (dict, collections.abc.Mapping):
        return {sample(args[0], "key"): sample(args[1], name)}
    raise AssertionError(f"no sample value for a parameter {name}: {origin!r}; extend sample()")


def _plain(annotation: Any, name: str) -> Any:
    if dataclasses.is_dataclass(annotation):
        hints = typing.get_type_hints(annotation)
        fields = dataclasses.fields(annotation)
        return annotation(**{f.name: sample(hints[f.name], f.name) for f in fields})
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return next(iter(annotation))
    simple = {str: f"sample {name}", int: 7, float: 2.5, bool: True, object: f"an {name}"}
    if annotation in simple or annotation is Any:
        return simple.get(annotation, f"an {name}")
    raise AssertionError(f"no sample value for a parameter {name}: {annotation!r}; extend sample()")


def build(cls: type[StateTreeError]) -> StateTreeError:
    """An instance of ``cls`` from sample arguments (a message for plain exceptions)."""
    if not hasattr(cls.__init__, "__code__"):  # a built-in exception's: takes a message
        return cls("what went wrong")
    hints = typing.get_type_hints(cls.__init__)
    arguments: dict[str, Any] = {}
    for parameter in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if parameter.default is parameter.empty:
            arguments[parameter.name] = sample(hints[parameter.name], parameter.name)
    return cls(**arguments)


def test_every_subpackage_and_its_exceptions_are_found() -> None:
    packages = {name.split(".")[1] for name in MODULES}
    assert {"chart", "bitmask", "net", "inspect", "plot", "cli", "structure"} <= packages
    names = {cls.__name__ for cls in EXCEPTIONS}
    assert {"PacketError", "ChartError", "TransitionLoopError", "NoSuchStateError"} <= names


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=lambda cls: cls.__qualname__)
def test_each_exception_round_trips_through_pickle_with_its_fields(
    cls: type[StateTreeError],
) -> None:
    error = build(cls)
    error.__notes__ = ["a note added on the way"]  # as add_note() (CPython 3.11+) keeps it
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(error, protocol))
        assert type(back) is cls
        assert str(back) == str(error) and back.args == error.args
        assert vars(back) == vars(error)
    assert vars(copy.deepcopy(error)) == vars(error)
