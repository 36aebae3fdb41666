"""The immutable, validated rule set of a bitmask machine, compiled to per-state masks."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral
from types import MappingProxyType
from typing import Any

from statetree.bitmask.bits import iter_bits, mask_from, names_in
from statetree.bitmask.change_order import dependents_first
from statetree.bitmask.errors import NoSuchStateError
from statetree.bitmask.spec import (
    DefinitionData,
    StateRule,
    checked_rules,
    rules_from_classes,
    rules_from_data,
)
from statetree.bitmask.state import BitState, StateRef, has_custom_check
from statetree.bitmask.validate import check_acyclic, check_conflicts, index_names
from statetree.core.refs import Ref, reading, target_of
from statetree.errors import UsageError


@dataclass(frozen=True, eq=False, repr=False)
class BitmaskDefinition:
    """A validated set of states and their rules; shared by every machine that uses it.

    Build one with :meth:`from_classes`, :meth:`from_data` or :meth:`from_rules`. State ``i``
    owns bit ``i`` (declaration order). The per-state tuples are masks precomputed so that an
    activation is a handful of integer operations.

    Attributes:
        name: a label used in messages.
        rules: the rules as declared.
        names: state names by index.
        bits: ``1 << i`` per state.
        requires: direct requirements (mask) per state.
        requires_all: transitive requirements per state.
        terminates: directly terminated states per state.
        blocked_by: blocking states per state.
        dependents_all: states that transitively require each state.
        terminates_all: what activating each state removes: its terminated states and every
            state that requires one of them.
        exclusive: states that can never be active together with each state.
        retriggerable: flag per state.
        predictable: flag per state.
        checked: whether each state has a custom ``can_activate``.
        teardown_order: every state in the order they would all leave together: dependents
            before the states they require, otherwise later-declared first (the states one
            request deactivates leave by the same rule among themselves).
        lookup: index by state name and, for class-declared states, by class.
    """

    name: str
    rules: tuple[StateRule, ...]
    names: tuple[str, ...]
    bits: tuple[int, ...]
    requires: tuple[int, ...]
    requires_all: tuple[int, ...]
    terminates: tuple[int, ...]
    blocked_by: tuple[int, ...]
    dependents_all: tuple[int, ...]
    terminates_all: tuple[int, ...]
    exclusive: tuple[int, ...]
    retriggerable: tuple[bool, ...]
    predictable: tuple[bool, ...]
    checked: tuple[bool, ...]
    teardown_order: tuple[int, ...]
    lookup: Mapping[object, int]

    @classmethod
    def from_classes(
        cls, states: Iterable[type[BitState[Any]]], *, name: str = ""
    ) -> BitmaskDefinition:
        """Define a machine from ``BitState`` subclasses; the order gives the bit indices.

        ``states`` may be any iterable (a generator too); it is read once.

        Raises:
            DefinitionError: a subclass naming the problem and the states involved.
        """
        return cls.from_rules(rules_from_classes(states), name=name)

    @classmethod
    def from_data(
        cls,
        data: DefinitionData,
        *,
        behaviours: Mapping[str, type[BitState[Any]]] | None = None,
        name: str = "",
    ) -> BitmaskDefinition:
        """Define a machine from dicts, e.g. loaded from JSON.

        Args:
            data: ``[{"name": "Moving", "requires": ["Alive"], ...}, ...]`` or
                ``{"Moving": {"requires": ["Alive"]}, ...}``. Keys: ``requires``,
                ``terminates``, ``blocked_by`` (lists of names), ``retriggerable``,
                ``predictable`` (booleans).
            behaviours: ``BitState`` subclasses giving hooks and checks to named states; they
                must not declare rules themselves.
            name: a label used in messages.

        Raises:
            DefinitionError: a subclass naming the problem and the states involved.
        """
        return cls.from_rules(rules_from_data(data, behaviours or {}), name=name)

    @classmethod
    def from_rules(cls, rules: Iterable[StateRule], *, name: str = "") -> BitmaskDefinition:
        """Validate and compile rules: the model both readers produce. Their fields are
        checked as the readers check them; lists of names may be any iterable of strings.

        Raises:
            StateDataError: an entry is not a :class:`StateRule`, or a field has the wrong
                type (a name that is not a non-empty string, a string where a list of names
                is expected, a flag that is not a bool, a behaviour that is not a
                ``BitState`` subclass).
            DefinitionError: unknown or duplicate names, a requirement cycle, a state that
                requires a state it terminates or is blocked by.
        """
        return _compile(checked_rules(rules), name)

    @property
    def size(self) -> int:
        """The number of states."""
        return len(self.names)

    @property
    def byte_length(self) -> int:
        """The number of bytes of an encoded mask."""
        return (self.size + 7) // 8

    @property
    def word_count(self) -> int:
        """The number of 64-bit words needed per mask."""
        return (self.size + 63) // 64

    def index_of(self, state: StateRef) -> int:
        """Return the bit index of a state given by name or class.

        Raises:
            NoSuchStateError: the state is not part of this definition.
        """
        try:
            return self.lookup[state]
        except (KeyError, TypeError):
            raise NoSuchStateError(state, self.name, self.names) from None

    # Immutable: copies of the machines using it share it; a save holds its rules (each
    # behaviour class by name), which a load validates and compiles again.

    def __reduce__(self) -> tuple[Any, ...]:
        rules = tuple(_saved_rule(rule) for rule in self.rules)
        return (load_definition, (self.name, rules))

    def __copy__(self) -> BitmaskDefinition:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> BitmaskDefinition:
        return self

    def mask_of(self, states: Iterable[StateRef]) -> int:
        """Return the mask with the given states set.

        Raises:
            UsageError: ``states`` is one name or class rather than a list of them.
            NoSuchStateError: a state is not in the definition.
        """
        if isinstance(states, (str, type)):  # not read letter by letter
            name = getattr(states, "__name__", states)
            raise UsageError(
                f"mask_of() takes a list of states, got the one state {name!r}: write "
                f"mask_of([{name!r}])"
            )
        return mask_from(self.index_of(state) for state in states)

    def names_in(self, mask: int) -> tuple[str, ...]:
        """Return the names of the states set in ``mask``, in declaration order.

        Raises:
            UsageError: ``mask`` is no integer of this definition's bits.
        """
        if (
            isinstance(mask, bool)
            or not isinstance(mask, Integral)  # NumPy's integers too
            or not 0 <= mask < 1 << self.size
        ):
            label = f"bitmask {self.name!r}" if self.name else "the bitmask"
            raise UsageError(
                f"names_in() of {label} takes a mask of its {self.size} state bits "
                f"(0 to {(1 << self.size) - 1}), got {mask!r}"
            )
        return names_in(int(mask), self.names)

    def activation_result(self, mask: int, index: int) -> int | None:
        """Apply the rules (not custom checks) of activating state ``index`` to ``mask``.

        Returns:
            The resulting mask, or None if the rules refuse the activation.
        """
        bit = self.bits[index]
        active = mask & bit
        if active and not self.retriggerable[index]:
            return None
        if mask & self.blocked_by[index] or self.requires_all[index] & ~mask:
            return None
        removed = self.terminates_all[index] | (self.dependents_all[index] if active else 0)
        return (mask & ~removed) | bit

    def deactivation_result(self, mask: int, index: int) -> int | None:
        """Return ``mask`` after deactivating state ``index``, or None if it is not active."""
        if not mask & self.bits[index]:
            return None
        return mask & ~(self.bits[index] | self.dependents_all[index])

    def __repr__(self) -> str:
        return f"BitmaskDefinition({self.name!r}, {self.size} states)"


def _saved_rule(rule: StateRule) -> dict[str, Any]:
    """``rule`` as a save holds it: its fields, the behaviour class by name."""
    behaviour = Ref(rule.behaviour, f"the behaviour of state {rule.name!r}")
    return {**dataclasses.asdict(rule), "behaviour": behaviour}


def load_definition(name: str, rules: tuple[dict[str, Any], ...]) -> BitmaskDefinition:
    """The loader of a saved definition (named in saves).

    Raises:
        LoadError: the saved rules are damaged, or break the rules of a definition.
    """
    with reading("bitmask definition"):
        loaded = [
            StateRule(**{**rule, "behaviour": target_of(rule["behaviour"])}) for rule in rules
        ]
        return BitmaskDefinition.from_rules(loaded, name=name)


def _compile(rules: tuple[StateRule, ...], name: str) -> BitmaskDefinition:
    index = index_names(rules)
    names = tuple(rule.name for rule in rules)
    requires = [[index[ref] for ref in rule.requires] for rule in rules]
    check_acyclic(requires, names)
    order = _teardown_order(requires)
    requires_all = _requires_all(requires, order)
    terminates = _masks(rules, index, "terminates")
    blocked = _masks(rules, index, "blocked_by")
    check_conflicts(
        requires, requires_all, {"terminates": terminates, "blocked_by": blocked}, names
    )
    dependents = _dependents_all(requires_all)
    return BitmaskDefinition(
        name=name,
        rules=rules,
        names=names,
        bits=tuple(1 << i for i in range(len(rules))),
        requires=tuple(mask_from(refs) for refs in requires),
        requires_all=tuple(requires_all),
        terminates=tuple(terminates),
        blocked_by=tuple(blocked),
        dependents_all=tuple(dependents),
        terminates_all=tuple(_with_dependents(mask, dependents) for mask in terminates),
        exclusive=_exclusive(terminates, blocked, requires_all, dependents),
        retriggerable=tuple(rule.retriggerable for rule in rules),
        predictable=tuple(rule.predictable for rule in rules),
        checked=tuple(has_custom_check(rule.behaviour) for rule in rules),
        teardown_order=tuple(order),
        lookup=MappingProxyType(_lookup(rules, index)),
    )


def _masks(rules: Sequence[StateRule], index: Mapping[str, int], field: str) -> list[int]:
    return [mask_from(index[ref] for ref in getattr(rule, field)) for rule in rules]


def _teardown_order(requires: Sequence[Sequence[int]]) -> list[int]:
    masks = [mask_from(refs) for refs in requires]
    return dependents_first(range(len(requires)), masks.__getitem__)


def _requires_all(requires: Sequence[Sequence[int]], teardown: Sequence[int]) -> list[int]:
    closure = [0] * len(requires)
    for state in reversed(teardown):
        for ref in requires[state]:
            closure[state] |= (1 << ref) | closure[ref]
    return closure


def _dependents_all(requires_all: Sequence[int]) -> list[int]:
    dependents = [0] * len(requires_all)
    for state, required in enumerate(requires_all):
        for ref in iter_bits(required):
            dependents[ref] |= 1 << state
    return dependents


def _with_dependents(mask: int, dependents: Sequence[int]) -> int:
    result = mask
    for state in iter_bits(mask):
        result |= dependents[state]
    return result


def _exclusive(
    terminates: Sequence[int],
    blocked: Sequence[int],
    requires_all: Sequence[int],
    dependents: Sequence[int],
) -> tuple[int, ...]:
    # b cannot survive a's activation if a terminates b or one of b's requirements, and a
    # cannot activate while b is active if a is blocked by b or one of b's requirements.
    # A pair is exclusive when neither can be the later one: then no sequence of requests
    # leaves both active. Exclusion then spreads to every state that requires such a state.
    count = len(terminates)
    not_after = [_with_dependents(terminates[a] | blocked[a], dependents) for a in range(count)]
    direct = [0] * count
    for a, excluded in enumerate(not_after):
        for b in iter_bits(excluded):
            if not_after[b] >> a & 1:
                direct[a] |= 1 << b
    spread = [0] * count
    for a in range(count):
        for needed in iter_bits(requires_all[a] | 1 << a):
            spread[a] |= direct[needed]
    return tuple(_with_dependents(mask, dependents) for mask in spread)


def _lookup(rules: Sequence[StateRule], index: Mapping[str, int]) -> dict[object, int]:
    # A class names a state only if exactly one state uses it: data-defined states may share
    # one behaviour class, and then only their names identify them.
    uses = Counter(rule.behaviour for rule in rules)
    lookup: dict[object, int] = {name: i for name, i in index.items()}
    for rule in rules:
        if rule.behaviour is not BitState and uses[rule.behaviour] == 1:
            lookup[rule.behaviour] = index[rule.name]
    return lookup
