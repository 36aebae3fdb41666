"""Debugging views: why a state does not activate, the state table and the change log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from statetree.bitmask.bits import join_names
from statetree.bitmask.state import StateRef

if TYPE_CHECKING:
    from statetree.bitmask.machine import BitmaskMachine


@dataclass(frozen=True, slots=True)
class Explanation:
    """Whether a state could activate now, and every reason it could not.

    Attributes:
        state: the state's name.
        can_activate: True if ``try_activate`` would succeed now.
        active: whether it is active now.
        retriggerable: whether activating it while active restarts it.
        missing: required states (direct or indirect) that are inactive.
        blockers: states in its ``blocked_by`` list that are active.
        check_failed: True if its custom ``can_activate`` returned False.
        would_deactivate: states an activation would deactivate now (terminated ones, those
            requiring them and, when retriggering, itself and its dependents).
    """

    state: str
    can_activate: bool
    active: bool
    retriggerable: bool
    missing: tuple[str, ...]
    blockers: tuple[str, ...]
    check_failed: bool
    would_deactivate: tuple[str, ...]

    @property
    def reasons(self) -> tuple[str, ...]:
        """Each reason the activation would fail, in words (empty if it would succeed)."""
        reasons = []
        if self.active and not self.retriggerable:
            reasons.append("it is already active and not retriggerable")
        if self.missing:
            reasons.append(f"it requires {join_names(self.missing)}, not active")
        if self.blockers:
            reasons.append(f"it is blocked by {join_names(self.blockers)}, active")
        if self.check_failed:
            reasons.append(f"its custom check {self.state}.can_activate() returned False")
        return tuple(reasons)

    def __str__(self) -> str:
        if not self.can_activate:
            return f"{self.state} cannot activate: {'; '.join(self.reasons)}."
        verb = "would restart" if self.active else "can activate"
        if not self.would_deactivate:
            return f"{self.state} {verb}."
        return f"{self.state} {verb}, deactivating {join_names(self.would_deactivate)}."


def explain(machine: BitmaskMachine[Any], state: StateRef) -> Explanation:
    """Explain whether ``state`` could activate in ``machine`` now.

    Every rule is evaluated (not only the first that fails) and the custom check is called
    even if a rule already fails, so all reasons are reported.

    Raises:
        NoSuchStateError: the state is not in the definition.
    """
    definition = machine.definition
    index = definition.index_of(state)
    mask = machine.mask
    active = bool(mask >> index & 1)
    retriggerable = definition.retriggerable[index]
    missing = definition.requires_all[index] & ~mask
    blockers = definition.blocked_by[index] & mask
    check_failed = definition.checked[index] and not machine._check(index)  # guarded
    can = not (missing or blockers or check_failed or (active and not retriggerable))
    removed = definition.terminates_all[index]
    if active:
        removed |= definition.bits[index] | definition.dependents_all[index]
    return Explanation(
        state=definition.names[index],
        can_activate=can,
        active=active,
        retriggerable=retriggerable,
        missing=definition.names_in(missing),
        blockers=definition.names_in(blockers),
        check_failed=check_failed,
        would_deactivate=definition.names_in(removed & mask) if can else (),
    )


def format_states(machine: BitmaskMachine[Any]) -> str:
    """Return every state with its active flag, one per line, in declaration order."""
    definition = machine.definition
    mask = machine.mask
    count = bin(mask).count("1")
    width = len(str(definition.size - 1))
    lines = [
        f"{machine.name or 'bitmask'}: {count} of {definition.size} active "
        f"(mask {mask:#0{definition.size + 2}b})"
    ]
    for index, name in enumerate(definition.names):
        flag = "x" if mask >> index & 1 else " "
        lines.append(f"  {index:>{width}} [{flag}] {name}{_tags(machine, index)}")
    return "\n".join(lines)


def _tags(machine: BitmaskMachine[Any], index: int) -> str:
    definition = machine.definition
    tags = [
        tag
        for tag, present in (
            ("retriggerable", definition.retriggerable[index]),
            ("predictable", definition.predictable[index]),
            ("custom check", definition.checked[index]),
        )
        if present
    ]
    return f"  ({', '.join(tags)})" if tags else ""


def format_history(machine: BitmaskMachine[Any]) -> str:
    """Return the machine's recorded changes, oldest first, one per line."""
    return "\n".join(str(change) for change in machine.history)
