"""Saving at any frame changes nothing: random machines fed random frames, saved (pickled or
deep-copied) between two frames, go on, both the copy and the original, exactly as a run
that was never saved: the same hook calls, trace lines, stack, time in state and values.
Saved by one core, they go on alike in the other."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from other_core import OtherCore, go_on, other_core, played
from saved_machines import Frame, SpecWorld
from strategies import MachineSpec, machine_specs


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


def never_saved(spec: MachineSpec, frames: list[Frame]) -> SpecWorld:
    world = SpecWorld(spec)
    for frame in frames:
        world.play(frame)
    return world


@given(runs())
def test_saving_at_any_frame_changes_nothing(
    run: tuple[MachineSpec, list[Frame], int, str],
) -> None:
    spec, frames, cut, how = run
    never = never_saved(spec, frames)
    original = never_saved(spec, frames[:cut])
    before = original.outcome()
    twin = saved(original, how)
    assert twin.outcome() == before == original.outcome()  # nothing ran while saving
    for world in (twin, original):
        for frame in frames[cut:]:
            world.play(frame)
        assert world.outcome() == never.outcome()


@given(runs())
def test_events_posted_before_a_save_reach_the_copy(
    run: tuple[MachineSpec, list[Frame], int, str],
) -> None:
    spec, frames, cut, how = run
    never = SpecWorld(spec)
    original = SpecWorld(spec)
    for world in (never, original):
        for frame in frames[:cut]:
            world.play(frame)
        world.machine.post(cut % 3)
    twin = saved(original, how)
    assert twin.machine.events == original.machine.events == (cut % 3,)
    for world in (never, twin):
        for frame in frames[cut:]:
            world.play(frame)
    assert twin.outcome() == never.outcome()


@pytest.fixture(scope="module")
def other() -> Iterator[OtherCore]:
    with other_core() as worker:
        yield worker


@settings(max_examples=50)
@given(run=runs())
def test_a_save_goes_on_in_the_other_core_as_never_saved(
    other: OtherCore, run: tuple[MachineSpec, list[Frame], int, str]
) -> None:
    spec, frames, cut, _ = run
    expected = never_saved(spec, frames).outcome()
    saved_here = pickle.dumps(never_saved(spec, frames[:cut]))
    assert other.call(go_on, saved_here, frames[cut:]) == expected
    saved_there: SpecWorld = pickle.loads(other.call(played, SpecWorld(spec), frames[:cut]))
    for frame in frames[cut:]:
        saved_there.play(frame)
    assert saved_there.outcome() == expected
