"""Saving at any frame changes nothing: random machines fed random frames, saved (pickled or
deep-copied) between two frames, go on, both the copy and the original, exactly as a run
that was never saved: the same hook calls, trace lines, stack, time in state and values."""

from __future__ import annotations

import copy
import pickle
from typing import Any

from hypothesis import given
from hypothesis import strategies as hs
from saved_machines import SpecWorld
from strategies import MachineSpec, machine_specs

Frame = tuple[list[bool], int | None, float]


@hs.composite
def runs(draw: hs.DrawFn) -> tuple[MachineSpec, list[Frame], int, str]:
    """A machine, its frames, the frame before which it is saved, and how it is saved."""
    spec = draw(machine_specs(regions=True))
    values = hs.lists(hs.booleans(), min_size=spec.variables, max_size=spec.variables)
    events = hs.one_of(hs.none(), hs.integers(0, 2))
    frames = draw(hs.lists(hs.tuples(values, events, hs.sampled_from((0.0, 0.25, 0.5)))))
    return spec, frames, draw(hs.integers(0, len(frames))), draw(hs.sampled_from(COPIES))


COPIES = ("pickle", "deepcopy")


def saved(world: SpecWorld, how: str) -> SpecWorld:
    if how == "pickle":
        loaded: SpecWorld = pickle.loads(pickle.dumps(world))
        return loaded
    return copy.deepcopy(world)


def outcome(world: SpecWorld) -> tuple[Any, ...]:
    machine = world.machine
    stack = [(type(s).__name__, s.depth, s.time_in_state, s.updates) for s in machine.stack]
    return world.journal, world.lines, stack, world.value.value, machine.events


@given(runs())
def test_saving_at_any_frame_changes_nothing(
    run: tuple[MachineSpec, list[Frame], int, str],
) -> None:
    spec, frames, cut, how = run
    never = SpecWorld(spec)
    for frame in frames:
        never.frame(*frame)

    original = SpecWorld(spec)
    for frame in frames[:cut]:
        original.frame(*frame)
    before = outcome(original)
    twin = saved(original, how)
    assert outcome(twin) == before == outcome(original)  # nothing ran while saving
    for world in (twin, original):
        for frame in frames[cut:]:
            world.frame(*frame)
        assert outcome(world) == outcome(never)


@given(runs())
def test_events_posted_before_a_save_reach_the_copy(
    run: tuple[MachineSpec, list[Frame], int, str],
) -> None:
    spec, frames, cut, how = run
    never = SpecWorld(spec)
    original = SpecWorld(spec)
    for world in (never, original):
        for frame in frames[:cut]:
            world.frame(*frame)
        world.machine.post(cut % 3)
    twin = saved(original, how)
    assert twin.machine.events == original.machine.events == (cut % 3,)
    for world in (never, twin):
        for frame in frames[cut:]:
            world.frame(*frame)
    assert outcome(twin) == outcome(never)
