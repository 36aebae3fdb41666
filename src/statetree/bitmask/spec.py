"""Format-independent state rules, read from ``BitState`` classes or from plain data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from statetree.bitmask.errors import StateDataError, UnknownStateError
from statetree.bitmask.state import BitState

RULE_FIELDS = ("requires", "terminates", "blocked_by")
FLAG_FIELDS = ("retriggerable", "predictable")
DATA_KEYS = frozenset(("name", *RULE_FIELDS, *FLAG_FIELDS))

StateData = Mapping[str, Any]
DefinitionData = Sequence[StateData] | Mapping[str, StateData]


@dataclass(frozen=True)
class StateRule:
    """The rules of one state, however it was declared.

    Attributes:
        name: the state's unique name.
        requires: states needed to activate and to stay active.
        terminates: states deactivated when this one activates.
        blocked_by: states whose activity prevents this one from activating.
        retriggerable: activating it while active exits and re-enters it.
        predictable: a client may activate it before the server confirms.
        behaviour: the class whose instance carries hooks and the custom check.
    """

    name: str
    requires: tuple[str, ...] = ()
    terminates: tuple[str, ...] = ()
    blocked_by: tuple[str, ...] = ()
    retriggerable: bool = False
    predictable: bool = False
    behaviour: type[BitState[Any]] = BitState

    def refs(self) -> Iterable[tuple[str, str]]:
        """Yield ``(rule, name)`` for every state this rule mentions."""
        for rule in RULE_FIELDS:
            for name in getattr(self, rule):
                yield rule, name


def checked_rules(rules: Iterable[StateRule]) -> tuple[StateRule, ...]:
    """Check the fields of every rule (what both readers produce, or a caller's own) and
    return the rules with their lists of names as tuples.

    Raises:
        StateDataError: ``rules`` is not a list, an entry is not a :class:`StateRule`, or a
            field has the wrong type (naming the rule and the field).
    """
    listed = _listed(rules, "BitmaskDefinition.from_rules: rules", "StateRule")
    return tuple(_checked_rule(position, rule) for position, rule in enumerate(listed))


def _checked_rule(position: int, rule: object) -> StateRule:
    if not isinstance(rule, StateRule):
        raise StateDataError(f"rule #{position}: expected a StateRule, not {rule!r}")
    name: object = rule.name
    if not isinstance(name, str) or not name:
        raise StateDataError(f"rule #{position}: name must be a non-empty string, not {name!r}")
    return StateRule(
        name,
        requires=_names(name, "requires", rule.requires),
        terminates=_names(name, "terminates", rule.terminates),
        blocked_by=_names(name, "blocked_by", rule.blocked_by),
        retriggerable=_flag(name, "retriggerable", rule.retriggerable),
        predictable=_flag(name, "predictable", rule.predictable),
        behaviour=_behaviour(name, rule.behaviour),
    )


def _names(state: str, rule: str, value: object) -> tuple[str, ...]:
    names: list[str] = []
    for ref in _listed(value, f"{state}.{rule}", "states"):
        if not isinstance(ref, str):
            raise StateDataError(f"{state}.{rule} contains {ref!r}; expected a state name")
        names.append(ref)
    return tuple(names)


def _listed(value: object, what: str, items: str) -> tuple[object, ...]:
    """``value`` as a tuple (read once), refusing a string, a mapping or a non-iterable."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise StateDataError(
            f"{what} must be a list of {items}, not {type(value).__name__} {value!r}"
        )
    return tuple(value)


