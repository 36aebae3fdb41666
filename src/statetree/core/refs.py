"""Classes and functions saved by name, and objects saved as their attributes.

A save (``pickle``) names the classes and functions it needs, as pickle does, through
:class:`Ref`: saving refuses, with a :class:`SaveError` naming it, one that cannot be found
again by its name (a class made inside a function, a lambda); loading, when the program no
longer defines one, raises a :class:`LoadError` naming it, before anything is built from
it. ``copy.deepcopy`` keeps classes and functions as they are, so copies work with any.

The loaders here (:func:`find`, :func:`new_instance`) are named in every save: renaming
one breaks the saves written before.
"""

from __future__ import annotations

import contextlib
import copy
import copyreg
import importlib
import pickle
from collections.abc import Iterator
from types import BuiltinMethodType, FunctionType, MethodType, ModuleType
from typing import Any, Final

from statetree.errors import DecodeError, LoadError, SaveError, UsageError

__all__ = [
    "PROTOCOL",
    "Ref",
    "attributes",
    "class_of",
    "find",
    "missing",
    "new_instance",
    "saved_data",
    "set_attributes",
    "shallow_copy_refused",
    "target_of",
]

_SKIPPED: Final = frozenset({"__dict__", "__weakref__"})
PROTOCOL: Final = 4
"""The pickle protocol of save files (read by every Python the package supports)."""


