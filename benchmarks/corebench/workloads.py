"""The four workloads: each checks that the contenders agree, then measures them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from corebench import verify
from corebench.api import Character, Contender
from corebench.contenders import baseline, events, statetree_impl
from corebench.memory import retained_bytes
from corebench.report import Row, Table
from corebench.script import SCRIPT, Counters
from corebench.timing import Timed, Timing, best_times

__all__ = [
    "DIRECT_CALLS",
    "MACHINE_ONLY",
    "building",
    "character",
    "idle_frame",
    "memory",
    "toggle",
]

DIRECT_CALLS = "3 direct transition() calls"
MACHINE_ONLY = "statetree machine alone"

# The peers take 0.2 to 1.5 ms and several kilobytes per machine: fewer of them give as
# stable an average and keep the whole run short.
OUR_INSTANCES = 10_000
PEER_INSTANCES = 1_000
_OURS = frozenset({events.CONTENDER.name, baseline.CONTENDER.name, statetree_impl.CONTENDER.name})
BASELINES = (events.CONTENDER.name, baseline.CONTENDER.name)
"""The reference rows: the event-driven and the polling hand-written baselines."""
_MICROSECONDS = 1e6


def toggle(contenders: Sequence[Contender]) -> Table:
    """Workload 1: a flat two-state machine toggled back and forth.

    Raises:
        verify.DisagreementError: a switch does not follow its toggles.
    """
    verify.check_switches(contenders)
    entries = [Timed(contender.name, contender.make_switch().play) for contender in contenders]
    return _speed_table(
        "Workload 1: flat two-state toggle",
        "one op = one toggle",
        BASELINES,
        best_times(entries),
    )


def character(contenders: Sequence[Contender]) -> Table:
    """Workload 2: the character controller running its script.

    Raises:
        verify.DisagreementError: a contender's counters or states differ from the
            baseline's, before timing or after it.
    """
    per_cycle = verify.check_script(contenders)
    built = [_Settled.build(contender) for contender in contenders]
    timings = best_times([Timed(one.name, one.character.play, len(SCRIPT)) for one in built])
    for one in built:
        expected = verify.scaled(per_cycle, timings[one.name].units_run)
        verify.check_counts(one.name, one.counters.totals(), expected)
    return _speed_table(
        "Workload 2: character controller, Alive{Locomotion{Stand, Move}, Jump}, Dead",
        "one op = one scripted step: set the inputs and process, or send the event",
        BASELINES,
        timings,
    )


def idle_frame(contenders: Sequence[Contender]) -> Table:
    """Workload 3: a frame in which nothing changes, on the settled Alive/Locomotion/Stand.

    The references are the two baselines and statetree's own three ``transition()`` calls
    made directly.

    Raises:
        verify.DisagreementError: a contender changed state or counted anything.
    """
    built = [_Settled.build(contender) for contender in contenders]
    ours = [one.character for one in built if isinstance(one.character, statetree_impl.Character)]
    entries = [Timed(DIRECT_CALLS, statetree_impl.direct_transition_calls(ours[0]))]
    entries += [Timed(one.name, one.character.idle) for one in built]
    timings = best_times(entries)
    untouched = Counters().totals()
    for one in built:
        verify.check_counts(one.name, one.counters.totals(), untouched)
        if one.character.active() != verify.SETTLED:
            raise verify.DisagreementError(f"{one.name} left {verify.SETTLED} when idle")
    return _speed_table(
        "Workload 3: settled frame, no transition (3-deep stack)",
        "one op = one frame: process_state_transitions(), or the peer's guarded no-op event",
        (*BASELINES, DIRECT_CALLS),
        timings,
    )


def building(contenders: Sequence[Contender]) -> Table:
    """Workload 4a: building one character machine and settling it in its initial states."""
    counters = Counters()
    entries = [
        Timed(contender.name, _builder(contender.make_character, counters))
        for contender in contenders
    ]
    return _speed_table(
        "Workload 4a: build one machine",
        "one op = construct the character's machine and settle it",
        BASELINES,
        best_times(entries, repeats=5),
    )


def memory(contenders: Sequence[Contender]) -> Table:
    """Workload 4b: bytes each live character keeps (owner, machine, stack, states)."""
    counters = Counters()
    rows = []
    for contender in contenders:
        count = OUR_INSTANCES if contender.name in _OURS else PEER_INSTANCES
        size = retained_bytes(contender.make_character, [counters] * count)
        rows.append(Row(contender.name, size, f"{count:,} live"))
        if contender is statetree_impl.CONTENDER:
            rows.append(Row(MACHINE_ONLY, _machine_bytes(counters), "machine + stack + states"))
    return Table(
        "Workload 4b: memory per live character",
        "owner + machine + stack + states, tracemalloc",
        "bytes",
        BASELINES,
        tuple(rows),
    )


def _machine_bytes(counters: Counters) -> float:
    """What statetree adds to an existing owner: the machine, its stack and its states."""
    owners = [statetree_impl.Character(counters, start=False) for _ in range(OUR_INSTANCES)]
    return retained_bytes(statetree_impl.Character.start, owners)


@dataclass(frozen=True)
class _Settled:
    """A contender's character settled in its initial states, its counters back at zero."""

    name: str
    counters: Counters
    character: Character

    @classmethod
    def build(cls, contender: Contender) -> _Settled:
        counters = Counters()
        character = contender.make_character(counters)
        counters.reset()
        return cls(contender.name, counters, character)


def _builder(make: Callable[[Counters], Character], counters: Counters) -> Callable[[int], None]:
    def run(count: int) -> None:
        for _ in range(count):
            make(counters)

    return run


def _speed_table(
    title: str, what: str, references: tuple[str, ...], timings: dict[str, Timing]
) -> Table:
    rows = tuple(
        Row(name, timing.seconds_per_op * _MICROSECONDS) for name, timing in timings.items()
    )
    return Table(title, what, "µs/op", references, rows)