def _flag(state: str, flag: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise StateDataError(f"{state}.{flag} must be true or false, not {value!r}")
    return value


def _behaviour(state: str, cls: object) -> type[BitState[Any]]:
    if not (isinstance(cls, type) and issubclass(cls, BitState)):
        raise StateDataError(f"behaviour for {state} must be a BitState subclass, not {cls!r}")
    if cls.__init__ is not object.__init__ and not _makes_bare(cls):
        raise StateDataError(
            f"{cls.__qualname__}.__init__ (the behaviour of {state}) takes arguments, but a "
            "machine makes its states without any: set what a state needs in on_activated, "
            "or on the machine's owner"
        )
    return cls


def _makes_bare(cls: type[BitState[Any]]) -> bool:
    """Whether ``cls()`` binds (a class whose signature cannot be read is given the benefit
    of the doubt)."""
    import inspect  # noqa: PLC0415  (only for classes with an __init__ of their own)

    try:
        inspect.signature(cls).bind()
    except TypeError:
        return False
    except ValueError:
        return True
    return True


# The readers below take what is particular to their format (classes standing for names, the
# keys of a dict); the types of the fields are left to checked_rules.


def rules_from_classes(classes: Iterable[type[BitState[Any]]]) -> tuple[StateRule, ...]:
    """Read the rules declared as class attributes of ``BitState`` subclasses.

    Raises:
        StateDataError: ``classes`` is not a list, an entry is not a ``BitState`` subclass, or
            a rule holds something other than a state name or class.
        UnknownStateError: a rule names a class that is not in ``classes``.
    """
    listed = _listed(classes, "BitmaskDefinition.from_classes: states", "BitState subclasses")
    states = [_state_class(cls) for cls in listed]
    known = {cls: cls.__name__ for cls in states}
    return tuple(_rule_from_class(cls, known) for cls in states)


def _state_class(cls: object) -> type[BitState[Any]]:
    if not (isinstance(cls, type) and issubclass(cls, BitState)) or cls is BitState:
        raise StateDataError(f"{cls!r} is not a subclass of BitState")
    return cls


def _rule_from_class(
    cls: type[BitState[Any]], known: Mapping[type[BitState[Any]], str]
) -> StateRule:
    name = cls.__name__
    return StateRule(
        name,
        requires=_class_refs(name, "requires", cls.requires, known),
        terminates=_class_refs(name, "terminates", cls.terminates, known),
        blocked_by=_class_refs(name, "blocked_by", cls.blocked_by, known),
        retriggerable=cls.retriggerable,
        predictable=cls.predictable,
        behaviour=cls,
    )


def _class_refs(
    state: str, rule: str, value: object, known: Mapping[type[BitState[Any]], str]
) -> tuple[str, ...]:
    refs = _listed(value, f"{state}.{rule}", "states")
    return tuple(_class_ref(state, rule, ref, known) for ref in refs)


def _class_ref(state: str, rule: str, ref: object, known: Mapping[type[BitState[Any]], str]) -> str:
    if isinstance(ref, str):
        return ref
    if isinstance(ref, type) and ref in known:
        return known[ref]
    if isinstance(ref, type) and issubclass(ref, BitState):
        raise UnknownStateError(state, rule, ref.__qualname__, ())
    raise StateDataError(f"{state}.{rule} contains {ref!r}; expected a state name or class")


def rules_from_data(
    data: DefinitionData, behaviours: Mapping[str, type[BitState[Any]]]
) -> tuple[StateRule, ...]:
    """Read rules from dicts (as loaded from JSON, YAML or TOML).

    Args:
        data: a list of dicts each with a ``"name"``, or a dict from name to rule dict.
        behaviours: classes providing hooks and checks for some states, by state name.

    Raises:
        StateDataError: the data is malformed, or a behaviour class declares rules itself.
        UnknownStateError: ``behaviours`` names a state that the data does not define.
    """
    entries = _entries(data)
    rules = tuple(_rule_from_data(position, entry, behaviours) for position, entry in entries)
    names = {rule.name for rule in rules}
    for name in behaviours:
        if name not in names:
            close = get_close_matches(name, sorted(names), n=2) if isinstance(name, str) else []
            raise UnknownStateError("behaviours", "key", name, close)
    return rules


def _entries(data: DefinitionData) -> list[tuple[int, StateData]]:
    if isinstance(data, Mapping):
        return [(i, _named_entry(name, entry)) for i, (name, entry) in enumerate(data.items())]
    if isinstance(data, (str, bytes)) or not isinstance(data, Sequence):
        raise StateDataError(f"state data must be a list or a mapping, not {type(data).__name__}")
    return list(enumerate(data))


def _named_entry(name: object, entry: object) -> StateData:
    if not isinstance(entry, Mapping):
        raise StateDataError(f"state {name!r}: expected a mapping of rules, not {entry!r}")
    if "name" in entry and entry["name"] != name:
        raise StateDataError(f"state {name!r}: its 'name' field says {entry['name']!r}")
    return {**entry, "name": name}


def _rule_from_data(
    position: int, entry: object, behaviours: Mapping[str, type[BitState[Any]]]
) -> StateRule:
    name, fields = _checked_entry(position, entry)
    behaviour = behaviours.get(name, BitState)
    _check_behaviour(name, behaviour)
    return StateRule(
        name,
        requires=fields.get("requires", ()),
        terminates=fields.get("terminates", ()),
        blocked_by=fields.get("blocked_by", ()),
        retriggerable=fields.get("retriggerable", False),
        predictable=fields.get("predictable", False),
        behaviour=behaviour,
    )


def _checked_entry(position: int, entry: object) -> tuple[str, StateData]:
    if not isinstance(entry, Mapping):
        raise StateDataError(f"state #{position}: expected a mapping of rules, not {entry!r}")
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise StateDataError(f"state #{position}: 'name' must be a non-empty string")
    unknown = sorted(set(entry) - DATA_KEYS)
    if unknown:
        allowed = ", ".join(sorted(DATA_KEYS))
        raise StateDataError(f"state {name!r}: unknown key {unknown[0]!r} (allowed: {allowed})")
    return name, entry


def _check_behaviour(state: str, cls: object) -> None:
    # Whether it is a BitState subclass at all is checked_rules's to say.
    for attr in (*RULE_FIELDS, *FLAG_FIELDS):
        if isinstance(cls, type) and getattr(cls, attr, None):
            raise StateDataError(
                f"behaviour class {cls.__qualname__} for {state} declares {attr!r}; "
                "the rules of a data-defined state come from the data alone"
            )