class Ref:
    """A class or function saved by its name (``module.qualified.name``).

    Any other object (a bound method, a ``functools.partial``, a callable instance, a
    built-in) is saved, and deep-copied, as any object is, once the object it is (or whose
    method it is) is found to save (or copy). Copies keep classes and functions themselves. ``role``
    says what the target is to the machine (``"the trace sink of machine 'Hero'"``), for the
    messages: it is not saved.
    """

    __slots__ = ("role", "target")

    def __init__(self, target: object, role: str = "") -> None:
        self.target = target
        self.role = role

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved by name (checked now), or as the object it is.

        Raises:
            SaveError: the class or function cannot be found again by its name, or the
                object (the one a method is bound to) cannot be saved.
        """
        target = self.target
        if isinstance(target, (type, FunctionType)):
            return (find, _name_of(target, self.role))
        _check_saves(target, self.role, named=True)
        return (Ref, (target,))

    def __copy__(self) -> Ref:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Ref:
        """A copy keeping classes and functions, and copying any other object.

        Raises:
            SaveError: the object (the one a method is bound to) cannot be copied.
        """
        target = self.target
        if isinstance(target, (type, FunctionType)):
            return self
        _check_saves(target, self.role, named=False)
        bound = getattr(target, "__self__", None)
        if isinstance(target, BuiltinMethodType) and not isinstance(bound, ModuleType):
            # copy.deepcopy keeps a built-in's method (``lines.append``) as it is: the copy
            # must call the method of its own copy of the object, as a loaded save does.
            return Ref(getattr(copy.deepcopy(bound, memo), target.__name__))
        return Ref(copy.deepcopy(target, memo))


def target_of(ref: object) -> Any:
    """The object a :class:`Ref` (loaded or copied) stands for."""
    return ref.target if isinstance(ref, Ref) else ref


def find(module: str, name: str) -> Ref:
    """The loader of a :class:`Ref` saved by name.

    Raises:
        LoadError: the program no longer defines ``module.name``.
    """
    return Ref(_lookup(module, name), f"{module}.{name}")


def new_instance(ref: object, base: type = object) -> Any:
    """The loader of an object saved as its attributes: an instance of the class ``ref``
    stands for (a subclass of ``base``), made without calling its ``__init__``
    (``__setstate__`` fills it).

    Raises:
        LoadError: the program now defines that name as something else than such a class.
    """
    cls: Any = class_of(ref, base)
    return cls.__new__(cls)


def class_of(ref: object, base: type = object) -> type:
    """The class (a subclass of ``base``) a loaded :class:`Ref` stands for.

    Raises:
        LoadError: the program now defines that name as something else.
    """
    found = target_of(ref)
    if not isinstance(found, type) or not issubclass(found, base):
        name = ref.role if isinstance(ref, Ref) and ref.role else "a class"
        kind = "class" if base is object else f"{base.__name__} subclass"
        raise LoadError(
            f"the save needs the {kind} {name}, which the program now defines as {found!r}: "
            "was it replaced? Keep it under its old name to load the saves written before"
        )
    return found


def attributes(instance: object, fields: tuple[str, ...] = ()) -> dict[str, Any]:
    """The attributes of ``instance``: ``fields`` (those of a compiled base class, which
    declares no ``__slots__`` Python can read), its slots, then its ``__dict__``; only those
    that are set, and the same whether the core is compiled or not."""
    found = {name: getattr(instance, name) for name in fields if hasattr(instance, name)}
    for cls in type(instance).__mro__:
        slots = vars(cls).get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in _SKIPPED and slot not in found and hasattr(instance, slot):
                found[slot] = getattr(instance, slot)
    found.update(getattr(instance, "__dict__", {}))
    return found


def saved_data(saved: object, what: str, version: int) -> dict[str, Any]:
    """``saved``, the data a save holds for a ``what``, once checked to be in the format
    ``version`` this library reads.

    Raises:
        LoadError: it is not, or is written in another format.
    """
    if not isinstance(saved, dict) or saved.get("format") != version:
        found = saved.get("format") if isinstance(saved, dict) else None
        raise LoadError(
            f"the save holds a {what} in format {found!r}; this version of statetree reads "
            f"format {version}"
        )
    return saved


@contextlib.contextmanager
def reading(what: str) -> Iterator[None]:
    """Read the saved data of a ``what`` within: what damaged data makes fail there is a
    ``LoadError`` naming it (a ``DecodeError`` says what it found wrong itself).

    Raises:
        LoadError: the data was not what a ``what`` saves.
    """
    try:
        yield
    except DecodeError:
        raise
    except KeyError as error:
        raise LoadError(f"the save holds a damaged {what}: it lacks {error.args[0]!r}") from None
    except (UsageError, LookupError, TypeError, ValueError, AttributeError, OverflowError) as error:
        raise LoadError(f"the save holds a damaged {what}: {error}") from None


def set_attributes(instance: object, values: dict[str, Any]) -> None:
    """Give ``instance`` the attributes ``values``, bypassing any ``__setattr__``."""
    for name, value in values.items():
        object.__setattr__(instance, name, value)


def shallow_copy_refused(machine: str) -> UsageError:
    """The error of ``copy.copy`` on a machine whose state instances belong to it alone
    (``machine`` names it)."""
    return UsageError(
        f"copy.copy({machine}): a shallow copy would share its states, which belong to one "
        "machine; use copy.deepcopy (of the machine or of its owner)"
    )


def _name_of(target: type | FunctionType, role: str) -> tuple[str, str]:
    """The module and qualified name ``target`` (``role`` to its machine) is found again by.

    Raises:
        SaveError: it is not found by that name (made inside a function, or replaced).
    """
    kind = "class" if isinstance(target, type) else "function"
    module, name = target.__module__, target.__qualname__
    what = f" ({role})" if role else ""
    if "<locals>" in name or "<lambda>" in name:
        raise SaveError(
            f"cannot save the {kind} {name} of module {module}{what}: it was made inside a "
            "function (or is a lambda), so a load could not find it by its name; define it at "
            "the top level of a module"
        )
    try:
        found = _lookup(module, name)
    except LoadError:
        found = None
    if found is not target and module.startswith("statetree.chart."):
        # A chart's state classes are made when the chart compiles: no name finds them.
        raise SaveError(
            f"cannot save the class {name}{what}, which a chart compiled at run time: save "
            "the chart machine or batch itself, and build what refers to its classes (a codec "
            "of its structure, a Rollback of it) again from it after loading"
        )
    if found is not target:
        raise SaveError(
            f"cannot save the {kind} {module}.{name}{what}: that name does not lead back to it "
            "(it was made at run time, or the name now holds another object); define it at "
            "the top level of a module under its own name"
        )
    return module, name


def _check_saves(target: object, role: str, *, named: bool) -> None:
    """Refuse, naming it, a callable ``target`` that pickle could not save itself: the
    object it is, or whose method it is, does not save (``sys.stdout.write``, a method of
    a lock or an open file), or, when it is saved ``named`` (not copied), its class cannot
    be found by its name. What that object holds is checked as pickle writes it.

    Raises:
        SaveError: it does not save.
    """
    holder = getattr(target, "__self__", target) if _is_method(target) else target
    if isinstance(holder, (type, ModuleType)) or type(holder) in copyreg.dispatch_table:
        return  # saved by name, or by a reducer of its own
    try:
        holder.__reduce_ex__(PROTOCOL)
    except (TypeError, pickle.PicklingError) as error:
        name = getattr(target, "__name__", "")
        kind = type(holder).__qualname__
        what = f"the method {name} of a {kind}" if holder is not target else f"a {kind}"
        raise SaveError(
            f"cannot save {role or 'the callable'} ({what}): {error}; give the machine a "
            "function defined at the top level of a module, or a method of an object that "
            "can be saved"
        ) from None
    if named:  # pickle saves its class by name
        _name_of(type(holder), f"the class of {role or 'the callable'}")


def _is_method(target: object) -> bool:
    return isinstance(target, (MethodType, BuiltinMethodType))


def _lookup(module: str, name: str) -> object:
    """The object called ``name`` (dotted) in ``module``.

    Raises:
        LoadError: the module or the name is not there.
    """
    try:
        found: object = importlib.import_module(module)
    except ImportError as error:
        raise unimportable(module, name, error) from None
    for part in name.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise missing(module, name) from None
    return found


def unimportable(module: str, name: str, error: ImportError) -> LoadError:
    """The error for a save that needs ``module.name`` when ``module`` cannot be imported."""
    return LoadError(
        f"the save needs {module}.{name}, but module {module} cannot be imported ({error}): "
        "load it from the program that wrote it, with that program's modules importable "
        "(on sys.path), or keep the module if it was renamed or removed"
    )


def missing(module: str, name: str) -> LoadError:
    """The error for a save that needs ``module.name``, which the program lacks."""
    return LoadError(
        f"the save needs {module}.{name}, which the program no longer defines: was it renamed "
        "or removed? Keep the old name (an alias of the new one will do) to load the saves "
        "written before"
    )
