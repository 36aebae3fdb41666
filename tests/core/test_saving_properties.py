"""Saving at any frame changes nothing: random machines fed random frames, saved (pickled or
deep-copied) between two frames, go on, both the copy and the original, exactly as a run
that was never saved: the same hook calls, trace lines, stack, time in state and values.
Saved by one core, they go on alike in the other."""

from __future__ import annotations

from functools import partial

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as hs
from saved_machines import Frame, SpecWorld
from saving_support import (
    COPIES,
    OtherCore,
    goes_on_alike,
    goes_on_as_never_saved,
    playing,
    saved,
)
from strategies import MachineSpec, machine_specs


@hs.composite
def runs(draw: hs.DrawFn) -> tuple[MachineSpec, list[Frame], int, str]:
    """A machine, its frames, the frame before which it is saved, and how it is saved."""
    spec = draw(machine_specs(regions=True))
    values = hs.lists(hs.booleans(), min_size=spec.variables, max_size=spec.variables)
    events = hs.one_of(hs.none(), hs.integers(0, 2))
    frames = draw(hs.lists(hs.tuples(values, events, hs.sampled_from((0.0, 0.25, 0.5)))))
    return spec, frames, draw(hs.integers(0, len(frames))), draw(hs.sampled_from(COPIES))


@given(runs())
def test_saving_at_any_frame_changes_nothing(
    run: tuple[MachineSpec, list[Frame], int, str],
) -> None:
    spec, frames, cut, how = run
    goes_on_as_never_saved(SpecWorld, (spec,), frames, cut, partial(saved, how=how))


@given(runs())
def test_events_posted_before_a_save_reach_the_copy(
    run: tuple[MachineSpec, list[Frame], int, str],
) -> None:
    spec, frames, cut, how = run
    never = SpecWorld(spec)
    original = SpecWorld(spec)
    for world in (never, original):
        playing(world, frames[:cut]).machine.post(cut % 3)
    twin = saved(original, how)
    assert twin.machine.events == original.machine.events == (cut % 3,)
    assert playing(twin, frames[cut:]).outcome() == playing(never, frames[cut:]).outcome()


@settings(max_examples=examples(50))
@given(run=runs())
def test_a_save_goes_on_in_the_other_core_as_never_saved(
    other_core: OtherCore, run: tuple[MachineSpec, list[Frame], int, str]
) -> None:
    spec, frames, cut, _ = run
    goes_on_alike(other_core, SpecWorld, (spec,), frames, cut)
